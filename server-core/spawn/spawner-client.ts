// The parent's side of one spawner process (spawner.ts): forks it, sends it runs, delivers each run's
// output to its sink in order, acknowledges what was delivered (the spawner's output window), and when
// the spawner dies fails every run in flight at once. Which spawner to use, restarts and the fallback
// to direct spawning are processes.ts's.
import { type ChildProcess, fork } from 'node:child_process';
import { dirname } from 'node:path';
import { type FromSpawner, OUTPUT_WINDOW_BYTES, type ToSpawner } from './messages';
import { childEnv, type ProcessRequest, type ProcessSink, type RunningProcess } from './process-types';

/** Delivered output acknowledged in steps of this much (a quarter of the spawner's window). */
const ACK_BYTES = OUTPUT_WINDOW_BYTES / 4;
/** A spawner that has not said "ready" by then is taken for one that cannot start. */
const READY_TIMEOUT_MS = 10_000;

export interface SpawnerDeath {
  /** It died before it could take any run: the runs held for it were handed to the fallback. */
  beforeReady: boolean;
  detail: string;
}

interface ClientRun {
  id: number;
  req: ProcessRequest;
  sink: ProcessSink;
  msg: Extract<ToSpawner, { t: 'run' }>;
  /** Messages held while the caller has paused the run. */
  queue: FromSpawner[];
  paused: boolean;
  killed: boolean;
  done: boolean;
  sent: boolean;
  /** Delivered bytes not acknowledged yet. */
  toAck: number;
  /** Started by the fallback after the spawner failed to start. */
  delegate?: RunningProcess;
  /** The process's pid, once the spawner started it. */
  pid?: number;
}

/** The spawner's environment: this process's minus NODE_OPTIONS (no --inspect or --require inherited). */
function spawnerEnv(): NodeJS.ProcessEnv {
  const env: NodeJS.ProcessEnv = { ...process.env, ELECTRON_RUN_AS_NODE: '1' };
  delete env.NODE_OPTIONS;
  return env;
}

export class SpawnerClient {
  private readonly child: ChildProcess;
  private ready = false;
  private dead = false;
  private closing = false;
  private seq = 0;
  private readonly runs = new Map<number, ClientRun>();
  private readonly readyTimer: NodeJS.Timeout;

  /**
   * Forks `script` (throws when that fails at once). `fallback` starts the runs held for a spawner that
   * died before it was ready; `onDeath` hears of every death but a shutdown.
   */
  constructor(
    script: string,
    private readonly fallback: (req: ProcessRequest, sink: ProcessSink) => RunningProcess,
    private readonly onDeath: (d: SpawnerDeath) => void,
  ) {
    // execArgv empty: the parent's --inspect, --max-old-space-size or loaders are not the spawner's.
    // ELECTRON_RUN_AS_NODE: in VS Code the parent's execPath is the editor's binary.
    this.child = fork(script, [], {
      execArgv: [],
      serialization: 'advanced',
      stdio: ['ignore', 'ignore', 'inherit', 'ipc'],
      env: spawnerEnv(),
      cwd: dirname(script),
    });
    this.child.on('message', (m: FromSpawner) => this.onMessage(m));
    this.child.once('exit', (code, signal) => this.die(signal ? `was killed by ${signal}` : `exited (code ${code})`));
    this.child.once('error', (e) => this.die(`failed: ${e.message}`));
    // A channel closing is a death, told by the exit that normally follows at once (it says how).
    this.child.once('disconnect', () => {
      setTimeout(() => this.die('closed its channel'), 500).unref();
    });
    this.child.unref();
    this.refWhileBusy();
    this.readyTimer = setTimeout(() => {
      this.child.kill('SIGKILL');
      this.die(`did not start within ${READY_TIMEOUT_MS} ms`);
    }, READY_TIMEOUT_MS);
    this.readyTimer.unref();
  }

  get alive(): boolean {
    return !this.dead;
  }

  get pid(): number | undefined {
    return this.child.pid;
  }

