// Admission control for the ws binding: how many sockets may wait for a handshake, for how long, how
// many clients may be connected, and how fast failed handshakes may be tried. Pure bookkeeping (no ws,
// no http): the binding reports events, this module says whom to drop.
//
// Decisions (hardening; the protocol text requires none of it):
// - A socket is "pending" from TCP accept until its session completes the protocol handshake, whatever
//   stage it is in (no HTTP yet, upgrade under way, upgraded but silent). Pending sockets cost a file
//   descriptor each and need no token, so they are capped; over the cap a pending socket is dropped,
//   never the new one: the least advanced first (nothing sent < upgrade requested < handshake sent),
//   the oldest first within a stage. A flood of silent sockets therefore cannot lock out a client that
//   sends its upgrade request and handshake promptly.
// - Every pending socket has a deadline from its TCP accept (one sweeping timer, not one per socket).
// - Failed handshakes (wrong token, malformed first frame) spend a token bucket; while it is empty a
//   first frame waits for a token before it is evaluated, so token guessing is held to `perSecond`
//   guesses per second whatever the number of sockets. A correct handshake spends nothing, but while an
//   attacker keeps the bucket empty it waits its turn like any other (documented trade-off).

export interface AdmissionLimits {
  /** Sockets not yet past the protocol handshake; over it the least advanced, oldest is dropped. Default 128. */
  maxPending: number;
  /** From TCP accept to a completed handshake, in ms. Default 5000. */
  pendingDeadlineMs: number;
  /** Connections past the handshake; further upgrades get HTTP 503. Default 64. */
  maxClients: number;
  /** Failed-handshake budget: burst size and refill per second. Default 20 and 10/s. */
  failedHandshakeBurst: number;
  failedHandshakesPerSecond: number;
}

export const DEFAULT_ADMISSION_LIMITS: Readonly<AdmissionLimits> = {
  maxPending: 128,
  pendingDeadlineMs: 5000,
  maxClients: 64,
  failedHandshakeBurst: 20,
  failedHandshakesPerSecond: 10,
};

/** Why a pending socket was dropped (for logs and tests). */
export type DropReason = 'evicted' | 'deadline';

/**
 * How far a pending socket got. Eviction takes the least advanced first (oldest first within a stage):
 * a flood of sockets that never send a byte only ever evicts each other, never a client that has sent
 * its upgrade request or its handshake.
 */
export const Progress = {
  /** TCP accepted, nothing parsed yet. */
  Connected: 0,
  /** HTTP upgrade request received. */
  Upgrading: 1,
  /** First WebSocket frame received (the handshake is being evaluated or waits for a permit). */
  Handshaking: 2,
} as const;
export type Progress = (typeof Progress)[keyof typeof Progress];

/** Tracks pending sockets by progress, in arrival order; `T` is whatever the binding uses to drop one. */
export class PendingSockets<T> {
  private readonly since = new Map<T, number>(); // every pending socket, insertion order = age
  private readonly stages: Map<T, true>[] = [new Map(), new Map(), new Map()];
  private sweeper: ReturnType<typeof setInterval> | undefined;
  private trimScheduled = false;

  constructor(
    private readonly limits: Pick<AdmissionLimits, 'maxPending' | 'pendingDeadlineMs'>,
    private readonly drop: (socket: T, reason: DropReason) => void,
    private readonly now: () => number = Date.now,
  ) {}

  get size(): number {
    return this.since.size;
  }

  has(socket: T): boolean {
    return this.since.has(socket);
  }

  /**
   * A new socket. The cap is enforced a little later (trim()): sockets accepted in one burst are all
   * accepted before any of them is read, so deciding at once would treat a client whose upgrade request
   * is already waiting in its socket like a silent one. Two event-loop turns later every socket that
   * had sent something has been read and advanced. A burst beyond 4 × the cap is trimmed at once.
   */
  add(socket: T): void {
    this.since.set(socket, this.now());
    this.stages[Progress.Connected]!.set(socket, true);
    this.sweeper ??= setInterval(() => this.sweep(), Math.max(50, Math.min(1000, this.limits.pendingDeadlineMs / 4)));
    (this.sweeper as { unref?: () => void }).unref?.();
    if (this.since.size > 4 * this.limits.maxPending) this.trim();
    else if (this.since.size > this.limits.maxPending && !this.trimScheduled) {
      this.trimScheduled = true;
      setImmediate(() =>
        setImmediate(() => {
          this.trimScheduled = false;
          this.trim();
        }),
      );
    }
  }

