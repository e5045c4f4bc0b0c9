// The write journal: what a multi-file write needs to be undone after a crash. Before the first file
// is replaced, every original is copied into <stateDir>/journal/<id>/ and a manifest names each file
// with the hashes of its old and new content (null: no file), and each folder the write creates or
// removes; the journal is committed once the last step is done and durable (the client is answered
// after it). A manifest found at start-up therefore belongs to a write that never answered: every
// folder it removed is made again, every file that holds the new content (or, deleted, is gone) gets
// its original back, and every folder it created is removed when empty, so the disk again agrees with
// what the client was (not) told. Pure Node, no vscode import.
//
// Written once per write, not once per file (issue 33, bench/FINDINGS.md finding 2): every original
// goes into one file, `originals` (the manifest gives each one's offset and length), written and
// fsynced alongside `manifest.tmp`; then manifest.tmp is renamed to manifest.json, and the journal's
// folder and its parent are fsynced. Why that order makes recovery correct:
// - manifest.json is the journal's only sign of life: recovery restores nothing without it, and it
//   appears (the rename) only once `originals` and the manifest's bytes are durable, so a manifest
//   recovery can read always comes with every original it names, complete (each is checked against its
//   hash before it is put back);
// - begin() returns, and the caller may create folders or temp files or replace anything, only after
//   the folder fsyncs: the rename of the manifest, the entry of `originals` and the journal folder's
//   own entry are durable by then, so no crash can leave a changed path (or a temp file) without the
//   manifest that undoes (or removes) it;
// - commit() ends the manifest first (from that instant a crash leaves nothing to undo, never half a
//   journal): unlinked, or renamed to record.json when the transaction is kept for edit/undo (the
//   folder is then moved into the undo log, write/undo-log.ts, with its originals: nothing is copied),
//   and fsyncs the roots: a committed write stays committed after a power loss. The caller commits only
//   after the steps themselves are durable (their folders fsynced, write/transaction.ts), so a power
//   loss can never undo some of them with no journal left. A journal folder holding record.json and no
//   manifest was committed and not yet moved: recovery moves it.
// Journals of the earlier layouts (version 1: one `<i>.before` file per original; version 2: files
// only, every one written) are still recovered.
import { randomBytes } from 'node:crypto';
import { type FileHandle, lstat, mkdir, open, readdir, readFile, rename, rm, rmdir, unlink } from 'node:fs/promises';
import { basename, dirname, join } from 'node:path';
import { sha256 } from '../../runtime/hash';
import { makeFolder, removeLeftoverTemps, replaceFileAtomically, syncFolder } from './atomic-file';

export interface JournalEntry {
  /** The file as the client named it (for logs). */
  path: string;
  /** The real path that is written. */
  target: string;
  /** null: the file did not exist before. */
  beforeSha256: string | null;
  /** null: the write deletes the file (version 3). */
  afterSha256: string | null;
  /** The mode of the file where it is created (forward, or back): PlannedWrite.mode (version 3). */
  mode?: number;
  /** Version 1: file name of the original's copy inside the journal folder (null when there was none). */
  backup?: string | null;
  /** Version 2 on: where the original is in `originals` (absent when there was none). */
  offset?: number;
  length?: number;
}

/** A folder the write creates or removes (version 3). */
export interface FolderEntry {
  path: string;
  target: string;
  change: 'create' | 'remove';
  mode?: number;
}

/** What a kept transaction records beside its steps (write/undo-log.ts). */
export interface JournalKeep {
  /** The client's label (edit/apply). */
  label?: string;
  /** The transaction this one undid (edit/undo). */
  undoes?: string;
}

export interface Manifest extends JournalKeep {
  version: 1 | 2 | 3;
  id: string;
  createdAt: string;
  what: string;
  files: JournalEntry[];
  folders?: FolderEntry[];
}

const ORIGINALS = 'originals';
const MANIFEST = 'manifest.json';
/** A committed journal's manifest, kept as the transaction's record (write/undo-log.ts). */
export const RECORD = 'record.json';
/** The undo log's folder in the state folder: one folder per kept transaction. */
export const UNDO_ROOT = 'transactions';

/** Writes every chunk, in order, into an open file (writev in batches; short writes continued). */
async function writeChunks(fh: FileHandle, chunks: readonly Uint8Array[]): Promise<void> {
  const pending = chunks.filter((c) => c.length > 0);
  let at = 0;
  while (at < pending.length) {
    const batch = pending.slice(at, at + 256);
    let { bytesWritten } = await fh.writev(batch);
    if (bytesWritten <= 0) throw new Error('the journal could not be written (no progress)');
    while (bytesWritten > 0 && at < pending.length) {
      const head = pending[at]!;
      if (head.length <= bytesWritten) {
        bytesWritten -= head.length;
        at++;
      } else {
        pending[at] = head.subarray(bytesWritten);
        bytesWritten = 0;
      }
    }
  }
}

