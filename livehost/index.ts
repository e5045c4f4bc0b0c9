// Public API of the live VS Code host launcher.

export { parseJsonc } from '../runtime/jsonc';
export { launchAnyHost } from './backend';
export type { BackendRequest } from './desktop';
export type { HostName } from './hosts';
export { hostGroupPids, type LiveHost, launchHost } from './launch';
export { findCodeServer, REPO_ROOT } from './paths';
export { freePort, isPortOpen } from './ports';
export { groupPids, processTable, sampleTreeMemory, treePids } from './proc-memory';
