// Public API of the live VS Code host launcher.
export { launchHost, hostGroupPids, type LiveHost } from './launch';
export { sampleTreeMemory, processTable, treePids, groupPids } from './proc-memory';
export { isPortOpen, freePort } from './ports';
export { parseJsonc } from '../runtime/jsonc';
export { findCodeServer, REPO_ROOT } from './paths';
export { type HostName } from './hosts';
export { launchAnyHost } from './backend';
export { type BackendRequest } from './desktop';
