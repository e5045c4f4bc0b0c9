// A counting semaphore shared by all clients that hands out free slots round-robin per client: a client
// with 1,000 queued calls gets one slot per turn like a client with one, so it cannot starve the others.
// One client never holds every slot (at most capacity - 1 when capacity > 1), so a newcomer finds a slot
// without waiting for a long holder (a regex running to its budget, a slow rg) to finish.
import { clientOf } from './client-context';

export type Release = () => void;

interface Waiter {
  client: string;
  grant: (release: Release) => void;
  fail: (reason: unknown) => void;
  signal: AbortSignal | undefined;
  onAbort: (() => void) | undefined;
}

export class FairLimiter {
  private active = 0;
  private readonly activeBy = new Map<string, number>();
  private readonly queues = new Map<string, Waiter[]>();
  /** Clients with waiters, in turn order; `turn` indexes the next one to serve. */
  private readonly ring: string[] = [];
  private turn = 0;

  constructor(private cap: number) {
    this.setCapacity(cap);
  }

  get capacity(): number {
    return this.cap;
  }

  /** Slots in use / calls waiting (for logs and tests). */
  get stats(): { active: number; queued: number; clients: number } {
    let queued = 0;
    for (const q of this.queues.values()) queued += q.length;
    return { active: this.active, queued, clients: this.ring.length };
  }

  /** Most slots one client may hold at once. */
  get perClient(): number {
    return this.cap > 1 ? this.cap - 1 : 1;
  }

  setCapacity(n: number): void {
    if (!Number.isInteger(n) || n < 1) throw new RangeError(`capacity must be an integer >= 1, got ${n}`);
    this.cap = n;
    this.pump();
  }

  /**
   * Waits for a slot for `client` (default: the client `signal` is bound to, see bindClient). Rejects
   * with the signal's reason when it aborts first; the returned release is idempotent.
   */
  acquire(signal?: AbortSignal, client = clientOf(signal)): Promise<Release> {
    if (signal?.aborted) return Promise.reject(abortReason(signal));
    return new Promise<Release>((grant, fail) => {
      const w: Waiter = { client, grant, fail, signal, onAbort: undefined };
      if (signal) {
        w.onAbort = () => {
          if (this.remove(w)) fail(abortReason(signal));
        };
        signal.addEventListener('abort', w.onAbort, { once: true });
      }
      let q = this.queues.get(client);
      if (!q) {
        q = [];
        this.queues.set(client, q);
        this.ring.push(client);
      }
      q.push(w);
      this.pump();
    });
  }

  /** Runs `fn` holding a slot; the slot is released however `fn` ends. */
  async run<T>(signal: AbortSignal | undefined, fn: () => Promise<T> | T): Promise<T> {
    const release = await this.acquire(signal);
    try {
      return await fn();
    } finally {
      release();
    }
  }

  private pump(): void {
    while (this.active < this.cap && this.ring.length > 0) {
      let picked = -1;
      for (let i = 0; i < this.ring.length; i++) {
        const idx = (this.turn + i) % this.ring.length;
        if ((this.activeBy.get(this.ring[idx]!) ?? 0) < this.perClient) {
          picked = idx;
          break;
        }
      }
      if (picked < 0) return; // every waiting client is at its share
      const client = this.ring[picked]!;
      const q = this.queues.get(client)!;
      const w = q.shift()!;
      if (q.length === 0) {
        this.queues.delete(client);
        this.ring.splice(picked, 1);
        this.turn = this.ring.length ? picked % this.ring.length : 0;
      } else {
        this.turn = (picked + 1) % this.ring.length;
      }
      if (w.onAbort) w.signal!.removeEventListener('abort', w.onAbort);
      this.active++;
      this.activeBy.set(client, (this.activeBy.get(client) ?? 0) + 1);
      let released = false;
      w.grant(() => {
        if (released) return;
        released = true;
        this.active--;
        const n = (this.activeBy.get(client) ?? 1) - 1;
        if (n > 0) this.activeBy.set(client, n);
        else this.activeBy.delete(client);
        this.pump();
      });
    }
  }

  /** Drops a waiter that gave up; false when it was already granted. */
  private remove(w: Waiter): boolean {
    const q = this.queues.get(w.client);
    const i = q ? q.indexOf(w) : -1;
    if (!q || i < 0) return false;
    q.splice(i, 1);
    if (q.length === 0) {
      this.queues.delete(w.client);
      const r = this.ring.indexOf(w.client);
      this.ring.splice(r, 1);
      if (r < this.turn) this.turn--;
      if (this.turn >= this.ring.length) this.turn = 0;
    }
    return true;
  }
}

function abortReason(signal: AbortSignal): unknown {
  return signal.reason ?? new Error('aborted');
}
