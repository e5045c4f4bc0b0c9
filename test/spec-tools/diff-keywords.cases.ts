// One or more schema edits per draft 2020-12 keyword, each judged in params (what a client sends:
// narrowing breaks clients) and in results (what a server returns: widening breaks clients). Reasoned
// keywords have a narrowing and a widening edit, and equivalent rewrites where the normaliser knows
// them; annotations and unreasoned keywords an edit each way. diff-keywords.test.ts checks the levels,
// diff-soundness.test.ts checks every edit against ajv (what it says the edit does, and that no INFO
// hides a value lost for params or gained for results).
import type { Json, JsonObject, Spec as SpecVersion } from '@idea-kit/spec-lib/spec';
import { inlineSchema } from '../../spec-tools/diff/inline';
import { diffSchemas } from '../../spec-tools/diff/schema-diff';
import type { Change, Direction, Level } from '../../spec-tools/diff/types';

export type Edit =
  /** Allows fewer values: params ERR, results INFO. */
  | 'narrows'
  /** Allows more values: params INFO, results ERR. */
  | 'widens'
  /** Allows the same values, spelled differently: no change reported. */
  | 'same'
  /** Changes no value's validity (an annotation): nothing, or INFO. */
  | 'annotates'
  /** Not reasoned about, or not provable: WARN at least in both directions, naming the keyword. */
  | 'unproven';

export interface KeywordCase {
  /** The draft 2020-12 keyword the edit is about. */
  keyword: string;
  edit: Edit;
  from: Json;
  to: Json;
  /** The most severe level reported, when it differs from the edit's default (null: nothing). */
  params?: Level | null;
  results?: Level | null;
  /** Values that tell the two schemas apart, beside the shared samples (random-schema.ts VALUES). */
  witnesses?: Json[];
  /** Why the levels are what they are, where it is not the edit's default. */
  why?: string;
}

/** The $defs the `$ref` cases point at (defs.schema.json of a mock spec). */
export const DEFS: JsonObject = {
  $defs: {
    Name: { type: 'string', minLength: 1 },
    Text: { type: 'string' },
  },
};

/** A spec version holding only defs.schema.json: the cases' schemas are x.schema.json beside it. */
export const KEYWORD_SPEC = {
  version: '9.9.9',
  folder: 'v9.9.9',
  dir: '',
  index: {},
  docs: [],
  byPath: new Map([['defs.schema.json', { path: 'defs.schema.json', id: '', schema: DEFS }]]),
  byId: new Map(),
} as unknown as SpecVersion;

const obj = (extra: JsonObject = {}): JsonObject => ({ type: 'object', ...extra });
const arr = (extra: JsonObject = {}): JsonObject => ({ type: 'array', ...extra });
const str = (extra: JsonObject = {}): JsonObject => ({ type: 'string', ...extra });
const int = (extra: JsonObject = {}): JsonObject => ({ type: 'integer', ...extra });

/** An edit and its reverse: narrowing one way is widening the other. */
function both(keyword: string, narrow: Json, wide: Json, witnesses?: Json[]): KeywordCase[] {
  const w = witnesses ? { witnesses } : {};
  return [
    { keyword, edit: 'narrows', from: wide, to: narrow, ...w },
    { keyword, edit: 'widens', from: narrow, to: wide, ...w },
  ];
}

/** Two spellings of the same schema, each way. */
function same(keyword: string, x: Json, y: Json, witnesses?: Json[]): KeywordCase[] {
  const w = witnesses ? { witnesses } : {};
  return [
    { keyword, edit: 'same', from: x, to: y, ...w },
    { keyword, edit: 'same', from: y, to: x, ...w },
  ];
}

/** A keyword added and removed, with the levels each way. */
function toggled(keyword: string, edit: Edit, without: Json, withIt: Json, levels: Partial<KeywordCase> = {}) {
  return [
    { keyword, edit, from: without, to: withIt, ...levels },
    { keyword, edit, from: withIt, to: without, ...levels },
  ] as KeywordCase[];
}

const REF = (name: string): JsonObject => ({ $ref: `defs.schema.json#/$defs/${name}` });
const DRAFT7 = 'http://json-schema.org/draft-07/schema#';
const TREE = (extra: JsonObject = {}): JsonObject =>
  obj({ $dynamicAnchor: 'node', properties: { kids: arr({ items: { $dynamicRef: '#node' } }) }, ...extra });