  /** Drops the least advanced, oldest sockets until the cap holds. */
  trim(): void {
    while (this.since.size > this.limits.maxPending) {
      const stage = this.stages.find((m) => m.size > 0)!;
      const victim = stage.keys().next().value as T;
      this.forget(victim);
      this.drop(victim, 'evicted');
    }
  }

  /** The socket got further (never backwards); its age is kept. */
  advance(socket: T, to: Progress): void {
    if (!this.since.has(socket)) return;
    for (let p = 0; p < to; p++) this.stages[p]!.delete(socket);
    this.stages[to]!.set(socket, true);
  }

  /** The socket completed its handshake or is gone. */
  delete(socket: T): void {
    this.forget(socket);
    if (this.since.size === 0) this.stop();
  }

  private forget(socket: T): void {
    this.since.delete(socket);
    for (const m of this.stages) m.delete(socket);
  }

  /** Drops every socket past its deadline (oldest first, so the scan stops at the first young one). */
  sweep(): void {
    const cutoff = this.now() - this.limits.pendingDeadlineMs;
    for (const [socket, since] of this.since) {
      if (since > cutoff) break;
      this.forget(socket);
      this.drop(socket, 'deadline');
    }
    if (this.since.size === 0) this.stop();
  }

  stop(): void {
    if (this.sweeper) clearInterval(this.sweeper);
    this.sweeper = undefined;
  }
}

/**
 * Token bucket for failed handshakes. A handshake is evaluated only with a token reserved for it
 * (`tryPermit()` at once, or `permit()` when it has to wait); `settle(failed)` then keeps the token
 * spent for a failure or gives it back for a success. Waiters are served in arrival order and drop out
 * when their signal aborts (their socket closed).
 */
export class HandshakeThrottle {
  private tokens: number;
  private last: number;
  private readonly waiters: { resolve: () => void; signal?: AbortSignal }[] = [];
  private timer: ReturnType<typeof setTimeout> | undefined;

  constructor(
    private readonly burst: number,
    private readonly perSecond: number,
    private readonly now: () => number = Date.now,
  ) {
    this.tokens = burst;
    this.last = now();
  }

  private refill(): void {
    const t = this.now();
    this.tokens = Math.min(this.burst, this.tokens + ((t - this.last) / 1000) * this.perSecond);
    this.last = t;
  }

  /** Reserves a token when one is free and nobody waits; false otherwise (then use permit()). */
  tryPermit(): boolean {
    this.refill();
    if (this.waiters.length > 0 || this.tokens < 1) return false;
    this.tokens -= 1;
    return true;
  }

  /** Resolves once a token is reserved for the caller; never resolves for an aborted waiter. */
  permit(signal?: AbortSignal): Promise<void> {
    if (this.tryPermit()) return Promise.resolve();
    return new Promise<void>((resolve) => {
      this.waiters.push({ resolve, signal });
      this.schedule();
    });
  }

  /** The evaluation's outcome: a failure keeps its token spent, a success returns it. */
  settle(failed: boolean): void {
    if (!failed) {
      this.refill();
      this.tokens = Math.min(this.burst, this.tokens + 1);
    }
  }

  get waiting(): number {
    return this.waiters.length;
  }

  private schedule(): void {
    if (this.timer) return;
    this.refill();
    const wait = Math.max(1, Math.ceil(((1 - this.tokens) / this.perSecond) * 1000));
    this.timer = setTimeout(() => {
      this.timer = undefined;
      this.release();
    }, wait);
    (this.timer as { unref?: () => void }).unref?.();
  }

  private release(): void {
    this.refill();
    while (this.waiters.length > 0) {
      const w = this.waiters[0]!;
      if (w.signal?.aborted) {
        this.waiters.shift();
        continue;
      }
      if (this.tokens < 1) break;
      this.waiters.shift();
      this.tokens -= 1;
      w.resolve();
    }
    if (this.waiters.length > 0) this.schedule();
  }
}
