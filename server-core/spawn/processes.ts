// Every child process server-core starts (git, rg) is started here, off this thread when it can be.
//
// Why: Node's spawn() blocks the calling event loop until the child has exec'd, and on Linux that
// time grows with the caller's memory (fork copies its page tables): ~8 ms from a 46 MB process, ~22 ms
// at 151 MB, ~41 ms at 361 MB (bench/FINDINGS.md). The extension host and idea-server would stall every
// request in flight for each git or rg process. So one small, long-lived Node process per server, the
// spawner (spawner.ts, bundled to dist/spawner.cjs beside the server's own bundle), forks cheaply and
// starts them; this process only exchanges messages with it.
//
// Decisions:
// - Forked lazily (or by prewarmSpawner()) with an IPC channel only: stdin and stdout closed, stderr
//   shared for its crash messages; execArgv and NODE_OPTIONS cleared (no --inspect port or preloaded
//   code inherited). It takes orders from that channel alone, each message shape-checked (messages.ts),
//   and never runs a shell: a run is the caller's argument vector, cwd and whole environment (git's
//   disarmed one, or this process's at the call) — exactly what spawn() here would have been given.
// - Programs are never found relative to the workspace (runtime/programs.ts): a bare name is resolved in
//   PATH's absolute folders before the run is handed on, a relative path is refused (it would be
//   relative to the run's cwd, the workspace), and the child's PATH keeps only absolute folders.
// - Callers keep their semantics: withProcessSlot around each process is theirs; kill()/an aborted
//   signal reaches the real child at once and the pipes' leftovers are dropped so the end comes fast.
// - Backpressure: the spawner sends at most OUTPUT_WINDOW_BYTES (1 MiB) of a run's output ahead of this
//   side's acknowledgements, then pauses that child's pipes; a caller's pause() stops acknowledgements.
// - If the spawner dies, every run in flight fails with an error saying so (none hangs), its process
//   is killed by pid (the spawner told it; nothing else would), and the next call forks a new spawner.
//   After MAX_DEATHS deaths within DEATH_WINDOW_MS, or when it cannot be forked (no bundle, fork fails,
//   it never says ready), processes start directly on this thread, logged once. Runs held for a
//   spawner that never became ready are started directly instead, not failed.
// - When this process dies the spawner's channel closes: it kills every process it started and exits.
// - IDEA_SPAWN=direct turns the spawner off (debugging: processes are then children of this process).
import { existsSync } from 'node:fs';
import { isAbsolute, join } from 'node:path';
import { findProgram, isBareName, programEnv } from '../../runtime/programs';
import { startDirect } from './direct';
import type { ProcessRequest, ProcessSink, RunningProcess } from './process-types';
import { SpawnerClient, type SpawnerDeath } from './spawner-client';

export type { ProcessRequest, ProcessSink, RunningProcess } from './process-types';

const MAX_DEATHS = 3;
const DEATH_WINDOW_MS = 60_000;

let script: string | undefined;
let log: (message: string) => void = (m) => void process.stderr.write(`idea: ${m}\n`);
let client: SpawnerClient | undefined;
/** Why processes are started directly from now on (undefined: through the spawner). */
let directReason: string | undefined;
let deaths: number[] = [];
let forks = 0;
let toldDirectByEnv = false;

/** Where the spawner bundle is (dist/spawner.cjs of the extension or idea-server) and where to log. */
export function configureSpawner(o: { script?: string; log?: (message: string) => void }): void {
  if (o.script !== undefined) script = o.script;
  if (o.log) log = o.log;
}

function fallBack(reason: string): void {
  if (directReason) return;
  directReason = reason;
  log(`child processes are started directly from now on: ${reason}`);
}

function onDeath(d: SpawnerDeath): void {
  client = undefined;
  if (d.beforeReady) return fallBack(`the process spawner did not start (it ${d.detail})`);
  const now = Date.now();
  deaths = [...deaths.filter((t) => now - t < DEATH_WINDOW_MS), now];
  if (deaths.length >= MAX_DEATHS)
    fallBack(
      `the process spawner died ${deaths.length} times within ${DEATH_WINDOW_MS / 1000} s (last: it ${d.detail})`,
    );
  else log(`the process spawner ${d.detail}; the next process starts a new one`);
}

