// /app/vscode/edit/replace — the same file selection and matching as edit/find, applied to the files on
// disk as ONE transaction (write/workspace-write.ts): every file changes or none does, each atomically,
// the originals kept in local history, and the answer never disagrees with the disk. A file with unsaved
// editor changes is refused (never saved behind the user's back); protected files (.git, .vscode,
// *.code-workspace) are never selected.
import { readFile } from 'node:fs/promises';
import { type CoreContext, ripgrepOf } from '../context';
import { ProtocolError } from '../errors';
import { realpathOfNearestAncestor } from '../path-guard';
import type { Handlers } from '../protocol';
import { buildRegExp, type MatchOptions } from '../search/js-regex';
import { RegexBudget } from '../search/regex-pool';
import { replaceInText } from '../search/replace-in-text';
import { searchFolders } from '../search/scope';
import { searchText } from '../search/text-search';
import { PROTECTED_GLOBS } from '../write/protected-paths';
import { BACKUP_SOURCES, checkWritable, type PlannedWrite, writeFiles } from '../write/workspace-write';

/** Most bytes (originals) one replace may rewrite: all of them are held in memory until the commit. */
export const MAX_REPLACE_BYTES = 256 * 1024 * 1024;

const BOM = Buffer.from([0xef, 0xbb, 0xbf]);
const utf8 = new TextDecoder('utf-8', { fatal: true, ignoreBOM: true });

export function editReplace(svc: CoreContext): Handlers['editReplace'] {
  return async (params, ctx) => {
    const match: MatchOptions = {
      pattern: params.pattern,
      isRegex: params.isRegex,
      isCaseSensitive: params.isCaseSensitive,
    };
    const folders = searchFolders(svc.folders, params.include, params.exclude, 'search').map((f) => ({
      ...f,
      selection: { ...f.selection, excludes: [...f.selection.excludes, ...PROTECTED_GLOBS] },
    }));
    const found = await searchText({
      rg: ripgrepOf(svc),
      folders,
      match,
      dirty: svc.documents.dirty(),
      maxMatches: 0,
      signal: ctx.signal,
    });
    buildRegExp(match); // INVALID_REQUEST for a malformed pattern even when no file was selected
    const paths = [...found.files].sort();
    // Refuse before reading anything: a protected target (a symlink into .git) or unsaved editor text.
    checkWritable(
      svc,
      paths.map((path) => ({ path, target: realpathOfNearestAncestor(path) })),
    );

    const writes: PlannedWrite[] = [];
    const affectedFiles: string[] = [];
    let replacedCount = 0;
    let bytes = 0;
    const budget = new RegexBudget(); // one time budget for the whole request's regex work
    for (const path of paths) {
      ctx.signal.throwIfAborted();
      const target = realpathOfNearestAncestor(path);
      const before = await readFile(target);
      bytes += before.length;
      if (bytes > MAX_REPLACE_BYTES)
        throw new ProtocolError(
          'HANDLER_ERROR',
          `the replace would rewrite more than ${MAX_REPLACE_BYTES / 1024 / 1024} MB of files; narrow include/exclude. Nothing was changed.`,
        );
      const hasBom = before.subarray(0, 3).equals(BOM);
      let text: string;
      try {
        text = utf8.decode(hasBom ? before.subarray(3) : before);
      } catch {
        throw new ProtocolError(
          'HANDLER_ERROR',
          `${path} is not UTF-8 text, which edit/replace rewrites only; exclude it. Nothing was changed.`,
        );
      }
      const r = await replaceInText(match, params.replacement, text, { signal: ctx.signal, budget });
      if (r.count === 0) continue; // ripgrep's candidate lines are a superset of JavaScript's matches
      replacedCount += r.count;
      affectedFiles.push(path);
      const after = Buffer.concat([hasBom ? BOM : Buffer.alloc(0), Buffer.from(r.text, 'utf8')]);
      if (!after.equals(before)) writes.push({ path, target, before, after });
    }
    const transactionId = await writeFiles(svc, writes, {
      what: 'edit/replace',
      recordResult: true,
      backupSource: BACKUP_SOURCES.replace,
      request: ctx,
    });
    if (writes.length > 0) svc.tools.log(`replace: ${replacedCount} in ${writes.length} file(s)`);
    return { replacedCount, affectedFiles, ...(transactionId !== undefined && { transactionId }) };
  };
}
