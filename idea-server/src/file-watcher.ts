// server-core's FileWatcher over the file system, for files/changed: one non-recursive fs.watch (an
// inotify watch on Linux) per folder, never one per file. Node 20's `recursive: true` on Linux watches
// every file: 14 s and 30,000 watches for a workspace of 30,000 files, node_modules and .git included.
// - Folders the caller skips (excluded, protected: the event scope says) are never entered, so
//   node_modules and .git cost nothing; symbolic links are not followed (nothing outside is watched).
// - At most `maxFolders` folders, breadth first (the shallow ones); past that, deeper folders are not
//   watched and the log says so once.
// - The walk runs in slices: what fits in FIRST_SLICE_MS is watched before watch() returns (a small
//   workspace entirely), the rest in slices of SLICE_MS on later turns of the event loop, never blocking
//   it for long. The stop watch() returns carries `ready`, settled once the first walk is done (every
//   folder it may watch has its watch) or the watch stopped: events.ts answers a subscribe after it, so
//   a write right after the answer is seen, a new file as "created".
// - Raw events are resolved in batches: a name that exists and was known is "changed", one that exists
//   and was not is "created" (a new folder is walked and what it holds reported created: it may
//   predate the folder's watch), a known one that is gone is "deleted". An atomic save (write a temporary file, rename it
//   over) is thus one "changed"; the temporary file, created and gone within the batch, is not reported.
import { type Dirent, type FSWatcher, lstatSync, readdirSync, watch } from 'node:fs';
import { join, sep } from 'node:path';
import type { FileChange, FileWatcher } from '../../server-core/host';

/** Default bound on watched folders (each is one inotify watch; the per-user limit is often 8192 or so). */
export const MAX_WATCHED_FOLDERS = 4096;
/** Longest the walk holds the event loop in watch() itself. */
export const FIRST_SLICE_MS = 250;
/** Longest the walk holds the event loop at once afterwards. */
export const SLICE_MS = 20;
/** Raw events are collected this long before they are resolved (a burst stats each path once). */
export const BATCH_MS = 10;
/** A batch this large is resolved at once (memory stays bounded whatever the burst). */
export const MAX_BATCH = 2000;

export interface FsWatcherOptions {
  /** The folders to watch (the workspace folders), read at each watch(). */
  folders(): string[];
  /** True for a folder not to enter: nothing in it may be reported. */
  skipFolder(path: string): boolean;
  maxFolders?: number;
  log?(message: string): void;
}

/** What watch() returns: the stop, and when the watches are in place. */
export type WatchStop = (() => void) & {
  /** Settles once every folder of the first walk is watched (or skipped, or past maxFolders), or at stop. */
  readonly ready: Promise<void>;
};

interface Watched {
  watcher: FSWatcher;
  /** Names the folder held when last seen: tells created from changed, and what a deletion removed. */
  names: Set<string>;
}

class FolderWatch {
  private readonly watched = new Map<string, Watched>();
  /** Folders still to walk; `report`: their files are new (the folder was created while watching). */
  private readonly queue: { dir: string; report: boolean }[] = [];
  private walking: ReturnType<typeof setImmediate> | undefined;
  private readonly batch = new Map<string, { dir: string; name: string }>();
  private batchTimer: ReturnType<typeof setTimeout> | undefined;
  private stopped = false;
  private full = false;
  /** The workspace folders themselves: watched whatever skipFolder says (the scope reports inside them). */
  private readonly roots: Set<string>;
  private walked!: () => void;
  /** Settles when the first walk is done or the watch stopped. */
  readonly ready = new Promise<void>((resolve) => {
    this.walked = resolve;
  });

  constructor(
    private readonly o: FsWatcherOptions,
    private readonly listener: (changes: FileChange[]) => void,
  ) {
    this.roots = new Set(o.folders());
    for (const dir of this.roots) this.queue.push({ dir, report: false });
    this.walk(FIRST_SLICE_MS);
  }

  stop(): void {
    this.stopped = true;
    this.walked();
    if (this.walking) clearImmediate(this.walking);
    clearTimeout(this.batchTimer);
    this.queue.length = 0;
    this.batch.clear();
    for (const w of this.watched.values()) w.watcher.close();
    this.watched.clear();
  }

  /** Folders watched now (tests, the log). */
  get size(): number {
    return this.watched.size;
  }

  private walk(sliceMs = SLICE_MS): void {
    this.walking = undefined;
    const end = performance.now() + sliceMs;
    const created: FileChange[] = [];
    while (this.queue.length > 0 && !this.stopped && performance.now() < end) {
      const { dir, report } = this.queue.shift()!;
      this.add(dir, report, created);
    }
    if (created.length > 0) this.send(created);
    if (this.queue.length > 0 && !this.stopped) this.walking = setImmediate(() => this.walk());
    else this.walked(); // the first walk done (later calls: folders created since; settled already)
  }

