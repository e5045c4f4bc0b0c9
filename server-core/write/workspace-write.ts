// The one write path of every write topic (edit/replace, edit/rename, the rollbacks, edit/apply, edit/undo):
// - one write at a time across all clients (two replaces never interleave on the same files);
// - a protected file (write/protected-paths.ts) is refused, whatever the exclude settings say;
// - a file with unsaved editor changes is refused, never saved or overwritten behind the user's back:
//   the client is told to have them saved or reverted, and nothing is changed;
// - what is overwritten is kept as a local-history entry first, whatever its size (VS Code's own
//   local history stops at 256 KB and would lose the original of a big untracked file): the entries of
//   all files are written (and fsynced) at once, off the main thread, alongside the transaction's
//   journal and temp files, and are durable before its first file is replaced (transaction.ts
//   `alongside`);
// - the files are written, created and deleted, and folders created and removed, all or nothing
//   (write/transaction.ts), crash-safe;
// - every transaction is kept, once committed, as a record edit/undo can undo (write/undo-log.ts: its
//   originals, in the server's state folder, bounded), and its id is what the write answers;
// - a write that VS Code's save would record in local history (edit/replace) records the new content
//   too, within the user's local-history settings, all files at once after the commit (a write that
//   did not happen records nothing); open editors are waited for until they show it. Each History
//   folder's entries.json, read once to keep the originals, is not read again to record the results
//   while that file is unchanged (local-history.ts `Listings`);
// - a cancel (T41) is answered when the write settles, never while files are half written: the write
//   path holds the request's cancel answer (ctx.holdCancelAnswer) when the write's turn begins, so the
//   answer is CANCELLED only after a rollback left every file as it was, and the result once the last
//   file's replacement began (the commit point, transaction.ts). A cancel while the handler was still
//   planning, or while its write waited behind another, was answered CANCELLED at once, and its write
//   is refused before it touches anything.
// What an editor adds (unsaved documents, reloading after a write) comes through the host's OpenDocuments.
import type { CoreContext } from '../context';
import { ProtocolError } from '../errors';
import { Listings } from '../local-history';
import type { RequestContext } from '../protocol';
import { protectedReason, realFolders } from './protected-paths';
import { applyAllOrNothing, type PlannedFolder, type PlannedWrite, WriteFailedError } from './transaction';
import { pruneUndoLog } from './undo-log';

export { type PlannedFolder, type PlannedWrite, WriteFailedError };

let tail: Promise<unknown> = Promise.resolve();

/** Runs write transactions one after another, in arrival order. */
function oneAtATime<T>(fn: () => Promise<T>): Promise<T> {
  const run = tail.then(fn, fn);
  tail = run.catch(() => undefined);
  return run;
}

export interface WriteOptions {
  /** The topic, for messages, the journal and local-history sources. */
  what: string;
  /** Also record the new content in local history (as a save through VS Code would). */
  recordResult: boolean;
  /** Local-history source of the entry that keeps what is overwritten (shown in VS Code's Timeline). */
  backupSource: string;
  /**
   * The request being answered (its ctx): its signal cancels the write before its commit point, and its
   * cancel answer is held until the write settles (see the header).
   */
  request?: Pick<RequestContext, 'signal' | 'holdCancelAnswer'>;
  /** Without a request (tools, tests): a signal that cancels the write before its commit point. */
  signal?: AbortSignal;
  /** The folders the write creates and removes. */
  folders?: readonly PlannedFolder[];
  /** The client's label, kept with the transaction (edit/apply). */
  label?: string;
  /** The transaction this write undoes (edit/undo). */
  undoes?: string;
}

/** Sources of the entries that keep what a write overwrote. */
export const BACKUP_SOURCES = {
  rollback: 'IDEA: before rollback',
  replace: 'IDEA: before edit/replace',
  rename: 'IDEA: before edit/rename',
  apply: 'IDEA: before edit/apply',
  undo: 'IDEA: before edit/undo',
} as const;

/** Refuses writes that must not happen at all (protected or unsaved files); INVALID_REQUEST / HANDLER_ERROR. */
export function checkWritable(svc: CoreContext, writes: readonly { path: string; target: string }[]): void {
  const folders = svc.folders.paths();
  const folderReals = writes.length > 1 ? realFolders(folders) : undefined; // resolved once, not per file
  for (const w of writes) {
    const reason = protectedReason(w.target, folders, folderReals);
    if (reason)
      throw new ProtocolError(
        'INVALID_REQUEST',
        `${w.path} may not be written by IDEA clients: ${reason}; nothing was changed`,
      );
  }
  const dirty = writes.filter((w) => svc.documents.isDirty(w.path));
  if (dirty.length > 0) {
    const names =
      dirty
        .slice(0, 5)
        .map((w) => w.path)
        .join(', ') + (dirty.length > 5 ? ` and ${dirty.length - 5} more` : '');
    throw new ProtocolError(
      'HANDLER_ERROR',
      `${names} ${dirty.length === 1 ? 'has' : 'have'} unsaved changes in the editor; save or revert them first. Nothing was changed.`,
    );
  }
}

