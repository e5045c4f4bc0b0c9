// Reads (and, for rollback backups, appends to) VS Code's local history: <user-data>/User/History/<hash>/
// holds entries.json ({version, resource, entries: [{id, source?, timestamp}]}) and one file per entry.
// The same file may have several folders (a file:// resource on desktop, vscode-remote://host:port/ on
// code-server, one per port): all of them are merged. Pure Node, no vscode import.
import {
  closeSync,
  fsyncSync,
  openSync,
  readdirSync,
  readFileSync,
  renameSync,
  statSync,
  writeFileSync,
  writeSync,
} from 'node:fs';
import { basename, extname, join, sep } from 'node:path';
import { HistoryFolderIndex } from './local-history-index';
import { realpathOfNearestAncestor } from './path-guard';

export interface LocalHistoryEntry {
  id: string;
  timestamp: number;
  source?: string;
  /** Absolute path of the stored content. */
  location: string;
}

interface EntriesFile {
  version?: number;
  resource?: string;
  entries?: { id?: unknown; source?: unknown; timestamp?: unknown }[];
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
    const keys = absPath === real ? [absPath] : [absPath, real];
    const candidates = keys.map((p) => vscodeStringHash(fileUriString(p)).toString(16));
    const folders = this.index
      .lookup(keys, candidates)
      .map(({ name, resource }) => ({ folder: join(this.home, name), resource }));
    return { folders, real };
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

  /**
   * Records `content` as a new entry for the file (used to keep what a rollback overwrites). Appends to
   * the folder VS Code already uses for this file when there is one, else creates the file:// one.
   */
  addEntry(absPath: string, content: Uint8Array, source: string, timestamp = Date.now()): LocalHistoryEntry {
    const { folders, real } = this.lookup(absPath);
    const existing = folders[0];
    const resource = existing?.resource ?? fileUriString(absPath);
    const folder = existing?.folder ?? join(this.home, vscodeStringHash(resource).toString(16));
    const name = basename(folder);
    if (!existing) this.index.createFolder(name);
    // may be the only copy of an overwritten original; a folder deleted meanwhile is made again
    const id = writeNewEntry(folder, extname(absPath), content, () => this.index.createFolder(name));
    const listing = join(folder, 'entries.json');
    let data: EntriesFile = { version: 1, resource, entries: [] };
    try {
      data = JSON.parse(readFileSync(listing, 'utf8')) as EntriesFile;
    } catch {
      /* new folder, or an unreadable listing that VS Code would also rebuild from the folder */
    }
    const entries = Array.isArray(data.entries) ? data.entries : [];
    entries.push({ id, source, timestamp });
    const tmp = `${listing}.${process.pid}.tmp`;
    writeFileSync(tmp, JSON.stringify({ version: data.version ?? 1, resource: data.resource ?? resource, entries }));
    renameSync(tmp, listing);
    this.index.record(name, typeof data.resource === 'string' ? data.resource : resource, { path: absPath, real });
    return { id, timestamp, source, location: join(folder, id) };
  }
}

/** Writes `content` durably under a new random id (VS Code's 4 characters + the file's extension); returns the id. */
function writeNewEntry(folder: string, ext: string, content: Uint8Array, makeFolder: () => void): string {
  let madeFolder = false;
  for (let attempt = 1; ; attempt++) {
    const id = randomId() + ext;
    try {
      writeDurablySync(join(folder, id), content);
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

function writeDurablySync(path: string, content: Uint8Array): void {
  const fd = openSync(path, 'wx');
  try {
    for (let off = 0; off < content.length; ) off += writeSync(fd, content, off, content.length - off);
    fsyncSync(fd);
  } finally {
    closeSync(fd);
  }
}

function randomId(): string {
  const chars = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789';
  let s = '';
  for (let i = 0; i < 4; i++) s += chars[Math.floor(Math.random() * chars.length)];
  return s;
}

/** Entries of one History folder: content files (VS Code's 4-character ids) refined by entries.json metadata. */
function readFolder(folder: string, ext: string): LocalHistoryEntry[] {
  const idPattern = new RegExp(`^[A-Za-z0-9]{4}${ext.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}$`);
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
