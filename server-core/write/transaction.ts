// All or nothing across files and folders: a write of several files (each written, created or
// deleted) and folders (created or removed) either makes every one of those changes or leaves every
// path as before, and an error says which happened. Order of work (a plan that names one file twice, by
// two paths, is refused before it):
//   1. journal the originals and the folders (write/journal.ts), durably; meanwhile the caller's
//      `alongside` work runs (the write path keeps the originals in local history with it);
//   2. create the new folders, shallowest first (a file is written into them next);
//   3. prepare every written file's replacement (write/atomic-file.ts: temp file written and fsynced),
//      many at a time (write/bounded.ts), and wait for `alongside`;
//   4. per file, in order: check it still holds the bytes the plan was made from (else someone changed
//      it meanwhile: stop), read right before its step so that another process's edit can slip in
//      only in the instant between the two, the caller's precondition, the signal, then the rename of
//      its temp file over it, or its removal (a file deleted);
//   5. remove the folders the plan empties, deepest first (a folder someone put a file in meanwhile is
//      not empty: stop);
//   6. fsync each folder written once;
//   7. on any failure, remove the prepared files not renamed, re-create the folders removed, put back
//      the originals of the files already replaced or deleted (prepared the same way, renamed newest
//      first) and remove the folders created, folders fsynced;
//   8. commit: the journal deleted, or kept as the transaction's record for edit/undo (write/undo-log.ts),
//      durably. Only then may the caller answer the client.
// Why this order keeps a crash (or power loss) at any instant recoverable to all or nothing:
// - the journal is durable before step 2 creates anything: every folder created, every temp file and
//   every replaced or deleted file is named by a manifest that recovery reads at the next start (it
//   removes the temp files, re-creates the folders removed, puts back every original and removes the
//   folders created, when empty);
// - every temp file is fsynced before the first rename (step 3 ends before step 4 begins), so a rename
//   that survives a crash always names complete new bytes, and before the first rename no file any
//   reader sees has changed (a crash there leaves every original and temp files that recovery removes);
// - a deleted file's bytes (and a removed folder's mode) are in the journal before it goes, so they are
//   kept until the commit, and after it in the transaction's record;
// - `alongside` is done before the first rename: the originals are in local history before anything
//   is replaced, as before;
// - the folders are fsynced (step 6, and the same after a rollback) before the journal is committed
//   (step 8): a power loss can undo renames only while the journal that makes them all or nothing is
//   still there; after the commit every step is durable.
// A cancelled request (`signal`) stops before the next step of step 4 or 5 and is rolled back like a
// failure, and the error says nothing was changed only once the rollback is done. The commit point is
// the start of the last step (the last file's replacement or removal, or the last folder's removal):
// the signal is consulted right before each step and never after the last, so from there the write is
// finished whatever the signal says (T41: the caller answers its result).
// Pure Node, no vscode import, so it runs (and is killed) in tests outside VS Code.
import { rm, rmdir, unlink } from 'node:fs/promises';
import {
  commitReplacement,
  discardReplacement,
  makeFolder,
  type PreparedReplacement,
  prepareReplacement,
  syncFolders,
} from './atomic-file';
import { eachBounded, settleBounded } from './bounded';
import { holdsBytes } from './fd-io';
import { type JournalKeep, WriteJournal } from './journal';

export interface PlannedWrite {
  /** The file as the client named it (messages, results). */
  path: string;
  /** The real path written (symlinks resolved). */
  target: string;
  /** The bytes the plan was made from; null: the file does not exist (a rollback removes it again). */
  before: Buffer | null;
  /** The bytes to write; null: the file is deleted (a rollback re-creates it). */
  after: Buffer | null;
  /**
   * The mode a file gets where this write (or its rollback, recovery or undo) creates it: a file moved
   * keeps its own, a file deleted gets its own back. Default 0o644; a file replaced keeps its mode.
   */
  mode?: number;
}

