// Starting and stopping code-server in its own process group (it, the extension host and the language
// servers it forks), so teardown can signal exactly the processes we started.
import { type ChildProcess, spawn, spawnSync } from 'node:child_process';
import { closeSync, openSync } from 'node:fs';
import { get } from 'node:http';
import { poll } from '../runtime/poll';
import { LOOPBACK, sleep } from './ports';
import { groupPids } from './proc-memory';
import type { RunFolder } from './run-folder';

export interface CodeServerProcess {
  child: ChildProcess;
  pid: number;
  port: number;
  /** Resolves when the main code-server process has exited. */
  exited: Promise<void>;
  hasExited(): boolean;
}

/** Variables that must not leak from a parent VS Code / tool environment into the host we start. */
function inheritedEnv(): NodeJS.ProcessEnv {
  const env = { ...process.env };
  for (const k of Object.keys(env)) {
    if (k.startsWith('VSCODE_') || k === 'ELECTRON_RUN_AS_NODE' || k === 'NODE_OPTIONS') delete env[k];
  }
  return env;
}

/**
 * `code-server --install-extension <vsix>` into the run's extensions folder, as a user installs a
 * .vsix (not the development path). Returns what it printed; throws with it when the install failed.
 */
export function installVsix(opts: {
  bin: string;
  run: RunFolder;
  vsix: string;
  env: Record<string, string>;
  timeoutMs?: number;
}): string {
  const r = spawnSync(
    opts.bin,
    [
      '--config',
      opts.run.configFile,
      '--user-data-dir',
      opts.run.userDataDir,
      '--extensions-dir',
      opts.run.extensionsDir,
      '--install-extension',
      opts.vsix,
    ],
    {
      cwd: opts.run.home,
      env: { ...inheritedEnv(), ...opts.env },
      encoding: 'utf8',
      timeout: opts.timeoutMs ?? 60_000,
    },
  );
  const out = `${r.stdout ?? ''}${r.stderr ?? ''}`.trim();
  if (r.error || r.status !== 0)
    throw new Error(
      `code-server --install-extension ${opts.vsix} failed (${r.error?.message ?? `exit ${r.status}`}): ${out.slice(-2000)}`,
    );
  return out;
}

export function spawnCodeServer(opts: {
  bin: string;
  run: RunFolder;
  port: number;
  workspace: string;
  env: Record<string, string>;
}): CodeServerProcess {
  const { bin, run, port, workspace } = opts;
  const args = [
    '--config',
    run.configFile,
    '--auth',
    'none',
    '--bind-addr',
    `${LOOPBACK}:${port}`,
    '--user-data-dir',
    run.userDataDir,
    '--extensions-dir',
    run.extensionsDir,
    '--disable-telemetry',
    '--disable-update-check',
    '--disable-workspace-trust',
    '--disable-getting-started-override',
    '--log',
    'info',
    workspace,
  ];
  const logFd = openSync(run.codeServerLog, 'a');
  let child: ChildProcess;
  try {
    // detached: setsid(), the new group's id is the child's pid.
    child = spawn(bin, args, {
      cwd: run.home,
      detached: true,
      stdio: ['ignore', logFd, logFd],
      env: { ...inheritedEnv(), ...opts.env },
    });
  } finally {
    closeSync(logFd);
  }
  if (!child.pid) throw new Error(`could not spawn ${bin}`);
  child.unref(); // a forgotten host must not keep the launcher's process alive; exit hooks kill it
  let exited = false;
  const exitedP = new Promise<void>((r) => {
    child.once('exit', () => {
      exited = true;
      r();
    });
    child.once('error', () => {
      exited = true;
      r();
    });
  });
  return { child, pid: child.pid, port, exited: exitedP, hasExited: () => exited };
}

function healthy(port: number): Promise<boolean> {
  return new Promise((res) => {
    const req = get({ host: LOOPBACK, port, path: '/healthz', timeout: 1000 }, (r) => {
      r.resume();
      res(r.statusCode === 200);
    });
    req.once('error', () => res(false));
    req.once('timeout', () => {
      req.destroy();
      res(false);
    });
  });
}

/** Waits for GET /healthz to answer 200; false if the deadline passes or code-server exits first. */
export async function waitForHttp(cs: CodeServerProcess, deadline: number): Promise<boolean> {
  const ok = await poll(async () => (cs.hasExited() ? false : (await healthy(cs.port)) || undefined), {
    deadline,
    intervalMs: 100,
    backoff: 1,
  });
  return ok === true;
}

/**
 * The recipe's teardown of the server side: SIGTERM code-server, give it 2 s, then SIGTERM the whole group
 * (tsserver and friends otherwise linger for seconds), then SIGKILL whatever is left. Never throws.
 */
export async function stopCodeServer(cs: CodeServerProcess): Promise<{ survivors: number[] }> {
  const pgid = cs.pid;
  const signal = (target: number, sig: NodeJS.Signals) => {
    try {
      process.kill(target, sig);
    } catch {
      /* gone */
    }
  };
  if (!cs.hasExited()) {
    signal(cs.pid, 'SIGTERM');
    await Promise.race([cs.exited, sleep(2000)]);
  }
  const gone = () => (groupPids(pgid).length === 0 ? true : undefined);
  if (!gone()) {
    signal(-pgid, 'SIGTERM');
    if (!(await poll(gone, { timeoutMs: 5000, intervalMs: 100, backoff: 1 }))) {
      signal(-pgid, 'SIGKILL');
      await poll(gone, { timeoutMs: 2000, intervalMs: 50, backoff: 1 });
    }
  }
  if (!cs.hasExited()) await Promise.race([cs.exited, sleep(1000)]);
  return { survivors: groupPids(pgid) };
}

/** Synchronous last resort for process exit hooks. */
export function killCodeServerGroupSync(cs: CodeServerProcess): void {
  try {
    process.kill(-cs.pid, 'SIGKILL');
  } catch {
    /* gone */
  }
}
