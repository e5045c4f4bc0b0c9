// The built idea-server bin as the benches start it: a child process on a free port with a fixed token,
// no registry entry, local history in the given HOME (and IDEA_SPAWN passed on); resolved once it logs
// its url and "ready".
// Build it first (buildTarget('server') in scripts/build.ts).
import { type ChildProcess, spawn } from 'node:child_process';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

export const IDEA_SERVER_BIN = fileURLToPath(new URL('../../idea-server/dist/idea-server.mjs', import.meta.url));

export interface BinServer {
  child: ChildProcess;
  url: string;
  token: string;
  /** Spawn → "ready" logged, in ms (Node's start-up included). */
  readyMs: number;
  /** Everything it wrote to stderr so far. */
  log(): string;
  /** SIGTERM, resolved once it exited. */
  stop(): Promise<void>;
}

export interface BinOptions {
  workspace: string;
  /** Its HOME (and local history under HOME/h): a fresh folder keeps runs apart. */
  home: string;
  /** Default: this process's PATH (ripgrep and the like as the user has them). */
  path?: string;
  token?: string;
  /** The bin to run (default IDEA_SERVER_BIN; bench/scale runs a snapshot of it, see scale/common.ts). */
  bin?: string;
}

export function startIdeaServerBin(o: BinOptions): Promise<BinServer> {
  const token = o.token ?? 'bench-token-0123456789abcdef';
  const t0 = performance.now();
  const child = spawn(
    process.execPath,
    [
      o.bin ?? IDEA_SERVER_BIN,
      ...['--workspace', o.workspace, '--port', '0', '--token', token, '--no-registry'],
      ...['--history-dir', join(o.home, 'h')],
    ],
    {
      // IDEA_SPAWN=direct passes through: the same bench with git and rg spawned on the main thread.
      env: {
        PATH: o.path ?? process.env.PATH ?? '',
        HOME: o.home,
        ...(process.env.IDEA_SPAWN ? { IDEA_SPAWN: process.env.IDEA_SPAWN } : {}),
      },
      stdio: ['ignore', 'ignore', 'pipe'],
    },
  );
  let log = '';
  const stop = async (): Promise<void> => {
    if (child.exitCode !== null || child.signalCode !== null) return;
    const exited = new Promise((r) => child.once('exit', r));
    child.kill('SIGTERM');
    await exited;
  };
  return new Promise((resolve, reject) => {
    child.stderr!.on('data', (d: Buffer) => {
      log += d.toString();
      const url = /on (ws:\/\/127\.0\.0\.1:\d+)/.exec(log)?.[1];
      if (url && /ready in \d+ ms/.test(log))
        resolve({ child, url, token, readyMs: performance.now() - t0, log: () => log, stop });
    });
    child.once('exit', (code) => reject(new Error(`idea-server exited ${code}: ${log}`)));
  });
}
