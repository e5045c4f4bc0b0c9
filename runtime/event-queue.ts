// One subscriber's outgoing events (protocol 0.1.7 on): sent at once while its socket keeps up,
// queued while the socket holds more than HIGH_WATER_BYTES unsent, and bounded there. A queued event
// is coalesced with what is already queued for the same event (the whole data, or per file entry),
// and what does not fit is dropped and counted: the next frame sent carries `dropped`.

/** Undelivered entries per subscriber beyond which new ones are dropped (counted). */
export const MAX_QUEUED_EVENTS = 256;
/** Bytes a socket may hold unsent before events for it are queued instead of sent. */
export const HIGH_WATER_BYTES = 1 << 20;
/** How often a backlog is retried while the socket is full. */
const DRAIN_INTERVAL_MS = 10;

/**
 * How undelivered events of one kind are merged: "whole" (a later event replaces an earlier one), or
 * "<array>[].<field>" (entries of data.<array> are kept one per <field> value, the latest).
 */
export type Coalesce = string;

interface Keyed {
  readonly array: string;
  readonly field: string;
}

function parseCoalesce(rule: Coalesce): Keyed | undefined {
  const m = /^([A-Za-z]\w*)\[\]\.([A-Za-z]\w*)$/.exec(rule);
  return m ? { array: m[1]!, field: m[2]! } : undefined;
}

interface Pending {
  /** "whole" events: the latest data. */
  data?: Record<string, unknown>;
  /** Keyed events: entry key → entry, in first-queued order. */
  entries?: Map<string, unknown>;
}

/**
 * Merges a queued entry of a keyed event with a newer one for the same key (both undelivered). Without
 * one the newer entry replaces the queued one, which is right for state ("file X is now deleted") but
 * loses information for deltas (diagnostics added/removed): those servers pass a merge.
 */
export type MergeEntry = (event: string, queued: unknown, newer: unknown) => unknown;

export interface EventSink {
  send(frame: string): void;
  /** Bytes the socket holds unsent (ws `bufferedAmount`); 0 when unknown. */
  bufferedAmount(): number;
}

/** The event being fanned out by shareEncoding, and its frame once a queue has encoded it. */
let sharing: { event: string; data: object; json?: string; frame?: string } | undefined;

/**
 * Runs `fanOut`, which pushes `data` as `event` to many queues synchronously, with the frame encoded once
 * for all of them instead of once per subscriber (with 64 subscribers that JSON was most of a fan-out's
 * cost: bench/events). Scoped to the call: an object changed between two emits is encoded afresh.
 */
export function shareEncoding(event: string, data: object, fanOut: () => void): void {
  const outer = sharing;
  sharing = { event, data };
  try {
    fanOut();
  } finally {
    sharing = outer;
  }
}

export class EventQueue {
  private readonly pending = new Map<string, Pending>();
  private size = 0;
  private dropped = 0;
  private timer: ReturnType<typeof setTimeout> | undefined;

  constructor(
    private readonly sink: EventSink,
    private readonly rules: ReadonlyMap<string, Keyed | undefined>,
    private readonly merge?: MergeEntry,
  ) {}

  /** Entries waiting (each whole event or file entry counts one). */
  get queued(): number {
    return this.size;
  }

  static rules(coalesce: { readonly [event: string]: Coalesce }): Map<string, Keyed | undefined> {
    return new Map(Object.entries(coalesce).map(([e, rule]) => [e, parseCoalesce(rule)]));
  }

  push(event: string, data: Record<string, unknown>): void {
    if (this.size === 0 && !this.full()) return this.write(event, data);
    const keyed = this.rules.get(event);
    const entries = keyed ? data[keyed.array] : undefined;
    let p = this.pending.get(event);
    if (!keyed || !Array.isArray(entries)) {
      if (!p) {
        if (this.size >= MAX_QUEUED_EVENTS) return this.drop(1);
        this.pending.set(event, (p = {}));
      }
      if (p.data === undefined) this.size++;
      p.data = data;
    } else {
      for (const entry of entries) {
        const key = String((entry as Record<string, unknown> | null)?.[keyed.field]);
        const map = p?.entries;
        if (map?.has(key)) {
          const queued = map.get(key);
          map.delete(key); // re-inserted last: its latest state goes out in the order it last changed
          map.set(key, this.merged(event, queued, entry));
          continue;
        }
        if (this.size >= MAX_QUEUED_EVENTS) {
          this.drop(1);
          continue;
        }
        if (!p) this.pending.set(event, (p = {}));
        (p.entries ??= new Map()).set(key, entry);
        this.size++;
      }
    }
    this.schedule();
  }

  private merged(event: string, queued: unknown, newer: unknown): unknown {
    if (!this.merge) return newer;
    try {
      return this.merge(event, queued, newer);
    } catch {
      return newer; // a faulty hook costs the delta, never the connection
    }
  }

  /** Drops everything queued for `event` (unsubscribed). */
  discard(event: string): void {
    const p = this.pending.get(event);
    if (!p) return;
    this.size -= (p.data !== undefined ? 1 : 0) + (p.entries?.size ?? 0);
    this.pending.delete(event);
  }

  /** The connection is gone: nothing more is sent. */
  close(): void {
    clearTimeout(this.timer);
    this.timer = undefined;
    this.pending.clear();
    this.size = 0;
  }

  private full(): boolean {
    let held = 0;
    try {
      held = this.sink.bufferedAmount();
    } catch {
      held = 0;
    }
    return held > HIGH_WATER_BYTES;
  }

  private drop(n: number): void {
    this.dropped += n;
    this.schedule();
  }

  private schedule(): void {
    if (this.timer) return;
    this.timer = setTimeout(() => {
      this.timer = undefined;
      this.drain();
    }, DRAIN_INTERVAL_MS);
    (this.timer as { unref?: () => void }).unref?.();
  }

  private drain(): void {
    while (!this.full()) {
      const next = this.pending.entries().next();
      if (next.done) break;
      const [event, p] = next.value;
      this.pending.delete(event);
      this.size -= (p.data !== undefined ? 1 : 0) + (p.entries?.size ?? 0);
      const keyed = this.rules.get(event);
      const data = p.entries && keyed ? { [keyed.array]: [...p.entries.values()] } : p.data;
      if (data) this.write(event, data);
    }
    // A count with nothing left to carry it waits for the next event; a backlog is retried.
    if (this.size > 0) this.schedule();
  }

  private write(event: string, data: Record<string, unknown>): void {
    // The bytes JSON.stringify({ type: 'event', event, data, dropped? }) gives, with data's JSON (and the
    // whole frame when nothing was dropped) shared across the subscribers of one fan-out.
    const shared = sharing !== undefined && sharing.data === data && sharing.event === event ? sharing : undefined;
    if (this.dropped === 0 && shared?.frame !== undefined) return this.sink.send(shared.frame);
    const json = shared ? (shared.json ??= JSON.stringify(data)) : JSON.stringify(data);
    const head = `{"type":"event","event":${JSON.stringify(event)},"data":${json}`;
    if (this.dropped > 0) {
      const dropped = this.dropped;
      this.dropped = 0;
      return this.sink.send(`${head},"dropped":${dropped}}`);
    }
    const frame = `${head}}`;
    if (shared) shared.frame = frame;
    this.sink.send(frame);
  }
}
