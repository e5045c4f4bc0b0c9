// Reads (and, for rollback backups, appends to) VS Code's local history: <user-data>/User/History/<hash>/
// holds entries.json ({version, resource, entries: [{id, source?, timestamp}]}) and one file per entry.
// The same file may have several folders (a file:// resource on desktop, vscode-remote://host:port/ on
// code-server, one per port): all of them are merged. Pure Node, no vscode import.
//
// Entries are added many at once (addEntries, the write path's: issue 33, bench/FINDINGS.md finding 2):
// nothing synchronous per file on the main thread, the content files written and fsynced many at a
// time, each folder's entries.json rewritten once. An entry's content file is durable (fsynced) before
// entries.json lists it and before the call returns: the write path replaces a file only after the
// entry keeping its original is returned, so that copy survives a crash at any later instant (on the
// file systems VS Code runs on, the fsync of a new file also commits its folder entry; entries.json
// itself is not fsynced, as VS Code does not: an entry it lost is still listed from the folder's content
// files). The calls of one write may share what they read of each entries.json (`Listings`): a folder's
// listing read to find its newest entry is appended to without being read again while a stat finds the
// file as it was (device, inode, size, mtime and ctime, in nanoseconds).
import { type Dirent, readdirSync, readFileSync, statSync } from 'node:fs';
import { readdir, rename, rm, stat } from 'node:fs/promises';
import { basename, extname, join, sep } from 'node:path';
import { HistoryFolderIndex } from './local-history-index';
import { realpathOfNearestAncestor } from './path-guard';
import { escapeRegExp } from './search/regex-core';
import { settleBounded } from './write/bounded';
import { holdsBytes, readTextStamped, stampOf, writeNewFile } from './write/fd-io';

export interface LocalHistoryEntry {
  id: string;
  timestamp: number;
  source?: string;
  /** Absolute path of the stored content. */
  location: string;
}

/** An entry to add with LocalHistory.addEntries. */
export interface NewEntry {
  /** The file, as named. */
  path: string;
  /** Its real path when the caller knows it (the write path's targets); else resolved here. */
  real?: string;
  content: Uint8Array;
  source: string;
  timestamp?: number;
  /** Add nothing when the file's newest entry already holds `content`. */
  unlessNewest?: boolean;
}

interface EntriesFile {
  version?: number;
  resource?: string;
  entries?: { id?: unknown; source?: unknown; timestamp?: unknown }[];
}

/**
 * The entries.json files one write read (LocalHistory.addEntries' `listings`), by folder, each with the
 * stamp it had (fd-io.ts stampOf): reused while the file still has it. Meant to live as long as one
 * write, not longer.
 */
export class Listings {
  readonly #read = new Map<string, { stamp: string; data: EntriesFile }>();

  /** The listing as read, while a stat still finds the file with that stamp. */
  async current(folder: string): Promise<EntriesFile | undefined> {
    const known = this.#read.get(folder);
    if (!known) return undefined;
    if ((await stampOf(join(folder, 'entries.json'))) === known.stamp) return known.data;
    this.#read.delete(folder);
    return undefined;
  }

  remember(folder: string, stamp: string, data: EntriesFile): void {
    this.#read.set(folder, { stamp, data });
  }

  forget(folder: string): void {
    this.#read.delete(folder);
  }
}

/** `<user-data>/User/History` from the extension's globalStorage path (any profile: profiles live under User/profiles/). */
export function historyHomeFromGlobalStorage(globalStoragePath: string): string {
  const parts = globalStoragePath.split(sep);
  const user = parts.lastIndexOf('User');
  if (user < 0) return join(globalStoragePath, '..', '..', 'History');
  return join(parts.slice(0, user + 1).join(sep) || sep, 'History');
}

/** The file-system path a recorded resource URI names, for the schemes VS Code uses here; else null. */
export function resourcePath(resource: string): string | null {
  const m = /^(file|vscode-remote):\/\/([^/]*)(\/.*)?$/.exec(resource);
  if (!m) return null;
  try {
    return decodeURIComponent(m[3] ?? '/');
  } catch {
    return null;
  }
}

/** VS Code's string hash (base/common/hash.ts), which names the per-file History folder. */
export function vscodeStringHash(s: string): number {
  const numberHash = (val: number, initial: number) => ((initial << 5) - initial + val) | 0;
  let h = numberHash(149417, 0);
  for (let i = 0; i < s.length; i++) h = numberHash(s.charCodeAt(i), h);
  return h;
}

