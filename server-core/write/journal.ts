// The write journal: what a multi-file write needs to be undone after a crash. Before the first file
// is replaced, every original is copied into <stateDir>/journal/<id>/ and a manifest names each file
// with the hashes of its old and new content; the journal is deleted once the last file is replaced
// and that is durable (the client is answered after it). A manifest found at start-up therefore
// belongs to a write that never answered: every file that holds the new content gets its original
// back, so the disk again agrees with what the client was (not) told. Pure Node, no vscode import.
//
// Written once per write, not once per file (issue 33, bench/FINDINGS.md finding 2): every original
// goes into one file, `originals` (the manifest gives each one's offset and length), written and
// fsynced alongside `manifest.tmp`; then manifest.tmp is renamed to manifest.json, and the journal's
// folder and its parent are fsynced. Why that order makes recovery correct:
// - manifest.json is the journal's only sign of life: recovery restores nothing without it, and it
//   appears (the rename) only once `originals` and the manifest's bytes are durable, so a manifest
//   recovery can read always comes with every original it names, complete (each is checked against its
//   hash before it is put back);
// - begin() returns, and the caller may create temp files or replace anything, only after the folder
//   fsyncs: the rename of the manifest, the entry of `originals` and the journal folder's own entry are
//   durable by then, so no crash can leave a replaced file (or a temp file) without the manifest that
//   undoes (or removes) it;
// - commit() unlinks manifest.json first (from that instant a crash leaves nothing to undo, never half
//   a journal), then the rest, and fsyncs the journal root: a committed write stays committed after a
//   power loss. The caller commits only after the replacements themselves are durable (their folders
//   fsynced, write/transaction.ts), so a power loss can never undo some of them with no journal left.
// Journals of the earlier layout (version 1: one `<i>.before` file per original) are still recovered.
import { randomUUID } from 'node:crypto';
import { type FileHandle, mkdir, open, readdir, readFile, rename, rm, unlink } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import { sha256 } from '../../runtime/hash';
import { removeLeftoverTemps, replaceFileAtomically, syncFolder } from './atomic-file';

interface JournalEntry {
  /** The file as the client named it (for logs). */
  path: string;
  /** The real path that is written. */
  target: string;
  /** null: the file did not exist before. */
  beforeSha256: string | null;
  afterSha256: string;
  /** Version 1: file name of the original's copy inside the journal folder (null when there was none). */
  backup?: string | null;
  /** Version 2: where the original is in `originals` (absent when there was none). */
  offset?: number;
  length?: number;
}

interface Manifest {
  version: 1 | 2;
  id: string;
  createdAt: string;
  what: string;
  files: JournalEntry[];
}

const ORIGINALS = 'originals';
const MANIFEST = 'manifest.json';

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

export class WriteJournal {
  private constructor(readonly dir: string) {}

  /** Copies the originals and writes the manifest, durably; from then on a crash is recovered at start-up. */
  static async begin(
    stateDir: string,
    what: string,
    files: { path: string; target: string; before: Uint8Array | null; after: Uint8Array }[],
  ): Promise<WriteJournal> {
    const id = `${Date.now()}-${randomUUID().slice(0, 8)}`;
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
        afterSha256: sha256(f.after),
      };
      if (f.before !== null) {
        entry.offset = offset;
        entry.length = f.before.length;
        originals.push(f.before);
        offset += f.before.length;
      }
      entries.push(entry);
    }
    const manifest: Manifest = { version: 2, id, createdAt: new Date().toISOString(), what, files: entries };
    await Promise.all([
      writeDurably(join(dir, ORIGINALS), originals),
      writeDurably(join(dir, 'manifest.tmp'), [Buffer.from(JSON.stringify(manifest))]),
    ]);
    await rename(join(dir, 'manifest.tmp'), join(dir, MANIFEST));
    // The folder (manifest.json, originals) and the entry of every folder mkdir made, in its parent.
    const folders = new Set([dir, root]);
    for (let p = dir; made !== undefined && dirname(p) !== p; p = dirname(p)) {
      folders.add(dirname(p));
      if (p === made) break;
    }
    await Promise.all([...folders].map(syncFolder));
    return new WriteJournal(dir);
  }

  /** The commit point of the journal: nothing to recover any more, durably. */
  async commit(): Promise<void> {
    await rm(join(this.dir, MANIFEST), { force: true });
    await rm(this.dir, { recursive: true, force: true });
    await syncFolder(dirname(this.dir));
  }
}

export interface RecoveryReport {
  /** Files given their original back. */
  restored: string[];
  /** Files changed by someone else since: left as they are. */
  leftAlone: string[];
}

/** The original a manifest entry names, checked against its hash; null when the file did not exist. */
async function originalOf(dir: string, f: JournalEntry, originals: () => Promise<FileHandle>): Promise<Buffer | null> {
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
        // No manifest: the write stopped before its first file was touched.
      }
      for (const f of manifest?.files ?? []) {
        await removeLeftoverTemps(f.target);
        const current = await readFile(f.target).catch(() => null);
        const hash = current ? sha256(current) : null;
        if (hash === f.beforeSha256) continue;
        if (hash === f.afterSha256) {
          const original = await originalOf(dir, f, originals);
          if (original === null) {
            await unlink(f.target);
            await syncFolder(dirname(f.target));
          } else await replaceFileAtomically(f.target, original);
          restored.push(f.path);
        } else {
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
