// The JSON Schema vocabulary the diff works with: annotations, the keywords each type owns, and a
// stable text form for equality.
import { isObject, type Json, type JsonObject } from '@idea-kit/spec-lib/spec';

export type Schema = JsonObject;

export const ANNOTATIONS = new Set([
  '$id',
  '$schema',
  '$comment',
  '$defs',
  'definitions',
  '$anchor',
  'title',
  'description',
  'markdownDescription',
  'examples',
]);

/** Key under which a prose condition ("Required when the server requires auth.") is kept. JSON Schema
 *  cannot express a requirement that depends on the server's configuration, so the spec states it in
 *  the field's description; the diff needs it to see that such an "optional" field can be refused. */
export const REQUIRED_WHEN = 'x-required-when';

/** JSON types with integer folded into number: two schemas' alternatives are matched by this key. */
export type TypeKey = 'null' | 'boolean' | 'number' | 'string' | 'array' | 'object';
const TYPE_KEYS: readonly TypeKey[] = ['null', 'boolean', 'number', 'string', 'array', 'object'];

/** Keywords that constrain only values of one type (they pass every value of another type). */
export const TYPE_KEYWORDS: Record<TypeKey, readonly string[]> = {
  null: [],
  boolean: [],
  number: ['minimum', 'maximum', 'exclusiveMinimum', 'exclusiveMaximum', 'multipleOf'],
  string: ['minLength', 'maxLength', 'pattern', 'format', 'contentEncoding', 'contentMediaType', 'contentSchema'],
  array: [
    'items',
    'prefixItems',
    'minItems',
    'maxItems',
    'uniqueItems',
    'contains',
    'minContains',
    'maxContains',
    'unevaluatedItems',
  ],
  object: [
    'properties',
    'required',
    'additionalProperties',
    'patternProperties',
    'propertyNames',
    'minProperties',
    'maxProperties',
    'dependentRequired',
    'dependentSchemas',
    'unevaluatedProperties',
  ],
};

export const KEYWORD_TYPE = new Map<string, TypeKey>(
  TYPE_KEYS.flatMap((t) => TYPE_KEYWORDS[t].map((k) => [k, t] as const)),
);

export function typeKey(t: string): TypeKey | undefined {
  if (t === 'integer') return 'number';
  return (TYPE_KEYS as readonly string[]).includes(t) ? (t as TypeKey) : undefined;
}

/** The JSON type of a value, integers as "integer". */
export function typeOfValue(v: Json): string {
  if (v === null) return 'null';
  if (Array.isArray(v)) return 'array';
  if (typeof v === 'number') return Number.isInteger(v) ? 'integer' : 'number';
  return typeof v === 'object' ? 'object' : typeof v;
}

/** Stable JSON text (object keys sorted) for equality of inlined schemas and values. */
export function canonical(x: Json | undefined): string {
  if (x === undefined) return 'undefined';
  if (Array.isArray(x)) return `[${x.map(canonical).join(',')}]`;
  if (isObject(x)) {
    return `{${Object.keys(x)
      .sort()
      .map((k) => `${JSON.stringify(k)}:${canonical(x[k])}`)
      .join(',')}}`;
  }
  return JSON.stringify(x);
}
