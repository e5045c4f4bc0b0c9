// Bundles every schema of a version into one root (`definitions` keyed by name, each $ref replaced by
// its target's name), the input json-schema-to-typescript needs to declare each type exactly once.

import { type SchemaVisitor, visitSchema } from '@idea-kit/spec-lib/inline';
import type { RefResolver } from '@idea-kit/spec-lib/refs';
import { isObject, type Json, type JsonSchema } from '@idea-kit/spec-lib/spec';
import { type FieldHistory, fieldDocLines } from './field-history';

/** Keywords that only matter to documents or docs, not to the TypeScript shape. */
const DROPPED = new Set(['$schema', '$id', '$defs', 'examples', '$comment']);

function isPresenceOnly(branch: unknown): boolean {
  if (typeof branch !== 'object' || branch === null) return false;
  return Object.entries(branch).every(
    ([k, v]) =>
      k === 'required' ||
      k === 'description' ||
      (k === 'properties' && Object.values(v as object).every((p) => p === true)),
  );
}

/**
 * The rewrite for json-schema-to-typescript: a `$ref` becomes the bare target, given by name (tsType).
 * As a $ref, siblings (a description, a tighter bound) would make json-schema-to-typescript declare a
 * copy of the target (LineNumber1, …), and declarations would follow the order of first reference:
 * one new ref would move types around.
 */
function typesVisitor(refs: RefResolver, history: FieldHistory): SchemaVisitor {
  return {
    drop: DROPPED,
    object(own, node, ref) {
      if (ref) return { tsType: refs.named(ref.target).name };
      const out: JsonSchema = own;
      // anyOf/oneOf of bare `required` lists ("at least one of fromId/toId") only constrain presence:
      // the validators enforce it; as types they would only produce `{ fromId: unknown } | …` noise.
      for (const k of ['anyOf', 'oneOf'])
        if (Array.isArray(node[k]) && (node[k] as unknown[]).every(isPresenceOnly)) delete out[k];
      // Types are closed on purpose: the wire accepts extra fields (validators keep the schema's
      // additionalProperties), but typed code gets no `[k: string]: unknown` index signatures.
      if (out.additionalProperties === true && 'properties' in node) delete out.additionalProperties;
      // A property: what the maintainer wrote beside it (a description next to a `$ref` included) plus
      // `@default` and `@since` become its JSDoc, also on a `$ref` (which is the target's name).
      if (isObject(node.properties) && isObject(out.properties)) {
        for (const [name, written] of Object.entries(node.properties)) {
          const p = out.properties[name];
          if (!isObject(written) || !isObject(p)) continue;
          const description = typeof written.description === 'string' ? written.description : '';
          const doc = fieldDocLines(description, written.default, history.sinceOf(written)).join('\n');
          if (doc !== '') p.description = doc;
        }
      }
      // A bare object (no properties) is a map: say so, or the type would be `{}`.
      if (out.type === 'object' && !('properties' in out) && !('additionalProperties' in out))
        out.additionalProperties = true;
      return out as Json;
    },
  };
}

export function bundleForTypes(refs: RefResolver, history: FieldHistory, rootTitle: string): JsonSchema {
  const visitor = typesVisitor(refs, history);
  const definitions: JsonSchema = {};
  for (const t of refs.definitions()) {
    const def = visitSchema(refs.spec, refs.spec.byId.get(t.baseId)!.path, t.schema as Json, visitor) as JsonSchema;
    def.title = t.name;
    definitions[t.name] = def;
  }
  return { title: rootTitle, type: 'object', additionalProperties: false, properties: {}, definitions };
}
