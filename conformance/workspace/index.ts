export { buildFixtureWorkspace, resetFixtureWorkspace, readFixtureWorkspace, applyOverlay, type FixtureWorkspaceInfo, type BuildOptions } from './build';
export * as fixtureContent from './content';
