// LanguageFeatures.prepareRename / rename over VS Code's rename providers. A provider's refusal (no
// symbol there, an invalid name) is a RenameRejectedError carrying its message; the core applies the
// edits through its write path (server-core/handlers/edit-rename.ts).
import * as vscode from 'vscode';
import { type LanguageFeatures, RenameRejectedError } from '../../server-core/host';
import { openDocument } from './documents';
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

export const vscodeRename: NonNullable<LanguageFeatures['rename']> = async (path, at, newName, signal) => {
  const doc = await openDocument(path);
  await semanticServerReady(doc, signal);
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
  const files = [];
  for (const [uri, edits] of edit.entries()) {
    // A non-file target is refused by the core as outside the workspace; its path says what it was.
    const filePath = uri.scheme === 'file' ? uri.fsPath : uri.toString();
    if (uri.scheme === 'file' && edits.length > 0) await openDocument(uri.fsPath); // the core compares its copy with the disk
    files.push({ filePath, edits: edits.map((e) => ({ range: plain(e.range), newText: e.newText })) });
  }
  return files;
};
