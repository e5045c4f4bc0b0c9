// Loads one spec version folder (spec/<v>/): the topic index plus every schema document, and the
// spec hash stamped into every generated file's header.
import { createHash } from "node:crypto";
import { readdirSync, readFileSync, statSync } from "node:fs";
import { join, relative, sep } from "node:path";

export type JsonSchema = { [key: string]: unknown };

export interface TopicEntry {
  topic: string;
  method: string;
  typeName: string;
  since: string;
  params: string;
  result: string;
  errors: string[];
  description: string;
}

export interface ErrorCodeEntry {
  code: string;
  since: string;
  description: string;
}

export interface SpecIndex {
  version: string;
  released?: string;
  transport: { defaultPort: number; portAttempts: number };
  messages: Record<string, string>;
  errorCodes: ErrorCodeEntry[];
  topics: TopicEntry[];
}

/** One clause of spec/<v>/clauses.json: what the conformance suite enforces, by layer. */
export interface ClauseEntry {
  id: string;
  layer: "text" | "reading" | "hardening";
  since: string;
  title: string;
  text: string;
  why?: string;
  topic?: string;
  level?: "must" | "should";
}

export interface SchemaDoc {
  /** Path relative to spec/<v>/, "/"-separated (e.g. "topics/edit-find.params.schema.json"). */
  path: string;
  id: string;
  schema: JsonSchema;
}

export interface Spec {
  /** Folder name, e.g. "v0.1.6". */
  folder: string;
  index: SpecIndex;
  /** Every *.schema.json of the version, sorted by path. */
  docs: SchemaDoc[];
  byPath: Map<string, SchemaDoc>;
  byId: Map<string, SchemaDoc>;
  /** sha256 over the sorted spec files (path and bytes), hex. */
  hash: string;
  /** clauses.json, when the version has one (empty otherwise). */
  clauses: ClauseEntry[];
}

const CLAUSE_PREFIX = { text: "T", reading: "R", hardening: "H" } as const;

/** Checks clauses.json's shape: ids unique, each id's letter matching its layer, every field present. */
function readClauses(folder: string, raw: unknown): ClauseEntry[] {
  const list = (raw as { clauses?: unknown })?.clauses;
  if (!Array.isArray(list)) throw new Error(`${folder}/clauses.json: expected {"clauses": [...]}`);
  const seen = new Set<string>();
  return list.map((c: ClauseEntry, i) => {
    const where = `${folder}/clauses.json clauses[${i}]`;
    if (!c || typeof c !== "object") throw new Error(`${where}: not an object`);
    if (!(c.layer in CLAUSE_PREFIX)) throw new Error(`${where}: layer must be text, reading or hardening`);
    if (typeof c.id !== "string" || !new RegExp(`^${CLAUSE_PREFIX[c.layer]}[0-9]+$`).test(c.id)) throw new Error(`${where}: id ${JSON.stringify(c.id)} must be ${CLAUSE_PREFIX[c.layer]}<n> for a ${c.layer} clause`);
    if (seen.has(c.id)) throw new Error(`${where}: duplicate id ${c.id}`);
    seen.add(c.id);
    for (const k of ["since", "title", "text"] as const) if (typeof c[k] !== "string" || !c[k]) throw new Error(`${where} (${c.id}): ${k} is required`);
    if (c.layer === "reading" && !c.why) throw new Error(`${where} (${c.id}): a reading says why the text needed one ("why")`);
    return c;
  });
}

function listFiles(dir: string): string[] {
  const out: string[] = [];
  for (const name of readdirSync(dir)) {
    const full = join(dir, name);
    if (statSync(full).isDirectory()) out.push(...listFiles(full));
    else out.push(full);
  }
  return out;
}

/** Spec version folders present under specRoot (names like "v0.1.6"), sorted. */
export function listVersions(specRoot: string): string[] {
  return readdirSync(specRoot)
    .filter((name) => /^v\d+\.\d+\.\d+$/.test(name) && statSync(join(specRoot, name)).isDirectory())
    .sort(compareVersionFolders);
}

/** Numeric order of "v<major>.<minor>.<patch>" folders (v0.1.10 after v0.1.9, unlike a string sort). */
export function compareVersionFolders(a: string, b: string): number {
  const pa = a.slice(1).split(".").map(Number);
  const pb = b.slice(1).split(".").map(Number);
  for (let i = 0; i < 3; i++) if (pa[i] !== pb[i]) return pa[i]! - pb[i]!;
  return 0;
}

export function loadSpec(specRoot: string, folder: string): Spec {
  const dir = join(specRoot, folder);
  const files = listFiles(dir)
    .map((full) => ({ full, path: relative(dir, full).split(sep).join("/") }))
    .sort((a, b) => (a.path < b.path ? -1 : a.path > b.path ? 1 : 0));

  const hasher = createHash("sha256");
  const docs: SchemaDoc[] = [];
  let index: SpecIndex | undefined;
  let clauses: ClauseEntry[] = [];
  for (const { full, path } of files) {
    const bytes = readFileSync(full);
    hasher.update(path).update("\0").update(bytes).update("\0");
    if (path === "index.json") index = JSON.parse(bytes.toString("utf8")) as SpecIndex;
    else if (path === "clauses.json") clauses = readClauses(folder, JSON.parse(bytes.toString("utf8")));
    else if (path.endsWith(".schema.json")) {
      const schema = JSON.parse(bytes.toString("utf8")) as JsonSchema;
      if (typeof schema.$id !== "string") throw new Error(`${folder}/${path}: missing $id`);
      docs.push({ path, id: stripHash(schema.$id), schema });
    }
  }
  if (!index) throw new Error(`${folder}: index.json missing`);
  const byPath = new Map(docs.map((d) => [d.path, d]));
  const byId = new Map(docs.map((d) => [d.id, d]));
  for (const t of index.topics) {
    for (const p of [t.params, t.result]) if (!byPath.has(p)) throw new Error(`${folder}: ${t.topic} refers to missing ${p}`);
  }
  for (const [key, p] of Object.entries(index.messages)) {
    if (!byPath.has(p)) throw new Error(`${folder}: message ${key} refers to missing ${p}`);
  }
  return { folder, index, docs, byPath, byId, hash: hasher.digest("hex"), clauses };
}

export function stripHash(uri: string): string {
  const i = uri.indexOf("#");
  return i < 0 ? uri : uri.slice(0, i);
}
