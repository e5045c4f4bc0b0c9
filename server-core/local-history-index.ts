// Which of the History folder's subfolders record which file, for LocalHistory (local-history.ts),
// without listing the History folder and resolving every folder's file on each lookup (issue 33,
// bench/FINDINGS.md finding 1: that made a write of N files cost O(N·H) realpaths).
//
// Built lazily: the first lookup lists <home> once, reads each folder's entries.json once (its
// `resource` only) and resolves that file's real path once. Each folder is filed under its recorded
// path and that path's real path, so a lookup is a map access. Kept in step:
// - with other processes (another VS Code window, idea-server, the extension) through <home>'s own
//   stat, one per lookup: when it changed (a folder was created or deleted: mtime, ctime, link count,
//   size), <home> is listed again and only the new names are read. A folder's resource never changes
//   (VS Code names the folder by the hash of it), so a folder once read is not read again; one whose
//   entries.json could not be read yet (VS Code desktop writes it lazily, after the content files) is
//   read again at the next listing, or at once when it is the folder VS Code would use for the file
//   looked up.
// - with this process: a folder it creates is filed at once, and the stat taken after its mkdir is
//   adopted when that mkdir is the only change (<home> gained exactly one subfolder; for the folders
//   of a whole write made at once, createFolders: exactly as many as it made), so this process's own
//   writes never force a listing.
// Real paths of recorded files are resolved when the folder is first read and kept: a symlink
// re-pointed later does not move an indexed folder (the recorded path itself still matches).
// Bounded per folder: entries.json is read whole only up to 4 MiB (above that, the resource is taken
// from the first 64 KiB, where VS Code writes it), a FIFO is not waited on, a recorded path longer than
// any path the OS resolves is not resolved, and missing ancestors are resolved once per listing.
import {
  closeSync,
  constants,
  fstatSync,
  mkdirSync,
  openSync,
  readdirSync,
  readSync,
  realpathSync,
  statSync,
} from 'node:fs';
import { mkdir } from 'node:fs/promises';
import { basename, dirname, join } from 'node:path';
import { settleBounded } from './write/bounded';

/** A folder under <home> recording a file: its name and the resource its entries.json names. */
export interface RecordingFolder {
  name: string;
  resource: string;
}

interface Folder {
  /** Indexing order: lookups answer in it (the first is the one entries are appended to). */
  seq: number;
  /** entries.json was read and named a resource (false: retried later). */
  read: boolean;
  resource: string | null;
  /** Keys of byPath this folder is filed under: the recorded path and its real path. */
  keys: string[];
}

interface Signature {
  key: string;
  nlink: bigint;
}

const WHOLE_LISTING_MAX = 4 << 20;
const LISTING_PREFIX = 64 << 10;
const PATH_MAX = 4096;

export class HistoryFolderIndex {
  private readonly folders = new Map<string, Folder>();
  private readonly byPath = new Map<string, Set<string>>();
  /** <home>'s stat as of the index (null: not listed yet, or <home> missing). */
  private seen: Signature | null = null;
  private nextSeq = 0;

  /** `pathOf`: the file a recorded resource names (null for schemes that name none). */
  constructor(
    readonly home: string,
    private readonly pathOf: (resource: string) => string | null,
  ) {}

  /** Brings the index in step with <home>: one stat, a listing only when <home> changed. False when there is no <home>. */
  refresh(): boolean {
    const sig = signatureOf(this.home);
    if (!sig) {
      this.folders.clear();
      this.byPath.clear();
      this.seen = null;
      return false;
    }
    if (this.seen?.key !== sig.key) {
      this.relist();
      this.seen = sig;
    }
    return true;
  }

  /**
   * Folders filed under any of `keys`, in indexing order. `candidates` (folder names VS Code would use
   * for the file) are read again first when their entries.json was unreadable so far.
   */
  lookup(keys: readonly string[], candidates: readonly string[]): RecordingFolder[] {
    for (const name of candidates) if (this.folders.get(name)?.read === false) this.file(name, this.readResource(name));
    const names = new Set<string>();
    for (const key of keys) for (const name of this.byPath.get(key) ?? []) names.add(name);
    const out: (RecordingFolder & { seq: number })[] = [];
    for (const name of names) {
      const f = this.folders.get(name);
      if (f?.resource) out.push({ name, resource: f.resource, seq: f.seq });
    }
    return out.sort((a, b) => a.seq - b.seq).map(({ name, resource }) => ({ name, resource }));
  }

  /** mkdir -p <home>/<name>; adopts <home>'s new stat when this was its only change since the index was current. */
  createFolder(name: string): void {
    const before = signatureOf(this.home);
    mkdirSync(join(this.home, name), { recursive: true });
    if (!before || this.seen?.key !== before.key) return; // behind already: the next refresh lists <home>
    const after = signatureOf(this.home);
    if (!after || after.key === before.key) return;
    // One subfolder more and nothing else (file systems that count subfolders in the link count; those
    // that do not, e.g. btrfs, report 1 throughout).
    if (after.nlink === before.nlink + 1n || (before.nlink === 1n && after.nlink === 1n)) {
      this.seen = after;
      if (!this.folders.has(name)) this.file(name, null);
    }
  }

