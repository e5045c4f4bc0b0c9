// What the CLI knows of a protocol version: its topics, each with its params schema with every `$ref`
// inlined (so flags can be derived without a resolver at run time). Read from spec/<version>/ through
// the spec library (codegen/src/spec.ts, refs.ts) by the build (scripts/build.ts embeds it in the bundle)
// and by tests (any spec folder, scratch ones included); the bundle itself never loads a spec.
import { basename, dirname } from "node:path";
import { resolveRef } from "../../codegen/src/refs";
import { isObject, loadSpec, type Json, type Spec } from "../../codegen/src/spec";

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

/** Reads spec/<version>/ (the folder holding index.json). */
export function loadSpecDir(dir: string): SpecBundle {
  const spec = loadSpec(dirname(dir), basename(dir));
  const topics = spec.index.topics.map((t) => ({
    topic: t.topic,
    description: t.description,
    params: inline(spec, t.params, spec.byPath.get(t.params)!.schema, new Set()) as JsonSchema,
  }));
  return { version: spec.index.version, topics };
}

/** `node` (in document `file`) with every `$ref` replaced by its target, recursively; annotations for the wire only dropped. */
function inline(spec: Spec, file: string, node: Json, seen: ReadonlySet<string>): Json {
  if (Array.isArray(node)) return node.map((n) => inline(spec, file, n, seen));
  if (!isObject(node)) return node;
  let out: { [k: string]: Json } = {};
  if (typeof node.$ref === "string") {
    const target = resolveRef(spec, file, node.$ref);
    const key = `${target.path}#${target.pointer}`;
    if (seen.has(key)) throw new Error(`recursive $ref ${node.$ref} in ${file}`);
    const body = inline(spec, target.path, target.schema, new Set([...seen, key]));
    if (isObject(body)) out = { ...body };
  }
  for (const [k, v] of Object.entries(node)) {
    if (k === "$ref" || k === "$schema" || k === "$id" || k === "examples") continue;
    out[k] = inline(spec, file, v, seen);
  }
  return out;
}
