// Reads the spec folders: spec/v<version>/index.json plus every *.schema.json below it.
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { dirname, join, relative, sep } from 'node:path';
import { fileURLToPath } from 'node:url';
import { compareVersions, isVersion, normalizeVersion, type Version } from './versions';

export type Json = null | boolean | number | string | Json[] | { [k: string]: Json };
export type JsonObject = { [k: string]: Json };

// The index entries are the ones codegen reads (one definition of the topic index's shape).
import type { ErrorCodeEntry, TopicEntry } from '../codegen/src/spec';
export type { ErrorCodeEntry, TopicEntry };

export interface SpecIndex {
  version: string;
  released?: string | null;
  transport: { defaultPort: number; portAttempts: number; [k: string]: Json };
  messages: Record<string, string>;
  errorCodes: ErrorCodeEntry[];
  topics: TopicEntry[];
  [k: string]: unknown;
}

export interface SpecVersion {
  version: Version;
  dir: string;
  index: SpecIndex;
  /** Every JSON file of the folder except index.json, by "/"-separated path relative to the folder. */
  schemas: Map<string, JsonObject>;
}

export const ID_BASE = 'https://idea-protocol.invalid/spec/';

export function schemaId(version: Version, relPath: string): string {
  return `${ID_BASE}v${version}/${relPath}`;
}

/** The repository root: the nearest ancestor of this file holding package.json and spec-tools/. */
export function defaultRoot(): string {
  let dir = dirname(fileURLToPath(import.meta.url));
  while (!(existsSync(join(dir, 'package.json')) && existsSync(join(dir, 'spec-tools')))) {
    const up = dirname(dir);
    if (up === dir) throw new Error('repository root not found');
    dir = up;
  }
  return dir;
}

export function specDir(root: string): string {
  return join(root, 'spec');
}

export function versionDir(specRoot: string, version: string): string {
  return join(specRoot, `v${normalizeVersion(version)}`);
}

/** Versions present under a spec folder, oldest first. */
export function listVersions(specRoot: string): Version[] {
  if (!existsSync(specRoot)) return [];
  return readdirSync(specRoot)
    .filter((n) => n.startsWith('v') && isVersion(n) && statSync(join(specRoot, n)).isDirectory())
    .map((n) => normalizeVersion(n))
    .sort(compareVersions);
}

/** Files of a folder, recursively, as sorted "/"-separated relative paths. */
export function listFiles(dir: string): string[] {
  const out: string[] = [];
  const walk = (d: string): void => {
    for (const name of readdirSync(d).sort()) {
      const p = join(d, name);
      if (statSync(p).isDirectory()) walk(p);
      else out.push(relative(dir, p).split(sep).join('/'));
    }
  };
  walk(dir);
  return out.sort();
}

export function readJson(path: string): Json {
  const text = readFileSync(path, 'utf8');
  try {
    return JSON.parse(text) as Json;
  } catch (err) {
    throw new Error(`${path}: invalid JSON (${err instanceof Error ? err.message : String(err)})`);
  }
}

export function loadVersion(specRoot: string, version: string): SpecVersion {
  const v = normalizeVersion(version);
  const dir = versionDir(specRoot, v);
  if (!existsSync(join(dir, 'index.json'))) {
    const have = listVersions(specRoot).join(', ') || 'none';
    throw new Error(`no spec for version ${v} at ${dir} (versions present: ${have})`);
  }
  const index = readJson(join(dir, 'index.json')) as unknown as SpecIndex;
  if (!isObject(index) || !Array.isArray(index.topics) || !Array.isArray(index.errorCodes) || !isObject(index.messages) || !isObject(index.transport)) {
    throw new Error(`${join(dir, 'index.json')}: not a topic index (see spec/index.schema.json)`);
  }
  const schemas = new Map<string, JsonObject>();
  for (const rel of listFiles(dir)) {
    // Schemas only: clauses.json (the conformance clauses) is documentation, not a schema.
    if (!rel.endsWith('.schema.json')) continue;
    schemas.set(rel, readJson(join(dir, rel)) as JsonObject);
  }
  return { version: v, dir, index, schemas };
}

export function isObject(x: unknown): x is JsonObject {
  return typeof x === 'object' && x !== null && !Array.isArray(x);
}

/**
 * Resolves a `$ref` found in the schema file `fromPath` of `spec` to the schema it points at
 * (relative refs, absolute `$id` URLs of the same version, and JSON-pointer fragments).
 */
export function resolveRef(spec: SpecVersion, fromPath: string, ref: string): { path: string; schema: Json } {
  const base = schemaId(spec.version, fromPath);
  const url = new URL(ref, base);
  const prefix = `${ID_BASE}v${spec.version}/`;
  const full = url.href.split('#')[0]!;
  if (!full.startsWith(prefix)) throw new Error(`$ref ${ref} in ${fromPath} leaves version ${spec.version}`);
  const path = full.slice(prefix.length);
  const doc = spec.schemas.get(path);
  if (doc === undefined) throw new Error(`$ref ${ref} in ${fromPath}: ${path} not found`);
  let node: Json = doc;
  const fragment = decodeURIComponent(url.hash.replace(/^#/, ''));
  if (fragment) {
    for (const raw of fragment.replace(/^\//, '').split('/')) {
      const key = raw.replace(/~1/g, '/').replace(/~0/g, '~');
      if (Array.isArray(node)) node = node[Number(key)] as Json;
      else if (isObject(node)) node = node[key] as Json;
      else node = undefined as unknown as Json;
      if (node === undefined) throw new Error(`$ref ${ref} in ${fromPath}: pointer not found`);
    }
  }
  return { path, schema: node };
}

