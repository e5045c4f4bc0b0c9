// `idea-conformance fuzz --launch`: our extension in a live VS Code (livehost/) on a fixture workspace,
// fuzzed, torn down. The server process is the one the fuzzer watches: after every failure the host's
// process must still run and the extension's port still accept connections (the extension host can die
// under a live VS Code); when either is gone, the host is relaunched on the reset workspace so the
// finding can be shrunk. The package replaces this module (scripts/build.ts, clone-only): the export
// keeps the name the stub throws for.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { launchAnyHost, REPO_ROOT } from '@idea-kit/livehost';
import { isPortOpen } from '../../runtime/loopback';
import { HOST_USER_SETTINGS } from '../launch';
import { buildFixtureWorkspace, resetFixtureWorkspace } from '../workspace';
import type { ServerProcess } from './run';

export interface FuzzLaunchOptions {
  /** Extension folder (default <repo>/extension). */
  extensionDevPath?: string;
  /** Where to build the workspace (default a fresh temp folder, removed afterwards). */
  workspace?: string;
  log?: (line: string) => void;
}

export interface Launched {
  url: string;
  token: string;
  workspace: string;
  server: ServerProcess;
}

function running(pid: number | undefined): boolean {
  if (!pid) return true; // no pid to look at: the port decides
  try {
    process.kill(pid, 0);
    return true;
  } catch (e) {
    return (e as NodeJS.ErrnoException).code === 'EPERM';
  }
}

/** A live host's server as a process to watch: the host's process runs and the extension's port accepts connections. */
export function hostProcess(host: () => { port: number }, describe: string): ServerProcess {
  // code-server's pid (its process group holds the extension host) or the desktop VS Code's.
  const pidOf = (h: { port: number }) => {
    const p = h as { codeServerPid?: number; pid?: number };
    return p.codeServerPid ?? p.pid;
  };
  return { describe, alive: async () => running(pidOf(host())) && (await isPortOpen(host().port)) };
}

/** Launches the host, hands `run` its server, and tears everything down after. */
export async function runWithLaunch<T>(o: FuzzLaunchOptions, run: (l: Launched) => Promise<T>): Promise<T> {
  const own = o.workspace === undefined;
  const dir = own ? join(mkdtempSync(join(tmpdir(), 'idea-fuzz-')), 'workspace') : resolve(o.workspace!);
  const launch = () =>
    launchAnyHost({
      workspace: dir,
      extensionDevPath: o.extensionDevPath ?? join(REPO_ROOT, 'extension'),
      userSettings: HOST_USER_SETTINGS,
      log: o.log,
    });
  try {
    buildFixtureWorkspace(dir);
    let host = await launch();
    const server: ServerProcess = {
      ...hostProcess(() => host, `VS Code ${host.build.vscode} (${host.backend}) with the extension`),
      restart: async () => {
        await host.close();
        resetFixtureWorkspace(dir);
        host = await launch();
        o.log?.(`relaunched: ${host.url}`);
        return { url: host.url, token: host.token };
      },
    };
    try {
      return await run({ url: host.url, token: host.token, workspace: dir, server });
    } finally {
      await host.close();
    }
  } finally {
    if (own) rmSync(resolve(dir, '..'), { recursive: true, force: true });
  }
}
