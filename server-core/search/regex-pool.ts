// Runs user regular expressions off the extension host's main thread: a small pool of worker threads,
// each with a heap limit (resourceLimits), scheduled fairly per client (limits/fair-limiter), every job
// under a time budget shared by the request. A job that overruns gets its worker terminated (V8 stops
// a running regex on terminate) and a fresh one started in its place; the caller gets a clear error
// and the host never waits for the regex.
import { join } from 'node:path';
import { Worker } from 'node:worker_threads';
import { clientOf } from '../limits/client-context';
import { limits, onLimitsChanged } from '../limits/config';
import { FairLimiter } from '../limits/fair-limiter';
import type { RegexJob, RegexJobResult } from './regex-jobs';
import type { WorkerReply } from './regex-worker';

/** Wall time the regex work of one request may still use in the workers. */
export class RegexBudget {
  remainingMs: number;
  constructor(readonly totalMs: number = limits().regexTimeBudgetMs) {
    this.remainingMs = totalMs;
  }
}

/** A regex job stopped at its time or memory budget. */
export class RegexLimitError extends Error {}

export interface RegexPoolOptions {
  /** Path of the bundled worker script (dist/regex-worker.cjs). */
  script: string;
  workers: number;
  memoryMb: number;
}

/** Jobs with more input than this (UTF-16 units) get a fresh worker afterwards, returning their heap. */
const RECYCLE_AFTER_CHARS = 32 * 1024 * 1024;

export class RegexPool {
  private readonly slots: FairLimiter;
  private readonly idle: Worker[] = [];
  private live = 0;
  private seq = 0;
  private disposed = false;
  /** Aborts every queued and running job at dispose(). */
  private readonly shutdown = new AbortController();

  constructor(private opts: RegexPoolOptions) {
    this.slots = new FairLimiter(opts.workers);
  }

  get stats(): { live: number; idle: number; active: number; queued: number } {
    return { live: this.live, idle: this.idle.length, ...this.slots.stats };
  }

  /** New worker count / heap limit (the heap limit applies to workers started from now on). */
  reconfigure(o: Partial<Omit<RegexPoolOptions, 'script'>>): void {
    this.opts = { ...this.opts, ...o };
    this.slots.setCapacity(this.opts.workers);
    while (this.live > this.opts.workers && this.idle.length > 0) this.retire(this.idle.pop()!);
  }

  /** Starts a worker now so the first request does not pay for it. */
  prewarm(): void {
    if (!this.disposed && this.live === 0) this.idle.push(this.spawn());
  }

  /**
   * Runs `job` in a worker when the current client's turn comes. Rejects with RegexLimitError when the
   * budget or the heap limit is exceeded, with the signal's reason when aborted (the worker is then
   * terminated too), and with the job's own error otherwise.
   */
  async run<R extends RegexJobResult>(
    job: RegexJob,
    budget: RegexBudget,
    signal?: AbortSignal,
    transfer?: ArrayBuffer[],
  ): Promise<R> {
    if (this.disposed) throw new Error('the regex engine is shut down');
    if (budget.remainingMs <= 0) throw timeError(budget);
    const stop = signal ? AbortSignal.any([signal, this.shutdown.signal]) : this.shutdown.signal;
    const release = await this.slots.acquire(stop, clientOf(signal));
    try {
      const w = this.idle.pop() ?? this.spawn();
      return (await this.exec(w, job, budget, stop, transfer)) as R;
    } finally {
      release();
    }
  }

  /** Terminates every worker; queued and running jobs reject. */
  dispose(): void {
    this.disposed = true;
    this.shutdown.abort(new Error('the regex engine is shut down'));
    for (const w of this.idle.splice(0)) this.retire(w);
  }

