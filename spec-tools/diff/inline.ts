// Turns a schema into a self-contained value for comparison: `$ref`s replaced by their targets and
// annotations that carry no constraint (title, description, $id, …) dropped.
import { resolveRef } from '../../codegen/src/refs';
import { isObject, type Json, type JsonObject, type Spec as SpecVersion } from '../../codegen/src/spec';

export const ANNOTATIONS = new Set([
  '$id', '$schema', '$comment', '$defs', 'definitions', '$anchor', 'title', 'description',
  'markdownDescription', 'examples',
]);

const MAX_DEPTH = 40;

/** Key under which a prose condition ("Required when the server requires auth.") is kept. JSON Schema
 *  cannot express a requirement that depends on the server's configuration, so the spec states it in
 *  the field's description; the diff needs it to see that such an "optional" field can be refused. */
export const REQUIRED_WHEN = 'x-required-when';
const REQUIRED_WHEN_RE = /\b(?:required|mandatory) (?:when|if|unless)\b[^.]*/i;

export function inlineSchema(spec: SpecVersion, file: string, node: Json, depth = 0): Json {
  if (depth > MAX_DEPTH) throw new Error(`schema nesting deeper than ${MAX_DEPTH} in ${file} (recursive $ref?)`);
  if (Array.isArray(node)) return node.map((n) => inlineSchema(spec, file, n, depth + 1));
  if (!isObject(node)) return node;
  let out: JsonObject = {};
  if (typeof node.$ref === 'string') {
    const target = resolveRef(spec, file, node.$ref);
    const inlined = inlineSchema(spec, target.path, target.schema, depth + 1);
    if (isObject(inlined)) out = { ...inlined };
    else if (Object.keys(node).length === 1) return inlined;
  }
  const condition = typeof node.description === 'string' ? REQUIRED_WHEN_RE.exec(node.description) : null;
  if (condition) out[REQUIRED_WHEN] = condition[0];
  for (const [k, v] of Object.entries(node)) {
    if (k === '$ref' || ANNOTATIONS.has(k)) continue;
    // Values of these keywords are data (enum values, defaults), not schemas.
    if (k === 'enum' || k === 'const' || k === 'default' || k === 'required') out[k] = v;
    else if (k === 'properties' || k === 'patternProperties' || k === 'dependentSchemas') {
      const props: JsonObject = {};
      for (const [name, sub] of Object.entries(isObject(v) ? v : {})) props[name] = inlineSchema(spec, file, sub, depth + 1);
      out[k] = props;
    } else out[k] = inlineSchema(spec, file, v, depth + 1);
  }
  return out;
}

/** Stable JSON text (object keys sorted) for equality of inlined schemas and values. */
export function canonical(x: Json | undefined): string {
  if (x === undefined) return 'undefined';
  if (Array.isArray(x)) return `[${x.map(canonical).join(',')}]`;
  if (isObject(x)) {
    return `{${Object.keys(x).sort().map((k) => `${JSON.stringify(k)}:${canonical(x[k])}`).join(',')}}`;
  }
  return JSON.stringify(x);
}
