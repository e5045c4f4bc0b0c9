// Polling with a deadline, backoff and an abort signal, for the places that must wait on something
// that sends no event (a language server becoming ready, a port opening, a file being rewritten).
// One helper instead of a loop with its own constants in each place.

export interface PollOptions {
  /** Give up after this many ms from the call… */
  timeoutMs?: number;
  /** …or at this absolute time (Date.now() ms). One of the two is required. */
  deadline?: number;
  /** Wait before the second attempt (ms). Default 50. */
  intervalMs?: number;
  /** Each wait is the previous one times this (default 2; 1 = a fixed interval)… */
  backoff?: number;
  /** …up to this (ms). Default 500. */
  maxIntervalMs?: number;
  /** Stops polling (the pending wait ends at once); poll then resolves undefined. */
  signal?: AbortSignal;
}

function sleep(ms: number, signal: AbortSignal | undefined): Promise<void> {
  return new Promise((resolve) => {
    if (signal?.aborted) return resolve();
    const done = () => {
      clearTimeout(timer);
      signal?.removeEventListener('abort', done);
      resolve();
    };
    const timer = setTimeout(done, ms);
    signal?.addEventListener('abort', done, { once: true });
  });
}

/**
 * Calls `check` until it returns something other than undefined and resolves with that; resolves
 * undefined once the deadline has passed (the last attempt is made no later than the deadline: waits
 * are cut short to it) or the signal aborted. `check` is always called at least once; its errors
 * propagate.
 */
export async function poll<T>(
  check: () => T | undefined | Promise<T | undefined>,
  opts: PollOptions,
): Promise<T | undefined> {
  const deadline = opts.deadline ?? Date.now() + (opts.timeoutMs ?? 0);
  if (opts.deadline === undefined && opts.timeoutMs === undefined) throw new Error('poll needs timeoutMs or deadline');
  const factor = opts.backoff ?? 2;
  const max = opts.maxIntervalMs ?? 500;
  let wait = opts.intervalMs ?? 50;
  for (;;) {
    const v = await check();
    if (v !== undefined) return v;
    const left = deadline - Date.now();
    if (left <= 0 || opts.signal?.aborted) return undefined;
    await sleep(Math.min(wait, left), opts.signal);
    if (opts.signal?.aborted) return undefined;
    wait = Math.min(wait * factor, max);
  }
}
