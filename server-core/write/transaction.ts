// All or nothing across files: a write of several files either changes every one of them or leaves
// every one byte-identical to before, and an error says which happened. Order of work (a plan that
// names one file twice, by two paths, is refused before it):
//   1. journal the originals (write/journal.ts), durably; meanwhile the caller's `alongside` work runs
//      (the write path keeps the originals in local history with it);
//   2. prepare every file's replacement (write/atomic-file.ts: temp file written and fsynced), many at
//      a time (write/bounded.ts), and wait for `alongside`;
//   3. per file, in order: check it still holds the bytes the plan was made from (else someone changed
//      it meanwhile: stop), read right before its rename so that another process's edit can slip in
//      only in the instant between the two, the caller's precondition, the signal, then the rename;
//   4. fsync each folder written once;
//   5. on any failure, remove the prepared files not renamed and put back the originals of the files
//      already replaced (prepared the same way, renamed newest first, folders fsynced);
//   6. commit (delete the journal, durably). Only then may the caller answer the client.
// Why this order keeps a crash (or power loss) at any instant recoverable to all or nothing:
// - the journal is durable before step 2 creates anything: every temp file and every replaced file is
//   named by a manifest that recovery reads at the next start (it removes the temp files and puts back
//   every original);
// - every temp file is fsynced before the first rename (step 2 ends before step 3 begins), so a rename
//   that survives a crash always names complete new bytes, and before the first rename nothing any
//   reader sees has changed (a crash there leaves every original and temp files that recovery removes);
// - `alongside` is done before the first rename: the originals are in local history before anything
//   is replaced, as before;
// - the folders are fsynced (step 4, and the same after a rollback) before the journal is deleted (step
//   6): a power loss can undo renames only while the journal that makes them all or nothing is still
//   there; after the commit every rename is durable.
// A cancelled request (`signal`) stops before the next file's replacement and is rolled back like a
// failure, and the error says nothing was changed only once the rollback is done. The commit point is
// the start of the last file's replacement: the signal is consulted right before each replacement and
// never after that one, so from there the write is finished whatever the signal says (T41: the caller
// answers its result).
// Pure Node, no vscode import, so it runs (and is killed) in tests outside VS Code.
import { rm } from 'node:fs/promises';
import {
  commitReplacement,
  discardReplacement,
  type PreparedReplacement,
  prepareReplacement,
  syncFolders,
} from './atomic-file';
import { eachBounded, settleBounded } from './bounded';
import { holdsBytes } from './fd-io';
import { WriteJournal } from './journal';

export interface PlannedWrite {
  /** The file as the client named it (messages, results). */
  path: string;
  /** The real path written (symlinks resolved). */
  target: string;
  /** The bytes the plan was made from; null: the file does not exist (a rollback re-creates it). */
  before: Buffer | null;
  after: Buffer;
}

/** A write that did not happen; `nothingChanged`: every file is as before (false: a rollback failed). */
export class WriteFailedError extends Error {
  constructor(
    message: string,
    readonly nothingChanged = true,
  ) {
    super(message);
  }
}

export interface ApplyOptions {
  /** Journal folder's parent (the extension's global storage). */
  stateDir: string;
  /** What is being written, for the journal and messages (e.g. "edit/replace"). */
  what: string;
  /** Extra check right before each file is replaced; a string aborts the whole write with that reason. */
  precondition?(w: PlannedWrite): string | undefined;
  /** The request's cancellation: aborted before the commit point (the last replacement begins), nothing changes. */
  signal?: AbortSignal;
  /**
   * Work that must be finished before the first file is replaced, started at once and run alongside
   * the journal and the temp files (the write path keeps the originals in local history with it). A
   * throw stops the write before anything is replaced.
   */
  alongside?(): Promise<void>;
  /** Test seam: called once every temp file is prepared (and `alongside` done), before the first file is checked and replaced (a throw rolls back). */
  afterPrepared?(): Promise<void> | void;
  /** Test seam: called after each file is replaced (a throw rolls back, even after the last file). */
  afterEach?(w: PlannedWrite, index: number): Promise<void> | void;
}

