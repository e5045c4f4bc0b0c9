// The spec library: one spec version folder (spec/v<version>/) loaded and checked — the topic index,
// every schema document, the folder's hash — for codegen, spec-tools and the spec tests alike.
// Version strings live in ./version (dependency-free), $ref resolution in ./refs.
import { createHash } from 'node:crypto';
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { join, relative, sep } from 'node:path';
import { compareVersions, isVersion, normalizeVersion, type Version, versionFolder } from './version';

export type Json = null | boolean | number | string | Json[] | { [k: string]: Json };
export type JsonObject = { [k: string]: Json };
/** A schema node as the generators read it (values narrowed where used). */
export type JsonSchema = { [key: string]: unknown };

export interface TopicEntry {
  topic: string;
  method: string;
  typeName: string;
  since: string;
  params: string;
  result: string;
  errors: string[];
  /** Since 0.1.7: "session" when the session engine serves the topic itself (events/subscribe, …). */
  servedBy?: 'session';
  description: string;
}

/** Since 0.1.7: one event of index.json `events` (a server → client push). */
export interface EventEntry {
  event: string;
  name: string;
  typeName: string;
  since: string;
  direction: 'server→client';
  data: string;
  /** "whole", or "<array>[].<field>": how undelivered events coalesce per subscriber. */
  coalesce: string;
  description: string;
}

export interface ErrorCodeEntry {
  code: string;
  since: string;
  /** Since 0.1.7: the code answers only this client message (index.messages key), e.g. "cancel". */
  answers?: string;
  description: string;
}

/** spec/<v>/index.json (format: spec/index.schema.json, docs/ARCHITECTURE.md). */
export interface SpecIndex {
  version: string;
  /** Legacy, only in the folders released before spec/releases.json held the dates: checked equal to it, never used as a date (./releases). */
  released?: string;
  description?: string;
  transport: { defaultPort: number; portAttempts: number; [k: string]: Json };
  messages: Record<string, string>;
  errorCodes: ErrorCodeEntry[];
  topics: TopicEntry[];
  /** Since 0.1.7: the version's events (absent: none). */
  events?: EventEntry[];
}

/** Which side a clause binds: servers (`idea-conformance run`), clients (`idea-conformance client`) or both. */
export type ClauseSide = 'server' | 'client' | 'both';

/** One clause of spec/<v>/clauses.json: what the conformance suite enforces, by layer. */
export interface ClauseEntry {
  id: string;
  layer: 'text' | 'reading' | 'hardening';
  /** From v0.1.8 on every clause says it; without it (v0.1.6, v0.1.7) a clause binds servers. */
  binds?: ClauseSide;
  since: string;
  title: string;
  text: string;
  why?: string;
  topic?: string;
  level?: 'must' | 'should';
}

export interface SchemaDoc {
  /** Path relative to spec/<v>/, "/"-separated (e.g. "topics/edit-find.params.schema.json"). */
  path: string;
  /** The document's `$id`: always schemaId(version, path). */
  id: string;
  schema: JsonObject;
}

export interface Spec {
  /** "0.1.6". */
  version: Version;
  /** Folder name, "v0.1.6". */
  folder: string;
  /** Absolute path of the folder. */
  dir: string;
  index: SpecIndex;
  /** Every *.schema.json of the version, sorted by path. */
  docs: SchemaDoc[];
  byPath: Map<string, SchemaDoc>;
  byId: Map<string, SchemaDoc>;
  /** hashFolder(dir): the sha256 spec/releases.json freezes and generated headers carry. */
  hash: string;
  /** SUMMARY.md, the maintainers' hand-written summary of the version for the changelog (trimmed). */
  summary: string | undefined;
  /** clauses.json (what the conformance suite enforces, by layer), when the version has one (empty otherwise). */
  clauses: ClauseEntry[];
}

/** The version's conformance clauses: documentation (rendered into protocol.md), no validation. */
export const CLAUSES_FILE = 'clauses.json';

const CLAUSE_PREFIX = { text: 'T', reading: 'R', hardening: 'H' } as const;
const SIDES: readonly ClauseSide[] = ['server', 'client', 'both'];

