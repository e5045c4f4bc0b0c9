// Which server serves a folder: the one place the CLI, the MCP server, the conformance runner and the
// live-host launcher decide it. In order:
// 1. the per-user registry (runtime/registry.ts): the live server one of whose workspace folders
//    contains the folder, the deepest such folder winning (a window on /repo/pkg beats one on /repo),
//    the most recently started on a tie;
// 2. the `.vscode/settings.json` keys existing IDEA clients read (runtime/discovery.ts), in the folder
//    or its nearest ancestor that has them;
// otherwise NoServerError, whose message lists what was found and why it did not fit.
// And where a client's server and token come from, one rule for `idea`, `idea-mcp` and
// `idea-conformance` (resolveEndpoint): flag > environment > registry > workspace settings.
import { realpathSync } from 'node:fs';
import { dirname, isAbsolute, relative, resolve, sep } from 'node:path';
import { type Discovered, workspaceSettingsSource } from './discovery.js';
import { isLoopbackWsUrl } from './loopback.js';
import { listRegisteredServers, type RegistryEntry, type RegistryListing, registryDir } from './registry.js';

export interface Located extends Discovered {
  /** The registry entry, when found there. */
  entry?: RegistryEntry;
  /** The workspace folder (registry) or the folder whose settings file named the server. */
  folder: string;
}

export class NoServerError extends Error {
  override readonly name = 'NoServerError';
  constructor(
    message: string,
    readonly listing: RegistryListing,
  ) {
    super(message);
  }
}

function real(path: string): string {
  try {
    return realpathSync(path);
  } catch {
    return resolve(path);
  }
}

/** Whether `path` is `folder` or inside it (both absolute, already resolved). */
export function isWithin(path: string, folder: string): boolean {
  const rel = relative(folder, path);
  return rel === '' || (!rel.startsWith('..') && !isAbsolute(rel) && rel.split(sep)[0] !== '..');
}

/** The entry serving `path` (absolute, resolved): deepest containing folder, then newest. Pure. */
export function pickServer(
  path: string,
  servers: readonly RegistryEntry[],
  resolveFolder: (f: string) => string = real,
): { entry: RegistryEntry; folder: string } | undefined {
  let best: { entry: RegistryEntry; folder: string; depth: number; started: number } | undefined;
  for (const entry of servers) {
    const started = Date.parse(entry.startedAt) || 0;
    for (const folder of entry.workspaces) {
      const f = resolveFolder(folder);
      if (!isWithin(path, f)) continue;
      const depth = f.split(sep).filter(Boolean).length;
      if (!best || depth > best.depth || (depth === best.depth && started > best.started))
        best = { entry, folder, depth, started };
    }
  }
  return best && { entry: best.entry, folder: best.folder };
}

export interface LocateOptions {
  /** Registry directory (default: registryDir()). */
  registry?: string;
  /** Probe registered ports (default true). */
  probePorts?: boolean;
}

/** The server for `cwd` (default process.cwd()); throws NoServerError listing what was found. */
export async function locateServer(cwd: string = process.cwd(), options: LocateOptions = {}): Promise<Located> {
  const here = real(cwd);
  const dir = options.registry ?? registryDir();
  const listing = await listRegisteredServers({ dir, probePorts: options.probePorts });
  const picked = pickServer(here, listing.servers);
  if (picked) {
    const { entry, folder } = picked;
    return {
      source: 'registry',
      port: entry.port,
      url: entry.url,
      ...(entry.token ? { token: entry.token } : {}),
      entry,
      folder,
    };
  }
  for (let d = here; ; d = dirname(d)) {
    const found = workspaceSettingsSource.find(d);
    if (found) return { ...found, folder: d };
    if (dirname(d) === d) break;
  }
  throw new NoServerError(describeNone(here, dir, listing), listing);
}

function describeNone(here: string, dir: string, listing: RegistryListing): string {
  const lines = [`no IDEA server serves ${here}.`];
  if (listing.servers.length === 0)
    lines.push(
      `No running server is registered in ${dir}, and no .vscode/settings.json in ${here} or above names one.`,
    );
  else {
    lines.push(`Running servers (${dir}), none of whose folders contains it:`);
    for (const s of listing.servers)
      lines.push(
        `  ${s.url}  pid ${s.pid}${s.ide ? `, ${s.ide}` : ''}: ${s.workspaces.join(', ') || '(no folder open)'}`,
      );
  }
  for (const s of listing.stale) lines.push(`  removed a stale entry for ${s.entry.url}: ${s.reason}`);
  for (const i of listing.ignored) lines.push(`  ignored ${i.file}: ${i.reason}`);
  lines.push(
    "Open the folder in VS Code with the IDEA extension running, or give the server's url and token explicitly.",
  );
  return lines.join('\n');
}

