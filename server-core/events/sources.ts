// The three v0.1.7 events, VS Code-free: a server feeds what its platform reports (diagnostics of some
// files, file-system changes, "the editor changed") and this confines, diffs, coalesces and emits.
// One instance per server; emit() fans out to the subscribed connections (runtime/idea-server.ts).
import { existsSync } from 'node:fs';
import type { RawDiagnostic } from '../diagnostics';
import type { EditorHost, FileChange, OpenDocuments } from '../host';
import type { DataOf, EventName } from '../protocol';
import { ChangeWindow } from './change-window';
import {
  DiagnosticsBaseline,
  type DiagnosticsFileDelta,
  eventDiagnostic,
  mergeDiagnosticsDeltas,
} from './diagnostics-delta';
import type { EventScope } from './scope';

export const DIAGNOSTICS_CHANGED = '/app/vscode/diagnostics/changed' satisfies EventName;
export const FILES_CHANGED = '/app/vscode/files/changed' satisfies EventName;
export const EDITOR_CHANGED = '/app/vscode/editor/changed' satisfies EventName;

/**
 * editor/changed is throttled, not delayed: the first notification after a quiet spell is sent at once,
 * later ones within this window fold into one event at its end (dragging a selection, the other
 * notifications of an editor switch), and so on while they keep coming.
 */
export const EDITOR_SETTLE_MS = 15;

/** After a document closed, how long an update to no diagnostics of its file counts as its leaving coverage. */
export const CLOSE_GRACE_MS = 10_000;
/** Closed documents remembered for CLOSE_GRACE_MS, at most this many (the oldest go first). */
const MAX_CLOSED = 1000;

/** How long a write's own account of a file labels the watcher's report of it. */
export const OWN_WRITE_MS = 5000;
/** Bound on the files remembered so (a write of more files than this leaves the rest as reported). */
export const MAX_OWN_WRITES = 10_000;

export type Emit = <E extends EventName>(event: E, data: DataOf<E>) => void;

/** A file's diagnostics as the platform reports them now. */
export interface FileDiagnostics {
  filePath: string;
  diagnostics: readonly RawDiagnostic[];
  /**
   * Whether the platform holds the file open for its language servers now (a VS Code TextDocument, a
   * document idea-server opened in a language server). Left out: unknown, every update is reported.
   */
  held?: boolean;
}

type EditorData = DataOf<typeof EDITOR_CHANGED>;

export class CoreEventSources {
  private readonly baseline = new DiagnosticsBaseline();
  private readonly window: ChangeWindow;
  /** Set while the settle window runs: notifications then wait for its end. */
  private editorTimer: ReturnType<typeof setTimeout> | undefined;
  /** A notification came after the window's event was taken. */
  private editorPending = false;
  private disposed = false;
  private lastEditor = '';
  /** Files a write topic just changed or created, until when (ownWritesCommitted). */
  private readonly ownWrites = new Map<string, { kind: FileChange['kind']; until: number }>();
  /** When the platform last closed each file's document (documentsClosed), the oldest first. */
  private readonly closedAt = new Map<string, number>();

  constructor(
    private readonly scope: EventScope,
    private readonly emit: Emit,
    private readonly editor?: { host: EditorHost; documents: OpenDocuments },
  ) {
    this.window = new ChangeWindow((changes) => {
      const reported = changes
        .filter((c) => this.scope.reportable(c.path))
        .map((c) => ({ filePath: c.path, change: c.kind }));
      if (reported.length > 0) this.emit(FILES_CHANGED, { changes: reported });
    });
  }

  /** The events this server can push (the session's `events` option). */
  get events(): EventName[] {
    return this.editor ? [DIAGNOSTICS_CHANGED, FILES_CHANGED, EDITOR_CHANGED] : [DIAGNOSTICS_CHANGED, FILES_CHANGED];
  }

  /**
   * These files' diagnostics now (a file without any: an empty list). Emits the deltas, if any, except
   * for a file leaving coverage (leavesCoverage): its last reported diagnostics simply stay.
   */
  diagnosticsChanged(files: readonly FileDiagnostics[], quiet = false): void {
    const deltas: DiagnosticsFileDelta[] = [];
    for (const f of files) {
      if (!this.scope.reportable(f.filePath)) {
        this.baseline.forget(f.filePath);
        continue;
      }
      if (this.leavesCoverage(f)) {
        this.baseline.leave(f.filePath);
        continue;
      }
      const delta = this.baseline.update(f.filePath, f.diagnostics.map(eventDiagnostic));
      if (delta) deltas.push(delta);
    }
    if (deltas.length > 0 && !quiet)
      this.emit(DIAGNOSTICS_CHANGED, { files: deltas } as DataOf<typeof DIAGNOSTICS_CHANGED>);
  }

  /** The platform closed these files' documents (an editor or extension closed them, a didClose was sent). */
  documentsClosed(paths: readonly string[]): void {
    const now = Date.now();
    for (const p of paths) {
      this.closedAt.delete(p);
      this.closedAt.set(p, now);
    }
    for (const [p, at] of this.closedAt) {
      if (this.closedAt.size <= MAX_CLOSED && now - at < CLOSE_GRACE_MS) break;
      this.closedAt.delete(p);
    }
  }