  start(req: ProcessRequest, sink: ProcessSink): RunningProcess {
    if (this.dead) return this.fallback(req, sink);
    const id = ++this.seq;
    const run: ClientRun = {
      id,
      req,
      sink,
      msg: { t: 'run', id, file: req.file, args: [...req.args], cwd: req.cwd, env: childEnv(req.env) },
      queue: [],
      paused: false,
      killed: false,
      done: false,
      sent: false,
      toAck: 0,
    };
    this.runs.set(id, run);
    this.refWhileBusy();
    if (this.ready) this.send(run);
    return {
      pause: () => {
        if (run.delegate) run.delegate.pause();
        else run.paused = true;
      },
      resume: () => {
        if (run.delegate) return run.delegate.resume();
        run.paused = false;
        this.drain(run);
      },
      kill: (signal: NodeJS.Signals = 'SIGTERM') => {
        if (run.delegate) return run.delegate.kill(signal);
        if (run.done || run.killed) return;
        run.killed = true;
        // Its output is dropped and a pause no longer holds its end back: the end comes as promised.
        run.queue = run.queue.filter((m) => m.t !== 'data');
        run.paused = false;
        if (run.sent) this.post({ t: 'kill', id, signal });
        else this.finish(run, () => run.sink.exit(null, signal)); // never started: it ends here
        this.drain(run);
      },
    };
  }

  /** Closes the channel: the spawner kills what it started and exits; runs in flight fail. */
  dispose(): void {
    if (this.dead) return;
    this.closing = true;
    this.die('was shut down');
  }

  private send(run: ClientRun): void {
    run.sent = true;
    this.post(run.msg);
  }

  private post(m: ToSpawner): void {
    if (this.dead) return;
    try {
      this.child.send(m, (err) => {
        if (err) this.die(`could not be written to: ${err.message}`);
      });
    } catch (e) {
      this.die(`could not be written to: ${(e as Error).message}`);
    }
  }

  private onMessage(m: FromSpawner): void {
    if (this.dead) return;
    if (m.t === 'ready') {
      this.ready = true;
      clearTimeout(this.readyTimer);
      for (const run of this.runs.values()) if (!run.sent && !run.killed) this.send(run);
      return;
    }
    const run = this.runs.get(m.id);
    if (!run || run.done || (run.killed && m.t === 'data')) return;
    if (m.t === 'started') {
      run.pid = m.pid;
      return;
    }
    run.queue.push(m);
    this.drain(run);
  }

  /** Delivers what is queued unless paused; the sink may pause or kill the run from inside. */
  private drain(run: ClientRun): void {
    while (!run.paused && !run.done && run.queue.length > 0) {
      const m = run.queue.shift()!;
      if (m.t === 'data') {
        if (run.killed) continue;
        run.toAck += m.chunk.length;
        if (m.fd === 1) run.sink.stdout(m.chunk);
        else run.sink.stderr(m.chunk);
      } else if (m.t === 'exit') {
        this.finish(run, () => run.sink.exit(m.code, m.signal));
      } else if (m.t === 'error') {
        const e = Object.assign(new Error(m.message), m.code ? { code: m.code } : {});
        this.finish(run, () => run.sink.error(e));
      }
    }
    if (!run.done && run.toAck >= ACK_BYTES) {
      this.post({ t: 'ack', id: run.id, bytes: run.toAck });
      run.toAck = 0;
    }
  }

  private finish(run: ClientRun, tell: () => void): void {
    if (run.done) return;
    run.done = true;
    run.queue = [];
    this.runs.delete(run.id);
    this.refWhileBusy();
    tell();
  }

  /** The IPC channel keeps this process alive only while runs are in flight. */
  private refWhileBusy(): void {
    const channel = this.child.channel;
    if (!channel || this.dead) return;
    if (this.runs.size > 0) channel.ref();
    else channel.unref();
  }

  private die(detail: string): void {
    if (this.dead) return;
    this.dead = true;
    clearTimeout(this.readyTimer);
    const beforeReady = !this.ready;
    const runs = [...this.runs.values()];
    this.runs.clear();
    for (const run of runs) {
      if (run.done) continue;
      if (beforeReady && !this.closing) {
        // Nothing was sent: the held runs start elsewhere, as if this spawner had never been asked.
        if (run.killed) continue;
        run.delegate = this.fallback(run.req, run.sink);
        if (run.paused) run.delegate.pause();
        continue;
      }
      run.done = true;
      // A spawner that died cannot kill what it started: its processes would run on as orphans. (Its
      // end was not reported, so the pid is still that process's, or a zombie's init reaps.)
      if (run.pid !== undefined && !this.closing) {
        try {
          process.kill(run.pid, 'SIGKILL');
        } catch {
          // already gone
        }
      }
      run.sink.error(
        new Error(
          `the process spawner (pid ${this.child.pid}) ${detail} while ${run.req.file} ran; it did not complete`,
        ),
      );
    }
    // A spawner still running sees its channel close, kills what it started and exits.
    if (this.child.connected) this.child.disconnect();
    if (!this.closing) this.onDeath({ beforeReady, detail });
  }
}
