// /app/vscode/edit/replace — the same file selection and matching as edit/find, applied as ONE
// WorkspaceEdit (VS Code applies it all or not at all), then every changed document is saved so the
// result is on disk. Saving through VS Code also records a local-history entry per file.
import * as vscode from 'vscode';
import type { Handlers } from '../protocol';
import { awaitNewEntries, newestEntries } from '../historyRecorded';
import { buildRegExp, replaceInLine } from '../search/jsRegex';
import { searchText } from '../search/textSearch';
import { searchFolders } from '../searchScope';
import type { Services } from '../services';
import { dirtyDocuments, openDocumentInSyncWithDisk, withTimeout } from '../documents';

export function editReplace(svc: Services): Handlers['editReplace'] {
  return async (params, ctx) => {
    const match = { pattern: params.pattern, isRegex: params.isRegex, isCaseSensitive: params.isCaseSensitive };
    const found = await searchText({
      rg: svc.rgPath,
      folders: searchFolders(params.include, params.exclude, 'search'),
      match,
      dirty: dirtyDocuments(),
      maxMatches: 0,
      signal: ctx.signal,
    });
    const re = buildRegExp(match);
    const edit = new vscode.WorkspaceEdit();
    const changed: vscode.TextDocument[] = [];
    let replacedCount = 0;
    for (const path of [...found.files].sort()) {
      ctx.signal.throwIfAborted();
      // The document's text (unsaved changes included) is what gets replaced, line by line; a clean
      // document is first brought in line with the disk (it may not have reloaded a fresh change yet).
      const doc = await openDocumentInSyncWithDisk(path);
      let inDoc = 0;
      for (let i = 0; i < doc.lineCount; i++) {
        const line = doc.lineAt(i);
        const r = replaceInLine(re, line.text, params.replacement, match.isRegex);
        if (r.count === 0 || r.text === line.text) { inDoc += r.count; continue; }
        edit.replace(doc.uri, line.range, r.text);
        inDoc += r.count;
      }
      if (inDoc > 0) { replacedCount += inDoc; changed.push(doc); }
    }
    if (changed.length === 0) return { replacedCount: 0, affectedFiles: [] };
    const historyBefore = newestEntries(svc, changed.map((d) => d.uri.fsPath));
    const applied = await withTimeout(vscode.workspace.applyEdit(edit), 60_000, 'applying the edit');
    if (!applied) throw new Error('VS Code refused the edit (a document changed meanwhile?); nothing was replaced');
    for (const doc of changed) {
      const saved = await withTimeout(doc.save(), 30_000, `saving ${doc.uri.fsPath}`);
      if (!saved) throw new Error(`replaced in the editor but could not save ${doc.uri.fsPath}`);
    }
    await awaitNewEntries(svc, historyBefore, ctx.signal);
    svc.log(`replace: ${replacedCount} in ${changed.length} file(s)`);
    return { replacedCount, affectedFiles: changed.map((d) => d.uri.fsPath) };
  };
}
