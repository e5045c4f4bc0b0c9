// /app/vscode/edit/rename — a semantic rename through the language's rename provider. The provider's
// edits are applied to the files as on disk and written as ONE transaction through the write path of
// edit/replace (write/workspace-write.ts): protected files and files with unsaved editor changes are
// refused, originals kept in local history, every file changes or none does, crash-safe. A dry run
// answers the same edits and diffs (and the same refusals) and writes nothing.
import { readFile } from 'node:fs/promises';
import { relative } from 'node:path';
import { createTwoFilesPatch } from 'diff';
import * as vscode from 'vscode';
import { openDocument } from '../documents';
import { invalidRequest, ProtocolError } from '../errors';
import { isInWorkspace, realpathOfNearestAncestor } from '../path-guard';
import type { EditRenameResult, Handlers } from '../protocol';
import { resolvePath, type Services } from '../services';
import { semanticServerReady } from '../ts-server';
import { checkWritable, type PlannedWrite, writeFiles } from '../write/workspace-write';
import { MAX_REPLACE_BYTES } from './edit-replace';
import { documentAt, wireRange } from './position';

const BOM = Buffer.from([0xef, 0xbb, 0xbf]);
const utf8 = new TextDecoder('utf-8', { fatal: true, ignoreBOM: true });
/** Local-history source of the entries keeping what a rename overwrote. */
const BACKUP_SOURCE = 'IDEA: before edit/rename';

/** A name spelled like an identifier (ECMAScript's, which most languages' names are a subset of). */
const IDENTIFIER = /^[\p{ID_Start}_$][\p{ID_Continue}_$\u200c\u200d]*$/u;

type FileEdits = EditRenameResult['files'][number];

const messageOf = (e: unknown): string => (e instanceof Error ? e.message : String(e));

/** The symbol's current spelling at the position, or the provider's refusal as INVALID_REQUEST. */
async function symbolAt(doc: vscode.TextDocument, position: vscode.Position): Promise<string | undefined> {
  let prepared: vscode.Range | { range: vscode.Range; placeholder: string } | undefined;
  try {
    prepared = await vscode.commands.executeCommand('vscode.prepareRename', doc.uri, position);
  } catch (e) {
    throw invalidRequest(`nothing to rename at ${position.line}:${position.character}: ${messageOf(e)}`);
  }
  if (!prepared) return undefined; // the provider does not check positions beforehand
  return 'placeholder' in prepared ? prepared.placeholder : doc.getText(prepared);
}

/** Applies the provider's edits (ranges in the original text) to a file's text; overlaps are refused. */
function applyEdits(doc: vscode.TextDocument, text: string, edits: readonly vscode.TextEdit[]): string {
  const spans = edits
    .map((e) => ({ start: doc.offsetAt(e.range.start), end: doc.offsetAt(e.range.end), text: e.newText }))
    .sort((a, b) => b.start - a.start || b.end - a.end);
  let out = text;
  let floor = Number.POSITIVE_INFINITY;
  for (const s of spans) {
    if (s.end > floor)
      throw new ProtocolError(
        'HANDLER_ERROR',
        `the rename provider gave overlapping edits in ${doc.uri.fsPath}; nothing was changed`,
      );
    out = out.slice(0, s.start) + s.text + out.slice(s.end);
    floor = s.start;
  }
  return out;
}

/** A git-style unified diff (`a/`, `b/` and the workspace-relative path; no "====" banner). */
function unifiedDiff(rel: string, before: string, after: string): string {
  if (before === after) return '';
  return createTwoFilesPatch(`a/${rel}`, `b/${rel}`, before, after, undefined, undefined, { context: 3 }).replace(
    /^=+\n/,
    '',
  );
}

