// diagnostics/changed deltas, VS Code-free: the server keeps the last diagnostics it reported per file
// (one baseline shared by every subscriber) and reports what was added and removed since. Each
// subscriber's queue merges undelivered deltas of a file (mergeDiagnosticsDeltas), so what a subscriber
// receives is always "since ITS last event", however slowly it reads. Diagnostics are compared as
// multisets: two identical diagnostics count twice; a changed one is removed + added.
import { type RawDiagnostic, toWireDiagnostic, type WireDiagnostic } from '../diagnostics';

export type EventDiagnostic = Omit<WireDiagnostic, 'filePath'>;

export interface DiagnosticsFileDelta {
  filePath: string;
  added: EventDiagnostic[];
  removed: EventDiagnostic[];
  /** Diagnostics the file has now. */
  total: number;
}

export function eventDiagnostic(d: RawDiagnostic): EventDiagnostic {
  const { filePath: _, ...rest } = toWireDiagnostic('', d);
  return rest;
}

const keyOf = (d: EventDiagnostic) =>
  JSON.stringify([d.line, d.character, d.endLine, d.endCharacter, d.severity, d.message, d.source, d.code]);

/** Signed counts per diagnostic: + for each `plus`, − for each `minus`; then added (> 0) and removed (< 0). */
function net(plus: readonly EventDiagnostic[][], minus: readonly EventDiagnostic[][]) {
  const counts = new Map<string, { d: EventDiagnostic; n: number }>();
  const add = (list: EventDiagnostic[], by: number) => {
    for (const d of list) {
      const k = keyOf(d);
      const c = counts.get(k);
      if (c) c.n += by;
      else counts.set(k, { d, n: by });
    }
  };
  for (const l of plus) add(l, 1);
  for (const l of minus) add(l, -1);
  const added: EventDiagnostic[] = [];
  const removed: EventDiagnostic[] = [];
  for (const { d, n } of counts.values()) {
    for (let i = 0; i < n; i++) added.push(d);
    for (let i = 0; i < -n; i++) removed.push(d);
  }
  return { added, removed };
}

/** Files that left coverage whose last reported diagnostics are kept (the oldest are forgotten beyond it). */
export const MAX_LEFT_FILES = 1000;

export class DiagnosticsBaseline {
  private readonly files = new Map<string, EventDiagnostic[]>();
  /**
   * Files that left coverage (clause T35), the oldest first: what was last reported of them stays in
   * `files`, as it stays in every subscriber's view, so that when the file is covered again its next
   * event is the change since then (a file whose diagnostics came back unchanged is not reported at all),
   * and the initial event of a later subscriber holds it too, consistent with the deltas everyone else
   * gets. At most MAX_LEFT_FILES: the oldest beyond it are forgotten.
   */
  private readonly left = new Set<string>();

  /** Records `filePath`'s diagnostics now; returns what changed since the last record, or undefined if nothing did. */
  update(filePath: string, now: EventDiagnostic[]): DiagnosticsFileDelta | undefined {
    this.left.delete(filePath);
    const before = this.files.get(filePath) ?? [];
    if (now.length > 0) this.files.set(filePath, now);
    else this.files.delete(filePath);
    const { added, removed } = net([now], [before]);
    if (added.length === 0 && removed.length === 0) return undefined;
    return { filePath, added, removed, total: now.length };
  }

  /** The file left coverage: its last reported diagnostics stay as they are, nothing is reported. */
  leave(filePath: string): void {
    if (!this.files.has(filePath)) return;
    this.left.delete(filePath);
    this.left.add(filePath);
    for (const oldest of this.left) {
      if (this.left.size <= MAX_LEFT_FILES) break;
      this.left.delete(oldest);
      this.files.delete(oldest);
    }
  }

  /** Whether the file left coverage and has not been updated since. */
  hasLeft(filePath: string): boolean {
    return this.left.has(filePath);
  }

  /** Forgets a file (it left the reportable set) without reporting it. */
  forget(filePath: string): void {
    this.left.delete(filePath);
    this.files.delete(filePath);
  }

  /** Every file's full set as added: the first event of a subscriber that asked for it. */
  snapshot(): DiagnosticsFileDelta[] {
    return [...this.files].map(([filePath, list]) => ({ filePath, added: [...list], removed: [], total: list.length }));
  }
}

/** Two undelivered deltas of one file as one: the net change from before `queued` to after `newer`. */
export function mergeDiagnosticsDeltas(
  queued: DiagnosticsFileDelta,
  newer: DiagnosticsFileDelta,
): DiagnosticsFileDelta {
  const { added, removed } = net([queued.added, newer.added], [queued.removed, newer.removed]);
  return { filePath: newer.filePath, added, removed, total: newer.total };
}
