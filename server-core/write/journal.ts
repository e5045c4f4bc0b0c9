// The write journal: what a multi-file write needs to be undone after a crash. Before the first file
// is replaced, every original is copied into <stateDir>/journal/<id>/ and a manifest names each file
// with the hashes of its old and new content; the manifest is deleted once the last file is replaced
// (the commit point; the client is answered after it). A manifest found at start-up therefore belongs
// to a write that never answered: every file that holds the new content gets its original back, so the
// disk again agrees with what the client was (not) told. Pure Node, no vscode import.
import { randomUUID } from 'node:crypto';
import { mkdir, open, readdir, readFile, rename, rm, unlink } from 'node:fs/promises';
import { join } from 'node:path';
import { sha256 } from '../../runtime/hash';
import { removeLeftoverTemps, replaceFileAtomically } from './atomic-file';

interface JournalEntry {
  /** The file as the client named it (for logs). */
  path: string;
  /** The real path that is written. */
  target: string;
  /** null: the file did not exist before. */
  beforeSha256: string | null;
  afterSha256: string;
  /** File name of the original's copy inside the journal folder (null when there was none). */
  backup: string | null;
}

interface Manifest {
  version: 1;
  id: string;
  createdAt: string;
  what: string;
  files: JournalEntry[];
}

async function writeDurably(path: string, bytes: Uint8Array | string): Promise<void> {
  const fh = await open(path, 'w', 0o600);
  try {
    await fh.writeFile(bytes);
    await fh.sync();
  } finally {
    await fh.close();
  }
}

export class WriteJournal {
  private constructor(readonly dir: string) {}

  /** Copies the originals and writes the manifest; from then on a crash is recovered at start-up. */
  static async begin(
    stateDir: string,
    what: string,
    files: { path: string; target: string; before: Uint8Array | null; after: Uint8Array }[],
  ): Promise<WriteJournal> {
    const id = `${Date.now()}-${randomUUID().slice(0, 8)}`;
    const dir = join(stateDir, 'journal', id);
    await mkdir(dir, { recursive: true, mode: 0o700 });
    const entries: JournalEntry[] = [];
    for (const [i, f] of files.entries()) {
      const backup = f.before === null ? null : `${i}.before`;
      if (backup !== null) await writeDurably(join(dir, backup), f.before!);
      entries.push({
        path: f.path,
        target: f.target,
        beforeSha256: f.before === null ? null : sha256(f.before),
        afterSha256: sha256(f.after),
        backup,
      });
    }
    const manifest: Manifest = { version: 1, id, createdAt: new Date().toISOString(), what, files: entries };
    await writeDurably(join(dir, 'manifest.tmp'), JSON.stringify(manifest));
    await rename(join(dir, 'manifest.tmp'), join(dir, 'manifest.json'));
    return new WriteJournal(dir);
  }

  /** The commit point: the write is complete, nothing to recover any more. */
  async commit(): Promise<void> {
    await rm(join(this.dir, 'manifest.json'), { force: true });
    await rm(this.dir, { recursive: true, force: true });
  }
}

export interface RecoveryReport {
  /** Files given their original back. */
  restored: string[];
  /** Files changed by someone else since: left as they are. */
  leftAlone: string[];
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
    try {
      let manifest: Manifest | undefined;
      try {
        manifest = JSON.parse(await readFile(join(dir, 'manifest.json'), 'utf8')) as Manifest;
      } catch {
        // No manifest: the write stopped before its first file was touched.
      }
      for (const f of manifest?.files ?? []) {
        await removeLeftoverTemps(f.target);
        const current = await readFile(f.target).catch(() => null);
        const hash = current ? sha256(current) : null;
        if (hash === f.beforeSha256) continue;
        if (hash === f.afterSha256) {
          if (f.backup === null) await unlink(f.target);
          else await replaceFileAtomically(f.target, await readFile(join(dir, f.backup)));
          restored.push(f.path);
        } else {
          leftAlone.push(f.path);
        }
      }
      await rm(dir, { recursive: true, force: true });
      report.restored.push(...restored);
      report.leftAlone.push(...leftAlone);
      if (manifest)
        log(
          `recovered an interrupted ${manifest.what} of ${manifest.createdAt}: restored ${restored.join(', ') || 'nothing'}; changed since, left alone: ${leftAlone.join(', ') || 'none'}`,
        );
    } catch (e) {
      log(`could not recover the interrupted write in ${dir}: ${(e as Error).message}; its originals are kept there`);
    }
  }
  return report;
}
