// The one walk over a schema of a spec version that rebuilds it with its `$ref`s resolved: the CLI
// inlines every target (flags need no resolver at run time), the diff inlines and normalises, the MCP
// tool and type bundles replace each `$ref` by a name of their own. The walk itself is shared: which
// keys hold subschemas (keywords.ts), that data is copied as written, where a `$ref` leads
// (refs.ts resolveRef, relative to the document holding it) and that a cycle of `$ref`s is an error.

import { subschemaKind } from './keywords';
import { type RefTarget, resolveRef } from './refs';
import { isObject, type Json, type JsonObject, type Spec } from './spec';

export interface SchemaVisitor {
  /** Keys left out of every schema object (annotations the caller has no use for). */
  readonly drop?: ReadonlySet<string>;
  /** A boolean schema (`true`, `false`); kept as it is by default. */
  bool?(value: boolean): Json;
  /**
   * One schema object, its subschemas visited already. `own` has the node's other keys in their
   * written order, `$ref` included as written (so a caller replacing it keeps its place); `node` is
   * the node as written. For a node with a `$ref`, `ref` gives its target and `inline()`, which visits
   * the target's schema (within its own document) and returns the result.
   */
  object(own: JsonObject, node: JsonObject, ref?: { target: RefTarget; inline(): Json }): Json;
}

/** Visits `node`, a schema in the document `file` (path relative to the version folder) of `spec`. */
export function visitSchema(spec: Spec, file: string, node: Json, visitor: SchemaVisitor): Json {
  return visit(spec, file, node, visitor, []);
}

function visit(spec: Spec, file: string, node: Json, v: SchemaVisitor, chain: readonly string[]): Json {
  if (typeof node === 'boolean') return v.bool ? v.bool(node) : node;
  if (!isObject(node)) return node;
  const sub = (x: Json): Json => visit(spec, file, x, v, chain);
  const own: JsonObject = {};
  for (const [k, x] of Object.entries(node)) {
    if (v.drop?.has(k)) continue;
    const kind = subschemaKind(k);
    if (kind === 'schema') own[k] = sub(x);
    else if (kind === 'list' && Array.isArray(x)) own[k] = x.map(sub);
    else if (kind === 'map' && isObject(x))
      own[k] = Object.fromEntries(Object.entries(x).map(([name, s]) => [name, sub(s)]));
    else own[k] = x;
  }
  if (typeof node.$ref !== 'string') return v.object(own, node);
  const ref = node.$ref;
  const target = resolveRef(spec, file, ref);
  const inline = (): Json => {
    const key = `${target.path}#${target.pointer}`;
    if (chain.includes(key)) throw new Error(`${spec.folder}/${file}: recursive $ref ${ref}`);
    return visit(spec, target.path, target.schema, v, [...chain, key]);
  };
  return v.object(own, node, { target, inline });
}

/** Keys the plain inlining drops: they would re-base references or only document. */
const INLINE_DROPS: ReadonlySet<string> = new Set(['$schema', '$id', 'examples']);

/**
 * `node` with every `$ref` replaced by its target, recursively: the target's keywords first, the
 * node's own (a description, a default, a tighter bound) winning. `$schema`, `$id` and `examples`
 * are dropped (what the CLI embeds: flags and help text need neither).
 */
export function inlineRefs(spec: Spec, file: string, node: Json): Json {
  return visitSchema(spec, file, node, {
    drop: INLINE_DROPS,
    object(own, _node, ref) {
      if (!ref) return own;
      const { $ref: _ref, ...rest } = own;
      const body = ref.inline();
      return isObject(body) ? { ...body, ...rest } : rest;
    },
  });
}