export const KEYWORD_CASES: KeywordCase[] = [
  // ---- core ---------------------------------------------------------------------------------------
  ...toggled('$schema', 'unproven', str(), str({ $schema: DRAFT7 })),
  {
    keyword: '$schema',
    edit: 'widens',
    from: str({ $schema: DRAFT7, maxLength: 2 }),
    to: str({ $schema: DRAFT7, maxLength: 3 }),
    params: 'WARN',
    results: 'WARN',
    why: 'another dialect: the diff reasons in 2020-12 only, so nothing is proven either way',
  },
  ...same('$schema', str({ $schema: 'https://json-schema.org/draft/2020-12/schema' }), str()),
  ...toggled('$id', 'annotates', str(), str({ $id: 'https://example.invalid/x.schema.json' })),
  ...both('$ref', REF('Name'), REF('Text'), ['']),
  ...same('$ref', { allOf: [REF('Name')] }, REF('Name')),
  ...toggled('$defs', 'annotates', str(), str({ $defs: { X: int() } })),
  ...toggled('$anchor', 'annotates', str(), str({ $anchor: 'top' })),
  {
    keyword: '$dynamicRef',
    edit: 'unproven',
    from: TREE({ properties: { kids: arr({ items: obj() }) } }),
    to: TREE(),
    why: 'its target unresolved, the `$dynamicRef` reads as no type constraint ("type removed"): nothing is proven either way, so never ERR',
  },
  {
    keyword: '$dynamicRef',
    edit: 'unproven',
    from: TREE(),
    to: TREE({ properties: { kids: arr({ items: obj() }) } }),
  },
  {
    keyword: '$dynamicRef',
    edit: 'narrows',
    from: TREE(),
    to: TREE({ maxProperties: 1 }),
    params: 'WARN',
    results: 'WARN',
    witnesses: [{ kids: [] }],
    why: 'resolved at validation time: nothing is proven anywhere in a schema using it, breaking or safe',
  },
  ...toggled('$dynamicAnchor', 'unproven', obj(), obj({ $dynamicAnchor: 'node' })),
  ...toggled('$vocabulary', 'unproven', str(), str({ $vocabulary: { 'https://example.invalid/vocab': true } })),
  ...toggled('$comment', 'annotates', str(), str({ $comment: 'why' })),

  // ---- applicators --------------------------------------------------------------------------------
  // An allOf part that cannot merge with its parent (two patterns) stays a conjunct.
  ...both('allOf', str({ pattern: '^a', allOf: [{ pattern: 'b$' }] }), str({ pattern: '^a' }), ['ab', 'a']),
  ...both(
    'allOf',
    str({ pattern: '^a', allOf: [{ pattern: 'b$' }] }),
    str({ pattern: '^a', allOf: [{ pattern: '(b|c)$' }] }),
    ['ac'],
  ),
  ...same('allOf', { allOf: [str({ minLength: 1 })] }, str({ minLength: 1 })),
  ...both(
    'anyOf',
    obj({ anyOf: [{ required: ['a'] }, { required: ['b'] }] }),
    obj({ anyOf: [{ required: ['a'] }, { required: ['b'] }, { required: ['c'] }] }),
    [{ c: 1 }],
  ),
  ...both('anyOf', str(), { anyOf: [str(), int()] }),
  ...same('anyOf', obj({ anyOf: [{ required: ['a'] }] }), obj({ required: ['a'] })),
  ...both('oneOf', { oneOf: [str()] }, { oneOf: [str(), int()] }),
  ...same('oneOf', obj({ oneOf: [{ required: ['a'] }] }), obj({ required: ['a'] })),
  {
    keyword: 'oneOf',
    edit: 'unproven',
    from: { oneOf: [str({ maxLength: 1 }), str({ pattern: '^a' })] },
    to: { oneOf: [str({ maxLength: 2 }), str({ pattern: '^a' })] },
    witnesses: ['bb', 'ab'],
    why: 'a branch widened: "bb" now matches one branch (gained), "ab" now two (lost); either can happen in a oneOf',
  },
  // The reported case: a change through `not` in params is never INFO.
  ...both('not', str({ not: { enum: ['a', 'b'] } }), str({ not: { enum: ['a'] } })),
  ...both('not', str({ not: { maxLength: 2 } }), str({ not: { maxLength: 1 } }), ['ab']),
  {
    keyword: 'not',
    edit: 'unproven',
    from: { oneOf: [str({ maxLength: 2 }), str({ not: { const: 'a' } })] },
    to: { oneOf: [str({ maxLength: 2 }), str()] },
    witnesses: ['a', 'ab', 'abc'],
    why: 'a `not` dropped from a oneOf branch: "a" now matches two branches (lost), "abc" one (gained): neither way proven',
  },
  ...same('not', { not: { not: str({ minLength: 1 }) } }, str({ minLength: 1 })),
  ...same('not', obj({ properties: { a: { not: { not: int() } } } }), obj({ properties: { a: int() } })),
  ...both('if', obj({ if: { required: ['a'] }, then: { required: ['b'] } }), obj(), [{ a: 1 }]),
  // ¬if ∨ then: a wider `if` narrows.
  ...both(
    'if',
    obj({ if: { required: ['a'] }, then: { required: ['b'] } }),
    obj({ if: { required: ['a', 'c'] }, then: { required: ['b'] } }),
    [{ a: 1 }],
  ),
  // if ∨ else: a wider `if` widens.
  ...both(
    'if',
    obj({ if: { required: ['a', 'c'] }, else: { required: ['b'] } }),
    obj({ if: { required: ['a'] }, else: { required: ['b'] } }),
    [{ a: 1 }],
  ),
  {
    keyword: 'if',
    edit: 'unproven',
    from: obj({ if: { required: ['a'] }, then: { required: ['b'] }, else: { required: ['c'] } }),
    to: obj({ if: { required: ['a', 'd'] }, then: { required: ['b'] }, else: { required: ['c'] } }),
    witnesses: [
      { a: 1, b: 1 },
      { a: 1, c: 1 },
    ],
    why: 'beside both then and else a changed `if` moves values both ways',
  },
  ...both(
    'then',
    obj({ if: { required: ['a'] }, then: { properties: { b: str({ maxLength: 1 }) } } }),
    obj({ if: { required: ['a'] }, then: { properties: { b: str({ maxLength: 2 }) } } }),
    [{ a: 1, b: 'xx' }],
  ),
  ...same('then', obj({ then: { required: ['a'] } }), obj()),
  ...both(
    'else',
    obj({ if: { required: ['a'] }, else: { properties: { b: str({ maxLength: 1 }) } } }),
    obj({ if: { required: ['a'] }, else: { properties: { b: str({ maxLength: 2 }) } } }),
    [{ b: 'xx' }],
  ),
  ...both('dependentSchemas', obj({ dependentSchemas: { a: { required: ['b'] } } }), obj()),
  ...both(
    'dependentSchemas',
    obj({ dependentSchemas: { a: { properties: { b: str({ maxLength: 1 }) } } } }),
    obj({ dependentSchemas: { a: { properties: { b: str({ maxLength: 2 }) } } } }),
    [{ a: 1, b: 'xx' }],
  ),
  ...both('prefixItems', arr({ prefixItems: [str()] }), arr()),
  ...both('prefixItems', arr({ prefixItems: [str({ maxLength: 1 })] }), arr({ prefixItems: [str()] }), [['ab']]),
  ...both('items', arr({ items: str() }), arr()),
  ...same('items', arr({ items: true }), arr({ items: {} })),
  ...both('contains', arr({ contains: str() }), arr()),
  ...both('contains', arr({ contains: str({ maxLength: 1 }) }), arr({ contains: str() }), [['ab']]),
  // At most one string (minContains 0): counting fewer items as strings widens.
  ...both(
    'contains',
    arr({ contains: str(), minContains: 0, maxContains: 1 }),
    arr({ contains: str({ maxLength: 1 }), minContains: 0, maxContains: 1 }),
    [['a', 'bc']],
  ),
  {
    keyword: 'contains',
    edit: 'unproven',
    from: arr({ contains: str(), minContains: 1, maxContains: 1 }),
    to: arr({ contains: str({ maxLength: 1 }), minContains: 1, maxContains: 1 }),
    witnesses: [['a', 'bc'], ['bc']],
    why: 'counted between a minimum and a maximum, a narrower contains moves values both ways',
  },
  ...both('properties', obj({ properties: { a: str({ maxLength: 1 }) } }), obj({ properties: { a: str() } }), [
    { a: 'xx' },
  ]),
  ...same('properties', obj({ properties: { a: true } }), obj({ properties: { a: {} } })),
  ...both('patternProperties', obj({ patternProperties: { '^a': str() } }), obj()),
  {
    keyword: 'patternProperties',
    edit: 'unproven',
    from: obj({ additionalProperties: false }),
    to: obj({ additionalProperties: false, patternProperties: { '^a': str() } }),
    witnesses: [{ ab: 'x' }],
    why: 'names matching the new pattern leave the reach of additionalProperties: false',
  },
  ...both('additionalProperties', obj({ additionalProperties: str() }), obj(), [{ x: 'a' }]),
  ...same('additionalProperties', obj({ additionalProperties: { not: {} } }), obj({ additionalProperties: false })),
  ...both('propertyNames', obj({ propertyNames: { maxLength: 1 } }), obj()),
  ...both('unevaluatedItems', arr({ prefixItems: [str()], unevaluatedItems: false }), arr({ prefixItems: [str()] })),
  {
    keyword: 'unevaluatedItems',
    edit: 'widens',
    from: arr({ prefixItems: [str()], unevaluatedItems: false }),
    to: arr({ prefixItems: [str(), int()], unevaluatedItems: false }),
    params: 'WARN',
    witnesses: [['a', 1]],
    why: 'beside unevaluatedItems nothing is proven safe: what it sees depends on the others',
  },
  {
    keyword: 'unevaluatedItems',
    edit: 'narrows',
    from: arr({ items: true, unevaluatedItems: false }),
    to: arr({ unevaluatedItems: false }),
    params: 'WARN',
    results: 'WARN',
    why: '`items: true` allows every item but marks them evaluated: not an equivalence here',
  },
  ...both(
    'unevaluatedProperties',
    obj({ properties: { a: {} }, unevaluatedProperties: false }),
    obj({ properties: { a: {} } }),
    [{ b: 1 }],
  ),
  {
    keyword: 'unevaluatedProperties',
    edit: 'widens',
    from: obj({ properties: { a: {} }, unevaluatedProperties: false }),
    to: obj({ properties: { a: {}, b: {} }, unevaluatedProperties: false }),
    params: 'WARN',
    results: 'WARN',
    witnesses: [{ b: 1 }],
    why: 'a new optional field is INFO by convention both ways; beside unevaluatedProperties it is unproven',
  },
  {
    keyword: 'unevaluatedProperties',
    edit: 'widens',
    from: obj({ allOf: [{ properties: { a: str() } }], unevaluatedProperties: false }),
    to: obj({ allOf: [{ properties: { a: str(), b: str() } }], unevaluatedProperties: false }),
    params: 'WARN',
    results: 'WARN',
    witnesses: [{ b: 'x' }],
    why: 'the property is added in place (allOf): unevaluatedProperties sees it',
  },

  // ---- validation ---------------------------------------------------------------------------------
  ...both('type', str(), { type: ['string', 'integer'] }),
  ...same('type', { type: ['string'] }, str()),
  ...both('enum', { enum: ['a'] }, { enum: ['a', 'b'] }),
  ...both('const', { const: 'a' }, str()),
  ...same('const', { const: 'a' }, { enum: ['a'] }),
  ...both('multipleOf', int({ multipleOf: 4 }), int({ multipleOf: 2 })),
  ...both('multipleOf', { type: 'number', multipleOf: 1 }, { type: 'number' }),
  // The reported case: integer and number + multipleOf: 1 are the same values.
  ...same('multipleOf', int(), { type: 'number', multipleOf: 1 }),
  ...same('multipleOf', int({ multipleOf: 2 }), { type: 'number', multipleOf: 2 }),
  ...same('multipleOf', { type: ['number', 'string'], multipleOf: 1 }, { type: ['integer', 'string'] }),
  ...both('maximum', int({ maximum: 2 }), int({ maximum: 4 })),
  ...both('exclusiveMaximum', { type: 'number', exclusiveMaximum: 2 }, { type: 'number', maximum: 2 }),
  ...same('exclusiveMaximum', int({ exclusiveMaximum: 10 }), int({ maximum: 9 })),
  ...both('minimum', int({ minimum: 2 }), int({ minimum: 0 })),
  ...both('exclusiveMinimum', { type: 'number', exclusiveMinimum: 0 }, { type: 'number', minimum: 0 }),
  ...same('exclusiveMinimum', int({ exclusiveMinimum: 4 }), int({ minimum: 5 }), [4, 5]),
  ...same('exclusiveMinimum', { type: 'number', multipleOf: 1, exclusiveMinimum: 4 }, int({ minimum: 5 }), [4, 5]),
  ...both('maxLength', str({ maxLength: 1 }), str({ maxLength: 2 })),
  ...both('minLength', str({ minLength: 2 }), str({ minLength: 1 })),
  ...both('pattern', str({ pattern: '^a' }), str()),
  ...both('maxItems', arr({ maxItems: 1 }), arr({ maxItems: 2 })),
  ...both('minItems', arr({ minItems: 2 }), arr({ minItems: 1 })),
  ...both('uniqueItems', arr({ uniqueItems: true }), arr({ uniqueItems: false })),
  ...both('maxContains', arr({ contains: int(), maxContains: 1 }), arr({ contains: int(), maxContains: 2 }), [
    [1, 2, 3],
  ]),
  ...both('minContains', arr({ contains: int(), minContains: 2 }), arr({ contains: int() })),
  ...both('minContains', arr({ contains: int() }), arr({ contains: int(), minContains: 0 })),
  ...same('minContains', arr({ contains: int(), minContains: 1 }), arr({ contains: int() })),
  ...same('minContains', arr({ minContains: 3 }), arr()),
  ...both('maxProperties', obj({ maxProperties: 1 }), obj({ maxProperties: 2 })),
  ...both('minProperties', obj({ minProperties: 2 }), obj({ minProperties: 1 })),
  ...both('required', obj({ properties: { a: str() }, required: ['a'] }), obj({ properties: { a: str() } })),
  ...both('dependentRequired', obj({ dependentRequired: { a: ['b'] } }), obj(), [{ a: 1 }]),
  ...same(
    'dependentRequired',
    obj({ dependentRequired: { a: ['c', 'b', 'a'] } }),
    obj({ dependentRequired: { a: ['b', 'c'] } }),
  ),

  // ---- format, content, meta-data -----------------------------------------------------------------
  ...both('format', str({ format: 'uri' }), str({ format: 'uri-reference' }), ['a/b']),
  ...toggled('contentEncoding', 'unproven', str(), str({ contentEncoding: 'base64' })),
  ...toggled('contentMediaType', 'unproven', str(), str({ contentMediaType: 'application/json' })),
  ...toggled('contentSchema', 'unproven', str({ contentMediaType: 'application/json' }), {
    ...str({ contentMediaType: 'application/json' }),
    contentSchema: obj(),
  }),
  ...toggled('title', 'annotates', str(), str({ title: 'T' })),
  ...toggled('description', 'annotates', str(), str({ description: 'D' })),
  ...toggled('examples', 'annotates', str(), str({ examples: ['x'] })),
  { keyword: 'default', edit: 'annotates', from: str(), to: str({ default: 'x' }), params: 'INFO', results: 'INFO' },
  {
    keyword: 'default',
    edit: 'annotates',
    from: str({ default: 'x' }),
    to: str({ default: 'y' }),
    params: 'WARN',
    results: 'INFO',
    why: 'requests that omit the param behave differently',
  },
  ...toggled('deprecated', 'annotates', str(), str({ deprecated: true }), { params: 'INFO', results: 'INFO' }),
  ...toggled('readOnly', 'annotates', str(), str({ readOnly: true }), { params: 'INFO', results: 'INFO' }),
  ...toggled('writeOnly', 'annotates', str(), str({ writeOnly: true }), { params: 'INFO', results: 'INFO' }),
];

/** The most severe level an edit gets by default, in params and in results. */
export function expectedLevels(k: KeywordCase): { params: Level | null; results: Level | null } {
  const byEdit: Record<Edit, { params: Level | null; results: Level | null }> = {
    narrows: { params: 'ERR', results: 'INFO' },
    widens: { params: 'INFO', results: 'ERR' },
    same: { params: null, results: null },
    annotates: { params: null, results: null },
    unproven: { params: 'WARN', results: 'WARN' },
  };
  const d = byEdit[k.edit];
  return {
    params: k.params !== undefined ? k.params : d.params,
    results: k.results !== undefined ? k.results : d.results,
  };
}

/** What the diff reports for a case's edit in one direction (schemas inlined as the CLI does). */
export function diffKeywordCase(k: KeywordCase, direction: Direction): Change[] {
  const out: Change[] = [];
  const load = (s: Json) => inlineSchema(KEYWORD_SPEC, 'x.schema.json', structuredClone(s));
  diffSchemas(load(k.from), load(k.to), { direction, location: 'x', emit: (c) => out.push(c) });
  return out;
}
