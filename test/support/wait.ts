// The waits of the tests, in one place. A test waits for a condition, never for a time that happened to
// be long enough on the machine it was written on: `until` polls (runtime/poll.ts) with a bound and fails
// naming what it waited for and, when given, what it saw last. `tick` lets queued callbacks run. `sleep`
// is for the few checks that need time itself to pass (a window in which something must NOT happen, a
// timestamp that must differ); each caller says why beside it.
import { poll } from '../../runtime/poll';

export interface UntilOptions {
  /** Give up after this many ms (default 5,000). */
  timeoutMs?: number;
  /** First pause between checks (default 10 ms; doubles up to maxIntervalMs). */
  intervalMs?: number;
  /** Longest pause between checks (default 100 ms). */
  maxIntervalMs?: number;
  /** Appended to the failure: the state the condition was judged on. */
  detail?: () => unknown;
  /**
   * Errors of the probe count as "not yet" (the last one is in the failure), for probes of something
   * still starting up (a page loading) that throws until it is there. Default: errors fail at once.
   */
  retryErrors?: boolean;
}

/**
 * Resolves with the first value `probe` returns that is neither undefined nor false; rejects after the
 * bound with "timed out after N ms waiting for <what>" (and the detail). Errors thrown by `probe`
 * propagate at once: a probe that cannot be evaluated is a failure, not a reason to wait.
 */
export async function until<T>(
  what: string,
  probe: () => T | undefined | false | Promise<T | undefined | false>,
  opts: UntilOptions = {},
): Promise<T> {
  const timeoutMs = opts.timeoutMs ?? 5_000;
  let lastError: unknown;
  const v = await poll(
    async () => {
      try {
        const x = await probe();
        return x === false ? undefined : x;
      } catch (e) {
        if (!opts.retryErrors) throw e;
        lastError = e;
        return undefined;
      }
    },
    { timeoutMs, intervalMs: opts.intervalMs ?? 10, maxIntervalMs: opts.maxIntervalMs ?? 100 },
  );
  if (v === undefined) {
    const detail = opts.detail ? `; last seen: ${describe(opts.detail())}` : '';
    const error = lastError === undefined ? '' : `; last error: ${String(lastError)}`;
    throw new Error(`timed out after ${timeoutMs} ms waiting for ${what}${detail}${error}`);
  }
  return v as T;
}

/** One turn of the event loop: callbacks queued with setImmediate (and everything before them) have run. */
export const tick = (): Promise<void> => new Promise((r) => setImmediate(r));

/** `n` turns of the event loop, for chains of callbacks that each queue the next. */
export async function ticks(n: number): Promise<void> {
  for (let i = 0; i < n; i++) await tick();
}

/**
 * `n` rounds of process.nextTick: nextTick callbacks and microtasks run, the check phase (setImmediate)
 * never does. For code whose order within one turn is what is tested (a write before an uncork).
 */
export async function nextTicks(n = 1): Promise<void> {
  for (let i = 0; i < n; i++) await new Promise<void>((r) => process.nextTick(r));
}

/** Real time passing. Only where time itself is what the test needs; say why at the call. */
export const sleep = (ms: number): Promise<void> => new Promise((r) => setTimeout(r, ms));

/**
 * A window in which something must NOT happen, sized from what the same test measured: `factor` times
 * the latency of the same kind of thing where it does happen (an answer, an event, a report), at least
 * `floorMs`. On a loaded machine the latency grows and the window with it; on an idle one it is short.
 */
export function silence(measuredMs: number, opts: { factor?: number; floorMs?: number } = {}): Promise<void> {
  return sleep(Math.max(opts.floorMs ?? 20, (opts.factor ?? 4) * measuredMs));
}

/** Runs `fn` and says how long it took (ms): the latency a later `silence` is sized from. */
export async function timed<T>(fn: () => Promise<T>): Promise<{ value: T; ms: number }> {
  const t0 = performance.now();
  const value = await fn();
  return { value, ms: performance.now() - t0 };
}

function describe(v: unknown): string {
  if (typeof v === 'string') return v;
  try {
    return JSON.stringify(v);
  } catch {
    return String(v);
  }
}