/** A folder a write creates (before its files are written) or removes (after they are gone; it must then be empty). */
export interface PlannedFolder {
  path: string;
  /** The real path (its parent's symlinks resolved). */
  target: string;
  change: 'create' | 'remove';
  /** The folder's mode where it is created (forward, or back by a rollback, recovery or undo). */
  mode?: number;
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
  /** The folders the write creates and removes (default none). */
  folders?: readonly PlannedFolder[];
  /**
   * Keep the journal, once committed, as the transaction's record for edit/undo (write/undo-log.ts):
   * applyAllOrNothing then resolves with its id. Without it the journal is deleted at the commit.
   */
  keep?: JournalKeep;
  /** Extra check right before each file is replaced; a string aborts the whole write with that reason. */
  precondition?(w: PlannedWrite): string | undefined;
  /** The request's cancellation: aborted before the commit point (the last step begins), nothing changes. */
  signal?: AbortSignal;
  /**
   * Work that must be finished before the first file is replaced, started at once and run alongside
   * the journal and the temp files (the write path keeps the originals in local history with it). A
   * throw stops the write before anything is replaced.
   */
  alongside?(): Promise<void>;
  /** Test seam: called once every temp file is prepared (and `alongside` done), before the first file is checked and replaced (a throw rolls back). */
  afterPrepared?(): Promise<void> | void;
  /** Test seam: called after each file is replaced or deleted (a throw rolls back, even after the last file). */
  afterEach?(w: PlannedWrite, index: number): Promise<void> | void;
  /** Test seam: called after each folder is created or removed, counted in that order (a throw rolls back). */
  afterFolder?(f: PlannedFolder, index: number): Promise<void> | void;
}

/** Folders by depth: parents before their children (`deepestFirst`: the reverse). */
const byDepth = (deepestFirst: boolean) => (a: PlannedFolder, b: PlannedFolder) => {
  const d = a.target.length - b.target.length; // a parent's path is shorter than its child's
  return deepestFirst ? -d : d;
};

/** The order a write makes its folder steps in: those created (parents first), then those removed (contents first). */
export function transactionOrder(a: PlannedFolder, b: PlannedFolder): number {
  if (a.change !== b.change) return a.change === 'create' ? -1 : 1;
  return byDepth(a.change === 'remove')(a, b);
}

/**
 * Applies the plan all or nothing (see the header). Resolves with the transaction's id when `keep`
 * kept its record, else undefined (also when there was nothing to write).
 */