/** The side a clause binds: its `binds`, or servers for the clauses written before the field. */
export function clauseSide(c: Pick<ClauseEntry, 'binds'>): ClauseSide {
  return c.binds ?? 'server';
}

/**
 * Checks clauses.json's shape: ids unique, each id's letter matching its layer (`C` for a clause binding
 * clients only, whatever its layer), every field present, `binds` on every clause or on none.
 */
function readClauses(folder: string, raw: unknown): ClauseEntry[] {
  const list = (raw as { clauses?: unknown })?.clauses;
  if (!Array.isArray(list)) throw new Error(`${folder}/clauses.json: expected {"clauses": [...]}`);
  const seen = new Set<string>();
  const withSide = list.filter((c) => c && typeof c === 'object' && 'binds' in c).length;
  return list.map((c: ClauseEntry, i) => {
    const where = `${folder}/clauses.json clauses[${i}]`;
    if (!c || typeof c !== 'object') throw new Error(`${where}: not an object`);
    if (!(c.layer in CLAUSE_PREFIX)) throw new Error(`${where}: layer must be text, reading or hardening`);
    if (withSide > 0 && !SIDES.includes(c.binds as ClauseSide))
      throw new Error(`${where}: binds must be server, client or both (on every clause once one has it)`);
    const prefix = c.binds === 'client' ? 'C' : CLAUSE_PREFIX[c.layer];
    if (typeof c.id !== 'string' || !new RegExp(`^${prefix}[0-9]+$`).test(c.id))
      throw new Error(
        `${where}: id ${JSON.stringify(c.id)} must be ${prefix}<n> for a ${c.binds === 'client' ? 'client' : c.layer} clause`,
      );
    if (seen.has(c.id)) throw new Error(`${where}: duplicate id ${c.id}`);
    seen.add(c.id);
    for (const k of ['since', 'title', 'text'] as const)
      if (typeof c[k] !== 'string' || !c[k]) throw new Error(`${where} (${c.id}): ${k} is required`);
    if (c.layer === 'reading' && !c.why)
      throw new Error(`${where} (${c.id}): a reading says why the text needed one ("why")`);
    return c;
  });
}

/** The version's hand-written changelog summary (Markdown), inside the folder so it is frozen with it. */
export const SUMMARY_FILE = 'SUMMARY.md';

export const ID_BASE = 'https://idea-protocol.invalid/spec/';

/** The `$id` of the schema at `path` (relative to the version folder) of `version`. */
export function schemaId(version: string, path: string): string {
  return `${ID_BASE}${versionFolder(version)}/${path}`;
}

export function versionDir(specRoot: string, version: string): string {
  return join(specRoot, versionFolder(version));
}

/** Versions ("0.1.6") with a folder under specRoot, oldest first; other entries are ignored. */
export function specVersions(specRoot: string): Version[] {
  if (!existsSync(specRoot)) return [];
  return readdirSync(specRoot)
    .filter((name) => name.startsWith('v') && isVersion(name) && statSync(join(specRoot, name)).isDirectory())
    .map(normalizeVersion)
    .sort(compareVersions);
}

/** Files of a folder, recursively, as sorted "/"-separated relative paths. */
export function listFiles(dir: string): string[] {
  const out: string[] = [];
  const walk = (d: string): void => {
    for (const name of readdirSync(d)) {
      const p = join(d, name);
      if (statSync(p).isDirectory()) walk(p);
      else out.push(relative(dir, p).split(sep).join('/'));
    }
  };
  walk(dir);
  return out.sort((a, b) => (a < b ? -1 : a > b ? 1 : 0));
}

export function readJson(path: string): Json {
  const text = readFileSync(path, 'utf8');
  try {
    return JSON.parse(text) as Json;
  } catch (err) {
    throw new Error(`${path}: invalid JSON (${err instanceof Error ? err.message : String(err)})`);
  }
}

export function isObject(x: unknown): x is JsonObject {
  return typeof x === 'object' && x !== null && !Array.isArray(x);
}

