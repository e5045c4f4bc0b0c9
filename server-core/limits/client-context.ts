// Which client (connection) the current work is for, carried through every await by AsyncLocalStorage,
// so the shared limiters can be fair per client without each call site passing an id around.
import { AsyncLocalStorage } from 'node:async_hooks';

const store = new AsyncLocalStorage<string>();

/** Client id used for work started outside any request (activation, tests). */
const INTERNAL_CLIENT = 'internal';

/** Runs `fn` (and everything it awaits or schedules) as work for client `id`. */
export function runAsClient<T>(id: string, fn: () => T): T {
  return store.run(id, fn);
}

/** The client the current work is for. */
export function currentClient(): string {
  return store.getStore() ?? INTERNAL_CLIENT;
}
