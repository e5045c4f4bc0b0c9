// The per-user registry of running IDEA servers: how a CLI, an MCP server or a test finds the VS Code
// window serving the folder it runs in, with several windows open, without reading a workspace file.
// One JSON file per server in a directory only its user can enter:
//   ~/.idea-protocol/servers/<pid>-<port>.json   (IDEA_REGISTRY_DIR overrides the directory)
// Security decisions:
// - the directory is created 0700, each entry written 0600 (temp file + rename, never half-written);
// - readers accept only a directory and entries owned by the current user with no group/other access
//   (another local user must not be able to point our clients at a server of theirs), regular files
//   only (no symlinks), at most 64 KiB each;
// - the token is kept here (the settings-file token is optional: idea.server.exposeToken).
// Readers clean stale entries: a dead pid, or a port nobody accepts connections on.
import { randomBytes } from 'node:crypto';
import {
  chmodSync,
  closeSync,
  fsyncSync,
  lstatSync,
  mkdirSync,
  openSync,
  readdirSync,
  readFileSync,
  renameSync,
  unlinkSync,
  writeSync,
} from 'node:fs';
import { homedir } from 'node:os';
import { join } from 'node:path';
import { isPort, serverUrl } from './discovery.js';
import { isPortOpen } from './loopback.js';

export const REGISTRY_FORMAT = 1;
const MAX_ENTRY_BYTES = 64 * 1024;

/** One running server, as its extension registered it. */
export interface RegistryEntry {
  registry: typeof REGISTRY_FORMAT;
  /** The process serving (the extension host). */
  pid: number;
  port: number;
  url: string;
  /** The protocol version the server speaks. */
  protocolVersion: string;
  /** Absolute paths of the window's workspace folders. */
  workspaces: string[];
  /** Present when the server requires the token. */
  token?: string;
  authRequired: boolean;
  /** ISO 8601. */
  startedAt: string;
  /** The editor, e.g. "Visual Studio Code 1.100.3". */
  ide?: string;
}

/** `IDEA_REGISTRY_DIR`, else ~/.idea-protocol/servers. */
export function registryDir(env: NodeJS.ProcessEnv = process.env): string {
  const dir = env.IDEA_REGISTRY_DIR;
  return dir?.trim() ? dir : join(homedir(), '.idea-protocol', 'servers');
}

const uid = (): number | undefined => (typeof process.getuid === 'function' ? process.getuid() : undefined);

/** Why `path` is not private to this user, or undefined when it is. */
function notPrivate(path: string, kind: 'directory' | 'file'): string | undefined {
  const st = lstatSync(path);
  if (kind === 'directory' ? !st.isDirectory() : !st.isFile())
    return `not a ${kind === 'directory' ? 'directory' : 'regular file'}`;
  const me = uid();
  if (me !== undefined && st.uid !== me) return `owned by uid ${st.uid}, not ${me}`;
  if ((st.mode & 0o077) !== 0) return `mode ${(st.mode & 0o777).toString(8)} lets others in`;
  return undefined;
}

/** Creates the directory 0700 (a looser one of ours is tightened); throws if it is someone else's. */
export function ensureRegistryDir(dir = registryDir()): string {
  mkdirSync(dir, { recursive: true, mode: 0o700 });
  const problem = notPrivate(dir, 'directory');
  if (problem?.startsWith('mode')) chmodSync(dir, 0o700);
  else if (problem) throw new Error(`IDEA registry ${dir} is ${problem}; refusing to use it`);
  return dir;
}

export function entryFileName(pid: number, port: number): string {
  return `${pid}-${port}.json`;
}

/** Writes `entry` atomically, 0600; returns its path. */
export function writeRegistryEntry(entry: RegistryEntry, dir = registryDir()): string {
  ensureRegistryDir(dir);
  const file = join(dir, entryFileName(entry.pid, entry.port));
  const tmp = join(dir, `.${entryFileName(entry.pid, entry.port)}.${randomBytes(4).toString('hex')}.tmp`);
  const fd = openSync(tmp, 'wx', 0o600);
  try {
    writeSync(fd, `${JSON.stringify(entry, null, 2)}\n`);
    fsyncSync(fd);
  } finally {
    closeSync(fd);
  }
  renameSync(tmp, file);
  return file;
}

/** Removes a server's entry (synchronous: also safe in a deactivate or exit hook). Never throws. */
export function removeRegistryEntry(pid: number, port: number, dir = registryDir()): void {
  try {
    unlinkSync(join(dir, entryFileName(pid, port)));
  } catch {
    // already gone
  }
}

/** A registered server for as long as it runs: update its folders, remove it on stop. */
export interface Registration {
  readonly file: string;
  update(change: Partial<Pick<RegistryEntry, 'workspaces' | 'token' | 'authRequired'>>): void;
  remove(): void;
}

