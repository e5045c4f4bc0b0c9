// Bundles every schema of a version into one root (`definitions` keyed by name, each $ref replaced by
// its target's name), the input json-schema-to-typescript needs to declare each type exactly once.
import { fieldDocLines, type FieldHistory } from "./field-history";
import type { RefResolver } from "@idea-kit/spec-lib/refs";
import type { JsonSchema } from "@idea-kit/spec-lib/spec";

/** Keywords that only matter to documents or docs, not to the TypeScript shape. */
const DROPPED = new Set(["$schema", "$id", "$defs", "examples", "$comment"]);

function isPresenceOnly(branch: unknown): boolean {
  if (typeof branch !== "object" || branch === null) return false;
  return Object.entries(branch).every(
    ([k, v]) =>
      k === "required" ||
      k === "description" ||
      (k === "properties" && Object.values(v as object).every((p) => p === true)),
  );
}

/**
 * A property: what the maintainer wrote beside it (a description next to a `$ref` included) plus
 * `@default` and `@since` become its JSDoc, also on a `$ref` (which is the target's name, see rewrite).
 */
function rewriteProperty(node: JsonSchema, baseId: string, refs: RefResolver, history: FieldHistory): unknown {
  const description = typeof node.description === "string" ? node.description : "";
  const doc = fieldDocLines(description, node.default, history.sinceOf(node)).join("\n");
  if (typeof node.$ref === "string") {
    const target = refs.resolve(node.$ref, baseId).name;
    return doc === "" ? { tsType: target } : { tsType: target, description: doc };
  }
  const out = rewrite(node, baseId, refs, history) as JsonSchema;
  if (doc !== "") out.description = doc;
  return out;
}

function rewrite(node: unknown, baseId: string, refs: RefResolver, history: FieldHistory): unknown {
  if (Array.isArray(node)) return node.map((n) => rewrite(n, baseId, refs, history));
  if (node === null || typeof node !== "object") return node;
  const out: JsonSchema = {};
  // For types a $ref is the bare target, given by name (tsType). As a $ref, siblings (a description, a
  // tighter bound) would make json-schema-to-typescript declare a copy of the target (LineNumber1, …),
  // and declarations would follow the order of first reference: one new ref would move types around.
  if (typeof (node as JsonSchema).$ref === "string") {
    return { tsType: refs.resolve((node as JsonSchema).$ref as string, baseId).name };
  }
  for (const [k, v] of Object.entries(node as JsonSchema)) {
    if (DROPPED.has(k)) continue;
    // anyOf/oneOf of bare `required` lists ("at least one of fromId/toId") only constrain presence:
    // the validators enforce it; as types they would only produce `{ fromId: unknown } | …` noise.
    if ((k === "anyOf" || k === "oneOf") && Array.isArray(v) && v.every(isPresenceOnly)) continue;
    if (k === "const" || k === "enum" || k === "default") out[k] = v; // values, not schemas
    if (k === "$ref" && typeof v === "string") out.$ref = `#/definitions/${refs.resolve(v, baseId).name}`;
    // Types are closed on purpose: the wire accepts extra fields (validators keep the schema's
    // additionalProperties), but typed code gets no `[k: string]: unknown` index signatures.
    else if (k === "const" || k === "enum" || k === "default") continue;
    else if (k === "additionalProperties" && v === true && "properties" in (node as JsonSchema)) continue;
    else if (k === "properties") {
      out[k] = Object.fromEntries(
        Object.entries(v as Record<string, JsonSchema>).map(([p, s]) => [p, rewriteProperty(s, baseId, refs, history)]),
      );
    } else if (k === "patternProperties" || k === "definitions") {
      out[k] = Object.fromEntries(
        Object.entries(v as JsonSchema).map(([p, s]) => [p, rewrite(s, baseId, refs, history)]),
      );
    } else out[k] = rewrite(v, baseId, refs, history);
  }
  // A bare object (no properties) is a map: say so, or the type would be `{}`.
  if (out.type === "object" && !("properties" in out) && !("additionalProperties" in out)) out.additionalProperties = true;
  return out;
}

export function bundleForTypes(refs: RefResolver, history: FieldHistory, rootTitle: string): JsonSchema {
  const definitions: JsonSchema = {};
  for (const t of refs.definitions()) {
    const def = rewrite(t.schema, t.baseId, refs, history) as JsonSchema;
    def.title = t.name;
    definitions[t.name] = def;
  }
  return { title: rootTitle, type: "object", additionalProperties: false, properties: {}, definitions };
}
