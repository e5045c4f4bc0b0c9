export { buildFixtureWorkspace, readFixtureWorkspace, applyOverlay, NotAFixtureWorkspaceError, type FixtureWorkspaceInfo, type BuildOptions } from './build';
export { resetFixtureWorkspace, resetFixtureWorkspaceDetailed, type ResetOutcome, type ResetOptions, type RestoredFile } from './reset';
export * as fixtureContent from './content';
