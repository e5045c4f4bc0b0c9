// Public API of the live VS Code host launcher.
export { launchHost, hostGroupPids, type LaunchOptions, type LaunchTimings, type LiveHost } from './launch';
export { sampleTreeMemory, PeakSampler, processTable, treePids, groupPids, type TreeMemory, type PeakMemory } from './proc-memory';
export { WorkbenchDriver } from './workbench-driver';
export { isPortOpen, freePort } from './ports';
export { parseJsonc } from '../runtime/jsonc';
export { findCodeServer, findChromium, runsRoot, cacheDir, REPO_ROOT, CODE_SERVER_VERSION } from './paths';
export { HOST_NAMES, hostBuild, selectedHost, type HostBuild, type HostName } from './hosts';
export { QUIET_OFFLINE_SETTINGS } from './user-settings';
export { launchAnyHost, type RunningHost } from './backend';
export { chooseBackend, requestedBackend, type Backend, type BackendRequest, type DesktopHost } from './desktop';
