// All or nothing across files: a write of several files either changes every one of them or leaves
// every one byte-identical to before, and an error says which happened. Order of work:
//   1. journal the originals (write/journal.ts): from here on a crash is undone at the next start;
//   2. per file: check it still holds the bytes the plan was made from (else someone changed it
//      meanwhile: stop), then replace it atomically (write/atomic-file.ts);
//   3. on any failure, put back the originals of the files already replaced, newest first;
//   4. commit (delete the journal). Only then may the caller answer the client.
// A cancelled request (`signal`) stops before the next file's replacement and is rolled back like a
// failure, and the error says nothing was changed only once the rollback is done. The commit point is
// the start of the last file's replacement: the signal is consulted right before each replacement and
// never after that one, so from there the write is finished whatever the signal says (T41: the caller
// answers its result).
// Pure Node, no vscode import, so it runs (and is killed) in tests outside VS Code.
import { readFile, rm } from 'node:fs/promises';
import { replaceFileAtomically } from './atomic-file';
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

/** Puts `bytes` (null: no file) at `target` atomically. */
async function putBytes(target: string, bytes: Buffer | null): Promise<void> {
  if (bytes === null) await rm(target, { force: true });
  else await replaceFileAtomically(target, bytes);
}

const sameBytes = (a: Buffer | null, b: Buffer | null) => (a === null || b === null ? a === b : a.equals(b));

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
  /** Test seam: called after each file is replaced (a throw rolls back, even after the last file). */
  afterEach?(w: PlannedWrite, index: number): Promise<void> | void;
}

export async function applyAllOrNothing(writes: readonly PlannedWrite[], opts: ApplyOptions): Promise<void> {
  if (writes.length === 0) return;
  const journal = await WriteJournal.begin(opts.stateDir, opts.what, [...writes]);
  const done: PlannedWrite[] = [];
  try {
    for (const w of writes) {
      const current = await readFile(w.target).catch(() => null);
      if (!sameBytes(current, w.before))
        throw new WriteFailedError(`${w.path} changed on disk while the ${opts.what} was being prepared`);
      const veto = opts.precondition?.(w);
      if (veto) throw new WriteFailedError(veto);
      // The last look at the signal before this replacement; past the last file's (the commit point)
      // the write completes whatever the signal says.
      if (opts.signal?.aborted) throw new WriteFailedError('the request was cancelled');
      await replaceFileAtomically(w.target, w.after);
      done.push(w);
      await opts.afterEach?.(w, done.length - 1);
    }
  } catch (e) {
    const why = e instanceof Error ? e.message : String(e);
    const notRestored: string[] = [];
    for (const w of done.reverse()) {
      try {
        await putBytes(w.target, w.before);
      } catch {
        notRestored.push(w.path);
      }
    }
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