/** file:// URI as VS Code's URI.toString() renders it (unreserved characters and "/" kept, the rest %-encoded). */
export function fileUriString(absPath: string): string {
  const enc = absPath
    .split('/')
    .map((seg) => encodeURIComponent(seg).replace(/[!'()*]/g, (c) => `%${c.charCodeAt(0).toString(16).toUpperCase()}`))
    .join('/');
  return `file://${enc}`;
}

export function formatUtcLabel(ts: number): string {
  const d = new Date(ts);
  const p = (n: number) => String(n).padStart(2, '0');
  return `${d.getUTCFullYear()}-${p(d.getUTCMonth() + 1)}-${p(d.getUTCDate())} ${p(d.getUTCHours())}:${p(d.getUTCMinutes())}:${p(d.getUTCSeconds())}`;
}

export class LocalHistory {
  /** Which folders record which file (local-history-index.ts): one stat of `home` per lookup, not a listing. */
  private readonly index: HistoryFolderIndex;

  constructor(readonly home: string) {
    this.index = new HistoryFolderIndex(home, resourcePath);
  }

  /** History folders recording `absPath` (matched as given and with symlinks resolved). */
  foldersFor(absPath: string): { folder: string; resource: string }[] {
    return this.lookup(absPath).folders;
  }

  private lookup(absPath: string): { folders: { folder: string; resource: string }[]; real: string } {
    const real = realpathOfNearestAncestor(absPath);
    if (!this.index.refresh()) return { folders: [], real };
    return { folders: this.indexed(absPath, real), real };
  }

  /** Folders the index (refreshed by the caller) files under the path or its real path. */
  private indexed(absPath: string, real: string): { folder: string; resource: string }[] {
    const keys = absPath === real ? [absPath] : [absPath, real];
    const candidates = keys.map((p) => vscodeStringHash(fileUriString(p)).toString(16));
    return this.index
      .lookup(keys, candidates)
      .map(({ name, resource }) => ({ folder: join(this.home, name), resource }));
  }

  /** Where a new entry of the file goes: the folder VS Code already uses for it, else the file:// one (`isNew`). */
  private target(
    absPath: string,
    folders: readonly { folder: string; resource: string }[],
  ): { folder: string; name: string; resource: string; isNew: boolean } {
    const existing = folders[0];
    const resource = existing?.resource ?? fileUriString(absPath);
    const folder = existing?.folder ?? join(this.home, vscodeStringHash(resource).toString(16));
    return { folder, name: basename(folder), resource, isNew: !existing };
  }

  /** All entries for the file, newest first. Like VS Code, an entry counts only if its content file exists. */
  list(absPath: string): LocalHistoryEntry[] {
    const all: LocalHistoryEntry[] = [];
    for (const { folder } of this.foldersFor(absPath)) all.push(...readFolder(folder, extname(absPath)));
    return all.sort((a, b) => b.timestamp - a.timestamp || (a.id < b.id ? 1 : -1));
  }

  find(absPath: string, id: string): LocalHistoryEntry | undefined {
    return this.list(absPath).find((e) => e.id === id);
  }

  /** As list(), reading the folders asynchronously (off the main thread). */
  async listAsync(absPath: string, real = realpathOfNearestAncestor(absPath)): Promise<LocalHistoryEntry[]> {
    if (!this.index.refresh()) return [];
    return listFolders(this.indexed(absPath, real), extname(absPath));
  }

  /**
   * Records each item's content as a new entry of its file (see the header), a few folders at a time:
   * appended to the folder VS Code already uses for the file when there is one, else in the file:// one,
   * created; in each folder its content files written and fsynced, then its entries.json rewritten
   * once. Resolves when every folder is done, with each item's entry (undefined: `unlessNewest` found it
   * already kept, or it failed and `onError` was told). Without `onError`, the first failure is thrown
   * once every item has settled (the others are added all the same). `listings`: what the calls of one
   * write read of entries.json, shared between them (see the header).
   */
  async addEntries(
    items: readonly NewEntry[],
    onError?: (item: NewEntry, e: unknown) => void,
    listings?: Listings,
  ): Promise<(LocalHistoryEntry | undefined)[]> {
    const results: (LocalHistoryEntry | undefined)[] = new Array(items.length).fill(undefined);
    if (items.length === 0) return results;
    const present = this.index.refresh();
    const places = items.map((item) => {
      const real = item.real ?? realpathOfNearestAncestor(item.path);
      const folders = present ? this.indexed(item.path, real) : [];
      return { ...this.target(item.path, folders), folders, real };
    });
    const failures: ({ error: unknown } | undefined)[] = new Array(items.length).fill(undefined);
    const failed = (i: number, error: unknown) => {
      failures[i] = { error };
      onError?.(items[i]!, error);
    };
    // New folders: made at once, then filed by the index without listing <home> again.
    const notMade = await this.index.createFolders([...new Set(places.filter((p) => p.isNew).map((p) => p.name))]);
    const byFolder = new Map<string, number[]>();
    for (const [i, place] of places.entries()) {
      const group = byFolder.get(place.folder);
      if (group) group.push(i);
      else byFolder.set(place.folder, [i]);
    }
    await settleBounded([...byFolder.values()], async (group) => {
      const place = places[group[0]!]!;
      const added: { i: number; id: string; timestamp: number }[] = [];
      for (const i of group) {
        const item = items[i]!;
        try {
          const cause = notMade.get(place.name);
          if (cause) throw cause.error;
          if (item.unlessNewest) {
            const newest = (await listFolders(places[i]!.folders, extname(item.path), listings))[0];
            if (newest && (await holdsBytes(newest.location, item.content))) continue;
          }
          const timestamp = item.timestamp ?? Date.now();
          // may be the only copy of an overwritten original; a folder deleted meanwhile is made again
          const id = await writeNewEntry(place.folder, extname(item.path), item.content, () =>
            this.index.createFolder(place.name),
          );
          added.push({ i, id, timestamp });
        } catch (e) {
          failed(i, e);
        }
      }
      if (added.length === 0) return;
      try {
        const data = await updateListing(
          place.folder,
          place.resource,
          added.map(({ i, id, timestamp }) => ({ id, source: items[i]!.source, timestamp })),
          listings,
        );
        const recorded = typeof data.resource === 'string' ? data.resource : place.resource;
        this.index.record(place.name, recorded, { path: items[group[0]!]!.path, real: place.real });
        for (const { i, id, timestamp } of added)
          results[i] = { id, timestamp, source: items[i]!.source, location: join(place.folder, id) };
      } catch (e) {
        // A failure, though the content files stay (listed from the folder's contents).
        for (const { i } of added) failed(i, e);
      }
    });
    const first = failures.find((f) => f !== undefined);
    if (first && !onError) throw first.error;
    return results;
  }
}

/**
 * Rewrites a folder's entries.json with `added` appended (temp file and rename, not fsynced); returns
 * what it held. Read again unless `listings` holds it as it still is.
 */
async function updateListing(
  folder: string,
  resource: string,
  added: readonly { id: string; source: string; timestamp: number }[],
  listings?: Listings,
): Promise<EntriesFile> {
  const listing = join(folder, 'entries.json');
  let data: EntriesFile = { version: 1, resource, entries: [] };
  try {
    data = (await listings?.current(folder)) ?? (JSON.parse((await readTextStamped(listing)).text) as EntriesFile);
  } catch {
    /* new folder, or an unreadable listing that VS Code would also rebuild from the folder */
  }
  listings?.forget(folder); // rewritten below
  const entries = Array.isArray(data.entries) ? [...data.entries] : [];
  entries.push(...added);
  const tmp = `${listing}.${process.pid}.${++listingTmpSeq}.tmp`;
  try {
    const text = JSON.stringify({ version: data.version ?? 1, resource: data.resource ?? resource, entries });
    await writeNewFile(tmp, Buffer.from(text));
    await rename(tmp, listing);
  } catch (e) {
    await rm(tmp, { force: true });
    throw e;
  }
  return data;
}

let listingTmpSeq = 0;

/** Writes `content` durably under a new random id (VS Code's 4 characters + the file's extension); returns the id. */
async function writeNewEntry(
  folder: string,
  ext: string,
  content: Uint8Array,
  makeFolder: () => void,
): Promise<string> {
  let madeFolder = false;
  for (let attempt = 1; ; attempt++) {
    const id = randomId() + ext;
    try {
      await writeNewFile(join(folder, id), content, { exclusive: true, sync: true });
      return id;
    } catch (e) {
      const code = (e as NodeJS.ErrnoException).code;
      if (code === 'EEXIST' && attempt < 100) continue;
      if (code === 'ENOENT' && !madeFolder) {
        madeFolder = true;
        makeFolder();
        continue;
      }
      throw e;
    }
  }
}

function randomId(): string {
  const chars = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789';
  let s = '';
  for (let i = 0; i < 4; i++) s += chars[Math.floor(Math.random() * chars.length)];
  return s;
}

/** Content files of a History folder: VS Code's 4-character ids with the file's extension. */
function idPatternFor(ext: string): RegExp {
  return new RegExp(`^[A-Za-z0-9]{4}${escapeRegExp(ext)}$`);
}

/** Entries of one History folder: content files (VS Code's 4-character ids) refined by entries.json metadata. */
function readFolder(folder: string, ext: string): LocalHistoryEntry[] {
  const idPattern = idPatternFor(ext);
  const byId = new Map<string, LocalHistoryEntry>();
  let names: string[] = [];
  try {
    names = readdirSync(folder);
  } catch {
    return [];
  }
  for (const name of names) {
    if (!idPattern.test(name)) continue;
    try {
      const st = statSync(join(folder, name));
      if (st.isFile()) byId.set(name, { id: name, timestamp: st.mtimeMs, location: join(folder, name) });
    } catch {
      /* vanished meanwhile */
    }
  }
  try {
    const data = JSON.parse(readFileSync(join(folder, 'entries.json'), 'utf8')) as EntriesFile;
    for (const e of Array.isArray(data.entries) ? data.entries : []) {
      if (typeof e.id !== 'string') continue;
      const known = byId.get(e.id);
      if (!known) continue;
      if (typeof e.timestamp === 'number') known.timestamp = e.timestamp;
      if (typeof e.source === 'string') known.source = e.source;
    }
  } catch {
    /* no listing: folder contents alone, as VS Code does */
  }
  for (const e of byId.values()) e.timestamp = Math.round(e.timestamp);
  return [...byId.values()];
}

/** Entries of several folders, newest first (as list()), read asynchronously; their listings kept in `listings`. */
async function listFolders(
  folders: readonly { folder: string }[],
  ext: string,
  listings?: Listings,
): Promise<LocalHistoryEntry[]> {
  const all: LocalHistoryEntry[] = [];
  for (const { folder } of folders) all.push(...(await readFolderAsync(folder, ext, listings)));
  return all.sort((a, b) => b.timestamp - a.timestamp || (a.id < b.id ? 1 : -1));
}

/**
 * readFolder, asynchronously and with fewer calls: the listing's file types say which names are files
 * (a symlink is followed, as statSync does), and a file is stat'ed only for a timestamp entries.json
 * does not give. The same entries as readFolder.
 */
async function readFolderAsync(folder: string, ext: string, listings?: Listings): Promise<LocalHistoryEntry[]> {
  const idPattern = idPatternFor(ext);
  let names: Dirent[];
  try {
    names = await readdir(folder, { withFileTypes: true });
  } catch {
    return [];
  }
  const listed = new Map<string, { timestamp?: number; source?: string }>();
  try {
    const { text, stamp } = await readTextStamped(join(folder, 'entries.json'));
    const data = JSON.parse(text) as EntriesFile;
    if (typeof data === 'object' && data !== null) listings?.remember(folder, stamp, data);
    for (const e of Array.isArray(data.entries) ? data.entries : []) {
      if (typeof e.id !== 'string') continue;
      const meta = listed.get(e.id) ?? {};
      if (typeof e.timestamp === 'number') meta.timestamp = e.timestamp;
      if (typeof e.source === 'string') meta.source = e.source;
      listed.set(e.id, meta);
    }
  } catch {
    /* no listing: folder contents alone, as VS Code does */
  }
  const out: LocalHistoryEntry[] = [];
  for (const d of names) {
    if (!idPattern.test(d.name) || !(d.isFile() || d.isSymbolicLink())) continue;
    const meta = listed.get(d.name);
    let timestamp = meta?.timestamp;
    if (d.isSymbolicLink() || timestamp === undefined) {
      try {
        const st = await stat(join(folder, d.name));
        if (!st.isFile()) continue;
        timestamp ??= st.mtimeMs;
      } catch {
        continue; /* vanished meanwhile */
      }
    }
    const entry: LocalHistoryEntry = { id: d.name, timestamp: Math.round(timestamp), location: join(folder, d.name) };
    if (meta?.source !== undefined) entry.source = meta.source;
    out.push(entry);
  }
  return out;
}