async function writeDurably(path: string, chunks: readonly Uint8Array[]): Promise<void> {
  const fh = await open(path, 'w', 0o600);
  try {
    await writeChunks(fh, chunks);
    await fh.sync();
  } finally {
    await fh.close();
  }
}

let lastIdTime = 0;
/**
 * A transaction id (the wire's TransactionId): the time in ms, never the same twice in this process
 * (so ids sort in the order written), and 8 random hex digits.
 */
function newId(): string {
  lastIdTime = Math.max(Date.now(), lastIdTime + 1);
  return `${lastIdTime}-${randomBytes(4).toString('hex')}`;
}

export class WriteJournal {
  private constructor(
    readonly dir: string,
    readonly id: string,
  ) {}

  /** Copies the originals and writes the manifest, durably; from then on a crash is recovered at start-up. */
  static async begin(
    stateDir: string,
    what: string,
    files: { path: string; target: string; before: Uint8Array | null; after: Uint8Array | null; mode?: number }[],
    folders: readonly FolderEntry[] = [],
    keep?: JournalKeep,
  ): Promise<WriteJournal> {
    const id = newId();
    const root = join(stateDir, 'journal');
    const dir = join(root, id);
    const made = await mkdir(dir, { recursive: true, mode: 0o700 });
    const entries: JournalEntry[] = [];
    const originals: Uint8Array[] = [];
    let offset = 0;
    for (const f of files) {
      const entry: JournalEntry = {
        path: f.path,
        target: f.target,
        beforeSha256: f.before === null ? null : sha256(f.before),
        afterSha256: f.after === null ? null : sha256(f.after),
      };
      if (f.mode !== undefined) entry.mode = f.mode;
      if (f.before !== null) {
        entry.offset = offset;
        entry.length = f.before.length;
        originals.push(f.before);
        offset += f.before.length;
      }
      entries.push(entry);
    }
    const manifest: Manifest = {
      version: 3,
      id,
      createdAt: new Date().toISOString(),
      what,
      ...(keep?.label !== undefined && { label: keep.label }),
      ...(keep?.undoes !== undefined && { undoes: keep.undoes }),
      files: entries,
      folders: folders.map((f) => ({
        path: f.path,
        target: f.target,
        change: f.change,
        ...(f.mode !== undefined && { mode: f.mode }),
      })),
    };
    await Promise.all([
      writeDurably(join(dir, ORIGINALS), originals),
      writeDurably(join(dir, 'manifest.tmp'), [Buffer.from(JSON.stringify(manifest))]),
    ]);
    await rename(join(dir, 'manifest.tmp'), join(dir, MANIFEST));
    // The folder (manifest.json, originals) and the entry of every folder mkdir made, in its parent.
    const syncs = new Set([dir, root]);
    for (let p = dir; made !== undefined && dirname(p) !== p; p = dirname(p)) {
      syncs.add(dirname(p));
      if (p === made) break;
    }
    await Promise.all([...syncs].map(syncFolder));
    return new WriteJournal(dir, id);
  }

  /**
   * The commit point of the journal: nothing to recover any more, durably. `keep`: the journal becomes
   * the transaction's record in the undo log, and its id is returned.
   */
  async commit(keep: boolean): Promise<string | undefined> {
    if (!keep) {
      await rm(join(this.dir, MANIFEST), { force: true });
      await rm(this.dir, { recursive: true, force: true });
      await syncFolder(dirname(this.dir));
      return undefined;
    }
    await rename(join(this.dir, MANIFEST), join(this.dir, RECORD));
    await syncFolder(this.dir);
    await moveToUndoLog(this.dir);
    return this.id;
  }
}

/** Moves a committed journal folder into the undo log (<stateDir>/transactions/<id>), durably. */
async function moveToUndoLog(dir: string): Promise<void> {
  const journalRoot = dirname(dir);
  const undoRoot = join(dirname(journalRoot), UNDO_ROOT);
  await mkdir(undoRoot, { recursive: true, mode: 0o700 });
  await rename(dir, join(undoRoot, basename(dir)));
  await Promise.all([syncFolder(journalRoot), syncFolder(undoRoot), syncFolder(dirname(undoRoot))]);
}

export interface RecoveryReport {
  /** Paths given their original back (folders made again or removed too). */
  restored: string[];
  /** Paths changed by someone else since: left as they are. */
  leftAlone: string[];
}