export async function applyAllOrNothing(
  writes: readonly PlannedWrite[],
  opts: ApplyOptions,
): Promise<string | undefined> {
  const folders = opts.folders ?? [];
  if (writes.length === 0 && folders.length === 0) return undefined;
  // Two paths of one file (a symlink and its target): each plan was made from the same bytes, so
  // writing both would lose one's edits (each file's check ran before the other path's rename). Nothing starts.
  const byTarget = new Map<string, string>();
  for (const w of [...writes, ...folders]) {
    const other = byTarget.get(w.target);
    if (other !== undefined)
      throw new WriteFailedError(`${other} and ${w.path} are the same file (${w.target}); nothing was changed`);
    byTarget.set(w.target, w.path);
  }
  const creates = folders.filter((f) => f.change === 'create').sort(byDepth(false));
  const removes = folders.filter((f) => f.change === 'remove').sort(byDepth(true));
  const side = opts.alongside?.();
  side?.catch(() => undefined); // awaited below, on every path
  let journal: WriteJournal;
  try {
    journal = await WriteJournal.begin(opts.stateDir, opts.what, [...writes], folders, opts.keep);
  } catch (e) {
    await side?.catch(() => undefined);
    throw e;
  }
  const prepared: (PreparedReplacement | undefined)[] = new Array(writes.length).fill(undefined);
  const done: PlannedWrite[] = [];
  const created: PlannedFolder[] = [];
  const removed: PlannedFolder[] = [];
  try {
    if (opts.signal?.aborted) throw new WriteFailedError('the request was cancelled');
    for (const f of creates) {
      await makeFolder(f.target, f.mode);
      created.push(f);
      await opts.afterFolder?.(f, created.length - 1);
    }
    await eachBounded(writes, async (w, i) => {
      if (w.after !== null) prepared[i] = await prepareReplacement(w.target, w.after, w.mode);
    });
    await side;
    await opts.afterPrepared?.();
    // Each file's check is read right before its step, not ahead with the others: a check read while
    // earlier files were being renamed left another process's edit of this file, made in that time,
    // to be overwritten (the hardening live test's concurrent writer caught it).
    const checks: Promise<boolean>[] = [];
    const checkUpTo = (last: number) => {
      for (let k = checks.length; k <= last && k < writes.length; k++)
        checks.push(holdsBytes(writes[k]!.target, writes[k]!.before));
    };
    // The last look at the signal before a step; past the last step's (the commit point) the write
    // completes whatever the signal says.
    const notCancelled = () => {
      if (opts.signal?.aborted) throw new WriteFailedError('the request was cancelled');
    };
    try {
      for (const [i, w] of writes.entries()) {
        checkUpTo(i);
        if (!(await checks[i]!))
          throw new WriteFailedError(`${w.path} changed on disk while the ${opts.what} was being prepared`);
        const veto = opts.precondition?.(w);
        if (veto) throw new WriteFailedError(veto);
        notCancelled();
        if (w.after === null) {
          await unlink(w.target);
        } else {
          const p = prepared[i]!;
          prepared[i] = undefined; // renamed, or removed by commitReplacement when the rename fails
          await commitReplacement(p);
        }
        done.push(w);
        await opts.afterEach?.(w, done.length - 1);
      }
    } finally {
      await Promise.all(checks); // reads only (never rejects): settled before anything else happens
    }
    for (const f of removes) {
      notCancelled();
      await rmdir(f.target); // not empty (someone added a file meanwhile): the write stops
      removed.push(f);
      await opts.afterFolder?.(f, created.length + removed.length - 1);
    }
    await syncFolders([...writes.map((w) => w.target), ...folders.map((f) => f.target)]);
  } catch (e) {
    await side?.catch(() => undefined);
    await settleBounded(prepared, async (p) => {
      if (p) await discardReplacement(p);
    });
    const why = e instanceof Error ? e.message : String(e);
    const notRestored = await restoreOriginals(done, created, removed);
    if (notRestored.length > 0) {
      // The journal stays: the next start restores these from it.
      const total = writes.length + folders.length;
      throw new WriteFailedError(
        `${opts.what} failed (${why}); ${total - notRestored.length} of ${total} paths are unchanged, but ${notRestored.join(', ')} could not be restored yet (their originals are kept in the write journal and restored when the server restarts)`,
        false,
      );
    }
    await journal.commit(false);
    const folderSteps = created.length + removed.length;
    const restored = [
      ...(done.length > 0 ? [`${done.length} file(s) already written were restored`] : []),
      ...(folderSteps > 0 ? [`${folderSteps} folder(s) already created or removed were put back`] : []),
    ];
    throw new WriteFailedError(
      `${opts.what} failed: ${why}; nothing was changed (${restored.join(', ') || 'no file had been written'})`,
    );
  }
  return journal.commit(opts.keep !== undefined);
}

/**
 * Undoes the steps taken so far: the folders removed are made again (shallowest first), the originals
 * of the files replaced or deleted are put back (null: no file; each prepared as in the write, renamed
 * newest first) and the folders created are removed (deepest first); every folder fsynced once before
 * the caller may delete the journal. Returns the paths that could not be restored.
 */
async function restoreOriginals(
  done: readonly PlannedWrite[],
  created: readonly PlannedFolder[],
  removed: readonly PlannedFolder[],
): Promise<string[]> {
  const notRestored: string[] = [];
  for (const f of [...removed].reverse()) {
    try {
      await makeFolder(f.target, f.mode);
    } catch {
      notRestored.push(f.path);
    }
  }
  const newestFirst = [...done].reverse();
  const prepared: (PreparedReplacement | undefined)[] = new Array(newestFirst.length).fill(undefined);
  const { errors } = await settleBounded(newestFirst, async (w, i) => {
    if (w.before !== null) prepared[i] = await prepareReplacement(w.target, w.before, w.mode);
  });
  for (const [i, w] of newestFirst.entries()) {
    try {
      if (errors[i]) throw errors[i].error;
      if (w.before === null) await rm(w.target, { force: true });
      else await commitReplacement(prepared[i]!);
    } catch {
      notRestored.push(w.path);
    }
  }
  for (const f of [...created].reverse()) {
    try {
      await rmdir(f.target);
    } catch {
      notRestored.push(f.path);
    }
  }
  await syncFolders([
    ...newestFirst.map((w) => w.target),
    ...created.map((f) => f.target),
    ...removed.map((f) => f.target),
  ]);
  return notRestored;
}