/** The repository's JSON formatting: two-space indentation and a final newline. */
export function formatJson(x: unknown): string {
  return `${JSON.stringify(x, null, 2)}\n`;
}

const sha256 = (data: string | Buffer) => createHash('sha256').update(data).digest('hex');

/**
 * The hash of a version folder: sha256 of its `sha256sum` listing in path order, CRLF read as LF (a
 * Windows checkout agrees), so it can be checked without the tool:
 *   (cd spec/v0.1.3 && find . -type f -printf '%P\n' | LC_ALL=C sort | xargs sha256sum) | sha256sum
 */
export function hashFolder(dir: string): string {
  return hashFiles(new Map(listFiles(dir).map((rel) => [rel, readFileSync(join(dir, rel), 'utf8')])));
}

/** hashFolder of a folder's files given as path (relative, "/"-separated) → text, e.g. read from git. */
export function hashFiles(files: ReadonlyMap<string, string>): string {
  const entries = [...files].sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
  return sha256(entries.map(([rel, text]) => `${sha256(text.replace(/\r\n/g, '\n'))}  ${rel}\n`).join(''));
}

function checkIndex(index: Json, where: string): asserts index is JsonObject {
  const ok =
    isObject(index) &&
    typeof index.version === 'string' &&
    Array.isArray(index.topics) &&
    Array.isArray(index.errorCodes) &&
    isObject(index.messages) &&
    isObject(index.transport);
  if (!ok) throw new Error(`${where}: not a topic index (see spec/index.schema.json)`);
}

/** Loads spec/<version>/ ("0.1.6" or "v0.1.6"), failing with the file and the reason on anything malformed. */
export function loadSpec(specRoot: string, version: string): Spec {
  const v = normalizeVersion(version);
  const folder = versionFolder(v);
  const dir = join(specRoot, folder);
  if (!existsSync(join(dir, 'index.json'))) {
    throw new Error(
      `no spec for version ${v} at ${dir} (versions present: ${specVersions(specRoot).join(', ') || 'none'})`,
    );
  }
  const files = listFiles(dir);
  const texts = new Map(files.map((rel) => [rel, readFileSync(join(dir, rel), 'utf8')]));
  const parse = (rel: string): Json => {
    try {
      return JSON.parse(texts.get(rel)!) as Json;
    } catch (err) {
      throw new Error(`${folder}/${rel}: invalid JSON (${err instanceof Error ? err.message : String(err)})`);
    }
  };
  const rawIndex = parse('index.json');
  checkIndex(rawIndex, `${folder}/index.json`);
  const index = rawIndex as unknown as SpecIndex;
  if (index.version !== v)
    throw new Error(`${folder}/index.json: version is ${JSON.stringify(index.version)}, the folder says ${v}`);

  const docs: SchemaDoc[] = [];
  for (const path of files) {
    if (!path.endsWith('.schema.json')) continue;
    const schema = parse(path);
    if (!isObject(schema)) throw new Error(`${folder}/${path}: a schema document must be a JSON object`);
    const id = schemaId(v, path);
    if (schema.$id !== id)
      throw new Error(`${folder}/${path}: $id is ${JSON.stringify(schema.$id)}, expected ${JSON.stringify(id)}`);
    docs.push({ path, id, schema });
  }
  const byPath = new Map(docs.map((d) => [d.path, d]));
  const byId = new Map(docs.map((d) => [d.id, d]));
  for (const t of index.topics) {
    for (const p of [t.params, t.result])
      if (!byPath.has(p)) throw new Error(`${folder}: ${t.topic} refers to missing ${p}`);
  }
  for (const [key, p] of Object.entries(index.messages)) {
    if (!byPath.has(p)) throw new Error(`${folder}: message ${key} refers to missing ${p}`);
  }
  const clauses = texts.has(CLAUSES_FILE) ? readClauses(folder, parse(CLAUSES_FILE)) : [];
  return {
    version: v,
    folder,
    dir,
    index,
    docs,
    byPath,
    byId,
    hash: hashFiles(texts),
    summary: texts.get(SUMMARY_FILE)?.trim() || undefined,
    clauses,
  };
}