  /** Watches `dir` and queues its folders; with `report`, its files are reported created. */
  private add(dir: string, report: boolean, created: FileChange[]): void {
    if (this.watched.has(dir) || (!this.roots.has(dir) && this.o.skipFolder(dir))) return;
    if (this.watched.size >= (this.o.maxFolders ?? MAX_WATCHED_FOLDERS)) {
      if (!this.full) this.o.log?.(`files/changed: watching ${this.watched.size} folders, not ${dir} and others`);
      this.full = true;
      return;
    }
    let watcher: FSWatcher;
    try {
      // Watch first, then list: a file created in between is in the list and in an event, never in neither.
      watcher = watch(dir, { persistent: false }, (_type, name) => this.raw(dir, name));
    } catch (e) {
      const code = (e as NodeJS.ErrnoException).code;
      if (code !== 'ENOENT' && code !== 'ENOTDIR') this.o.log?.(`files/changed: cannot watch ${dir}: ${code ?? e}`);
      return;
    }
    // The folder went away or cannot be read any more: stop watching it (its parent reports it).
    watcher.on('error', () => this.forget(dir));
    let entries: Dirent[];
    try {
      entries = readdirSync(dir, { withFileTypes: true });
    } catch {
      watcher.close();
      return;
    }
    const names = new Set<string>();
    for (const e of entries) {
      names.add(e.name);
      const path = join(dir, e.name);
      // What may not be reported is dropped by the event scope; skipped folders are not entered (add()).
      if (report && !e.isSymbolicLink()) created.push({ path, kind: 'created' });
      if (e.isDirectory()) this.queue.push({ dir: path, report });
    }
    this.watched.set(dir, { watcher, names });
  }

  private raw(dir: string, name: string | Buffer | null): void {
    if (this.stopped || typeof name !== 'string' || name === '' || name.includes(sep)) return;
    const path = join(dir, name);
    this.batch.set(path, { dir, name });
    if (this.batch.size >= MAX_BATCH) this.resolve();
    else this.batchTimer ??= setTimeout(() => this.resolve(), BATCH_MS);
  }

  /** Turns the batch's raw names into changes by what is on disk now. */
  private resolve(): void {
    clearTimeout(this.batchTimer);
    this.batchTimer = undefined;
    const changes: FileChange[] = [];
    const newFolders: string[] = [];
    for (const [path, { dir, name }] of this.batch) {
      const w = this.watched.get(dir);
      if (!w) continue; // its folder is no longer watched
      let isDir: boolean | undefined;
      try {
        const st = lstatSync(path);
        isDir = st.isDirectory();
      } catch {
        isDir = undefined; // gone
      }
      const known = w.names.has(name);
      if (isDir === undefined) {
        if (!known) continue; // created and gone again within the batch
        w.names.delete(name);
        this.forgetTree(path);
        changes.push({ path, kind: 'deleted' });
      } else if (!known) {
        w.names.add(name);
        changes.push({ path, kind: 'created' });
        if (isDir) newFolders.push(path);
      } else if (!isDir) changes.push({ path, kind: 'changed' });
      else if (!this.watched.has(path)) newFolders.push(path); // replaced by a folder (add() skips what it must)
    }
    this.batch.clear();
    if (changes.length > 0) this.send(changes);
    if (newFolders.length > 0) {
      for (const dir of newFolders) this.queue.push({ dir, report: true });
      if (!this.walking) this.walk();
    }
  }

  private forget(dir: string): void {
    this.watched.get(dir)?.watcher.close();
    this.watched.delete(dir);
  }

  /** Stops watching `dir` and every folder under it. */
  private forgetTree(dir: string): void {
    this.forget(dir);
    const inside = dir + sep;
    for (const d of [...this.watched.keys()]) if (d.startsWith(inside)) this.forget(d);
  }

  private send(changes: FileChange[]): void {
    try {
      this.listener(changes);
    } catch (e) {
      this.o.log?.(`files/changed: ${(e as Error).message}`);
    }
  }
}

/** fsFileWatcher's FileWatcher: its stops say when their watches are in place. */
export interface FsFileWatcher extends FileWatcher {
  watch(listener: (changes: FileChange[]) => void): WatchStop;
  /** Folders watched now, all watches together (tests). */
  watching(): number;
}

/** A FileWatcher over the file system; each watch() is its own set of watches, stopped by its stop. */
export function fsFileWatcher(options: FsWatcherOptions): FsFileWatcher {
  const active = new Set<FolderWatch>();
  return {
    watch(listener) {
      const w = new FolderWatch(options, listener);
      active.add(w);
      const stop = () => {
        w.stop();
        active.delete(w);
      };
      return Object.assign(stop, { ready: w.ready });
    },
    watching: () => [...active].reduce((n, w) => n + w.size, 0),
  };
}
