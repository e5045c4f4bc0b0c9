export { buildFixtureWorkspace, readFixtureWorkspace, type FixtureWorkspaceInfo } from './build';
export { resetFixtureWorkspace, resetFixtureWorkspaceDetailed } from './reset';
export * as fixtureContent from './content';
