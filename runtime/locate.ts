// Which server serves a folder: the one place the CLI, the MCP server, the conformance runner and the
// live-host launcher decide it. In order:
// 1. the per-user registry (runtime/registry.ts): the live server one of whose workspace folders
//    contains the folder, the deepest such folder winning (a window on /repo/pkg beats one on /repo),
//    the most recently started on a tie;
// 2. the `.vscode/settings.json` keys existing IDEA clients read (runtime/discovery.ts), in the folder
//    or its nearest ancestor that has them;
// otherwise NoServerError, whose message lists what was found and why it did not fit.
import { realpathSync } from "node:fs";
import { dirname, isAbsolute, relative, resolve, sep } from "node:path";
import { workspaceSettingsSource, type Discovered } from "./discovery.js";
import { listRegisteredServers, registryDir, type RegistryEntry, type RegistryListing } from "./registry.js";

export interface Located extends Discovered {
  /** The registry entry, when found there. */
  entry?: RegistryEntry;
  /** The workspace folder (registry) or the folder whose settings file named the server. */
  folder: string;
}

export class NoServerError extends Error {
  override readonly name = "NoServerError";
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
  return rel === "" || (!rel.startsWith("..") && !isAbsolute(rel) && rel.split(sep)[0] !== "..");
}

/** The entry serving `path` (absolute, resolved): deepest containing folder, then newest. Pure. */
export function pickServer(path: string, servers: readonly RegistryEntry[], resolveFolder: (f: string) => string = real): { entry: RegistryEntry; folder: string } | undefined {
  let best: { entry: RegistryEntry; folder: string; depth: number; started: number } | undefined;
  for (const entry of servers) {
    const started = Date.parse(entry.startedAt) || 0;
    for (const folder of entry.workspaces) {
      const f = resolveFolder(folder);
      if (!isWithin(path, f)) continue;
      const depth = f.split(sep).filter(Boolean).length;
      if (!best || depth > best.depth || (depth === best.depth && started > best.started)) best = { entry, folder, depth, started };
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
    return { source: "registry", port: entry.port, url: entry.url, ...(entry.token ? { token: entry.token } : {}), entry, folder };
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
  if (listing.servers.length === 0) lines.push(`No running server is registered in ${dir}, and no .vscode/settings.json in ${here} or above names one.`);
  else {
    lines.push(`Running servers (${dir}), none of whose folders contains it:`);
    for (const s of listing.servers) lines.push(`  ${s.url}  pid ${s.pid}${s.ide ? `, ${s.ide}` : ""}: ${s.workspaces.join(", ") || "(no folder open)"}`);
  }
  for (const s of listing.stale) lines.push(`  removed a stale entry for ${s.entry.url}: ${s.reason}`);
  for (const i of listing.ignored) lines.push(`  ignored ${i.file}: ${i.reason}`);
  lines.push("Open the folder in VS Code with the IDEA extension running, or give the server's url and token explicitly.");
  return lines.join("\n");
}
