// The T37 oracle, pure: a subscriber's view of each file's diagnostics, replayed from what went over
// one connection. With `initial: true` a subscriber's view of a file starts as its set in the initial
// event (empty for a file not in it) and after each diagnostics/changed event is the view minus `removed`
// plus `added` (multisets: equal in every field is the same diagnostic). Every event must then be
// consistent with it: `removed` is part of the view, `total` is the view's size afterwards, and `added`
// and `removed` are never both empty. The runner applies it to every connection of every case
// (execute.ts), so any case that subscribes with `initial: true` is judged by it too.

export const DIAGNOSTICS_CHANGED = '/app/vscode/diagnostics/changed';
const SUBSCRIBE = '/app/vscode/events/subscribe';
const UNSUBSCRIBE = '/app/vscode/events/unsubscribe';

/** One frame of a connection, in the order it went over the wire; `frame` is the parsed JSON (or the text). */
export interface ObservedFrame {
  direction: 'sent' | 'received';
  frame: unknown;
}

export interface ViewProblem {
  /** Which diagnostics/changed event the oracle judged on the connection (1 = the first after the subscribe answer: the initial one). */
  event: number;
  /** Which frame the connection received it as (1-based, the runner's handshake included). */
  received: number;
  filePath: string;
  problem: string;
}

export interface ViewOutcome {
  /** A subscription with `initial: true` to diagnostics/changed was answered: the oracle applied. */
  applied: boolean;
  /** diagnostics/changed events judged (numbered on through later subscriptions of the connection). */
  events: number;
  problems: ViewProblem[];
}

type Obj = Record<string, unknown>;
const isObj = (v: unknown): v is Obj => typeof v === 'object' && v !== null && !Array.isArray(v);

/** Canonical text of a value (object keys sorted): two diagnostics equal in every field have the same key. */
function canonical(v: unknown): string {
  if (Array.isArray(v)) return `[${v.map(canonical).join(',')}]`;
  if (isObj(v))
    return `{${Object.keys(v)
      .sort()
      .map((k) => `${JSON.stringify(k)}:${canonical(v[k])}`)
      .join(',')}}`;
  return JSON.stringify(v) ?? 'undefined';
}

/** A multiset of diagnostics. */
class Bag {
  private readonly counts = new Map<string, number>();
  size = 0;
  add(d: unknown): void {
    const k = canonical(d);
    this.counts.set(k, (this.counts.get(k) ?? 0) + 1);
    this.size++;
  }
  /** Takes one `d` out; false when the bag holds none. */
  take(d: unknown): boolean {
    const k = canonical(d);
    const n = this.counts.get(k) ?? 0;
    if (n === 0) return false;
    if (n === 1) this.counts.delete(k);
    else this.counts.set(k, n - 1);
    this.size--;
    return true;
  }
}

function short(d: unknown): string {
  const text = canonical(d);
  return text.length > 160 ? `${text.slice(0, 160)}…` : text;
}

/**
 * Applies one diagnostics/changed event's data to the views (mutated), returning what breaks T37.
 * Entries that are not readable deltas (no filePath, added/removed not arrays) are left to the schema
 * check; a file named twice in one event is applied in order.
 */
function applyDiagnosticsEvent(views: Map<string, Bag>, data: unknown): { filePath: string; problem: string }[] {
  const problems: { filePath: string; problem: string }[] = [];
  const files = isObj(data) && Array.isArray(data.files) ? data.files : [];
  for (const entry of files) {
    if (!isObj(entry) || typeof entry.filePath !== 'string') continue;
    const { filePath, added, removed, total } = entry;
    if (!Array.isArray(added) || !Array.isArray(removed)) continue;
    let view = views.get(filePath);
    if (!view) {
      view = new Bag();
      views.set(filePath, view);
    }
    const before = view.size;
    if (added.length === 0 && removed.length === 0)
      problems.push({
        filePath,
        problem: 'added and removed are both empty (a file whose diagnostics did not change is not in an event)',
      });
    const missing = removed.filter((d) => !view.take(d));
    if (missing.length)
      problems.push({
        filePath,
        problem: `removed ${missing.length === 1 ? 'a diagnostic' : `${missing.length} diagnostics`} not in the subscriber's view (${before} before this event): ${missing.map(short).join('; ')}`,
      });
    for (const d of added) view.add(d);
    if (total !== view.size)
      problems.push({
        filePath,
        problem: `total is ${JSON.stringify(total)}, but the view after this event holds ${view.size} (${before} before, −${removed.length - missing.length} removed, +${added.length} added)`,
      });
  }
  return problems;
}

/** The view oracle over one connection's frames, in wire order. */
export function diagnosticsViewOracle(frames: readonly ObservedFrame[]): ViewOutcome {
  const subscribes = new Map<string, { initial: boolean }>();
  const unsubscribes = new Set<string>();
  let subscribed = false;
  let views: Map<string, Bag> | undefined;
  let applied = false;
  let events = 0;
  let received = 0;
  const problems: ViewProblem[] = [];
  for (const { direction, frame } of frames) {
    if (direction === 'sent') {
      if (!isObj(frame) || typeof frame.requestId !== 'string') continue;
      const params = isObj(frame.params) ? frame.params : {};
      const names = Array.isArray(params.events) ? params.events : [];
      if (frame.topic === SUBSCRIBE && names.includes(DIAGNOSTICS_CHANGED))
        subscribes.set(frame.requestId, { initial: params.initial === true });
      else if (frame.topic === UNSUBSCRIBE) unsubscribes.add(frame.requestId);
      continue;
    }
    received++;
    if (!isObj(frame)) continue;
    if (frame.type === 'event') {
      if (frame.event !== DIAGNOSTICS_CHANGED || !views) continue;
      events++;
      for (const p of applyDiagnosticsEvent(views, frame.data)) problems.push({ event: events, received, ...p });
      continue;
    }
    if (typeof frame.requestId !== 'string' || !isObj(frame.result) || !Array.isArray(frame.result.subscribed))
      continue;
    const now = frame.result.subscribed.includes(DIAGNOSTICS_CHANGED);
    const sub = subscribes.get(frame.requestId);
    if (sub) {
      subscribes.delete(frame.requestId);
      // Newly subscribed with initial: the next diagnostics/changed event is the initial one; the views start empty.
      if (sub.initial && now && !subscribed) {
        views = new Map();
        applied = true;
      }
    } else if (unsubscribes.delete(frame.requestId) && !now) views = undefined;
    else continue;
    subscribed = now;
  }
  return { applied, events, problems };
}