/**
 * Writes the plan as one transaction (see the header); resolves with its id (what edit/undo takes), or
 * undefined when the plan changes nothing.
 */
export function writeFiles(
  svc: CoreContext,
  writes: readonly PlannedWrite[],
  opts: WriteOptions,
): Promise<string | undefined> {
  const signal = opts.request?.signal ?? opts.signal;
  const folders = opts.folders ?? [];
  return oneAtATime(async () => {
    // From its turn on, a cancel is answered by how the write ends. One that came earlier (while it was
    // planned, or queued behind another write) was answered CANCELLED at once, and its signal, aborted
    // before that answer was sent, stops the write here before it touches anything.
    opts.request?.holdCancelAnswer?.();
    signal?.throwIfAborted();
    checkWritable(svc, [...writes, ...folders]);
    if (writes.length === 0 && folders.length === 0) return undefined;
    const listings = new Listings(); // this write's, shared by its two calls to local history
    try {
      const id = await applyAllOrNothing(writes, {
        stateDir: svc.tools.stateDir,
        what: opts.what,
        folders,
        keep: {
          ...(opts.label !== undefined && { label: opts.label }),
          ...(opts.undoes !== undefined && { undoes: opts.undoes }),
        },
        signal,
        precondition: (w) =>
          svc.documents.isDirty(w.path) ? `${w.path} got unsaved editor changes meanwhile` : undefined,
        alongside: () => keepInLocalHistory(svc, writes, opts.backupSource, listings),
      });
      await pruneUndoLog(svc.tools.stateDir, svc.tools.log);
      if (opts.recordResult) await recordResults(svc, writes, opts.what, listings);
      svc.written?.(
        writes.map((w) => ({
          path: w.path,
          kind: w.after === null ? 'deleted' : w.before === null ? 'created' : 'changed',
        })),
      );
      const afterWrite = svc.documents.afterWrite?.bind(svc.documents);
      if (afterWrite)
        await Promise.all(writes.map((w) => (w.after === null ? undefined : afterWrite(w.path, w.after))));
      return id;
    } catch (e) {
      // A cancelled write is answered CANCELLED for a plain error, which must mean every file is as it
      // was. When that is not known (a rollback failed, or the failure came past the commit point),
      // answer the error itself: a ProtocolError is answered as thrown even after a cancel.
      if (!signal?.aborted || e instanceof ProtocolError || (e instanceof WriteFailedError && e.nothingChanged))
        throw e;
      const message = e instanceof Error ? e.message : String(e);
      svc.tools.log(`${opts.what} was cancelled but may have changed files: ${message}`);
      throw new ProtocolError('HANDLER_ERROR', message);
    }
  });
}

/**
 * Keeps what each write overwrites as the file's newest local-history entry, unless that entry already
 * holds it (LocalHistory.addEntries: every entry durable when this resolves). Throws when one could
 * not be kept.
 */
export async function keepInLocalHistory(
  svc: CoreContext,
  writes: readonly Pick<PlannedWrite, 'path' | 'target' | 'before'>[],
  source: string,
  listings?: Listings,
): Promise<void> {
  const kept = writes.filter((w) => w.before !== null);
  const entries = await svc.history.addEntries(
    kept.map((w) => ({ path: w.path, real: w.target, content: w.before!, source, unlessNewest: true })),
    undefined,
    listings,
  );
  for (const [i, entry] of entries.entries())
    if (entry)
      svc.tools.log(`kept the content of ${kept[i]!.path} before it is overwritten as local-history entry ${entry.id}`);
}

/** As VS Code's save would: only when local history is enabled for the file and it is not too big. */
async function recordResults(
  svc: CoreContext,
  writes: readonly PlannedWrite[],
  what: string,
  listings: Listings,
): Promise<void> {
  const recorded = writes.flatMap((w) =>
    w.after !== null && svc.localHistory.recordsSave(w.path, w.after.length) ? [{ ...w, after: w.after }] : [],
  );
  await svc.history.addEntries(
    recorded.map((w) => ({ path: w.path, real: w.target, content: w.after, source: `IDEA: ${what}` })),
    (item, e) => svc.tools.log(`could not record ${item.path} in local history: ${(e as Error).message}`),
    listings,
  );
}
