// Rollbacks (git and local history) overwrite a file; what they overwrite must stay recoverable. Before
// writing, unsaved editor changes are saved (VS Code records them as a local-history entry), and if
// the file's current bytes are not already the newest local-history entry, they are added as one.
// The new bytes are then written exactly, through VS Code's file system so open editors reload.
import { readFile } from 'node:fs/promises';
import * as vscode from 'vscode';
import type { Services } from './services';
import { openDocumentOf, withTimeout } from './documents';

export const BACKUP_SOURCE = 'IDEA: before rollback';

export async function preserveCurrentContent(svc: Services, path: string): Promise<void> {
  const doc = openDocumentOf(path);
  if (doc?.isDirty) await withTimeout(doc.save(), 30_000, `saving ${path}`);
  const current = await readFile(path).catch(() => null);
  if (current === null) return; // nothing on disk to lose
  const newest = svc.localHistory.list(path)[0];
  if (newest) {
    const stored = await readFile(newest.location).catch(() => null);
    if (stored && stored.equals(current)) return;
  }
  const entry = svc.localHistory.addEntry(path, current, BACKUP_SOURCE);
  svc.log(`rollback: kept the overwritten content of ${path} as local-history entry ${entry.id}`);
}

export async function writeExactly(path: string, bytes: Uint8Array): Promise<void> {
  await withTimeout(vscode.workspace.fs.writeFile(vscode.Uri.file(path), bytes), 30_000, `writing ${path}`);
  await documentCaughtUp(path, bytes);
}

const normalise = (s: string) => s.replace(/^\ufeff/, '').replace(/\r\n?/g, '\n');

/**
 * An open editor document reloads a file changed on disk asynchronously. Until it has, a following
 * request working on documents (replace, definition) would see, and might save back, the old text,
 * so wait (bounded) until the document shows the new content.
 */
async function documentCaughtUp(path: string, bytes: Uint8Array): Promise<void> {
  const want = normalise(Buffer.from(bytes).toString('utf8'));
  const end = Date.now() + 5000;
  let wait = 10;
  for (;;) {
    const doc = openDocumentOf(path);
    if (!doc || doc.isDirty || normalise(doc.getText()) === want || Date.now() >= end) return;
    await new Promise((r) => setTimeout(r, wait));
    wait = Math.min(wait * 2, 200);
  }
}
