// Per-connection wiring of the limits: every handler call runs as its connection's client (so the
// process and regex limiters can be fair per connection) and counts against a per-server bound on
// requests in flight, next to the per-connection bound the generated session enforces.
import { runAsClient } from './client-context';
import { limits } from './config';

/** A connection with fewer requests than this in flight is admitted even when the server is full. */
export const RESERVED_PER_CONNECTION = 8;

export class RequestGate {
  private running = 0;
  constructor(private readonly max: () => number = () => limits().maxRequestsInFlight) {}

  get inFlight(): number {
    return this.running;
  }

  /**
   * Admits one request of a connection that has `ownInFlight` running, or throws (HANDLER_ERROR at the
   * dispatcher). A light connection is always admitted, so a few heavy clients cannot lock others out.
   */
  enter(ownInFlight: number): () => void {
    const max = this.max();
    if (this.running >= max && ownInFlight >= RESERVED_PER_CONNECTION) {
      throw new Error(
        `too many requests in flight on this server (limit ${max}, idea.server.limits.maxRequestsInFlight); retry later`,
      );
    }
    this.running++;
    let done = false;
    return () => {
      if (!done) {
        done = true;
        this.running--;
      }
    };
  }
}

/**
 * The handlers as one connection sees them: each call runs as `clientId` and is admitted through
 * `gate`. A proxy, so it fits whatever shape the handlers object has (plain object or class instance).
 */
export function handlersForClient<H extends object>(handlers: H, clientId: string, gate: RequestGate): H {
  let own = 0;
  const wrapped = new Map<PropertyKey, unknown>();
  return new Proxy(handlers, {
    get(target, prop) {
      const fn: unknown = Reflect.get(target, prop);
      if (typeof fn !== 'function') return fn;
      let w = wrapped.get(prop);
      if (!w) {
        w = async (...args: unknown[]) => {
          const leave = gate.enter(own);
          own++;
          try {
            return await runAsClient(clientId, () => (fn as (...a: unknown[]) => unknown).apply(target, args));
          } finally {
            own--;
            leave();
          }
        };
        wrapped.set(prop, w);
      }
      return w;
    },
  });
}
