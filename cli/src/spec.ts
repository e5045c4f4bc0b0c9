// What the CLI knows of a protocol version: its topics, each with its params schema with every `$ref`
// inlined (so flags can be derived without a resolver at run time). Read from spec/<version>/ by the
// build (cli/build.ts embeds it in the bundle) and by tests (any spec folder, scratch ones included).
import { readFileSync } from "node:fs";
import { dirname, join, resolve } from "node:path";

export type JsonSchema = { [key: string]: unknown };

export interface TopicSpec {
  /** e.g. "/app/vscode/edit/find". */
  topic: string;
  description: string;
  /** The params schema, `$ref`s inlined (sibling keywords such as description and default win). */
  params: JsonSchema;
}

export interface SpecBundle {
  version: string;
  topics: TopicSpec[];
}

interface IndexTopic {
  topic: string;
  description: string;
  params: string;
}

/** Reads spec/<version>/ (the folder holding index.json). */
export function loadSpecDir(dir: string): SpecBundle {
  const index = JSON.parse(readFileSync(join(dir, "index.json"), "utf8")) as { version: string; topics: IndexTopic[] };
  const files = new Map<string, JsonSchema>();
  const read = (file: string): JsonSchema => {
    let s = files.get(file);
    if (!s) files.set(file, (s = JSON.parse(readFileSync(file, "utf8")) as JsonSchema));
    return s;
  };
  const topics = index.topics.map((t) => {
    const file = resolve(dir, t.params);
    return { topic: t.topic, description: t.description, params: inline(read(file), file, read, new Set()) as JsonSchema };
  });
  return { version: index.version, topics };
}

function pointer(doc: unknown, ptr: string): unknown {
  let at = doc;
  for (const raw of ptr.split("/").filter(Boolean)) {
    const key = raw.replace(/~1/g, "/").replace(/~0/g, "~");
    at = (at as Record<string, unknown> | undefined)?.[key];
  }
  if (at === undefined) throw new Error(`unresolvable $ref pointer ${ptr}`);
  return at;
}

/** `node` with every relative `$ref` replaced by its target (recursively); `file` is where `node` lives. */
function inline(node: unknown, file: string, read: (file: string) => JsonSchema, seen: Set<string>): unknown {
  if (Array.isArray(node)) return node.map((n) => inline(n, file, read, seen));
  if (typeof node !== "object" || node === null) return node;
  const obj = node as JsonSchema;
  let out: JsonSchema = {};
  if (typeof obj.$ref === "string") {
    const [path, frag = ""] = obj.$ref.split("#");
    const target = path ? resolve(dirname(file), path) : file;
    const key = `${target}#${frag}`;
    if (seen.has(key)) throw new Error(`recursive $ref ${obj.$ref} in ${file}`);
    const resolved = inline(pointer(read(target), frag), target, read, new Set([...seen, key]));
    out = { ...(resolved as JsonSchema) };
  }
  for (const [k, v] of Object.entries(obj)) {
    if (k === "$ref" || k === "$schema" || k === "$id" || k === "examples") continue;
    out[k] = inline(v, file, read, seen);
  }
  return out;
}
