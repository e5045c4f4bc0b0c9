// Documents as VS Code holds them: open one (bounded: the workbench must answer), show it in a tab,
// find the open (possibly unsaved) copy of a path, the unsaved texts a search must see, and the core's
// OpenDocuments (server-core/host.ts) over them.
import { readFile } from 'node:fs/promises';
import * as vscode from 'vscode';
import type { CoveragePlatform } from '../../server-core/events/coverage';
import type { OpenDocuments } from '../../server-core/host';
import { LANGUAGE_TIMEOUT_MS } from './language-server';
import { withTimeout } from './with-timeout';

export function openDocument(path: string): Promise<vscode.TextDocument> {
  // Already open (the nav topics' files, their targets): no timer, no trip through the workbench.
  const open = openDocumentOf(path);
  if (open) return Promise.resolve(open);
  return withTimeout(vscode.workspace.openTextDocument(vscode.Uri.file(path)), LANGUAGE_TIMEOUT_MS, `opening ${path}`);
}

/**
 * Shows the document in an editor tab (kept, not a preview, focus unchanged). VS Code's TypeScript
 * support only computes diagnostics for files open in tabs. Bounded: without a connected workbench
 * showing never completes, and the caller then works with what the language server reports anyway.
 */
export async function showInTab(doc: vscode.TextDocument): Promise<boolean> {
  try {
    await withTimeout(
      vscode.window.showTextDocument(doc, { preview: false, preserveFocus: true }),
      5000,
      'showing the document',
    );
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
 * Documents with unsaved changes (their text, not the disk copy, is what find must see). The texts are
 * read when the search gets to them: a queued request pins no copies.
 */
export function dirtyDocuments(): { path: string; text: () => string }[] {
  return vscode.workspace.textDocuments
    .filter((d) => d.isDirty && d.uri.scheme === 'file')
    .map((d) => ({ path: d.uri.fsPath, text: () => d.getText() }));
}

const normalise = (s: string) => s.replace(/^\ufeff/, '').replace(/\r\n?/g, '\n');

/**
 * An open editor document reloads a file changed on disk asynchronously. Until it has, a following
 * request working on documents (definition, symbols) would see the old text, so wait (bounded) until
 * the document shows the new content.
 */
async function editorCaughtUp(path: string, bytes: Buffer): Promise<void> {
  const want = normalise(bytes.toString('utf8'));
  const end = Date.now() + 5000;
  let wait = 10;
  for (;;) {
    const doc = openDocumentOf(path);
    if (!doc || doc.isDirty || normalise(doc.getText()) === want || Date.now() >= end) return;
    await new Promise((r) => setTimeout(r, wait));
    wait = Math.min(wait * 2, 200);
  }
}

/**
 * Whether the open copy of `path` may differ from what a language provider just answered for, or from
 * the disk: its version moved since `version` (VS Code reloaded it meanwhile), or, unsaved changes
 * aside, its text is not the disk's yet (a change made behind VS Code's back, e.g. a git checkout, is
 * reloaded asynchronously). Waits, bounded, for such a copy to catch up before answering true.
 */
export async function behindDisk(path: string, version: number | undefined): Promise<boolean> {
  const doc = openDocumentOf(path);
  if (!doc || doc.isDirty) return false;
  let disk: Buffer;
  try {
    disk = await readFile(path);
  } catch {
    return false; // gone: the core says so when it reads it
  }
  const moved = version !== undefined && doc.version !== version;
  if (!moved && normalise(doc.getText()) === normalise(disk.toString('utf8'))) return false;
  await editorCaughtUp(path, disk);
  return true;
}

export const vscodeDocuments: OpenDocuments = {
  dirty: dirtyDocuments,
  isDirty: (path) => openDocumentOf(path)?.isDirty === true,
  text: (path) => openDocumentOf(path)?.getText(),
  afterWrite: editorCaughtUp,
};

/** The tabs of `path`'s text (not diff) editors, in every group. */
function tabsOf(path: string): vscode.Tab[] {
  return vscode.window.tabGroups.all.flatMap((g) =>
    g.tabs.filter(
      (t) => t.input instanceof vscode.TabInputText && t.input.uri.scheme === 'file' && t.input.uri.fsPath === path,
    ),
  );
}

/**
 * Files whose tab coverage opened (they had none), closed again when the file leaves coverage unless
 * the person took it over meanwhile; each with the time until which its editor becoming active is our
 * own doing (opening it; the workbench tells a moment later). Only covered files (at most COVER_FILES).
 */
const coverTabs = new Map<string, number>();

/**
 * Watches for the person taking over a tab coverage opened: its editor made active (clicked, switched
 * to) other than while we open it (in an empty group a background tab still becomes the active one).
 */
export function watchCoverTabs(): vscode.Disposable {
  return vscode.window.onDidChangeActiveTextEditor((e) => {
    const uri = e?.document.uri;
    const ours = uri?.scheme === 'file' ? coverTabs.get(uri.fsPath) : undefined;
    if (ours !== undefined && Date.now() > ours) coverTabs.delete(uri!.fsPath);
  });
}

/**
 * diagnostics/changed's coverage in VS Code (server-core/events/coverage.ts). VS Code's TypeScript
 * computes diagnostics only for documents shown in a tab (unless the experimental project diagnostics
 * are on), so an open TextDocument is not enough for a file a write changed:
 * - a file a request named is opened as a TextDocument only (nav/* opened it already; diag/list and
 *   editor/open show it in a tab themselves): a tab per navigation would bury the person's own;
 * - a file a write changed is opened in a background tab (not made active: the person's editor stays
 *   as it was; only in an empty group does it show) unless it has one; that tab is closed when the file
 *   leaves coverage, unless the person took it over meanwhile (switched to it, pinned it, or has
 *   unsaved changes in it).
 * One file at a time, each step bounded: without a connected workbench opening never completes.
 */
export const vscodeCoverage: CoveragePlatform = {
  async open(files) {
    let tabs = true; // a tab that never opened (no workbench): no more tries in this batch
    for (const { path, reason } of files) {
      let doc: vscode.TextDocument;
      try {
        doc = await withTimeout(
          vscode.workspace.openTextDocument(vscode.Uri.file(path)),
          LANGUAGE_TIMEOUT_MS,
          `opening ${path}`,
        );
      } catch {
        continue; // not openable (gone, binary, too large): not covered
      }
      if (reason !== 'written' || !tabs || tabsOf(path).length > 0) continue;
      coverTabs.set(path, Number.POSITIVE_INFINITY);
      try {
        await withTimeout(
          vscode.commands.executeCommand('vscode.open', doc.uri, {
            preview: false,
            preserveFocus: true,
            background: true,
          }),
          5000,
          `showing ${path} in a tab`,
        );
      } catch {
        tabs = false;
      } finally {
        if (coverTabs.has(path)) coverTabs.set(path, Date.now() + 1000);
      }
    }
  },
  release(paths) {
    for (const path of paths) {
      if (!coverTabs.delete(path)) continue;
      const ours = tabsOf(path).filter((t) => !t.isPinned && !t.isDirty);
      if (ours.length > 0) void Promise.resolve(vscode.window.tabGroups.close(ours, true)).catch(() => {});
    }
  },
};
