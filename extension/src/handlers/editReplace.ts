// /app/vscode/edit/replace — the same file selection and matching as edit/find, applied as ONE
// WorkspaceEdit (VS Code applies it all or not at all), then every changed document is saved so the
// result is on disk. Saving through VS Code also records a local-history entry per file.
import * as vscode from 'vscode';
import type { EditReplaceParams, EditReplaceResult } from '../../../generated/v0.1.6/types';
import type { RequestContext } from '../../../generated/v0.1.6/server';
import { invalidRequest } from '../errors';
import { awaitNewEntries, newestEntries } from '../historyRecorded';
import { buildRegExp } from '../search/jsRegex';
import { RegexBudget } from '../search/regexPool';
import { replaceInText } from '../search/replaceInText';
import { searchText } from '../search/textSearch';
import { searchFolders } from '../searchScope';
import type { Services } from '../services';
import { dirtyDocuments, openDocumentInSyncWithDisk, withTimeout } from '../vscodeDocs';

export function editReplace(svc: Services) {
  return async (params: EditReplaceParams, ctx: RequestContext): Promise<EditReplaceResult> => {
    if (typeof params.replacement !== 'string') throw invalidRequest('replacement must be a string');
    const match = { pattern: params.pattern, isRegex: params.isRegex ?? false, isCaseSensitive: params.isCaseSensitive ?? false };
    const found = await searchText({
      rg: svc.rgPath,
      folders: searchFolders(params.include, params.exclude, 'search'),
      match,
      dirty: dirtyDocuments(),
      maxMatches: 0,
      signal: ctx.signal,
    });
    buildRegExp(match);
    const budget = new RegexBudget(); // one time budget for the whole request's regex work
    const edit = new vscode.WorkspaceEdit();
    const changed: vscode.TextDocument[] = [];
    let replacedCount = 0;
    for (const path of [...found.files].sort()) {
      ctx.signal.throwIfAborted();
      // The document's text (unsaved changes included) is what gets replaced, line by line; a clean
      // document is first brought in line with the disk (it may not have reloaded a fresh change yet).
      const doc = await openDocumentInSyncWithDisk(path);
      const text = doc.getText();
      const r = await replaceInText(match, params.replacement, text, { signal: ctx.signal, budget });
      if (r.count === 0) continue;
      if (r.text !== text) edit.replace(doc.uri, new vscode.Range(doc.positionAt(0), doc.positionAt(text.length)), r.text);
      replacedCount += r.count;
      changed.push(doc);
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
