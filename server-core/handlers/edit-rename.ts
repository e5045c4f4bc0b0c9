// /app/vscode/edit/rename — a semantic rename through the language's rename provider (the host's
// LanguageFeatures.rename). The provider's edits are applied to the files as on disk and written as ONE
// transaction through the write path of edit/replace (write/workspace-write.ts): protected files and
// files with unsaved editor changes are refused, originals kept in local history, every file changes or
// none does, crash-safe. A dry run answers the same edits and diffs (and the same refusals) and writes
// nothing. Served when the host's LanguageFeatures has rename. Every project of the workspace is loaded
// first (projects.ts), so that the provider finds every reference, and the answer says what was
// searched (coverage, T47).
// The provider is asked prepareRename only when its answer can matter (issue 33, bench/FINDINGS.md
// finding 2: typescript-language-server computes a whole rename for it, as long as the rename itself):
// before the rename when the new name is not an identifier (the name it replaces says whether one is
// needed), and after a rename that was refused or gave no edits, so that a refusal carries the
// provider's message as before ("nothing to rename at …"). A new name that is an identifier passes
// that check whatever it replaces, and a provider's rename refuses where its prepareRename does
// (host.ts). The files are read a few ahead of their turn (write/bounded.ts's bound), each checked in
// order as before.
import { isAbsolute, relative } from 'node:path';
import { type CoreContext, resolvePath } from '../context';
import { invalidRequest, ProtocolError } from '../errors';
import { isUnavailable, type LanguageFeatures, type Range, RenameRejectedError } from '../host';
import type { ResolvedPath } from '../path-guard';
import { coverWorkspace, wireCoverage } from '../projects';
import type { EditRenameResult, Handlers } from '../protocol';
import { WRITE_CONCURRENCY } from '../write/bounded';
import { unifiedDiff } from '../write/diff';
import { readBytes } from '../write/fd-io';
import { applyTextEdits, decodeText, encodeText, TextEditError } from '../write/file-text';
import { BACKUP_SOURCES, checkWritable, type PlannedWrite, writeFiles } from '../write/workspace-write';
import { documentAt, documentText, textOfRange, wireRange } from './document';
import { MAX_REPLACE_BYTES } from './edit-replace';
import { locate } from './locator';

/** A name spelled like an identifier (ECMAScript's, which most languages' names are a subset of). */
const IDENTIFIER = /^[\p{ID_Start}_$][\p{ID_Continue}_$\u200c\u200d]*$/u;

type FileEdits = EditRenameResult['files'][number];
type Rename = NonNullable<LanguageFeatures['rename']>;

/** The provider's refusal (its message kept) as INVALID_REQUEST; anything else is rethrown. */
async function asked<T>(what: string, call: () => Promise<T>): Promise<T> {
  try {
    return await call();
  } catch (e) {
    if (e instanceof RenameRejectedError) throw invalidRequest(`${what}: ${e.message}`);
    throw e;
  }
}

/** Applies the provider's edits (ranges in the original text) to a file's text; overlaps are refused. */
function applyEdits(path: string, text: string, edits: readonly { range: Range; newText: string }[]): string {
  try {
    return applyTextEdits(text, edits, { positions: 'clamp', eol: null });
  } catch (e) {
    if (!(e instanceof TextEditError)) throw e;
    throw new ProtocolError(
      'HANDLER_ERROR',
      `the rename provider gave overlapping edits in ${path}; nothing was changed`,
    );
  }
}

const byPosition = (a: { range: Range }, b: { range: Range }) =>
  a.range.start.line - b.range.start.line || a.range.start.character - b.range.start.character;

