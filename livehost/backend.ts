// One entry for callers that need a running VS Code with our extension and not the workbench page
// (the conformance CLI's --launch, livehost/cli.ts): the backend is chosen by --host / IDEA_HOST
// (desktop.ts), the build by --vscode / IDEA_VSCODE (hosts.ts).
import {
  type Backend,
  type BackendRequest,
  chooseBackend,
  desktopDownloader,
  launchDesktopHost,
  requestedBackend,
} from './desktop';
import { type HostBuild, hostBuild, selectedHost } from './hosts';
import { type LaunchOptions, launchHost } from './launch';

export interface RunningHost {
  backend: Backend;
  build: HostBuild;
  url: string;
  token: string;
  port: number;
  workspace: string;
  runDir: string;
  close(): Promise<void>;
}

export async function launchAnyHost(opts: LaunchOptions & { backend?: BackendRequest }): Promise<RunningHost> {
  const build = opts.vscode ? hostBuild(opts.vscode) : selectedHost();
  const choice = await chooseBackend(opts.backend ?? requestedBackend(), build, desktopDownloader(build));
  if (choice.fallback) opts.log?.(`livehost: ${choice.fallback}`);
  if (choice.backend === 'electron') {
    if (!opts.extensionDevPath)
      throw new Error('the desktop backend takes the extension folder (extensionDevPath), not a .vsix');
    return launchDesktopHost({
      executable: choice.executable!,
      workspace: opts.workspace,
      extensionDevPath: opts.extensionDevPath,
      build,
      userSettings: opts.userSettings,
      timeoutMs: opts.timeoutMs,
    });
  }
  const host = await launchHost({ ...opts, vscode: build.name });
  return { ...host, backend: 'code-server', close: () => host.close() };
}