/** Where each half of an endpoint came from. */
export type EndpointSource = 'flag' | 'environment' | 'registry' | 'workspace settings';

export interface EndpointRequest {
  /** The server url given as a flag (--url). */
  url?: string | undefined;
  /** The token given as a flag (--token). */
  token?: string | undefined;
  /** Where IDEA_URL, IDEA_TOKEN and IDEA_REGISTRY_DIR are read (empty values count as unset). Default: none, but for IDEA_REGISTRY_DIR process.env, as registryDir() reads it. */
  env?: NodeJS.ProcessEnv;
  /** The folder whose server is wanted (default process.cwd()). */
  cwd?: string;
  /** Registry directory (default: registryDir(env ?? process.env)). */
  registry?: string | undefined;
  /** Probe registered ports when locating (default true). */
  probePorts?: boolean;
}

export interface Endpoint {
  url: string;
  token?: string;
  from: { url: EndpointSource; token?: EndpointSource };
}

/** A server url that is not ws:// on loopback: no token is sent to it. */
export class NotLoopbackError extends Error {
  override readonly name = 'NotLoopbackError';
}

const set = (v: string | undefined): string | undefined => (v !== undefined && v !== '' ? v : undefined);

/** `url`, or NotLoopbackError naming where it came from. */
export function checkLoopbackUrl(url: string, from: string): string {
  if (!isLoopbackWsUrl(url))
    throw new NotLoopbackError(`${from} must be a loopback WebSocket url such as ws://127.0.0.1:7200, got '${url}'`);
  return url;
}

/**
 * The server and token a client uses, by one rule. The server: the flag, else IDEA_URL, else the
 * server serving `cwd` (locateServer: the registry, else the workspace settings). The token: the
 * flag, else IDEA_TOKEN, else the one the registry gives for that server, else the workspace
 * settings'. A url from a flag or the environment must be loopback (NotLoopbackError, before anything
 * is sent); no server found is NoServerError.
 */
export async function resolveEndpoint(req: EndpointRequest): Promise<Endpoint> {
  const env = req.env ?? {};
  const cwd = req.cwd ?? process.cwd();
  const registry = req.registry ?? registryDir(req.env ?? process.env);
  const flagToken = set(req.token);
  const envToken = set(env.IDEA_TOKEN);
  const given: { token: string; from: EndpointSource } | undefined =
    flagToken !== undefined
      ? { token: flagToken, from: 'flag' }
      : envToken !== undefined
        ? { token: envToken, from: 'environment' }
        : undefined;
  const explicit: { url: string; from: EndpointSource } | undefined =
    set(req.url) !== undefined
      ? { url: checkLoopbackUrl(req.url!, '--url'), from: 'flag' }
      : set(env.IDEA_URL) !== undefined
        ? { url: checkLoopbackUrl(env.IDEA_URL!, 'IDEA_URL'), from: 'environment' }
        : undefined;
  if (explicit) {
    if (given) return { url: explicit.url, token: given.token, from: { url: explicit.from, token: given.from } };
    const found = await tokenFor(Number(/:(\d+)\/?$/.exec(explicit.url)![1]), cwd, registry);
    return {
      url: explicit.url,
      ...(found ? { token: found.token } : {}),
      from: { url: explicit.from, ...(found ? { token: found.from } : {}) },
    };
  }
  const located = await locateServer(cwd, {
    registry,
    ...(req.probePorts !== undefined ? { probePorts: req.probePorts } : {}),
  });
  const from: EndpointSource = located.source === 'registry' ? 'registry' : 'workspace settings';
  const token = given ?? (located.token !== undefined ? { token: located.token, from } : undefined);
  return {
    url: located.url,
    ...(token ? { token: token.token } : {}),
    from: { url: from, ...(token ? { token: token.from } : {}) },
  };
}

/** The token of the server on `port`: its registry entry's, else a settings file's (cwd or above) naming that port. */
async function tokenFor(
  port: number,
  cwd: string,
  registry: string,
): Promise<{ token: string; from: EndpointSource } | undefined> {
  const listing = await listRegisteredServers({ dir: registry, clean: false, probePorts: false });
  const entry = listing.servers.find((e) => e.port === port && e.token !== undefined);
  if (entry) return { token: entry.token!, from: 'registry' };
  for (let d = real(cwd); ; d = dirname(d)) {
    const found = workspaceSettingsSource.find(d);
    if (found)
      return found.port === port && found.token !== undefined
        ? { token: found.token, from: 'workspace settings' }
        : undefined;
    if (dirname(d) === d) return undefined;
  }
}