  /**
   * createFolder for many folders at once (the mkdirs asynchronous, a few at a time): <home>'s new stat
   * is adopted when those folders are its only change. Returns the folders that could not be made.
   */
  async createFolders(names: readonly string[]): Promise<Map<string, { error: unknown }>> {
    const notMade = new Map<string, { error: unknown }>();
    if (names.length === 0) return notMade;
    const before = signatureOf(this.home);
    let made = 0;
    const { errors } = await settleBounded(names, async (name) => {
      if ((await mkdir(join(this.home, name), { recursive: true })) !== undefined) made++;
    });
    for (const [i, e] of errors.entries()) if (e) notMade.set(names[i]!, e);
    if (!before || this.seen?.key !== before.key || made === 0) return notMade;
    const after = signatureOf(this.home);
    if (!after || after.key === before.key) return notMade;
    // As createFolder: exactly `made` subfolders more and nothing else.
    if (after.nlink === before.nlink + BigInt(made) || (before.nlink === 1n && after.nlink === 1n)) {
      this.seen = after;
      for (const name of names) if (!notMade.has(name) && !this.folders.has(name)) this.file(name, null);
    }
    return notMade;
  }

  /** Files `name` as recording `resource` (its entries.json was just written). `known`: a path whose real path is already resolved. */
  record(name: string, resource: string, known?: { path: string; real: string }): void {
    const f = this.folders.get(name);
    if (f?.read && f.resource === resource) return;
    this.file(name, resource, new Map(), known);
  }

  private relist(): void {
    let names: string[] = [];
    try {
      names = readdirSync(this.home);
    } catch {
      /* vanished or unreadable: an empty index until it changes again */
    }
    const present = new Set(names);
    for (const name of [...this.folders.keys()]) if (!present.has(name)) this.unfile(name);
    const memo = new Map<string, string>();
    for (const name of names) if (!this.folders.get(name)?.read) this.file(name, this.readResource(name), memo);
  }

  private file(
    name: string,
    resource: string | null,
    memo = new Map<string, string>(),
    known?: { path: string; real: string },
  ): void {
    const seq = this.folders.get(name)?.seq ?? this.nextSeq++;
    this.unfile(name);
    const path = resource === null ? null : this.pathOf(resource);
    const keys: string[] = [];
    if (path !== null) {
      const real = known?.path === path ? known.real : realpathFromNearestAncestor(path, memo);
      keys.push(path);
      if (real !== path) keys.push(real);
    }
    this.folders.set(name, { seq, read: resource !== null, resource: path === null ? null : resource, keys });
    for (const key of keys) {
      let set = this.byPath.get(key);
      if (!set) this.byPath.set(key, (set = new Set()));
      set.add(name);
    }
  }

  private unfile(name: string): void {
    const f = this.folders.get(name);
    if (!f) return;
    this.folders.delete(name);
    for (const key of f.keys) {
      const set = this.byPath.get(key);
      set?.delete(name);
      if (set?.size === 0) this.byPath.delete(key);
    }
  }

  /** The `resource` of <home>/<name>/entries.json, or null (no such regular file, unreadable, none named). */
  private readResource(name: string): string | null {
    let fd: number;
    try {
      fd = openSync(join(this.home, name, 'entries.json'), constants.O_RDONLY | constants.O_NONBLOCK);
    } catch {
      return null;
    }
    try {
      const st = fstatSync(fd);
      if (!st.isFile()) return null;
      const whole = st.size <= WHOLE_LISTING_MAX;
      const buf = Buffer.allocUnsafe(whole ? st.size : LISTING_PREFIX);
      let n = 0;
      for (let r = 1; n < buf.length && r > 0; n += r) r = readSync(fd, buf, n, buf.length - n, n);
      const text = buf.toString('utf8', 0, n);
      if (whole) {
        const data = JSON.parse(text) as { resource?: unknown } | null;
        return typeof data?.resource === 'string' ? data.resource : null;
      }
      const m = /^\s*\{\s*"version"\s*:\s*\d+\s*,\s*"resource"\s*:\s*("(?:[^"\\]|\\.)*")/.exec(text);
      return m ? (JSON.parse(m[1]!) as string) : null;
    } catch {
      return null;
    } finally {
      closeSync(fd);
    }
  }
}

function signatureOf(dir: string): Signature | null {
  try {
    const s = statSync(dir, { bigint: true, throwIfNoEntry: false });
    if (!s?.isDirectory()) return null;
    return { key: `${s.dev}:${s.ino}:${s.mtimeNs}:${s.ctimeNs}:${s.nlink}:${s.size}`, nlink: s.nlink };
  } catch {
    return null;
  }
}

/**
 * path-guard's realpathOfNearestAncestor (the real path of the nearest existing ancestor, the missing
 * rest appended) with the ancestors it resolved kept in `memo`, so that the files of one folder cost
 * one walk between them; paths longer than the OS resolves are taken as they are.
 */
function realpathFromNearestAncestor(p: string, memo: Map<string, string>): string {
  if (p.length > PATH_MAX) return p;
  const missing: string[] = [];
  let cur = p;
  let real: string;
  for (;;) {
    const hit = memo.get(cur);
    if (hit !== undefined) {
      real = hit;
      break;
    }
    try {
      real = realpathSync.native(cur);
      memo.set(cur, real);
      break;
    } catch {
      const parent = dirname(cur);
      if (parent === cur) {
        real = cur;
        break;
      }
      missing.push(cur);
      cur = parent;
    }
  }
  for (let i = missing.length - 1; i >= 0; i--) {
    real = join(real, basename(missing[i]!));
    memo.set(missing[i]!, real);
  }
  return real;
}
