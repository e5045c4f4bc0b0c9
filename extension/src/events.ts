// The v0.1.7 events from VS Code's own notifications: languages.onDidChangeDiagnostics, a workspace file
// system watcher, and the window's active / selection / visible-editor changes plus dirty flips. What
// they report is confined, diffed and coalesced by server-core/events (shared with idea-server).
// diagnostics/changed reports what VS Code's language features report, so for the files open in an
// editor and those the host's coverage opened (documents.ts vscodeCoverage). Leaving coverage (clause
// T35) is a TextDocument closing (an editor closed, VS Code disposing a document an extension opened):
// TypeScript then clears the file's diagnostics, and an update to no diagnostics for a file with no open
// TextDocument that closed less than CLOSE_GRACE_MS ago is not reported — its last reported diagnostics
// stay as they are (CoreEventSources.leavesCoverage has the whole rule, shared with idea-server).
import * as vscode from 'vscode';
import type { RawDiagnostic } from '../../server-core/diagnostics';
import { EventScope } from '../../server-core/events/scope';
import {
  CoreEventSources,
  DIAGNOSTICS_CHANGED,
  EDITOR_CHANGED,
  type Emit,
  FILES_CHANGED,
  type FileDiagnostics,
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
  const diagnosticsOf = (uris: readonly vscode.Uri[]): FileDiagnostics[] => {
    let held: Set<string> | undefined; // the open TextDocuments, listed once per call and only if needed
    return uris.filter(isFile).map((u) => {
      const diagnostics = vscode.languages.getDiagnostics(u) as RawDiagnostic[];
      if (diagnostics.length > 0) return { filePath: u.fsPath, diagnostics };
      held ??= new Set(vscode.workspace.textDocuments.filter((d) => isFile(d.uri)).map((d) => d.uri.fsPath));
      return { filePath: u.fsPath, diagnostics, held: held.has(u.fsPath) };
    });
  };
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
      if (isFile(d.uri)) {
        sources.documentsClosed([d.uri.fsPath]);
        host.coverage?.closed?.(d.uri.fsPath); // a file still covered is opened again
      }
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
