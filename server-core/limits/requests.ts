// Per-connection wiring of the limits, as a session hook: every request's signal is bound to its
// connection's client (so the process and regex limiters can be fair per connection) and counts against a per-server bound
// on requests in flight, next to the per-connection bound the generated session enforces.
import { bindClient } from './client-context';
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
 * The session hook (runtime ServerSessionOptions.aroundRequest) of one connection's request: it is
 * admitted through `gate`, and work handed its signal counts as `clientId`'s at the fair process and
 * regex limiters.
 */
export async function gatedAsClient<R>(
  gate: RequestGate,
  clientId: string,
  request: { ownInFlight: number; signal: AbortSignal },
  call: () => Promise<R>,
): Promise<R> {
  const leave = gate.enter(request.ownInFlight);
  try {
    bindClient(request.signal, clientId);
    return await call();
  } finally {
    leave();
  }
}