/** The spawner to use now, forked if need be; undefined: start directly. */
function spawner(): SpawnerClient | undefined {
  if (process.env.IDEA_SPAWN === 'direct') {
    if (!toldDirectByEnv) log('IDEA_SPAWN=direct: child processes are started directly');
    toldDirectByEnv = true;
    return undefined;
  }
  if (directReason) return undefined;
  if (client?.alive) return client;
  const path = script ?? (typeof __dirname === 'string' ? join(__dirname, 'spawner.cjs') : 'spawner.cjs');
  if (!existsSync(path)) {
    fallBack(`no process spawner bundle at ${path}`);
    return undefined;
  }
  try {
    client = new SpawnerClient(path, startDirect, onDeath);
    forks++;
  } catch (e) {
    fallBack(`the process spawner could not be forked: ${(e as Error).message}`);
    return undefined;
  }
  return client;
}

/** Starts one process; its output and end go to `sink` (see ProcessSink). */
export function startProcess(req: ProcessRequest, sink: ProcessSink): RunningProcess {
  let safe: ProcessRequest;
  try {
    safe = programRequest(req);
  } catch (e) {
    queueMicrotask(() => sink.error(e as Error));
    return { pause() {}, resume() {}, kill() {} };
  }
  return (spawner() ?? { start: startDirect }).start(safe, sink);
}

/** The run as it may start: its program an absolute path, its PATH absolute folders only (runtime/programs.ts). */
function programRequest(req: ProcessRequest): ProcessRequest {
  const env = programEnv(req.env ?? process.env);
  let file = req.file;
  if (isBareName(file)) file = findProgram(file, env);
  else if (!isAbsolute(file))
    throw new Error(`${file} is a relative path: it would be found in ${req.cwd}; programs run by absolute path only`);
  return { ...req, file, env };
}

/** Forks the spawner now, so the first request does not wait for it. */
export function prewarmSpawner(): void {
  spawner();
}

/** Stops the spawner (deactivation, server close): it kills what it started; runs in flight fail. */
export function disposeSpawner(): void {
  client?.dispose();
  client = undefined;
}

/** For logs and tests: how processes are started now. */
export function spawnerState(): { mode: 'spawner' | 'direct'; reason?: string; pid?: number; forks: number } {
  if (process.env.IDEA_SPAWN === 'direct') return { mode: 'direct', reason: 'IDEA_SPAWN=direct', forks };
  if (directReason) return { mode: 'direct', reason: directReason, forks };
  return { mode: 'spawner', pid: client?.alive ? client.pid : undefined, forks };
}

/** Tests: forget crashes and fallbacks, as in a new process (the spawner, if any, is stopped). */
export function resetSpawnerForTests(): void {
  disposeSpawner();
  directReason = undefined;
  deaths = [];
}

export interface ExecResult {
  stdout: Buffer;
  stderr: Buffer;
  code: number | null;
  signal: NodeJS.Signals | null;
}

/** A run stopped because its output passed maxBuffer. */
export class MaxBufferError extends Error {}

/**
 * Runs a process to its end and collects its output (execFile's contract): resolves with the exit code
 * or signal whatever they are; rejects when it cannot start, when stdout or stderr passes `maxBuffer`
 * bytes (the child is killed), or with the signal's reason when aborted (the child is killed).
 */
export function execProcess(req: ProcessRequest, o: { maxBuffer: number; signal?: AbortSignal }): Promise<ExecResult> {
  return new Promise((resolve, reject) => {
    if (o.signal?.aborted) return reject(abortReason(o.signal));
    const out: Buffer[] = [];
    const err: Buffer[] = [];
    let outBytes = 0;
    let errBytes = 0;
    let settled = false;
    const settle = (f: () => void) => {
      if (settled) return;
      settled = true;
      o.signal?.removeEventListener('abort', onAbort);
      f();
    };
    const overflow = (which: string) =>
      settle(() => {
        proc.kill();
        reject(new MaxBufferError(`${which} maxBuffer of ${o.maxBuffer} bytes exceeded`));
      });
    const proc = startProcess(req, {
      stdout: (c) => {
        outBytes += c.length;
        if (outBytes > o.maxBuffer) overflow('stdout');
        else if (!settled) out.push(c);
      },
      stderr: (c) => {
        errBytes += c.length;
        if (errBytes > o.maxBuffer) overflow('stderr');
        else if (!settled) err.push(c);
      },
      exit: (code, signal) =>
        settle(() => resolve({ stdout: Buffer.concat(out), stderr: Buffer.concat(err), code, signal })),
      error: (e) => settle(() => reject(e)),
    });
    const onAbort = () =>
      settle(() => {
        proc.kill();
        reject(abortReason(o.signal!));
      });
    o.signal?.addEventListener('abort', onAbort, { once: true });
  });
}

function abortReason(signal: AbortSignal): Error {
  return signal.reason instanceof Error ? signal.reason : new Error('aborted');
}