export function editRename(svc: Services): Handlers['editRename'] {
  return async (params, ctx) => {
    if (/[\p{Cc}\p{Zl}\p{Zp}]/u.test(params.newName))
      throw invalidRequest('newName contains a line break or control character');
    const { doc, uri, position } = await documentAt(svc, params.filePath, params.line, params.character);
    await semanticServerReady(doc, ctx.signal);
    const current = await symbolAt(doc, position);
    if (current !== undefined && IDENTIFIER.test(current) && !IDENTIFIER.test(params.newName))
      throw invalidRequest(`"${params.newName}" is not a valid name for ${current} (an identifier is expected)`);
    let edit: vscode.WorkspaceEdit | undefined;
    try {
      edit = await vscode.commands.executeCommand<vscode.WorkspaceEdit | undefined>(
        'vscode.executeDocumentRenameProvider',
        uri,
        position,
        params.newName,
      );
    } catch (e) {
      throw invalidRequest(`cannot rename at ${params.line}:${params.character}: ${messageOf(e)}`);
    }
    if (!edit) throw invalidRequest(`no rename provider answers for ${doc.uri.fsPath} (language ${doc.languageId})`);
    ctx.signal.throwIfAborted();

    const entries = edit
      .entries()
      .filter(([, edits]) => edits.length > 0)
      .sort(([a], [b]) => (a.fsPath < b.fsPath ? -1 : a.fsPath > b.fsPath ? 1 : 0));
    const folders = svc.folders();
    for (const [u] of entries)
      if (u.scheme !== 'file' || !isInWorkspace(u.fsPath, folders))
        throw invalidRequest(
          `the rename would edit ${u.toString()}, outside every workspace folder; nothing was changed`,
        );
    // Refuse before reading anything: a protected target or unsaved editor text (also on a dry run: it
    // shows what the rename would do, and the edits of an unsaved document do not apply to the disk).
    const targets = entries.map(([u]) => ({ path: u.fsPath, target: realpathOfNearestAncestor(u.fsPath) }));
    checkWritable(svc, targets);

    const files: FileEdits[] = [];
    const writes: PlannedWrite[] = [];
    let bytes = 0;
    let editCount = 0;
    for (const [i, [, textEdits]] of entries.entries()) {
      ctx.signal.throwIfAborted();
      const { path, target } = targets[i]!;
      const before = await readFile(target);
      bytes += before.length;
      if (bytes > MAX_REPLACE_BYTES)
        throw new ProtocolError(
          'HANDLER_ERROR',
          `the rename would rewrite more than ${MAX_REPLACE_BYTES / 1024 / 1024} MB of files; nothing was changed`,
        );
      const hasBom = before.subarray(0, 3).equals(BOM);
      let text: string;
      try {
        text = utf8.decode(hasBom ? before.subarray(3) : before);
      } catch {
        throw new ProtocolError('HANDLER_ERROR', `${path} is not UTF-8 text; nothing was changed`);
      }
      const fileDoc = await openDocument(path);
      // The provider's ranges are positions in the document VS Code holds; it must be the disk's text.
      if (fileDoc.getText() !== text)
        throw new ProtocolError(
          'HANDLER_ERROR',
          `${path} changed on disk since the editor read it; retry. Nothing was changed.`,
        );
      const newText = applyEdits(fileDoc, text, textEdits);
      const rel = relative(resolvePath(svc, path).folder, path).split('\\').join('/');
      files.push({
        filePath: path,
        edits: [...textEdits]
          .sort((a, b) => a.range.start.compareTo(b.range.start))
          .map((e) => ({ ...wireRange(e.range), newText: e.newText })),
        diff: unifiedDiff(rel, text, newText),
      });
      editCount += textEdits.length;
      const after = Buffer.concat([hasBom ? BOM : Buffer.alloc(0), Buffer.from(newText, 'utf8')]);
      if (!after.equals(before)) writes.push({ path, target, before, after });
    }
    if (params.dryRun) return { dryRun: true, files, changedFiles: [], editCount };
    await writeFiles(svc, writes, { what: 'edit/rename', recordResult: true, backupSource: BACKUP_SOURCE });
    if (writes.length > 0) svc.log(`rename: ${editCount} edit(s) in ${writes.length} file(s)`);
    return { dryRun: false, files, changedFiles: writes.map((w) => w.path), editCount };
  };
}
