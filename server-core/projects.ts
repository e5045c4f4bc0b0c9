// The TypeScript/JavaScript projects of the workspace (clause T47), so that workspace-wide answers can
// search every one of them, not only those the language server happened to load: every tsconfig.json
// and jsconfig.json of the workspace folders (outside node_modules, .git and excluded folders), and
// every config a config references (solution-style ones, `"files": []` with `references`, included),
// each with one of its source files, which the host opens so that its language server loads the
// project (host.ts ProjectLoader). Configs with no source file of their own (a solution, a config
// matching nothing) hold nothing to search and are not listed. A tsconfig.*.json that none of those
// references is a project the language server never loads (it looks for tsconfig.json and
// jsconfig.json only): it is listed as not searched, unless it is only a base other configs extend.
// Bounded: at most MAX_PROJECTS projects (the rest are listed as not searched), config files of at most
// MAX_CONFIG_BYTES, `extends` chains of at most MAX_EXTENDS, a bounded walk for each project's file.
// The discovery is kept for DISCOVERY_TTL_MS, so a burst of workspace-wide requests walks once.
import { existsSync, statSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import { basename, dirname, extname, isAbsolute, join, relative, resolve, sep } from 'node:path';
import { parseJsonc } from '../runtime/jsonc';
import type { CoreContext } from './context';
import type { ProjectCoverage, ProjectLoader } from './host';
import { inheritClient } from './limits/client-context';
import { isInWorkspace } from './path-guard';
import { compileExcludes, enabledGlobs, excludedBy } from './search/excludes';
import { jsListFiles, listFiles } from './search/file-walk';
import { type CompiledGlob, compileGlob } from './search/glob';
import { anchorGlob } from './search/ripgrep';

/** Most projects searched; the others are listed as not searched (T47: beyond the server's bound). */
export const MAX_PROJECTS = 128;
/** A config file larger than this is not read (it would not parse as a config anyway). */
export const MAX_CONFIG_BYTES = 1024 * 1024;
/** Longest `extends` chain followed. */
export const MAX_EXTENDS = 8;
/** Files looked at below each include pattern of a project to find its files. */
export const MAX_SAMPLE_FILES = 20_000;
/** Files of each include pattern considered as the one opened. */
export const SAMPLES_PER_ROOT = 64;
/** How long a discovery is reused. */
export const DISCOVERY_TTL_MS = 10_000;
/**
 * How long a workspace-wide answer waits for its projects to load (H20): well inside a client's patience
 * (the CLI's and MCP server's 30 s, the extension's 20 s language bound), with room for the search
 * itself. What is not loaded by then is listed as not searched; its load goes on, for the next request.
 */
export const PROJECT_LOAD_MS = 5_000;
/**
 * PROJECT_LOAD_MS counts from the first load that ends (a language server starting is no project
 * loading, and the answer needs it anyway), but the answer waits this long at most.
 */
export const PROJECT_LOAD_CAP_MS = 12_000;
/** Projects loaded at once (tsserver loads one at a time: more would only queue in it, ahead of the request). */
export const LOADS_AT_ONCE = 2;
/** Bound on one project's load, which may outlive the request that started it. */
export const PROJECT_LOAD_MAX_MS = 120_000;

/** Folders no project is looked for in (VS Code's search never enters them either). */
const NEVER = ['**/node_modules', '**/.git'];
const TS = new Set(['.ts', '.tsx', '.mts', '.cts']);
const JS = new Set(['.js', '.jsx', '.mjs', '.cjs']);

/** A project: its config file and the source file the host opens to load it. */
export interface Project {
  config: string;
  file: string;
}

export interface Discovery {
  projects: Project[];
  /** Configs that cannot be searched, with why (unparsable, beyond the bound). */
  unusable: { config: string; reason: string }[];
}

/** What a config says that matters here, after its `extends` chain. */
interface ConfigFacts {
  files?: string[];
  include?: string[];
  exclude?: string[];
  /** The folders `files`, `include` and `exclude` are relative to (the config that set them). */
  filesBase: string;
  includeBase: string;
  excludeBase: string;
  allowJs: boolean;
  references: string[];
  /** The configs its `extends` chain read (bases, not projects of their own). */
  bases: string[];
}

const strings = (x: unknown): string[] | undefined =>
  Array.isArray(x) ? x.filter((s): s is string => typeof s === 'string') : undefined;

async function readConfig(path: string): Promise<Record<string, unknown>> {
  const size = statSync(path).size;
  if (size > MAX_CONFIG_BYTES) throw new Error(`larger than ${MAX_CONFIG_BYTES / 1024 / 1024} MB`);
  const parsed = parseJsonc(await readFile(path, 'utf8'));
  if (typeof parsed !== 'object' || parsed === null || Array.isArray(parsed)) throw new Error('not a JSON object');
  return parsed as Record<string, unknown>;
}

/**
 * A config's facts, `extends` followed: relative paths only (a package's base config names no files),
 * inside the workspace only (nothing outside it is read).
 */
async function configFacts(path: string, inWorkspace: (p: string) => boolean): Promise<ConfigFacts> {
  const own = await readConfig(path);
  const dir = dirname(path);
  const facts: ConfigFacts = {
    filesBase: dir,
    includeBase: dir,
    excludeBase: dir,
    allowJs: /jsconfig\.json$/i.test(path),
    references: [],
    bases: [],
  };
  const chain: { cfg: Record<string, unknown>; dir: string }[] = [{ cfg: own, dir }];
  for (let k = 0, cur = own, curDir = dir; k < MAX_EXTENDS; k++) {
    const ext = typeof cur.extends === 'string' ? [cur.extends] : (strings(cur.extends) ?? []);
    const base = ext.filter((e) => e.startsWith('.') || isAbsolute(e)).pop();
    if (!base) break;
    let file = resolve(curDir, base);
    if (!file.endsWith('.json') && !existsSync(file)) file += '.json';
    if (!inWorkspace(file)) break;
    facts.bases.push(file);
    try {
      cur = await readConfig(file);
    } catch {
      break; // an unreadable base: the project's own settings still stand
    }
    curDir = dirname(file);
    chain.push({ cfg: cur, dir: curDir });
  }
  // The nearest config that sets a field wins; paths stay relative to the config that set them.
  for (const { cfg, dir: d } of [...chain].reverse()) {
    const files = strings(cfg.files);
    const include = strings(cfg.include);
    const exclude = strings(cfg.exclude);
    if (files) [facts.files, facts.filesBase] = [files, d];
    if (include) [facts.include, facts.includeBase] = [include, d];
    if (exclude) [facts.exclude, facts.excludeBase] = [exclude, d];
    const opts = cfg.compilerOptions as Record<string, unknown> | undefined;
    if (typeof opts === 'object' && opts !== null && typeof opts.allowJs === 'boolean') facts.allowJs = opts.allowJs;
  }
  for (const r of Array.isArray(own.references) ? own.references : []) {
    const p = typeof r === 'object' && r !== null ? (r as { path?: unknown }).path : undefined;
    if (typeof p !== 'string' || !p) continue;
    const target = resolve(dir, p);
    facts.references.push(target.endsWith('.json') ? target : join(target, 'tsconfig.json'));
  }
  return facts;
}

const WILDCARD = /[*?[{]/;
const DECLARATION = /\.d\.[cm]?ts$/i;

/** A project's rules for which files are its own (tsconfig's `files`, `include`, `exclude`, `allowJs`). */
interface Members {
  takes(path: string): boolean;
  /** The literal files named (`files`, or an include naming one file). */
  named: string[];
  /** Each include pattern as a folder walked and a glob matched below it. */
  roots: { base: string; glob: CompiledGlob; rest: string }[];
  excluded(path: string): boolean;
}

function membersOf(facts: ConfigFacts): Members {
  const takes = (p: string) => {
    const ext = extname(p).toLowerCase();
    return TS.has(ext) || (facts.allowJs && JS.has(ext));
  };
  const named = (facts.files ?? []).map((f) => resolve(facts.filesBase, f));
  const roots: Members['roots'] = [];
  // `"files"` without `"include"` means those files only; neither means every file below the config.
  for (const pattern of facts.include ?? (facts.files ? [] : ['**/*'])) {
    const parts = pattern.replace(/\\/g, '/').replace(/^\.\//, '').split('/');
    const literal = parts.findIndex((x) => WILDCARD.test(x));
    const base = resolve(facts.includeBase, ...(literal < 0 ? parts : parts.slice(0, literal)));
    if (literal < 0 && takes(base)) named.push(base);
    else {
      const rest = literal < 0 ? '**/*' : parts.slice(literal).join('/');
      try {
        roots.push({ base, rest, glob: compileGlob(anchorGlob(rest)) });
      } catch {
        // a malformed pattern names no file (tsc reports it)
      }
    }
  }
  const excludes = compileExcludes(facts.exclude ?? ['node_modules', 'bower_components', 'jspm_packages']);
  const excluded = (p: string) => excludedBy(relative(facts.excludeBase, p).split(sep).join('/'), excludes);
  return { takes, named, roots, excluded };
}

/** Whether the project's rules take `path` (as tsc would list it among the project's files). */
function isMember(m: Members, path: string): boolean {
  if (!m.takes(path)) return false;
  if (m.named.includes(path)) return true;
  return m.roots.some((r) => {
    const rel = relative(r.base, path);
    return !rel.startsWith('..') && !isAbsolute(rel) && r.glob.matches(rel.split(sep).join('/')) && !m.excluded(path);
  });
}

/**
 * Up to SAMPLES_PER_ROOT source files of the project in the workspace for each of its include
 * patterns (so that a project including another's folder first still shows its own files),
 * declarations last.
 */
async function candidateFiles(m: Members, inWorkspace: (p: string) => boolean, signal: AbortSignal): Promise<string[]> {
  const out = m.named.filter((f) => m.takes(f) && existsSync(f) && inWorkspace(f));
  const declarations: string[] = [];
  for (const r of m.roots) {
    // The walk follows no symbolic link: what it finds below a folder of the workspace is in it.
    if (!existsSync(r.base) || !inWorkspace(r.base)) continue;
    let seen = 0;
    let taken = 0;
    await jsListFiles(
      r.base,
      { include: r.rest, excludes: NEVER, useIgnoreFiles: false },
      (rel) => {
        if (++seen > MAX_SAMPLE_FILES) return false;
        const abs = join(r.base, rel);
        if (!m.takes(abs) || m.excluded(abs)) return;
        if (DECLARATION.test(abs)) declarations.push(abs);
        else out.push(abs);
        return ++taken < SAMPLES_PER_ROOT;
      },
      signal,
    ).catch(() => []);
  }
  return [...out, ...declarations];
}

/** A config name tsserver looks for next to a file (any other config is loaded only when referenced). */
const DEFAULT_CONFIG = /^(tsconfig|jsconfig)\.json$/i;

/**
 * Every tsconfig.json/jsconfig.json and tsconfig.*.json of the workspace folders, outside node_modules,
 * .git and excluded folders.
 */
async function configsOf(svc: CoreContext, signal: AbortSignal): Promise<string[]> {
  const out: string[] = [];
  for (const root of svc.folders.paths()) {
    const s = svc.folders.searchSettings(root);
    const excludes = [...NEVER, ...enabledGlobs(s.filesExclude, s.searchExclude)];
    await listFiles(
      svc.tools.ripgrep,
      root,
      { include: '**/{tsconfig,jsconfig,tsconfig.*}.json', excludes, useIgnoreFiles: s.useIgnoreFiles },
      (rel) => void out.push(join(root, rel)),
      signal,
    ).catch((e: unknown) => {
      svc.tools.log(`projects: cannot list the configs of ${root}: ${(e as Error).message}`);
    });
  }
  return out.sort();
}

/** Walks the workspace for its projects (see the header); use `projectsOf` for the cached answer. */
export async function discoverProjects(svc: CoreContext, signal: AbortSignal): Promise<Discovery> {
  const folders = svc.folders.paths();
  const inWorkspace = (p: string) => isInWorkspace(p, folders);
  const listed = await configsOf(svc, signal);
  const queue = listed.filter((c) => DEFAULT_CONFIG.test(basename(c)));
  const seen = new Set(queue);
  const projects: Project[] = [];
  const unusable: Discovery['unusable'] = [];
  const found: { config: string; members: Members }[] = [];
  const bases = new Set<string>();
  for (let i = 0; i < queue.length; i++) {
    signal.throwIfAborted();
    const config = queue[i]!;
    let facts: ConfigFacts;
    try {
      facts = await configFacts(config, inWorkspace);
    } catch (e) {
      const err = e as NodeJS.ErrnoException;
      // A referenced config that is not there is the referencing project's problem, reported by tsc.
      if (err.code !== 'ENOENT') unusable.push({ config, reason: `the config does not parse: ${err.message}` });
      continue;
    }
    for (const r of facts.references)
      if (!seen.has(r) && inWorkspace(r)) {
        seen.add(r);
        queue.push(r);
      }
    for (const b of facts.bases) bases.add(b);
    found.push({ config, members: membersOf(facts) });
  }
  const loaded = found.map((f) => f.members);
  unusable.push(...(await unreferencedConfigs(listed, seen, bases, loaded, inWorkspace, signal)));
  // Each project's file is one only it takes where there is one: a file two projects take is opened in
  // the one its language server prefers (a solution's first reference), which leaves the other unloaded.
  for (const [k, { config, members }] of found.entries()) {
    signal.throwIfAborted();
    if (projects.length >= MAX_PROJECTS) {
      unusable.push({ config, reason: `beyond the bound of ${MAX_PROJECTS} projects searched` });
      continue;
    }
    const candidates = await candidateFiles(members, inWorkspace, signal);
    if (candidates.length === 0) continue;
    const others = found.filter((_, j) => j !== k);
    const own = candidates.find((f) => !others.some((o) => isMember(o.members, f)));
    projects.push({ config, file: own ?? candidates[0]! });
  }
  return { projects, unusable };
}

/** Why a tsconfig.*.json that no loaded config references is not searched. */
export const UNREFERENCED =
  'no tsconfig.json or jsconfig.json references it, so its language server never loads it (it loads the tsconfig.json or jsconfig.json a file is in, and the configs they reference): reference it from one to have it searched';

/**
 * The tsconfig.*.json files nothing loaded references (T47: the language server would not load them by
 * opening a file of theirs), as not searched: except the bases some config extends, those holding no
 * file (`"files": []`), which are no projects, and those whose files (sampled as for loading) a loaded
 * project takes too, which are searched through it (a build config such as date-fns's tsconfig.lib.json
 * over the same sources as its tsconfig.json). At most MAX_PROJECTS of them are read.
 */
async function unreferencedConfigs(
  listed: readonly string[],
  referenced: ReadonlySet<string>,
  bases: Set<string>,
  loaded: readonly Members[],
  inWorkspace: (p: string) => boolean,
  signal: AbortSignal,
): Promise<Discovery['unusable']> {
  const others = listed.filter((c) => !referenced.has(c));
  const covered = new Set<string>();
  for (const config of others.slice(0, MAX_PROJECTS)) {
    signal.throwIfAborted();
    try {
      const facts = await configFacts(config, inWorkspace);
      for (const b of facts.bases) bases.add(b);
      if (facts.files?.length === 0 && facts.include === undefined) covered.add(config);
      else {
        const files = await candidateFiles(membersOf(facts), inWorkspace, signal);
        if (files.length > 0 && files.every((f) => loaded.some((m) => isMember(m, f)))) covered.add(config);
      }
    } catch {
      // listed below all the same: whatever it holds, nothing loads it
    }
  }
  return others.filter((c) => !bases.has(c) && !covered.has(c)).map((config) => ({ config, reason: UNREFERENCED }));
}

const cache = new Map<string, { at: number; discovery: Promise<Discovery> }>();

/** The workspace's projects, walked at most once every DISCOVERY_TTL_MS per set of folders. */
export function projectsOf(svc: CoreContext, signal: AbortSignal): Promise<Discovery> {
  const key = svc.folders.paths().join('\0');
  const known = cache.get(key);
  if (known && Date.now() - known.at < DISCOVERY_TTL_MS) return known.discovery;
  // Not tied to one request's cancellation: the walk serves the requests that follow too.
  const discovery = discoverProjects(svc, new AbortController().signal);
  cache.set(key, { at: Date.now(), discovery });
  discovery.catch(() => cache.delete(key));
  signal.throwIfAborted();
  return discovery;
}

/** Forgets discoveries (tests, and a host that knows its configs changed). */
export function forgetProjects(): void {
  cache.clear();
}

const TS_OR_JS = new Set([...TS, ...JS]);

/** Whether a file is TypeScript or JavaScript, whose projects T47 names. */
export function hasProjects(path: string): boolean {
  return TS_OR_JS.has(extname(path).toLowerCase());
}

/**
 * Makes the host's language servers load every project before a workspace-wide question (T47), and
 * says what the answer covers: the projects loaded, and those not searched with why. For a file of a
 * language with no projects (`forFile` not TypeScript or JavaScript), or a workspace with no project,
 * the workspace folders, searched as a whole by the language server.
 */
export async function coverWorkspace(
  svc: CoreContext,
  signal: AbortSignal,
  forFile?: string,
  loadMs = PROJECT_LOAD_MS,
  capMs = PROJECT_LOAD_CAP_MS,
): Promise<ProjectCoverage> {
  const folders = () => ({
    searched: svc.folders.paths().map((path) => ({ kind: 'folder' as const, path })),
    notSearched: [],
  });
  if (forFile !== undefined && !hasProjects(forFile)) return folders();
  const { projects, unusable } = await projectsOf(svc, signal);
  if (projects.length === 0 && unusable.length === 0) return folders();
  const notSearched: ProjectCoverage['notSearched'] = unusable.map((u) => ({
    kind: 'project',
    path: u.config,
    reason: u.reason,
  }));
  const loader = svc.language.projects;
  if (!loader) {
    for (const p of projects)
      notSearched.push({
        kind: 'project',
        path: p.config,
        reason: 'this server cannot load projects into its language server',
      });
    return { searched: [], notSearched };
  }
  // Bounded in time: what the host has not loaded by then is listed as not searched (its load goes on).
  const pool = poolOf(loader);
  const outcome = new Map<string, string | undefined>();
  const loads = projects.map((p) => pool.load(p.file, signal).then((why) => void outcome.set(p.file, why)));
  const timers: NodeJS.Timeout[] = [];
  let over = false; // answered: a load ending later starts no timer
  const after = (ms: number) =>
    new Promise<number>((done) => (over ? done(ms) : void timers.push(setTimeout(() => done(ms), ms))));
  let onAbort: (() => void) | undefined;
  let waited = 0; // how long the answer waited for the loads it did not see end: 0 when it saw them all
  try {
    waited = await Promise.race([
      Promise.all(loads).then(() => 0),
      Promise.race(loads).then(() => after(loadMs)),
      after(Math.max(loadMs, capMs)),
      new Promise<never>((_, fail) => {
        onAbort = () => fail(signal.reason);
        if (signal.aborted) onAbort();
        else signal.addEventListener('abort', onAbort, { once: true });
      }),
    ]);
  } finally {
    over = true;
    for (const t of timers) clearTimeout(t);
    if (onAbort) signal.removeEventListener('abort', onAbort);
  }
  const late = `not loaded within ${waited} ms (its language server goes on loading it: ask again)`;
  const searched: ProjectCoverage['searched'] = [];
  for (const p of projects) {
    const why = outcome.has(p.file) ? outcome.get(p.file) : late;
    if (why === undefined) searched.push({ kind: 'project', path: p.config });
    else notSearched.push({ kind: 'project', path: p.config, reason: why });
  }
  return { searched, notSearched };
}

/**
 * One host loader's loads: at most LOADS_AT_ONCE at a time, the others queued, each file's load shared
 * by every request that wants it while it runs. A load is not tied to the request that started it
 * (bounded by PROJECT_LOAD_MAX_MS instead), so a project not loaded within one answer's budget is
 * loaded for the next; loading a loaded project again is cheap (host.ts ProjectLoader).
 */
class LoadPool {
  private readonly inFlight = new Map<string, Promise<string | undefined>>();
  private readonly waiting: (() => void)[] = [];
  private running = 0;
  constructor(private readonly loader: ProjectLoader) {}

  /** Why the file's project could not be loaded, or undefined once it is. */
  load(file: string, client: AbortSignal): Promise<string | undefined> {
    const known = this.inFlight.get(file);
    if (known) return known;
    const run = async () => {
      await this.turn();
      try {
        const bound = inheritClient(AbortSignal.timeout(PROJECT_LOAD_MAX_MS), client);
        return (await this.loader.load([file], bound))[0]?.reason;
      } catch (e) {
        return `its language server did not load it: ${e instanceof Error ? e.message : String(e)}`;
      } finally {
        this.inFlight.delete(file);
        this.running--;
        const next = this.waiting.shift();
        if (next) {
          this.running++;
          next();
        }
      }
    };
    const promise = run();
    this.inFlight.set(file, promise);
    return promise;
  }

  private turn(): Promise<void> {
    if (this.running < LOADS_AT_ONCE) {
      this.running++;
      return Promise.resolve();
    }
    return new Promise((start) => this.waiting.push(start));
  }
}

const pools = new WeakMap<ProjectLoader, LoadPool>();
function poolOf(loader: ProjectLoader): LoadPool {
  let pool = pools.get(loader);
  if (!pool) pools.set(loader, (pool = new LoadPool(loader)));
  return pool;
}

/** The wire's Coverage. */
export function wireCoverage(c: ProjectCoverage) {
  return { complete: c.notSearched.length === 0, searched: c.searched, notSearched: c.notSearched };
}
