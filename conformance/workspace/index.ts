export { buildFixtureWorkspace, type FixtureWorkspaceInfo, readFixtureWorkspace, trapMarkerDir } from './build';
export * as fixtureContent from './content';
export { resetFixtureWorkspace, resetFixtureWorkspaceDetailed } from './reset';
export {
  clearTrapMarkers,
  type FiredTrap,
  firedTraps,
  type PlantedTraps,
  type PlantOptions,
  plantTraps,
  readTrapManifest,
  TRAPS_MANIFEST,
  type Trap,
} from './traps';
