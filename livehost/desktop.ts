// Desktop VS Code (Electron) as a second live-host backend, through @vscode/test-electron, what VS Code
// extension CIs use. The backend is `--host electron|code-server|auto` (IDEA_HOST):
// - code-server (default): launch.ts, never downloads anything;
// - electron: the desktop build of the selected VS Code version (livehost/hosts.json), downloaded by
//   test-electron into <cache>/vscode-desktop; an error if it cannot be had;
// - auto: electron when the download works, else code-server with a one-line reason.
// Where VS Code's download servers are unreachable (this project's own machines), only code-server runs:
// the choice, the download's failure and the arguments are unit-tested; launchDesktopHost is not run here.
import { spawn, spawnSync } from 'node:child_process';
import { closeSync, openSync, realpathSync } from 'node:fs';
import { join } from 'node:path';
import { pickServer } from '../runtime/locate';
import { isPortOpen } from '../runtime/loopback';
import { poll } from '../runtime/poll';
import { listRegisteredServers } from '../runtime/registry';
import { linkExtension } from './extension-link';
import { type HostBuild, selectedHost } from './hosts';
import { cacheDir } from './paths';
import { freePort } from './ports';
import { readReadySignal, restoreWorkspaceSettings, snapshotSettings } from './ready-signal';
import { createRunFolder, isolatedEnv, removeRunFolder, runRegistryDir } from './run-folder';
import { writeUserSettings } from './user-settings';

export type Backend = 'electron' | 'code-server';
export type BackendRequest = Backend | 'auto';
export const BACKEND_REQUESTS: readonly BackendRequest[] = ['code-server', 'electron', 'auto'];

/** `IDEA_HOST` (default code-server); a wrong value says what exists. */
export function requestedBackend(env: NodeJS.ProcessEnv = process.env): BackendRequest {
  const v = env.IDEA_HOST || 'code-server';
  if (!(BACKEND_REQUESTS as readonly string[]).includes(v))
    throw new Error(`IDEA_HOST=${v} is not one of ${BACKEND_REQUESTS.join(', ')}`);
  return v as BackendRequest;
}

export interface BackendChoice {
  backend: Backend;
  /** The desktop VS Code executable (electron). */
  executable?: string;
  /** Why auto fell back to code-server: one line. */
  fallback?: string;
}

const firstLine = (e: unknown) =>
  String(e instanceof Error ? e.message : e)
    .split('\n')[0]!
    .trim();

/** Decides the backend; `fetchDesktop` resolves to the desktop executable or rejects (e.g. no network). */
export async function chooseBackend(
  request: BackendRequest,
  build: HostBuild,
  fetchDesktop: () => Promise<string>,
): Promise<BackendChoice> {
  if (request === 'code-server') return { backend: 'code-server' };
  try {
    return { backend: 'electron', executable: await fetchDesktop() };
  } catch (e) {
    const why = `desktop VS Code ${build.vscode} could not be downloaded (${firstLine(e)})`;
    if (request === 'electron') throw new Error(`${why}; use --host code-server or auto`);
    return { backend: 'code-server', fallback: `${why}; using code-server ${build.codeServer}` };
  }
}

/** test-electron's download of the desktop build into <cache>/vscode-desktop (a cached copy is reused). */
export function desktopDownloader(
  build: HostBuild,
  env: NodeJS.ProcessEnv = process.env,
  idleTimeoutMs = 15_000,
): () => Promise<string> {
  return async () => {
    const { downloadAndUnzipVSCode } = await import('@vscode/test-electron');
    return downloadAndUnzipVSCode({
      version: build.vscode,
      cachePath: join(cacheDir(env), 'vscode-desktop'),
      timeout: idleTimeoutMs,
      reporter: { report: () => undefined } as never,
    });
  };
}

/** Command-line of the desktop build: isolated profile and extensions folder, nothing that phones home. */
export function desktopArgs(o: { workspace: string; userDataDir: string; extensionsDir: string }): string[] {
  return [
    '--no-sandbox',
    '--disable-gpu-sandbox',
    '--disable-updates',
    '--skip-welcome',
    '--skip-release-notes',
    '--disable-workspace-trust',
    '--disable-telemetry',
    '--disable-crash-reporter',
    `--user-data-dir=${o.userDataDir}`,
    `--extensions-dir=${o.extensionsDir}`,
    o.workspace,
  ];
}