  private exec(
    w: Worker,
    job: RegexJob,
    budget: RegexBudget,
    signal: AbortSignal | undefined,
    transfer: ArrayBuffer[] | undefined,
  ): Promise<RegexJobResult> {
    return new Promise((resolve, reject) => {
      const id = ++this.seq;
      const memoryMb = this.opts.memoryMb;
      const t0 = performance.now();
      let settled = false;
      const finish = (outcome: 'keep' | 'replace' | 'drop'): boolean => {
        if (settled) return false;
        settled = true;
        clearTimeout(timer);
        w.off('message', onMessage);
        w.off('error', onError);
        w.off('exit', onExit);
        signal?.removeEventListener('abort', onAbort);
        budget.remainingMs -= performance.now() - t0;
        if (
          outcome === 'keep' &&
          jobChars(job) <= RECYCLE_AFTER_CHARS &&
          !this.disposed &&
          this.live <= this.opts.workers
        )
          this.idle.push(w);
        else {
          this.retire(w);
          // A warm replacement, unless the worker failed by itself (a broken script would loop).
          if (outcome !== 'drop' && !this.disposed && this.live < this.opts.workers) this.idle.push(this.spawn());
        }
        return true;
      };
      const onMessage = (m: WorkerReply) => {
        if (m.id !== id) return;
        if (!finish('keep')) return;
        if (m.ok) resolve(m.result as RegexJobResult);
        else reject(new Error(`the regular expression failed: ${m.message}`));
      };
      const onError = (e: Error & { code?: string }) => {
        const oom = e.code === 'ERR_WORKER_OUT_OF_MEMORY';
        if (!finish(oom ? 'replace' : 'drop')) return;
        reject(
          oom
            ? new RegexLimitError(
                `the regular expression exceeded its memory budget of ${memoryMb} MB and was stopped (idea.server.limits.regexMemoryMb)`,
              )
            : new Error(`the regex worker failed: ${e.message}`),
        );
      };
      const onExit = (code: number) => {
        if (finish('drop')) reject(new Error(`the regex worker exited unexpectedly (code ${code})`));
      };
      const onAbort = () => {
        if (finish('replace')) reject(signal!.reason ?? new Error('aborted'));
      };
      const timer = setTimeout(
        () => {
          if (!finish('replace')) return;
          budget.remainingMs = Math.min(0, budget.remainingMs); // timers may fire a hair early
          reject(timeError(budget));
        },
        Math.max(1, budget.remainingMs),
      );
      w.on('message', onMessage);
      w.on('error', onError);
      w.on('exit', onExit);
      signal?.addEventListener('abort', onAbort, { once: true });
      if (signal?.aborted) return onAbort();
      try {
        w.postMessage({ id, job }, transfer);
      } catch (e) {
        if (finish('keep')) reject(e);
      }
    });
  }

  private spawn(): Worker {
    const mb = this.opts.memoryMb;
    const w = new Worker(this.opts.script, {
      resourceLimits: {
        maxOldGenerationSizeMb: mb,
        maxYoungGenerationSizeMb: Math.min(32, Math.max(4, mb >> 4)),
        stackSizeMb: 4,
      },
      env: {},
    });
    this.live++;
    // An idle worker must never take the host down: errors are answered by exec() while a job runs and
    // otherwise just retire the worker.
    w.on('error', () => undefined);
    w.once('exit', () => {
      const i = this.idle.indexOf(w);
      if (i >= 0) {
        this.idle.splice(i, 1);
        this.live--;
      }
    });
    w.unref();
    return w;
  }

  private retire(w: Worker): void {
    const i = this.idle.indexOf(w);
    if (i >= 0) this.idle.splice(i, 1);
    this.live--;
    w.removeAllListeners('exit');
    w.on('error', () => undefined);
    void w.terminate().catch(() => undefined);
  }
}

function timeError(budget: RegexBudget): RegexLimitError {
  return new RegexLimitError(
    `the regular expression exceeded its time budget of ${budget.totalMs} ms and was stopped (idea.server.limits.regexTimeBudgetMs)`,
  );
}

function jobChars(job: RegexJob): number {
  if (job.op === 'replace') return job.text.length;
  if (job.op === 'lines') {
    let n = 0;
    for (const l of job.lines) n += l.length;
    return n;
  }
  let n = 0;
  for (const t of job.texts) n += t.length;
  return n;
}

let workerScript: string | undefined;
let shared: { pool: RegexPool; unsubscribe: () => void } | undefined;

/** Where the bundled worker lives (the extension sets dist/regex-worker.cjs; tests a build of their own). */
export function setRegexWorkerScript(path: string): void {
  workerScript = path;
}

/** The extension's pool, created on first use with the current limits. */
export function regexPool(): RegexPool {
  if (!shared) {
    const script =
      workerScript ?? (typeof __dirname === 'string' ? join(__dirname, 'regex-worker.cjs') : 'regex-worker.cjs');
    const l = limits();
    const pool = new RegexPool({ script, workers: l.regexWorkers, memoryMb: l.regexMemoryMb });
    const unsubscribe = onLimitsChanged((n) =>
      pool.reconfigure({ workers: n.regexWorkers, memoryMb: n.regexMemoryMb }),
    );
    shared = { pool, unsubscribe };
  }
  return shared.pool;
}

/** Stops the pool's workers (deactivation). */
export function disposeRegexPool(): void {
  shared?.unsubscribe();
  shared?.pool.dispose();
  shared = undefined;
}