/** The original a manifest entry names, checked against its hash; null when the file did not exist. */
export async function originalOf(
  dir: string,
  f: JournalEntry,
  originals: () => Promise<FileHandle>,
): Promise<Buffer | null> {
  if (f.beforeSha256 === null) return null;
  let bytes: Buffer;
  if (typeof f.backup === 'string') {
    bytes = await readFile(join(dir, f.backup));
  } else if (typeof f.offset === 'number' && typeof f.length === 'number') {
    bytes = Buffer.alloc(f.length);
    const fh = await originals();
    let n = 0;
    while (n < f.length) {
      const { bytesRead } = await fh.read(bytes, n, f.length - n, f.offset + n);
      if (bytesRead === 0) break;
      n += bytesRead;
    }
    if (n < f.length) throw new Error(`the journal's copy of ${f.path} is cut short`);
  } else {
    throw new Error(`the journal has no copy of ${f.path}`);
  }
  if (sha256(bytes) !== f.beforeSha256) throw new Error(`the journal's copy of ${f.path} does not match its hash`);
  return bytes;
}

/** The kind of what is at `path` now, not following a final symlink. */
async function kindAt(path: string): Promise<'folder' | 'other' | null> {
  const st = await lstat(path).catch(() => null);
  return st === null ? null : st.isDirectory() ? 'folder' : 'other';
}

/** Undoes every write that a crash interrupted (see the header). Never throws for one bad journal. */
export async function recoverInterruptedWrites(stateDir: string, log: (m: string) => void): Promise<RecoveryReport> {
  const report: RecoveryReport = { restored: [], leftAlone: [] };
  const root = join(stateDir, 'journal');
  let ids: string[];
  try {
    ids = await readdir(root);
  } catch {
    return report;
  }
  for (const id of ids) {
    const dir = join(root, id);
    const restored: string[] = [];
    const leftAlone: string[] = [];
    let originalsFile: Promise<FileHandle> | undefined;
    const originals = () => (originalsFile ??= open(join(dir, ORIGINALS), 'r'));
    try {
      let manifest: Manifest | undefined;
      try {
        manifest = JSON.parse(await readFile(join(dir, MANIFEST), 'utf8')) as Manifest;
      } catch {
        // No manifest: the write stopped before its first step, or it committed (record.json) and was
        // not moved into the undo log yet.
        if ((await kindAt(join(dir, RECORD))) === 'other') {
          await moveToUndoLog(dir);
          log(`kept the committed transaction ${id} for edit/undo`);
          continue;
        }
      }
      const folders = manifest?.folders ?? [];
      for (const f of manifest?.files ?? []) await removeLeftoverTemps(f.target);
      // The folders removed, made again (shallowest first): the files restored next may lie in them.
      for (const f of folders.filter((g) => g.change === 'remove').sort((a, b) => a.target.length - b.target.length)) {
        if ((await kindAt(f.target)) !== null) continue;
        await makeFolder(f.target, f.mode);
        await syncFolder(dirname(f.target));
        restored.push(f.path);
      }
      for (const f of manifest?.files ?? []) {
        const current = await readFile(f.target).catch(() => null);
        const hash = current ? sha256(current) : null;
        if (hash === f.beforeSha256) continue;
        if (hash === f.afterSha256) {
          const original = await originalOf(dir, f, originals);
          if (original === null) {
            await unlink(f.target);
            await syncFolder(dirname(f.target));
          } else await replaceFileAtomically(f.target, original, f.mode);
          restored.push(f.path);
        } else {
          leftAlone.push(f.path);
        }
      }
      // The folders created, removed when empty (deepest first); one holding another's files stays.
      for (const f of folders.filter((g) => g.change === 'create').sort((a, b) => b.target.length - a.target.length)) {
        if ((await kindAt(f.target)) !== 'folder') continue;
        try {
          await rmdir(f.target);
          await syncFolder(dirname(f.target));
          restored.push(f.path);
        } catch {
          leftAlone.push(f.path);
        }
      }
      await (await originalsFile?.catch(() => undefined))?.close();
      originalsFile = undefined;
      // As commit(): the manifest goes first, then the rest, durably.
      await rm(join(dir, MANIFEST), { force: true });
      await rm(dir, { recursive: true, force: true });
      await syncFolder(root);
      report.restored.push(...restored);
      report.leftAlone.push(...leftAlone);
      if (manifest)
        log(
          `recovered an interrupted ${manifest.what} of ${manifest.createdAt}: restored ${restored.join(', ') || 'nothing'}; changed since, left alone: ${leftAlone.join(', ') || 'none'}`,
        );
    } catch (e) {
      await (await originalsFile?.catch(() => undefined))?.close();
      log(`could not recover the interrupted write in ${dir}: ${(e as Error).message}; its originals are kept there`);
    }
  }
  return report;
}
