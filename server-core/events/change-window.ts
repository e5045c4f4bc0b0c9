// files/changed coalescing: file-system changes are collected for a short window and sent as one event,
// one entry per file. A burst (a checkout, a build) becomes a few events, not thousands; a window holding
// MAX_WINDOW_FILES files is sent at once, so memory stays bounded whatever the burst.
import type { FileChange } from '../host';

export const WINDOW_MS = 50;
export const MAX_WINDOW_FILES = 1000;

type Kind = FileChange['kind'];

/** A file's change over the window from its first and latest change. */
function combine(first: Kind, next: Kind): Kind {
  if (first === 'created' && next === 'changed') return 'created';
  // It existed before the window and exists after it: replaced by a rename (an atomic save), a delete
  // the watcher did not see in between.
  if (first === 'changed' && next === 'created') return 'changed';
  if (first === 'deleted' && next === 'created') return 'changed';
  return next;
}

export class ChangeWindow {
  private readonly pending = new Map<string, Kind>();
  private timer: ReturnType<typeof setTimeout> | undefined;

  constructor(
    private readonly send: (changes: FileChange[]) => void,
    private readonly windowMs = WINDOW_MS,
  ) {}

  add(changes: readonly FileChange[]): void {
    for (const c of changes) {
      const had = this.pending.get(c.path);
      if (had !== undefined) this.pending.delete(c.path); // re-inserted: entries keep the order they last changed
      this.pending.set(c.path, had === undefined ? c.kind : combine(had, c.kind));
      if (this.pending.size >= MAX_WINDOW_FILES) this.flush();
    }
    if (this.pending.size > 0) this.timer ??= setTimeout(() => this.flush(), this.windowMs);
  }

  flush(): void {
    clearTimeout(this.timer);
    this.timer = undefined;
    if (this.pending.size === 0) return;
    const changes = [...this.pending].map(([path, kind]) => ({ path, kind }));
    this.pending.clear();
    this.send(changes);
  }

  dispose(): void {
    clearTimeout(this.timer);
    this.timer = undefined;
    this.pending.clear();
  }
}
