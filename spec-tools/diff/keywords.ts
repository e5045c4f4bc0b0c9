// The JSON Schema vocabulary the diff works with: every keyword of draft 2020-12 and how the diff
// judges it, the keywords each type owns, and a stable text form for equality.
import { isObject, type Json, type JsonObject } from '@idea-kit/spec-lib/spec';

export type Schema = JsonObject;

/** The dialect the diff reasons in; a schema declaring another one is not reasoned about. */
export const DIALECT = 'https://json-schema.org/draft/2020-12/schema';

/**
 * How the diff judges a keyword:
 *  - reasoned: compared by what it allows (equivalent spellings normalised first); `by` says where;
 *  - annotation: no effect on which values are valid, so a change is no change or INFO (a param's
 *    `default` aside: WARN, requests that omit it behave differently);
 *  - unreasoned: any change involving it is at least WARN, and the message names it.
 */
export type Treatment = 'reasoned' | 'annotation' | 'unreasoned';

type Vocabulary = 'core' | 'applicator' | 'unevaluated' | 'validation' | 'format-annotation' | 'content' | 'meta-data';

export interface KeywordRule {
  vocabulary: Vocabulary;
  treatment: Treatment;
  /** The module that reasons about it, or why it needs no reasoning or gets none. */
  by: string;
}

const rule =
  (treatment: Treatment) =>
  (vocabulary: Vocabulary, by: string): KeywordRule => ({ vocabulary, treatment, by });
const r = rule('reasoned');
const a = rule('annotation');
const u = rule('unreasoned');