export async function applyAllOrNothing(writes: readonly PlannedWrite[], opts: ApplyOptions): Promise<void> {
  if (writes.length === 0) return;
  // Two paths of one file (a symlink and its target): each plan was made from the same bytes, so
  // writing both would lose one's edits (each file's check ran before the other path's rename). Nothing starts.
  const byTarget = new Map<string, string>();
  for (const w of writes) {
    const other = byTarget.get(w.target);
    if (other !== undefined)
      throw new WriteFailedError(`${other} and ${w.path} are the same file (${w.target}); nothing was changed`);
    byTarget.set(w.target, w.path);
  }
  const side = opts.alongside?.();
  side?.catch(() => undefined); // awaited below, on every path
  let journal: WriteJournal;
  try {
    journal = await WriteJournal.begin(opts.stateDir, opts.what, [...writes]);
  } catch (e) {
    await side?.catch(() => undefined);
    throw e;
  }
  const prepared: (PreparedReplacement | undefined)[] = new Array(writes.length).fill(undefined);
  const done: PlannedWrite[] = [];
  try {
    if (opts.signal?.aborted) throw new WriteFailedError('the request was cancelled');
    await eachBounded(writes, async (w, i) => {
      prepared[i] = await prepareReplacement(w.target, w.after);
    });
    await side;
    await opts.afterPrepared?.();
    // Each file's check is read right before its rename, not ahead with the others: a check read while
    // earlier files were being renamed left another process's edit of this file, made in that time,
    // to be overwritten (the hardening live test's concurrent writer caught it).
    const checks: Promise<boolean>[] = [];
    const checkUpTo = (last: number) => {
      for (let k = checks.length; k <= last && k < writes.length; k++)
        checks.push(holdsBytes(writes[k]!.target, writes[k]!.before));
    };
    try {
      for (const [i, w] of writes.entries()) {
        checkUpTo(i);
        if (!(await checks[i]!))
          throw new WriteFailedError(`${w.path} changed on disk while the ${opts.what} was being prepared`);
        const veto = opts.precondition?.(w);
        if (veto) throw new WriteFailedError(veto);
        // The last look at the signal before this replacement; past the last file's (the commit point)
        // the write completes whatever the signal says.
        if (opts.signal?.aborted) throw new WriteFailedError('the request was cancelled');
        const p = prepared[i]!;
        prepared[i] = undefined; // renamed, or removed by commitReplacement when the rename fails
        await commitReplacement(p);
        done.push(w);
        await opts.afterEach?.(w, done.length - 1);
      }
    } finally {
      await Promise.all(checks); // reads only (never rejects): settled before anything else happens
    }
    await syncFolders(writes.map((w) => w.target));
  } catch (e) {
    await side?.catch(() => undefined);
    await settleBounded(prepared, async (p) => {
      if (p) await discardReplacement(p);
    });
    const why = e instanceof Error ? e.message : String(e);
    const notRestored = await restoreOriginals(done);
    if (notRestored.length > 0) {
      // The journal stays: the next start restores these from it.
      throw new WriteFailedError(
        `${opts.what} failed (${why}); ${writes.length - notRestored.length} of ${writes.length} files are unchanged, but ${notRestored.join(', ')} could not be restored yet (their originals are kept in the write journal and restored when the extension restarts)`,
        false,
      );
    }
    await journal.commit();
    throw new WriteFailedError(
      `${opts.what} failed: ${why}; nothing was changed (${done.length > 0 ? `${done.length} file(s) already written were restored` : 'no file had been written'})`,
    );
  }
  await journal.commit();
}

/**
 * Puts back the originals of the files replaced so far (null: no file), newest first: each prepared as
 * in the write, renamed back, every folder fsynced once before the caller may delete the journal.
 * Returns the files that could not be restored.
 */
async function restoreOriginals(done: readonly PlannedWrite[]): Promise<string[]> {
  const newestFirst = [...done].reverse();
  const prepared: (PreparedReplacement | undefined)[] = new Array(newestFirst.length).fill(undefined);
  const { errors } = await settleBounded(newestFirst, async (w, i) => {
    if (w.before !== null) prepared[i] = await prepareReplacement(w.target, w.before);
  });
  const notRestored: string[] = [];
  for (const [i, w] of newestFirst.entries()) {
    try {
      if (errors[i]) throw errors[i].error;
      if (w.before === null) await rm(w.target, { force: true });
      else await commitReplacement(prepared[i]!);
    } catch {
      notRestored.push(w.path);
    }
  }
  await syncFolders(newestFirst.map((w) => w.target));
  return notRestored;
}
