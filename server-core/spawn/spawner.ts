// Entry point of the spawner process (bundled to dist/spawner.cjs, forked by spawner-client.ts): starts
// the processes its parent asks for and streams their output back, so that the parent's event loop never
// blocks in spawn() (whose cost grows with the parent's memory). Design and security: processes.ts.
// - Orders come only from the IPC channel, each checked by isToSpawner; stdin is closed, argv and the
//   environment carry no orders. Every process is an argument vector with the cwd and the whole
//   environment the parent sent (no shell, nothing of this process's own environment added).
// - At most OUTPUT_WINDOW_BYTES of a run's output is sent ahead of the parent's acknowledgements; then
//   the run's pipes pause, so a slow parent makes the child wait rather than this process buffer.
// - When the channel disconnects (the parent exited or was killed) every process started here is
//   killed and the spawner exits: no orphans.
import { type ChildProcess, spawn } from 'node:child_process';
import { type FromSpawner, isToSpawner, OUTPUT_WINDOW_BYTES, type ToSpawner } from './messages';

interface Run {
  child: ChildProcess;
  /** Output sent and not acknowledged yet. */
  unacked: number;
  paused: boolean;
}

const runs = new Map<number, Run>();

/** A failed write means the parent is gone: 'disconnect' follows and cleans up. */
const ignore = () => undefined;

function send(m: FromSpawner): void {
  if (process.connected) process.send!(m, undefined, undefined, ignore);
}

function start(m: Extract<ToSpawner, { t: 'run' }>): void {
  if (runs.has(m.id)) return;
  let child: ChildProcess;
  try {
    child = spawn(m.file, m.args, { cwd: m.cwd, env: m.env, stdio: ['ignore', 'pipe', 'pipe'], windowsHide: true });
  } catch (e) {
    send({ t: 'error', id: m.id, message: (e as Error).message, code: (e as NodeJS.ErrnoException).code });
    return;
  }
  const run: Run = { child, unacked: 0, paused: false };
  runs.set(m.id, run);
  if (child.pid !== undefined) send({ t: 'started', id: m.id, pid: child.pid });
  let done = false;
  const finish = (last: FromSpawner) => {
    if (done) return;
    done = true;
    runs.delete(m.id);
    send(last);
  };
  const forward = (fd: 1 | 2) => (chunk: Buffer) => {
    run.unacked += chunk.length;
    send({ t: 'data', id: m.id, fd, chunk });
    if (run.unacked > OUTPUT_WINDOW_BYTES && !run.paused) {
      run.paused = true;
      child.stdout!.pause();
      child.stderr!.pause();
    }
  };
  child.stdout!.on('data', forward(1));
  child.stderr!.on('data', forward(2));
  // Only a failure to start ends a run here; later errors (a failed kill) leave it to 'close'.
  child.on('error', (e: NodeJS.ErrnoException) => {
    if (child.pid === undefined) finish({ t: 'error', id: m.id, message: e.message, code: e.code });
  });
  child.on('close', (code, signal) => finish({ t: 'exit', id: m.id, code, signal }));
}

function kill(m: Extract<ToSpawner, { t: 'kill' }>): void {
  const run = runs.get(m.id);
  if (!run) return;
  try {
    run.child.kill(m.signal);
  } catch {
    run.child.kill();
  }
  // Whatever is still in the pipes is not wanted: dropping it lets the end come at once.
  run.child.stdout!.destroy();
  run.child.stderr!.destroy();
}

function ack(m: Extract<ToSpawner, { t: 'ack' }>): void {
  const run = runs.get(m.id);
  if (!run) return;
  run.unacked = Math.max(0, run.unacked - m.bytes);
  if (run.paused && run.unacked <= OUTPUT_WINDOW_BYTES / 2) {
    run.paused = false;
    run.child.stdout!.resume();
    run.child.stderr!.resume();
  }
}

process.on('message', (m: unknown) => {
  if (!isToSpawner(m)) return;
  if (m.t === 'run') start(m);
  else if (m.t === 'kill') kill(m);
  else ack(m);
});

process.on('disconnect', () => {
  for (const run of runs.values()) run.child.kill('SIGKILL');
  process.exit(0);
});

// Forked without an IPC channel, this file has nobody to take orders from.
if (!process.send) process.exit(2);
send({ t: 'ready' });
