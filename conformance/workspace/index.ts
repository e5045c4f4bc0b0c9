export { buildFixtureWorkspace, resetFixtureWorkspace, readFixtureWorkspace, applyOverlay, NotAFixtureWorkspaceError, type FixtureWorkspaceInfo, type BuildOptions } from './build';
export * as fixtureContent from './content';
