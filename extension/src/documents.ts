// Documents as VS Code holds them: open one (bounded: the workbench must answer), show it in a tab,
// find the open (possibly unsaved) copy of a path, and the unsaved texts a search must see.
import { readFile } from 'node:fs/promises';
import * as vscode from 'vscode';
import { poll } from '../../runtime/poll';
import { LANGUAGE_TIMEOUT_MS } from './languageServer';

export function withTimeout<T>(p: Thenable<T>, ms: number, what: string): Promise<T> {
  return new Promise<T>((resolve, reject) => {
    const t = setTimeout(() => reject(new Error(`${what} timed out after ${ms} ms`)), ms);
    p.then((v) => { clearTimeout(t); resolve(v); }, (e: unknown) => { clearTimeout(t); reject(e instanceof Error ? e : new Error(String(e))); });
  });
}

export function openDocument(path: string): Promise<vscode.TextDocument> {
  return withTimeout(vscode.workspace.openTextDocument(vscode.Uri.file(path)), LANGUAGE_TIMEOUT_MS, `opening ${path}`);
}

/**
 * Shows the document in an editor tab (kept, not a preview, focus unchanged). VS Code's TypeScript
 * support only computes diagnostics for files open in tabs. Bounded: without a connected workbench
 * showing never completes, and the caller then works with what the language server reports anyway.
 */
export async function showInTab(doc: vscode.TextDocument): Promise<boolean> {
  try {
    await withTimeout(vscode.window.showTextDocument(doc, { preview: false, preserveFocus: true }), 5000, 'showing the document');
    return true;
  } catch {
    return false;
  }
}

/** The open document for a path, if VS Code has one. */
export function openDocumentOf(path: string): vscode.TextDocument | undefined {
  return vscode.workspace.textDocuments.find((d) => d.uri.scheme === 'file' && d.uri.fsPath === path);
}

/**
 * Opens a document whose editor copy agrees with the disk. A file changed on disk a moment ago (git
 * checkout, another tool, a conformance reset) may still be open in VS Code with its old text until the
 * file watcher reloads it; editing that copy would lose the disk change. So for a clean (not dirty)
 * document wait, bounded, until its text equals the disk's; if it never does, refuse rather than
 * overwrite. Dirty documents are returned as they are: their unsaved text is what the user sees.
 */
export async function openDocumentInSyncWithDisk(path: string, timeoutMs = 5000): Promise<vscode.TextDocument> {
  const doc = await poll(async () => {
    const d = await openDocument(path);
    if (d.isDirty) return d;
    const disk = decodeUtf8(await readFile(path));
    // Not UTF-8: VS Code decodes with another encoding, so the texts cannot be compared; trust the editor.
    return disk === undefined || d.getText() === disk ? d : undefined;
  }, { timeoutMs, intervalMs: 25, maxIntervalMs: 200 });
  if (!doc) throw new Error(`the editor's copy of ${path} is older than the file on disk and VS Code did not reload it within ${timeoutMs} ms; nothing was changed`);
  return doc;
}

const utf8 = new TextDecoder('utf-8', { fatal: true, ignoreBOM: false });
function decodeUtf8(bytes: Uint8Array): string | undefined {
  try {
    return utf8.decode(bytes); // strips a BOM, as VS Code does
  } catch {
    return undefined;
  }
}

/** Documents with unsaved changes (their text, not the disk copy, is what find must see). */
export function dirtyDocuments(): { path: string; text: string }[] {
  return vscode.workspace.textDocuments.filter((d) => d.isDirty && d.uri.scheme === 'file').map((d) => ({ path: d.uri.fsPath, text: d.getText() }));
}
