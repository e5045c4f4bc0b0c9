// LanguageFeatures.prepareRename / rename over VS Code's rename providers. A provider's refusal (no
// symbol there, an invalid name) is a RenameRejectedError carrying its message; the core applies the
// edits through its write path (server-core/handlers/edit-rename.ts).
import * as vscode from 'vscode';
import { ProtocolError } from '../../server-core/errors';
import { type LanguageFeatures, RenameRejectedError } from '../../server-core/host';
import { behindDisk, openDocument } from './documents';
import { plain } from './plain-range';
import { semanticServerReady } from './ts-server';

const messageOf = (e: unknown): string => (e instanceof Error ? e.message : String(e));

export const vscodePrepareRename: NonNullable<LanguageFeatures['prepareRename']> = async (path, at, signal) => {
  const doc = await openDocument(path);
  await semanticServerReady(doc, signal);
  let prepared: vscode.Range | { range: vscode.Range; placeholder: string } | undefined;
  try {
    prepared = await vscode.commands.executeCommand(
      'vscode.prepareRename',
      doc.uri,
      new vscode.Position(at.line, at.character),
    );
  } catch (e) {
    throw new RenameRejectedError(messageOf(e));
  }
  if (!prepared) return null; // the provider does not check positions beforehand
  return 'placeholder' in prepared
    ? { range: plain(prepared.range), placeholder: prepared.placeholder }
    : { range: plain(prepared) };
};

/** Provider answers computed from a copy VS Code reloaded meanwhile are asked again, this often at most. */
const STALE_ATTEMPTS = 3;

export const vscodeRename: NonNullable<LanguageFeatures['rename']> = async (path, at, newName, signal) => {
  const doc = await openDocument(path);
  await semanticServerReady(doc, signal);
  for (let attempt = 1; ; attempt++) {
    const versions = new Map(vscode.workspace.textDocuments.map((d) => [d.uri.toString(), d.version]));
    let edit: vscode.WorkspaceEdit | undefined;
    try {
      edit = await vscode.commands.executeCommand<vscode.WorkspaceEdit | undefined>(
        'vscode.executeDocumentRenameProvider',
        doc.uri,
        new vscode.Position(at.line, at.character),
        newName,
      );
    } catch (e) {
      throw new RenameRejectedError(messageOf(e));
    }
    if (!edit) return null;
    const entries = edit.entries();
    // The ranges are positions in the text the language server held. A file restored behind VS Code's
    // back (a git checkout right before) is reloaded asynchronously: ranges from the old copy would
    // rewrite the wrong characters (seen in conformance: a reset, then a rename answering the name
    // renamed before the reset). Such an answer is asked again once the copies caught up.
    let stale = false;
    for (const [uri, edits] of entries)
      if (uri.scheme === 'file' && edits.length > 0 && (await behindDisk(uri.fsPath, versions.get(uri.toString()))))
        stale = true;
    if (stale) {
      if (attempt >= STALE_ATTEMPTS)
        throw new ProtocolError(
          'HANDLER_ERROR',
          'files changed on disk while the language server computed the rename; retry. Nothing was changed.',
        );
      signal?.throwIfAborted();
      continue;
    }
    const files = [];
    for (const [uri, edits] of entries) {
      // A non-file target is refused by the core as outside the workspace; its path says what it was.
      const filePath = uri.scheme === 'file' ? uri.fsPath : uri.toString();
      if (uri.scheme === 'file' && edits.length > 0) await openDocument(uri.fsPath); // the core compares its copy with the disk
      files.push({ filePath, edits: edits.map((e) => ({ range: plain(e.range), newText: e.newText })) });
    }
    return files;
  }
};
