// The v0.1.7 events from VS Code's own notifications: languages.onDidChangeDiagnostics, a workspace file
// system watcher, and the window's active / selection / visible-editor changes plus dirty flips. What
// they report is confined, diffed and coalesced by server-core/events (shared with idea-server).
import * as vscode from 'vscode';
import type { RawDiagnostic } from '../../server-core/diagnostics';
import { EventScope } from '../../server-core/events/scope';
import {
  CoreEventSources,
  DIAGNOSTICS_CHANGED,
  EDITOR_CHANGED,
  type Emit,
  FILES_CHANGED,
} from '../../server-core/events/sources';
import type { CoreHost, FileChange } from '../../server-core/host';
import { eventTraceFromEnv } from './event-trace';

const isFile = (u: vscode.Uri) => u.scheme === 'file';

/** The core's event sources fed by VS Code; dispose stops listening. */
export function vscodeEventSources(host: CoreHost, emit: Emit): { sources: CoreEventSources } & vscode.Disposable {
  // IDEA_EVENT_TRACE (event-trace.ts): callback-to-socket times for the bench; off, callbacks are as given.
  const trace = eventTraceFromEnv();
  const on = <A extends unknown[]>(event: string, windowed: boolean, fn: (...args: A) => void) =>
    trace ? trace.callback(event, windowed, fn) : fn;
  const sources = new CoreEventSources(
    new EventScope(host.folders),
    trace ? (event, data) => trace.emitted(event, () => emit(event, data)) : emit,
    host.editor ? { host: host.editor, documents: host.documents } : undefined,
  );
  const diagnosticsOf = (uris: readonly vscode.Uri[]) =>
    uris.filter(isFile).map((u) => ({
      filePath: u.fsPath,
      diagnostics: vscode.languages.getDiagnostics(u) as RawDiagnostic[],
    }));
  // The baseline starts from what is known now: a first delta is a change, not the whole backlog.
  sources.diagnosticsChanged(diagnosticsOf(vscode.languages.getDiagnostics().map(([u]) => u)), true);
  const watcher = vscode.workspace.createFileSystemWatcher('**/*');
  const fileChange = (kind: FileChange['kind']) =>
    on(FILES_CHANGED, true, (u: vscode.Uri) => {
      if (isFile(u)) sources.filesChanged([{ path: u.fsPath, kind }]);
    });
  const editor = on(EDITOR_CHANGED, true, () => sources.editorChanged());
  const dirty = new Map<string, boolean>();
  const subscriptions = [
    vscode.languages.onDidChangeDiagnostics(
      on(DIAGNOSTICS_CHANGED, false, (e: vscode.DiagnosticChangeEvent) =>
        sources.diagnosticsChanged(diagnosticsOf(e.uris)),
      ),
    ),
    watcher,
    watcher.onDidCreate(fileChange('created')),
    watcher.onDidChange(fileChange('changed')),
    watcher.onDidDelete(fileChange('deleted')),
    vscode.window.onDidChangeActiveTextEditor(editor),
    vscode.window.onDidChangeTextEditorSelection(editor),
    vscode.window.onDidChangeVisibleTextEditors(editor),
    // Only a dirty flag flipping is an editor change; typing in an already dirty file is not.
    vscode.workspace.onDidChangeTextDocument((e) => {
      const key = e.document.uri.toString();
      if (dirty.get(key) !== e.document.isDirty) {
        dirty.set(key, e.document.isDirty);
        editor();
      }
    }),
    vscode.workspace.onDidSaveTextDocument((d) => {
      dirty.set(d.uri.toString(), false);
      editor();
    }),
    vscode.workspace.onDidCloseTextDocument((d) => {
      dirty.delete(d.uri.toString());
      editor();
    }),
  ];
  return {
    sources,
    dispose() {
      for (const s of subscriptions) s.dispose();
      sources.dispose();
    },
  };
}