/** Every keyword of draft 2020-12 (test/spec-tools/diff-keywords.test.ts holds this to the meta-schemas). */
export const KEYWORDS: Readonly<Record<string, KeywordRule>> = {
  $schema: u(
    'core',
    `the dialect: ${DIALECT} is dropped (normalise.ts); any other makes every change of the schema WARN`,
  ),
  $id: a('core', 'an identifier: $refs are resolved before comparing (inline.ts)'),
  $ref: r('core', 'inline.ts (target inlined), normalise.ts refNode, schema-diff.ts (a target change reported once)'),
  $defs: a(
    'core',
    'validates nothing itself: what a $ref reaches is compared where it is used; kept (and WARN) where a $dynamicRef may resolve into it',
  ),
  $anchor: a('core', 'an identifier: $refs are resolved before comparing (inline.ts)'),
  $dynamicRef: u(
    'core',
    'resolved at validation time through the dynamic scope: every change of a schema using it is WARN',
  ),
  $dynamicAnchor: u('core', 'a $dynamicRef target: every change of a schema using one is WARN'),
  $vocabulary: u('core', 'meta-schemas only'),
  $comment: a('core', 'a comment'),
  allOf: r('applicator', 'normalise.ts (merged into the parent), schema-diff.ts (parts as a set of conjuncts)'),
  anyOf: r('applicator', 'normalise.ts (typed alternatives, one branch merged), schema-diff.ts (branches as a set)'),
  oneOf: r(
    'applicator',
    'normalise.ts (disjoint branches are an anyOf), schema-diff.ts (a branch edited where branches may overlap: at least WARN)',
  ),
  not: r('applicator', 'normalise.ts (double negation), applicators.ts (the direction flips)'),
  if: r(
    'applicator',
    'applicators.ts (added or removed with then/else; changed: monotone without then or else, else WARN)',
  ),
  then: r('applicator', 'applicators.ts (monotone under an unchanged if)'),
  else: r('applicator', 'applicators.ts (monotone under an unchanged if)'),
  dependentSchemas: r('applicator', 'applicators.ts (one conjunct per property name)'),
  prefixItems: r('applicator', 'applicators.ts (compared position by position with items)'),
  items: r('applicator', 'schema-diff.ts, applicators.ts (beside prefixItems)'),
  contains: r('applicator', 'applicators.ts (monotone when one of minContains/maxContains bounds it, else WARN)'),
  properties: r('applicator', 'schema-diff.ts objects'),
  patternProperties: r('applicator', 'applicators.ts (per pattern while additionalProperties is open, else WARN)'),
  additionalProperties: r('applicator', 'schema-diff.ts objects'),
  propertyNames: r('applicator', 'applicators.ts'),
  unevaluatedItems: r('unevaluated', 'applicators.ts (its own change; any change beside it is at least WARN)'),
  unevaluatedProperties: r('unevaluated', 'applicators.ts (its own change; any change beside it is at least WARN)'),
  type: r('validation', 'normalise.ts, schema-diff.ts'),
  enum: r('validation', 'normalise.ts, schema-diff.ts'),
  const: r('validation', 'normalise.ts (a one-value enum)'),
  multipleOf: r('validation', 'normalise.ts (integer-valued on a number is an integer), schema-diff.ts'),
  maximum: r('validation', 'normalise.ts (integer bounds inclusive), schema-diff.ts'),
  exclusiveMaximum: r('validation', 'normalise.ts, schema-diff.ts'),
  minimum: r('validation', 'normalise.ts, schema-diff.ts'),
  exclusiveMinimum: r('validation', 'normalise.ts, schema-diff.ts'),
  maxLength: r('validation', 'schema-diff.ts bounds'),
  minLength: r('validation', 'schema-diff.ts bounds'),
  pattern: r('validation', 'pattern.ts (undecided: WARN)'),
  maxItems: r('validation', 'schema-diff.ts bounds'),
  minItems: r('validation', 'schema-diff.ts bounds'),
  uniqueItems: r('validation', 'schema-diff.ts bounds'),
  maxContains: r('validation', 'applicators.ts (with contains)'),
  minContains: r('validation', 'applicators.ts (with contains; absent is 1)'),
  maxProperties: r('validation', 'schema-diff.ts bounds'),
  minProperties: r('validation', 'schema-diff.ts bounds'),
  required: r('validation', 'schema-diff.ts objects'),
  dependentRequired: r('validation', 'applicators.ts (one conjunct per property name)'),
  format: r('format-annotation', 'formats.ts (judged as an assertion, the side that never hides a change)'),
  contentEncoding: u('content', 'not asserted by validators, but tells receivers how to decode the string'),
  contentMediaType: u('content', 'not asserted by validators, but tells receivers how to read the string'),
  contentSchema: u('content', 'not asserted by validators, but describes the decoded content'),
  title: a('meta-data', 'documentation'),
  description: a('meta-data', 'documentation (a "Required when …" condition in it is read: inline.ts)'),
  default: a('meta-data', "INFO; a param's default changed is WARN (requests that omit it behave differently)"),
  deprecated: a('meta-data', 'INFO'),
  readOnly: a('meta-data', 'INFO'),
  writeOnly: a('meta-data', 'INFO'),
  examples: a('meta-data', 'documentation'),
};

/** Keywords outside draft 2020-12 the diff knows: legacy spellings and editor annotations. */
const EXTRA_ANNOTATIONS = ['definitions', 'markdownDescription'];
/** Annotations the diff does report (schema-diff.ts annotations()). */
const REPORTED_ANNOTATIONS = new Set(['default', 'deprecated', 'readOnly', 'writeOnly']);

/** Keywords the inliner drops: they carry no constraint and the diff reports nothing about them. */
export const ANNOTATIONS: ReadonlySet<string> = new Set([
  ...Object.entries(KEYWORDS)
    .filter(([k, rule]) => rule.treatment === 'annotation' && !REPORTED_ANNOTATIONS.has(k))
    .map(([k]) => k),
  ...EXTRA_ANNOTATIONS,
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

/** The strings of a keyword's list value (`required`, `enum` names), anything else left out. */
export function stringList(x: Json | undefined): string[] {
  return Array.isArray(x) ? x.filter((v): v is string => typeof v === 'string') : [];
}

/** A subschema as an object: `false` is `{not: {}}`, `true` (or nothing) `{}`. */
export function asSchema(x: Json | undefined): Schema {
  if (x === false) return { not: {} };
  return isObject(x) ? x : {};
}

/** True for a schema that allows no value (`{not: {}}`, whatever else it says). */
export function isNothing(s: Schema): boolean {
  return isObject(s.not) && Object.keys(s.not).length === 0;
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
