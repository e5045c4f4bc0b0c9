// Turns a schema into a self-contained value for comparison: `$ref`s replaced by their targets (each
// remembered as a use of its target, see normalise.ts `defUse`), annotations that carry no constraint
// (title, description, $id, …) dropped, and every subschema in normal form (normalise.ts).
import { resolveRef } from '@idea-kit/spec-lib/refs';
import { isObject, type Json, type Spec as SpecVersion } from '@idea-kit/spec-lib/spec';
import { ANNOTATIONS, REQUIRED_WHEN, type Schema } from './keywords';
import { normaliseSchema, refNode } from './normalise';

const MAX_DEPTH = 40;

const REQUIRED_WHEN_RE = /\b(?:required|mandatory) (?:when|if|unless)\b[^.]*/i;

/** Keywords whose value is a schema, a list of schemas, or a map of name → schema. */
const SCHEMA = new Set(['items', 'not', 'if', 'then', 'else', 'contains', 'additionalProperties', 'propertyNames',
  'unevaluatedProperties', 'unevaluatedItems', 'contentSchema']);
const SCHEMA_LIST = new Set(['allOf', 'anyOf', 'oneOf', 'prefixItems']);
const SCHEMA_MAP = new Set(['properties', 'patternProperties', 'dependentSchemas']);

export function inlineSchema(spec: SpecVersion, file: string, node: Json, depth = 0): Json {
  if (depth > MAX_DEPTH) throw new Error(`schema nesting deeper than ${MAX_DEPTH} in ${file} (recursive $ref?)`);
  if (node === true) return normaliseSchema({});
  if (node === false) return false; // kept: `additionalProperties: false` reads better than `{ not: {} }`
  if (!isObject(node)) return node;
  const sub = (x: Json): Json => inlineSchema(spec, file, x, depth + 1);
  const own: Schema = {};
  const condition = typeof node.description === 'string' ? REQUIRED_WHEN_RE.exec(node.description) : null;
  if (condition) own[REQUIRED_WHEN] = condition[0];
  for (const [k, v] of Object.entries(node)) {
    if (k === '$ref' || ANNOTATIONS.has(k)) continue;
    if (SCHEMA.has(k)) own[k] = sub(v);
    else if (SCHEMA_LIST.has(k) && Array.isArray(v)) own[k] = v.map(sub);
    else if (SCHEMA_MAP.has(k) && isObject(v)) own[k] = Object.fromEntries(Object.entries(v).map(([name, s]) => [name, sub(s)]));
    else own[k] = v; // data: enum values, defaults, bounds, patterns, required names, …
  }
  if (typeof node.$ref !== 'string') return normaliseSchema(own);
  const target = resolveRef(spec, file, node.$ref);
  const body = inlineSchema(spec, target.path, target.schema, depth + 1);
  if (!isObject(body)) return body;
  return refNode(defName(target.path, target.pointer), body, normaliseSchema(own));
}

/** How a `$ref` target is named in the report: "$defs/FilePath" for the shared definitions,
 *  otherwise the file and pointer ("messages/error-code.schema.json"). */
function defName(path: string, pointer: string): string {
  if (path === 'defs.schema.json' && pointer) return pointer.replace(/^\//, '');
  return pointer ? `${path}#${pointer}` : path;
}
