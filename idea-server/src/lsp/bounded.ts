// One way to bound a wait: the caller's AbortSignal, a timeout, and optionally a subscription that
// fails the wait early (a server that exited; a subscription rather than a promise, which would keep
// one reaction per wait for as long as the server lives). Whatever ends the wait first wins; `onGiveUp` runs when the
// caller stops waiting for a reason other than the answer (to send $/cancelRequest).
import { LspAbortError, LspTimeoutError } from './errors';

export interface Bounds {
  signal?: AbortSignal;
  timeoutMs: number;
}

/** Calls `fail` if the awaited thing can no longer come; returns the unsubscribe. */
export type FailEarly = (fail: (e: unknown) => void) => () => void;

export function bounded<T>(
  work: Promise<T>,
  what: string,
  bounds: Bounds,
  opts: { failEarly?: FailEarly; onGiveUp?: () => void } = {},
): Promise<T> {
  const { signal, timeoutMs } = bounds;
  if (signal?.aborted) {
    work.catch(() => {});
    opts.onGiveUp?.();
    return Promise.reject(new LspAbortError(what));
  }
  return new Promise<T>((resolve, reject) => {
    let done = false;
    let unsubscribe: (() => void) | undefined;
    const finish = (f: () => void, gaveUp: boolean) => {
      if (done) return;
      done = true;
      clearTimeout(timer);
      unsubscribe?.();
      signal?.removeEventListener('abort', onAbort);
      if (gaveUp) opts.onGiveUp?.();
      f();
    };
    const onAbort = () => finish(() => reject(new LspAbortError(what)), true);
    const timer = setTimeout(() => finish(() => reject(new LspTimeoutError(what, timeoutMs)), true), timeoutMs);
    signal?.addEventListener('abort', onAbort, { once: true });
    work.then(
      (v) => finish(() => resolve(v), false),
      (e: unknown) => finish(() => reject(e), false),
    );
    if (!done) unsubscribe = opts.failEarly?.((e: unknown) => finish(() => reject(e), false));
  });
}