  /**
   * Clause T35: a file is not reported for leaving coverage. The rule: an update to NO diagnostics for a
   * file the platform does not hold open (`held: false`) whose document closed less than CLOSE_GRACE_MS
   * ago (language servers clear a file's diagnostics when it is closed: VS Code's TypeScript when a
   * TextDocument closes, typescript-language-server on didClose), or that already left and was not
   * updated since, is the file leaving coverage, not its diagnostics going away, as long as the file is
   * still on disk (a deleted file's diagnostics are gone for good: that removal is reported). An update
   * with diagnostics, or for a file held open, is always reported.
   */
  private leavesCoverage(f: FileDiagnostics): boolean {
    if (f.held !== false || f.diagnostics.length > 0) return false;
    if (!this.baseline.hasLeft(f.filePath)) {
      const at = this.closedAt.get(f.filePath);
      if (at === undefined || Date.now() - at >= CLOSE_GRACE_MS) return false;
    }
    return existsSync(f.filePath);
  }

  /** File-system changes; sent coalesced after a short window. */
  filesChanged(changes: readonly FileChange[]): void {
    const now = Date.now();
    this.window.add(
      changes.map((c) => {
        // A file our write replaced by a rename is reported created by a watcher that sees the rename only.
        const own = c.kind === 'created' ? this.ownWrites.get(c.path) : undefined;
        return own && own.until > now && own.kind === 'changed' ? { path: c.path, kind: own.kind } : c;
      }),
    );
  }

  /**
   * What a write topic just did to each file (the host's `written`): a watcher's report of these files in
   * the next OWN_WRITE_MS is labelled as the write says. Not sent by itself: the watcher reports them.
   */
  ownWritesCommitted(changes: readonly FileChange[]): void {
    const now = Date.now();
    for (const [path, w] of this.ownWrites) if (w.until <= now) this.ownWrites.delete(path);
    for (const c of changes) {
      if (this.ownWrites.size >= MAX_OWN_WRITES) break;
      this.ownWrites.set(c.path, { kind: c.kind, until: now + OWN_WRITE_MS });
    }
  }

  /** Something in the editor changed (active editor, selection, visible editors, a dirty flag). */
  editorChanged(): void {
    if (!this.editor) return;
    if (this.editorTimer) {
      this.editorPending = true;
      return;
    }
    // Leading edge, inside the platform's callback: VS Code updates all of a switch's editor state before
    // it fires the visible- and active-editor events, so the first of them already sees the whole change.
    this.sendEditorState();
    this.editorTimer = setTimeout(() => this.editorSettled(), EDITOR_SETTLE_MS);
  }

  /** The window's end: what changed during it goes out as one event, and the next window starts. */
  private editorSettled(): void {
    this.editorTimer = undefined;
    if (!this.editorPending) return;
    this.editorPending = false;
    this.sendEditorState();
    this.editorTimer = setTimeout(() => this.editorSettled(), EDITOR_SETTLE_MS);
  }

  private sendEditorState(): void {
    if (this.disposed) return;
    const state = this.editorState();
    const key = JSON.stringify(state);
    if (key === this.lastEditor) return; // nothing a subscriber can see changed
    this.lastEditor = key;
    this.emit(EDITOR_CHANGED, state);
  }

  /** The session's initialEvent: the current state, for a subscriber that asked for it. */
  initial(event: string): object | undefined {
    if (event === DIAGNOSTICS_CHANGED) return { files: this.baseline.snapshot() };
    if (event === EDITOR_CHANGED && this.editor) return this.editorState();
    return undefined; // files/changed has no state to start from
  }

  /** The session's mergeEventEntry: undelivered diagnostics deltas of a file add up; others are replaced. */
  mergeEntry(event: string, queued: unknown, newer: unknown): unknown {
    if (event !== DIAGNOSTICS_CHANGED) return newer;
    return mergeDiagnosticsDeltas(queued as DiagnosticsFileDelta, newer as DiagnosticsFileDelta);
  }

  dispose(): void {
    this.disposed = true;
    this.window.dispose();
    clearTimeout(this.editorTimer);
    this.editorTimer = undefined;
  }

  private editorState(): EditorData {
    const { host, documents } = this.editor!;
    const shown = (p: string) => this.scope.visible(p);
    const { active, visible } = host.context();
    const act = active && shown(active.filePath) ? active : undefined;
    return {
      activeFile: act?.filePath ?? null,
      selections: (act?.selections ?? []).map((s) => {
        const [anchor, cursor] = s.isReversed ? [s.end, s.start] : [s.start, s.end];
        return {
          line: anchor.line,
          character: anchor.character,
          activeLine: cursor.line,
          activeCharacter: cursor.character,
        };
      }),
      visibleFiles: [...new Set(visible.map((v) => v.filePath).filter(shown))],
      dirtyFiles: [
        ...new Set(
          documents
            .dirty()
            .map((d) => d.path)
            .filter(shown),
        ),
      ],
    };
  }
}
