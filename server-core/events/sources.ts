// The three v0.1.7 events, VS Code-free: a server feeds what its platform reports (diagnostics of some
// files, file-system changes, "the editor changed") and this confines, diffs, coalesces and emits.
// One instance per server; emit() fans out to the subscribed connections (runtime/idea-server.ts).
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

export type Emit = <E extends EventName>(event: E, data: DataOf<E>) => void;

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

  /** These files' diagnostics now (a file without any: an empty list). Emits the deltas, if any. */
  diagnosticsChanged(
    files: readonly { filePath: string; diagnostics: readonly RawDiagnostic[] }[],
    quiet = false,
  ): void {
    const deltas: DiagnosticsFileDelta[] = [];
    for (const f of files) {
      if (!this.scope.reportable(f.filePath)) {
        this.baseline.forget(f.filePath);
        continue;
      }
      const delta = this.baseline.update(f.filePath, f.diagnostics.map(eventDiagnostic));
      if (delta) deltas.push(delta);
    }
    if (deltas.length > 0 && !quiet)
      this.emit(DIAGNOSTICS_CHANGED, { files: deltas } as DataOf<typeof DIAGNOSTICS_CHANGED>);
  }

  /** File-system changes; sent coalesced after a short window. */
  filesChanged(changes: readonly FileChange[]): void {
    this.window.add(changes);
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