export function editRename(svc: CoreContext, rename: Rename): Handlers['editRename'] {
  return async (params, ctx) => {
    if (/[\p{Cc}\p{Zl}\p{Zp}]/u.test(params.newName))
      throw invalidRequest('newName contains a line break or control character');
    // Every project loaded first (T47), so the rename edits every file its references name.
    const [located, covered] = await Promise.all([
      locate(svc, params, ctx.signal),
      coverWorkspace(svc, ctx.signal, resolvePath(svc, params.filePath).path),
    ]);
    const coverage = wireCoverage(covered);
    const { path, position } = await documentAt(svc, params.filePath, located.line, located.character);
    const at = params.namePath ?? `${located.line}:${located.character}`;
    /** The provider's prepareRename: its refusal, or a new name that cannot replace the name there, thrown. */
    const prepare = async () => {
      const prepared = svc.language.prepareRename
        ? await asked(`nothing to rename at ${at}`, () => svc.language.prepareRename!(path, position, ctx.signal))
        : null;
      if (isUnavailable(prepared)) throw invalidRequest(`no rename provider for ${path}: ${prepared.unavailable}`);
      if (prepared) {
        const current = prepared.placeholder ?? textOfRange(await documentText(svc, path), prepared.range);
        if (IDENTIFIER.test(current) && !IDENTIFIER.test(params.newName))
          throw invalidRequest(`"${params.newName}" is not a valid name for ${current} (an identifier is expected)`);
      }
    };
    // An identifier passes the check whatever it replaces: the provider is asked once (see the header).
    const askedFirst = !IDENTIFIER.test(params.newName);
    if (askedFirst) await prepare();
    const answer = await asked(`cannot rename at ${at}`, async () => {
      try {
        return await rename(path, position, params.newName, ctx.signal);
      } catch (e) {
        if (e instanceof RenameRejectedError && !askedFirst) await prepare(); // its refusal, as when asked first
        throw e;
      }
    });
    if (!askedFirst && (isUnavailable(answer) || !answer?.some((f) => f.edits.length > 0))) await prepare();
    if (isUnavailable(answer)) throw invalidRequest(`no rename provider for ${path}: ${answer.unavailable}`);
    if (!answer) throw invalidRequest(`no rename provider answers for ${path}`);
    ctx.signal.throwIfAborted();

    const entries = answer
      .filter((f) => f.edits.length > 0)
      .sort((a, b) => (a.filePath < b.filePath ? -1 : a.filePath > b.filePath ? 1 : 0));
    // Each file's real path and workspace folder, resolved once (path-guard.ts: realpaths on the main thread).
    const targets = entries.map((f) => {
      let resolved: ResolvedPath | undefined;
      try {
        if (isAbsolute(f.filePath)) resolved = resolvePath(svc, f.filePath);
      } catch {
        /* outside every folder: refused below */
      }
      if (!resolved)
        throw invalidRequest(
          `the rename would edit ${f.filePath}, outside every workspace folder; nothing was changed`,
        );
      return { path: f.filePath, target: resolved.real, folder: resolved.folder };
    });
    // Refuse before reading anything: a protected target or unsaved editor text (also on a dry run: it
    // shows what the rename would do, and the edits of an unsaved document do not apply to the disk).
    checkWritable(svc, targets);

    const files: FileEdits[] = [];
    const writes: PlannedWrite[] = [];
    let bytes = 0;
    let editCount = 0;
    // Each file is read a few ahead of its turn; every read started is settled before this returns.
    const reads: Promise<Buffer | { error: unknown }>[] = [];
    const readUpTo = (last: number) => {
      for (let k = reads.length; k <= last && k < targets.length; k++)
        reads.push(readBytes(targets[k]!.target).catch((error: unknown) => ({ error })));
    };
    try {
      for (const [i, f] of entries.entries()) {
        ctx.signal.throwIfAborted();
        const { path: file, target, folder } = targets[i]!;
        readUpTo(i + WRITE_CONCURRENCY);
        const read = await reads[i]!;
        if (!Buffer.isBuffer(read)) throw read.error;
        const before = read;
        bytes += before.length;
        if (bytes > MAX_REPLACE_BYTES)
          throw new ProtocolError(
            'HANDLER_ERROR',
            `the rename would rewrite more than ${MAX_REPLACE_BYTES / 1024 / 1024} MB of files; nothing was changed`,
          );
        const decoded = decodeText(before);
        if (!decoded) throw new ProtocolError('HANDLER_ERROR', `${file} is not UTF-8 text; nothing was changed`);
        const { text } = decoded;
        // The provider's ranges are positions in the text it read: an editor's copy must be the disk's.
        const held = svc.documents.text(file);
        if (held !== undefined && held !== text)
          throw new ProtocolError(
            'HANDLER_ERROR',
            `${file} changed on disk since the editor read it; retry. Nothing was changed.`,
          );
        const newText = applyEdits(file, text, f.edits);
        const rel = relative(folder, file).split('\\').join('/');
        files.push({
          filePath: file,
          edits: [...f.edits].sort(byPosition).map((e) => ({ ...wireRange(e.range), newText: e.newText })),
          diff: unifiedDiff(`a/${rel}`, `b/${rel}`, text, newText),
        });
        editCount += f.edits.length;
        const after = encodeText(newText, decoded.bom);
        if (!after.equals(before)) writes.push({ path: file, target, before, after });
      }
    } finally {
      await Promise.all(reads);
    }
    if (params.dryRun) return { dryRun: true, files, changedFiles: [], editCount, coverage };
    const transactionId = await writeFiles(svc, writes, {
      what: 'edit/rename',
      recordResult: true,
      backupSource: BACKUP_SOURCES.rename,
      request: ctx,
    });
    if (writes.length > 0) svc.tools.log(`rename: ${editCount} edit(s) in ${writes.length} file(s)`);
    return {
      dryRun: false,
      ...(transactionId !== undefined && { transactionId }),
      files,
      changedFiles: writes.map((w) => w.path),
      editCount,
      coverage,
    };
  };
}
