// Which client (connection) a piece of work is for, keyed by the request's AbortSignal: every call that
// can wait on a shared limiter already takes the request's signal, so the limiters learn the client from
// it and can be fair per client without each call site passing an id around.
// Not AsyncLocalStorage: on Node < 24 its first `run` turns on promise hooks for the whole process, and
// from then on every `await` anywhere pays for them (0.4 ms of CPU per idea-server nav request, measured).

const clients = new WeakMap<AbortSignal, string>();

/** Client id used for work started outside any request (activation, watchers, tests). */
export const INTERNAL_CLIENT = 'internal';

/** Marks `signal` (a request's) as belonging to client `id`; work given this signal is counted as `id`'s. */
export function bindClient(signal: AbortSignal, id: string): void {
  clients.set(signal, id);
}

/**
 * Marks `derived` (a signal made from `from`: a linked controller, `AbortSignal.any`) as `from`'s
 * client's, so work handed the derived signal still counts for that client. Returns `derived`.
 */
export function inheritClient(derived: AbortSignal, from: AbortSignal | undefined): AbortSignal {
  const id = from && clients.get(from);
  if (id !== undefined) clients.set(derived, id);
  return derived;
}

/** The client that work given `signal` is for (INTERNAL_CLIENT without a bound signal). */
export function clientOf(signal: AbortSignal | undefined): string {
  return (signal && clients.get(signal)) ?? INTERNAL_CLIENT;
}
