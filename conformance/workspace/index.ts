export { buildFixtureWorkspace, type FixtureWorkspaceInfo, readFixtureWorkspace } from './build';
export * as fixtureContent from './content';
export { resetFixtureWorkspace, resetFixtureWorkspaceDetailed } from './reset';