/** On Linux without a display the build runs under `xvfb-run -a`; without either it cannot start. */
export function desktopCommand(
  executable: string,
  args: string[],
  env: NodeJS.ProcessEnv,
  platform = process.platform,
  has: (cmd: string) => boolean = (cmd) => spawnSync('sh', ['-c', `command -v ${cmd}`]).status === 0,
): { command: string; args: string[] } {
  if (platform !== 'linux' || env.DISPLAY || env.WAYLAND_DISPLAY) return { command: executable, args };
  if (!has('xvfb-run')) throw new Error('desktop VS Code needs a display: set DISPLAY or install xvfb (xvfb-run)');
  return { command: 'xvfb-run', args: ['-a', executable, ...args] };
}

export interface DesktopHost {
  backend: 'electron';
  url: string;
  token: string;
  port: number;
  workspace: string;
  extensionId: string;
  build: HostBuild;
  runDir: string;
  registryDir: string;
  /** Output of the desktop process. */
  log: string;
  pid: number;
  close(): Promise<void>;
}

export interface DesktopLaunchOptions {
  executable: string;
  workspace: string;
  extensionDevPath: string;
  build?: HostBuild;
  userSettings?: Record<string, unknown>;
  timeoutMs?: number;
}

/** Starts the desktop build on `workspace` with the extension linked in; ready when its registry entry appears and its port accepts. */
export async function launchDesktopHost(o: DesktopLaunchOptions): Promise<DesktopHost> {
  const build = o.build ?? selectedHost();
  const workspace = realpathSync(o.workspace);
  const run = createRunFolder();
  const registryDir = runRegistryDir(run);
  const before = snapshotSettings(workspace);
  writeUserSettings(run.userDataDir, await freePort(), o.userSettings);
  const ext = linkExtension(o.extensionDevPath, run.extensionsDir);
  const log = join(run.dir, 'desktop.log');
  const env = { ...process.env, ...isolatedEnv(run) };
  const cmd = desktopCommand(
    o.executable,
    desktopArgs({ workspace, userDataDir: run.userDataDir, extensionsDir: run.extensionsDir }),
    env,
  );
  const fd = openSync(log, 'a');
  const child = spawn(cmd.command, cmd.args, { cwd: run.home, detached: true, stdio: ['ignore', fd, fd], env });
  closeSync(fd);
  child.unref();
  let exited = false;
  child.once('exit', () => {
    exited = true;
  });
  const stop = async () => {
    if (!exited && child.pid) {
      try {
        process.kill(-child.pid, 'SIGTERM');
      } catch {
        /* gone */
      }
      await poll(() => (exited ? true : undefined), { timeoutMs: 5000, intervalMs: 100 });
      try {
        process.kill(-child.pid, 'SIGKILL');
      } catch {
        /* gone */
      }
    }
  };
  const ready = await poll(
    async () => {
      if (exited) return null;
      const entry = pickServer(
        workspace,
        (await listRegisteredServers({ dir: registryDir, clean: false, probePorts: false })).servers,
      )?.entry;
      if (!entry?.token || !(await isPortOpen(entry.port, 500))) return undefined;
      return entry;
    },
    { timeoutMs: o.timeoutMs ?? 120_000, intervalMs: 200, backoff: 1 },
  );
  if (!ready) {
    await stop();
    throw new Error(
      `desktop VS Code ${build.vscode} ${ready === null ? 'exited' : 'did not register the extension server in time'} (log: ${log})`,
    );
  }
  let closed: Promise<void> | undefined;
  return {
    backend: 'electron',
    url: ready.url,
    token: ready.token!,
    port: ready.port,
    workspace,
    extensionId: ext.id,
    build,
    runDir: run.dir,
    registryDir,
    log,
    pid: child.pid!,
    close: () =>
      (closed ??= (async () => {
        await stop();
        const written = readReadySignal(workspace, before);
        if (written) restoreWorkspaceSettings(workspace, before, written);
        removeRunFolder(run);
      })()),
  };
}