export function registerServer(
  entry: Omit<RegistryEntry, 'registry' | 'url' | 'startedAt'> & { startedAt?: string },
  dir = registryDir(),
): Registration {
  let current: RegistryEntry = {
    registry: REGISTRY_FORMAT,
    url: serverUrl(entry.port),
    startedAt: new Date().toISOString(),
    ...entry,
  };
  const file = writeRegistryEntry(current, dir);
  let removed = false;
  return {
    file,
    update(change) {
      if (removed) return;
      current = { ...current, ...change };
      writeRegistryEntry(current, dir);
    },
    remove() {
      removed = true;
      removeRegistryEntry(current.pid, current.port, dir);
    },
  };
}

function isStringArray(v: unknown): v is string[] {
  return Array.isArray(v) && v.every((x) => typeof x === 'string' && x.length > 0);
}

/** The entry in `text`, or why it is not one. */
export function parseRegistryEntry(text: string): RegistryEntry | string {
  let v: unknown;
  try {
    v = JSON.parse(text);
  } catch {
    return 'not JSON';
  }
  if (typeof v !== 'object' || v === null || Array.isArray(v)) return 'not a JSON object';
  const e = v as Record<string, unknown>;
  if (e.registry !== REGISTRY_FORMAT) return `registry format ${String(e.registry)} is not ${REGISTRY_FORMAT}`;
  if (!(typeof e.pid === 'number' && Number.isSafeInteger(e.pid) && e.pid > 0)) return 'pid is not a positive integer';
  if (!isPort(e.port)) return 'port is not an integer 1–65535';
  if (e.url !== serverUrl(e.port)) return `url is not ${serverUrl(e.port)}`; // loopback only, whatever the file says
  if (typeof e.protocolVersion !== 'string') return 'protocolVersion is not a string';
  if (!isStringArray(e.workspaces)) return 'workspaces is not a list of paths';
  if (e.token !== undefined && (typeof e.token !== 'string' || e.token.length === 0))
    return 'token is not a non-empty string';
  if (typeof e.authRequired !== 'boolean') return 'authRequired is not a boolean';
  if (typeof e.startedAt !== 'string') return 'startedAt is not a string';
  return e as unknown as RegistryEntry;
}

export function pidAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (e) {
    return (e as NodeJS.ErrnoException).code === 'EPERM'; // alive, someone else's
  }
}

export interface RegistryListing {
  servers: RegistryEntry[];
  /** Files that are not usable entries (never read further), with the reason. */
  ignored: { file: string; reason: string }[];
  /** Entries of servers that are gone (removed unless `clean: false`). */
  stale: { entry: RegistryEntry; reason: string }[];
}

export interface ListOptions {
  dir?: string;
  /** Remove stale entries (default true). */
  clean?: boolean;
  /** Probe each port (default true); without it only dead pids are stale. */
  probePorts?: boolean;
}

/** Every live server in the registry; an absent directory is an empty registry. */
export async function listRegisteredServers(options: ListOptions = {}): Promise<RegistryListing> {
  const dir = options.dir ?? registryDir();
  const out: RegistryListing = { servers: [], ignored: [], stale: [] };
  let names: string[];
  try {
    names = readdirSync(dir);
  } catch {
    return out;
  }
  const dirProblem = notPrivate(dir, 'directory');
  if (dirProblem) {
    out.ignored.push({ file: dir, reason: `registry directory ${dirProblem}` });
    return out;
  }
  const candidates: { entry: RegistryEntry; file: string }[] = [];
  for (const name of names.filter((n) => n.endsWith('.json') && !n.startsWith('.')).sort()) {
    const file = join(dir, name);
    try {
      const problem = notPrivate(file, 'file');
      if (problem) {
        out.ignored.push({ file, reason: problem });
        continue;
      }
      if (lstatSync(file).size > MAX_ENTRY_BYTES) {
        out.ignored.push({ file, reason: `larger than ${MAX_ENTRY_BYTES} bytes` });
        continue;
      }
      const parsed = parseRegistryEntry(readFileSync(file, 'utf8'));
      if (typeof parsed === 'string') out.ignored.push({ file, reason: parsed });
      else candidates.push({ entry: parsed, file });
    } catch (e) {
      out.ignored.push({ file, reason: (e as Error).message });
    }
  }
  const probe = options.probePorts ?? true;
  const verdicts = await Promise.all(
    candidates.map(async ({ entry }) => {
      if (!pidAlive(entry.pid)) return `process ${entry.pid} is gone`;
      if (probe && !(await isPortOpen(entry.port, 500))) return `nothing listens on port ${entry.port}`;
      return undefined;
    }),
  );
  for (const [i, { entry, file }] of candidates.entries()) {
    const reason = verdicts[i];
    if (reason === undefined) {
      out.servers.push(entry);
      continue;
    }
    out.stale.push({ entry, reason });
    if (options.clean ?? true) {
      try {
        unlinkSync(file);
      } catch {
        // someone else cleaned it
      }
    }
  }
  return out;
}
