// Rewrites an inlined schema into one normal form before comparison, so that schemas allowing the
// same values compare equal and a change shows where it is made, not as a different spelling:
//  1. trivial keywords dropped (`required: []`, `minLength: 0`, `additionalProperties: true`,
//     `minContains: 1`, the 2020-12 `$schema`, …), keywords that act only beside another dropped
//     without it (`then`/`else` without `if`, `minContains` without `contains`), `required` and
//     `dependentRequired` sorted, `const` read as a one-value `enum`, a subschema allowing nothing
//     written `false`, `not: {not: S}` read as S;
//  2. `allOf` flattened into its parent when the parts merge without conflict (a `$ref` wrapped in
//     `allOf`, an object split in parts, a subtype that adds fields to a base type); an `anyOf` or
//     `oneOf` of one schema is that schema, so it is merged the same way;
//  3. `enum` values filtered by `type`, and `type` derived from the values; a number that must be a
//     multiple of an integer is an integer (`multipleOf: 1` on it then says nothing);
//  4. alternatives as a set: `type: [a, b]`, `anyOf`/`oneOf` of types, of `const`s or of `enum`s
//     become one `anyOf` with one branch per JSON type (`oneOf` only when its branches are disjoint,
//     so it means the same as `anyOf`); one alternative left is merged into the parent;
//  5. integer bounds inclusive (`exclusiveMinimum: 0` on an integer is `minimum: 1`); a number keeps
//     the tighter of `minimum`/`exclusiveMinimum`;
//  6. keywords of types the schema does not allow dropped (they constrain nothing).
// Children are normalised before their parent (inline.ts builds bottom-up), so every function here
// may assume normalised subschemas. Where `unevaluatedProperties`/`unevaluatedItems` occur (inline.ts
// says so: keepEvaluation), rewrites that would change which properties or items count as evaluated
// are not made.
import { SCHEMA_KEYWORDS, SCHEMA_MAP_KEYWORDS } from '@idea-kit/spec-lib/keywords';
import { isObject, type Json } from '@idea-kit/spec-lib/spec';
import {
  asSchema,
  canonical,
  DIALECT,
  isNothing,
  KEYWORD_TYPE,
  REQUIRED_WHEN,
  type Schema,
  type TypeKey,
  typeKey,
  typeOfValue,
} from './keywords';

/** A schema reached through `$ref`: the target's name, the target alone, and the keywords next to
 *  the `$ref` at this use. The diff uses it to report a change of the target once, under its name. */
export interface DefUse {
  def: string;
  body: Schema;
  site: Schema;
}

const DEF_USES = new WeakMap<Schema, DefUse>();
const NORMAL = new WeakSet<Schema>();

export function defUse(s: Schema): DefUse | undefined {
  return DEF_USES.get(s);
}

/** The node for a `$ref` (with the keywords next to it) to `def`. */
export function refNode(def: string, body: Schema, site: Schema): Schema {
  const merged = mergeSchemas([body, site]) ?? { ...body, ...site };
  const node = merged === body ? { ...body } : merged;
  NORMAL.add(node);
  DEF_USES.set(node, { def, body, site });
  return node;
}

const TRIVIAL: Record<string, (v: Json) => boolean> = {
  required: (v) => Array.isArray(v) && v.length === 0,
  minContains: (v) => v === 1,
  dependentRequired: (v) => isObject(v) && Object.keys(v).length === 0,
  dependentSchemas: (v) => isObject(v) && Object.keys(v).length === 0,
  minLength: (v) => v === 0,
  minItems: (v) => v === 0,
  minProperties: (v) => v === 0,
  uniqueItems: (v) => v === false,
  additionalProperties: isEmptySchema,
  unevaluatedProperties: isEmptySchema,
  unevaluatedItems: isEmptySchema,
  items: isEmptySchema,
  propertyNames: isEmptySchema,
  properties: (v) => isObject(v) && Object.keys(v).length === 0,
  patternProperties: (v) => isObject(v) && Object.keys(v).length === 0,
  allOf: (v) => Array.isArray(v) && v.length === 0,
  deprecated: (v) => v === false,
  readOnly: (v) => v === false,
  writeOnly: (v) => v === false,
};

/** Trivial keywords that still mark properties or items as evaluated (`unevaluated*` sees them). */
const EVALUATING_TRIVIAL = new Set(['additionalProperties', 'items', 'unevaluatedProperties', 'unevaluatedItems']);
/** Keywords whose annotations say which properties or items were evaluated. */
const EVALUATING = [...EVALUATING_TRIVIAL, 'properties', 'patternProperties', 'prefixItems', 'contains', '$dynamicRef'];
const IN_PLACE = ['allOf', 'anyOf', 'oneOf', 'if', 'then', 'else', 'dependentSchemas'];

let keepEvaluation = false;

/** Runs `f` with the rewrites that would change what counts as evaluated turned off (inline.ts does so
 *  when `unevaluatedProperties` or `unevaluatedItems` occurs in the schema). */
export function keepingEvaluation<T>(on: boolean, f: () => T): T {
  const before = keepEvaluation;
  keepEvaluation = on;
  try {
    return f();
  } finally {
    keepEvaluation = before;
  }
}

/** True when `x` (or a subschema applied in place) marks properties or items as evaluated. */
function evaluates(x: Json | undefined): boolean {
  if (!isObject(x)) return false;
  if (EVALUATING.some((k) => x[k] !== undefined)) return true;
  return IN_PLACE.some((k) => {
    const v = x[k];
    if (Array.isArray(v)) return v.some(evaluates);
    if (k === 'dependentSchemas' && isObject(v)) return Object.values(v).some(evaluates);
    return evaluates(v);
  });
}

function isEmptySchema(v: Json): boolean {
  return v === true || (isObject(v) && Object.keys(v).length === 0);
}

/** A subschema that allows nothing is written `false` (`{not: {}}` is what other rules produce), so
 *  both spellings compare equal; `not`'s own value stays a schema. */
function nothingAsFalse(s: Schema): void {
  for (const k of SCHEMA_KEYWORDS) {
    const v = s[k];
    if (k !== 'not' && isObject(v) && isNothing(v)) s[k] = false;
  }
  for (const k of SCHEMA_MAP_KEYWORDS) {
    const m = s[k];
    if (!isObject(m)) continue;
    if (Object.values(m).some((v) => isObject(v) && isNothing(v)))
      s[k] = Object.fromEntries(Object.entries(m).map(([n, v]) => [n, isObject(v) && isNothing(v) ? false : v]));
  }
}

/** Keywords that act only beside another say nothing without it: `then`/`else` without `if`,
 *  `minContains`/`maxContains` without `contains`; a lone `if` constrains nothing either. */
function dropDependents(s: Schema): void {
  if (s.contains === undefined) {
    delete s.minContains;
    delete s.maxContains;
  }
  if (s.if === undefined) {
    delete s.then;
    delete s.else;
    return;
  }
  // `then: {}` holds always; but ajv evaluates `if` only beside a `then` or an `else`.
  if (!keepEvaluation) for (const k of ['then', 'else']) if (isEmptySchema(s[k]!)) delete s[k];
  if (s.then === undefined && s.else === undefined && !(keepEvaluation && evaluates(s.if))) delete s.if;
}

/** `not: false` allows everything, and `not: {not: S}` is S; both lose S's annotations, so not
 *  where something counts evaluated properties or items. Null when there is nothing to rewrite. */
function doubleNegation(s: Schema): Schema | null {
  if (s.not === false) {
    const { not: _n, ...rest } = s;
    return rest;
  }
  const inner = isObject(s.not) && Object.keys(s.not).length === 1 ? s.not.not : undefined;
  if (inner === undefined || (keepEvaluation && evaluates(inner))) return null;
  const { not: _n, ...rest } = s;
  return { ...rest, allOf: [...(Array.isArray(s.allOf) ? s.allOf : []), inner] };
}

/** `dependentRequired` as sorted sets, a property's dependency on itself and empty lists dropped. */
function normaliseDependentRequired(s: Schema): void {
  const out: Schema = {};
  for (const [name, list] of Object.entries(s.dependentRequired as Schema).sort(([x], [y]) => (x < y ? -1 : 1))) {
    const names = [...new Set(strings(list))].filter((n) => n !== name).sort();
    if (names.length > 0) out[name] = names;
  }
  if (Object.keys(out).length > 0) s.dependentRequired = out;
  else delete s.dependentRequired;
}

export function normaliseSchema(input: Schema): Schema {
  if (NORMAL.has(input)) return input;
  let s: Schema = { ...input };
  for (const [k, trivial] of Object.entries(TRIVIAL)) {
    if (k in s && trivial(s[k]!) && !(keepEvaluation && EVALUATING_TRIVIAL.has(k))) delete s[k];
  }
  if (s.$schema === DIALECT) delete s.$schema;
  if (Array.isArray(s.required)) s.required = [...new Set(strings(s.required))].sort();
  if (isObject(s.dependentRequired)) normaliseDependentRequired(s);
  if (s.const !== undefined) {
    s.enum = Array.isArray(s.enum) ? s.enum.filter((v) => canonical(v) === canonical(s.const)) : [s.const];
    delete s.const;
  }
  nothingAsFalse(s);
  dropDependents(s);
  const negated = doubleNegation(s);
  if (negated) s = negated;
  if (Array.isArray(s.anyOf) && s.anyOf.some(isEmptySchema) && !(keepEvaluation && s.anyOf.some(evaluates)))
    delete s.anyOf;
  for (const k of ['anyOf', 'oneOf'] as const) {
    // One alternative is that alternative: `anyOf: [S]` and `oneOf: [S]` mean `allOf: [S]`.
    const one = s[k];
    if (Array.isArray(one) && one.length === 1) {
      s.allOf = [...(Array.isArray(s.allOf) ? s.allOf : []), one[0]!];
      delete s[k];
    }
  }
  if (Array.isArray(s.allOf)) {
    const flat = flattenAllOf(s);
    if (flat) return flat;
  }
  normaliseTypeAndEnum(s);
  if (Array.isArray(s.oneOf) && s.anyOf === undefined && pairwiseDisjoint(s.oneOf.filter(isObject))) {
    s.anyOf = s.oneOf;
    delete s.oneOf;
  }
  const alternatives = typedAlternatives(s);
  if (alternatives) {
    if (alternatives.branches.length === 0) return normaliseSchema({ not: {} }); // no alternative left
    if (alternatives.branches.length === 1) {
      const one = mergeKeepingDef([alternatives.common, alternatives.branches[0]!]);
      if (one) return one;
    } else s = { ...alternatives.common, anyOf: alternatives.branches };
  }
  normaliseBounds(s);
  dropInapplicable(s);
  NORMAL.add(s);
  return s;
}

// ---- allOf ----------------------------------------------------------------------------------------

function flattenAllOf(s: Schema): Schema | null {
  const { allOf, ...rest } = s;
  const parts = [rest, ...(allOf as Json[]).map(asSchema)];
  return mergeKeepingDef(parts);
}

/** Merges schemas that must all hold; a part reached through `$ref` keeps its name when it is the
 *  only such part (the others become keywords at its use). */
function mergeKeepingDef(parts: Schema[]): Schema | null {
  const nonEmpty = parts.filter((p) => Object.keys(p).length > 0);
  if (nonEmpty.length === 1) return normaliseSchema(nonEmpty[0]!);
  const merged = mergeSchemas(nonEmpty);
  if (!merged) return null;
  const named = nonEmpty.filter((p) => DEF_USES.has(p));
  if (named.length === 1) {
    const use = DEF_USES.get(named[0]!)!;
    const site = mergeSchemas([use.site, ...nonEmpty.filter((p) => p !== named[0])]);
    if (site) {
      const node = merged === use.body ? { ...merged } : merged;
      NORMAL.add(node);
      DEF_USES.set(node, { def: use.def, body: use.body, site });
      return node;
    }
  }
  return merged;
}

const LOWER = new Set(['minLength', 'minItems', 'minProperties']);
const UPPER = new Set(['maxLength', 'maxItems', 'maxProperties']);
/** Keywords that annotate rather than constrain: in a merge, the later part (the use site) wins. */
const OVERRIDES = new Set(['default', 'deprecated', 'readOnly', 'writeOnly', REQUIRED_WHEN]);

/** The conjunction of `parts` as one schema, or null when some keyword cannot be merged. */
export function mergeSchemas(parts: Schema[]): Schema | null {
  const nonEmpty = parts.filter((p) => Object.keys(p).length > 0);
  if (nonEmpty.length === 0) return normaliseSchema({});
  if (nonEmpty.length === 1) return normaliseSchema(nonEmpty[0]!);
  // additionalProperties (and the like) only see the properties of their own part.
  const closes = (p: Schema) => p.additionalProperties !== undefined || p.unevaluatedProperties !== undefined;
  const opens = (p: Schema) => p.properties !== undefined || p.patternProperties !== undefined;
  if (nonEmpty.some((p) => closes(p) && nonEmpty.some((q) => q !== p && opens(q)))) return null;
  // Two `contains` count items separately: they merge only when they are the same count.
  const counts = nonEmpty.filter((p) => p.contains !== undefined).map(containsGroup);
  if (counts.some((c) => c !== counts[0])) return null;
  const out: Schema = {};
  for (const part of nonEmpty) {
    for (const [k, v] of Object.entries(part)) {
      const have = out[k];
      if (have === undefined || canonical(have) === canonical(v)) {
        out[k] = v;
        continue;
      }
      if (OVERRIDES.has(k)) out[k] = v;
      else if (k === 'properties' && isObject(have) && isObject(v)) {
        const props: Schema = { ...have };
        for (const [name, sub] of Object.entries(v)) {
          const prev = props[name];
          if (prev === undefined) props[name] = sub;
          else {
            const both = mergeSchemas([asSchema(prev), asSchema(sub)]);
            if (!both) return null;
            props[name] = both;
          }
        }
        out[k] = props;
      } else if (k === 'required') out[k] = [...new Set([...strings(have), ...strings(v)])];
      else if (k === 'type') {
        const both = intersectTypes(typeList(have), typeList(v));
        if (both.length === 0) return normaliseSchema({ not: {} }); // no value has both types
        out[k] = both.length === 1 ? both[0]! : both;
      } else if (k === 'enum' && Array.isArray(have) && Array.isArray(v)) {
        const keep = new Set(v.map(canonical));
        out[k] = have.filter((x) => keep.has(canonical(x)));
      } else if (
        (k === 'minimum' || k === 'exclusiveMinimum' || LOWER.has(k)) &&
        typeof have === 'number' &&
        typeof v === 'number'
      )
        out[k] = Math.max(have, v);
      else if (
        (k === 'maximum' || k === 'exclusiveMaximum' || UPPER.has(k)) &&
        typeof have === 'number' &&
        typeof v === 'number'
      )
        out[k] = Math.min(have, v);
      else return null;
    }
  }
  return normaliseSchema(out);
}

function containsGroup(p: Schema): string {
  return canonical([p.contains, p.minContains, p.maxContains] as Json);
}

function strings(x: Json | undefined): string[] {
  return Array.isArray(x) ? x.filter((v): v is string => typeof v === 'string') : [];
}

// ---- type and enum --------------------------------------------------------------------------------

export function typeList(t: Json | undefined): string[] {
  if (typeof t === 'string') return [t];
  return strings(t);
}

function intersectTypes(a: string[], b: string[]): string[] {
  const out = new Set<string>();
  for (const x of a) {
    for (const y of b) {
      if (x === y) out.add(x);
      else if ((x === 'integer' && y === 'number') || (x === 'number' && y === 'integer')) out.add('integer');
    }
  }
  return [...out].sort();
}

function allowsValue(types: string[], v: Json): boolean {
  const t = typeOfValue(v);
  return types.includes(t) || (t === 'integer' && types.includes('number'));
}

/** `type` as a sorted set (integer dropped beside number); `enum` filtered by it and sorted, and
 *  `type` then derived from the values; enums that allow every value of their type dropped. */
function normaliseTypeAndEnum(s: Schema): void {
  if (s.type !== undefined) {
    let types = [...new Set(typeList(s.type))];
    if (types.includes('number')) types = types.filter((t) => t !== 'integer');
    types.sort();
    s.type = types.length === 1 ? types[0]! : types;
  }
  integerMultiple(s);
  if (Array.isArray(s.enum)) normaliseEnum(s, s.enum);
  // A type derived from the values may be a number that multipleOf makes an integer: filter again.
  if (integerMultiple(s) && Array.isArray(s.enum)) normaliseEnum(s, s.enum);
}

function normaliseEnum(s: Schema, values: Json[]): void {
  const declared = s.type === undefined ? null : typeList(s.type);
  const seen = new Map<string, Json>();
  for (const v of values) if (!declared || allowsValue(declared, v)) seen.set(canonical(v), v);
  const kept = [...seen.entries()].sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)).map(([, v]) => v);
  if (kept.length === 0) {
    // No value left: the schema allows nothing (ajv refuses an empty enum).
    delete s.enum;
    delete s.type;
    s.not = {};
    return;
  }
  s.enum = kept;
  let types = [...new Set(kept.map(typeOfValue))];
  if (types.includes('number')) types = types.filter((t) => t !== 'integer');
  types.sort();
  if (types.length > 0) s.type = types.length === 1 ? types[0]! : types;
  const only = (t: string, all: Json[]) =>
    types.length === 1 && types[0] === t && all.every((x) => seen.has(canonical(x)));
  if (only('null', [null]) || only('boolean', [true, false])) delete s.enum;
}

/** A number that must be a multiple of an integer is an integer: `type: number, multipleOf: 1` is
 *  `type: integer` (n/1 is whole exactly when n is), and `multipleOf: 1` on an integer says nothing. */
function integerMultiple(s: Schema): boolean {
  const m = s.multipleOf;
  if (typeof m !== 'number' || !Number.isInteger(m) || m <= 0) return false;
  const changed = s.type === 'number';
  if (changed) s.type = 'integer';
  if (s.type === 'integer' && m === 1) delete s.multipleOf;
  return changed;
}

/** Type keys a (normalised) schema allows, or null when it allows every type. */
function typeKeysOf(s: Schema): Set<TypeKey> | null {
  if (Array.isArray(s.anyOf) && isTypedUnion(s.anyOf)) {
    return new Set(
      s.anyOf.filter(isObject).flatMap((b) =>
        typeList(b.type)
          .map(typeKey)
          .filter((k): k is TypeKey => k !== undefined),
      ),
    );
  }
  if (s.type === undefined) return null;
  return new Set(
    typeList(s.type)
      .map(typeKey)
      .filter((k): k is TypeKey => k !== undefined),
  );
}

function isTypedUnion(branches: Json[]): boolean {
  return branches.length > 0 && branches.every((b) => isObject(b) && typeof b.type === 'string');
}

/** True when no value is allowed by two of the branches (by type, or by disjoint enum values). */
function pairwiseDisjoint(branches: Schema[]): boolean {
  for (let i = 0; i < branches.length; i++) {
    for (let j = i + 1; j < branches.length; j++) {
      const a = branches[i]!;
      const b = branches[j]!;
      const ka = typeKeysOf(a);
      const kb = typeKeysOf(b);
      if (ka && kb && ![...ka].some((k) => kb.has(k))) continue;
      if (Array.isArray(a.enum) && Array.isArray(b.enum)) {
        const va = new Set(a.enum.map(canonical));
        if (!b.enum.some((v) => va.has(canonical(v)))) continue;
      }
      return false;
    }
  }
  return true;
}

// ---- alternatives ---------------------------------------------------------------------------------

/** Splits a schema into the keywords every alternative shares and one branch per JSON type, when it
 *  has typed alternatives (a type list, an `anyOf` of typed branches, or enum values of several
 *  types). Null when it has none, or when they cannot be expressed that way. */
function typedAlternatives(s: Schema): { common: Schema; branches: Schema[] } | null {
  const { common, typed } = splitTyped(s);
  let branches: Schema[];
  if (Array.isArray(s.anyOf)) {
    const raw = s.anyOf.filter(isObject);
    if (raw.length !== s.anyOf.length || !isTypedUnion(raw.flatMap(flattenUnionBranch))) return null;
    branches = raw.flatMap(flattenUnionBranch);
    delete common.anyOf;
    if (Object.keys(typed).length > 0) {
      // P and (A or B) is (P and A) or (P and B); branches of a type P does not allow vanish.
      const distributed: Schema[] = [];
      for (const b of branches) {
        const both = mergeSchemas([typed, b]);
        if (both !== null && isNothing(both)) continue;
        if (both === null) {
          if (
            typeof b.type === 'string' &&
            typed.type !== undefined &&
            intersectTypes([b.type], typeList(typed.type)).length === 0
          )
            continue;
          return null;
        }
        distributed.push(both);
      }
      branches = distributed;
    }
  } else {
    const types = typed.type === undefined ? [] : typeList(typed.type);
    if (types.length < 2) return null;
    branches = types.map((t) => branchOfType(typed, t));
  }
  return { common, branches: tidyBranches(branches) };
}

/** A branch that is itself only a typed union contributes its branches. */
function flattenUnionBranch(b: Schema): Schema[] {
  if (Array.isArray(b.anyOf) && Object.keys(b).length === 1 && isTypedUnion(b.anyOf)) return b.anyOf.filter(isObject);
  return [b];
}

function splitTyped(s: Schema): { common: Schema; typed: Schema } {
  const common: Schema = {};
  const typed: Schema = {};
  for (const [k, v] of Object.entries(s)) {
    if (k === 'type' || k === 'enum' || KEYWORD_TYPE.has(k)) typed[k] = v;
    else common[k] = v;
  }
  return { common, typed };
}

function branchOfType(typed: Schema, t: string): Schema {
  const key = typeKey(t);
  const b: Schema = { type: t };
  for (const [k, v] of Object.entries(typed)) {
    if (k === 'type') continue;
    if (k === 'enum' && Array.isArray(v)) b.enum = v.filter((x) => allowsValue([t], x));
    else if (KEYWORD_TYPE.get(k) === key) b[k] = v;
  }
  return normaliseSchema(b);
}

/** One enum branch per type, enum branches dropped beside an unrestricted branch of their type,
 *  duplicates dropped, sorted by type so that equal sets compare equal. */
function tidyBranches(branches: Schema[]): Schema[] {
  const byKey = new Map<string, Schema[]>();
  for (const b of branches) {
    const k = typeKey(String(b.type)) ?? String(b.type);
    byKey.set(k, [...(byKey.get(k) ?? []), b]);
  }
  const out: Schema[] = [];
  for (const [, group] of [...byKey].sort(([a], [b]) => (a < b ? -1 : 1))) {
    const isEnumOnly = (b: Schema) =>
      Array.isArray(b.enum) && Object.keys(b).every((k) => k === 'type' || k === 'enum');
    const isPlain = (b: Schema) => Object.keys(b).length === 1;
    let kept = group;
    if (group.some(isPlain)) kept = group.filter((b) => !isEnumOnly(b));
    const enums = kept.filter(isEnumOnly);
    if (enums.length > 1) {
      const values = enums.flatMap((b) => b.enum as Json[]);
      const types = [...new Set(enums.flatMap((b) => typeList(b.type)))];
      kept = [
        ...kept.filter((b) => !isEnumOnly(b)),
        normaliseSchema({ type: types.length === 1 ? types[0]! : types, enum: values }),
      ];
    }
    const seen = new Set<string>();
    for (const b of kept.sort((x, y) => (canonical(x) < canonical(y) ? -1 : 1))) {
      const c = canonical(b);
      if (!seen.has(c)) out.push(b);
      seen.add(c);
    }
  }
  return out;
}

// ---- bounds and inapplicable keywords -------------------------------------------------------------

function normaliseBounds(s: Schema): void {
  const integer = s.type === 'integer';
  for (const [incl, excl, lower] of [
    ['minimum', 'exclusiveMinimum', true],
    ['maximum', 'exclusiveMaximum', false],
  ] as const) {
    const i = typeof s[incl] === 'number' ? (s[incl] as number) : undefined;
    const e = typeof s[excl] === 'number' ? (s[excl] as number) : undefined;
    if (i === undefined && e === undefined) continue;
    delete s[incl];
    delete s[excl];
    // The tighter bound; at equal values the exclusive one.
    const useExcl = e !== undefined && (i === undefined || (lower ? e >= i : e <= i));
    const v = useExcl ? e! : i!;
    if (integer)
      s[incl] = lower ? (useExcl ? Math.floor(v) + 1 : Math.ceil(v)) : useExcl ? Math.ceil(v) - 1 : Math.floor(v);
    else s[useExcl ? excl : incl] = v;
  }
}

function dropInapplicable(s: Schema): void {
  if (s.type === undefined) return;
  const keys = new Set(typeList(s.type).map(typeKey));
  for (const k of Object.keys(s)) {
    const owner = KEYWORD_TYPE.get(k);
    if (owner && !keys.has(owner)) delete s[k];
  }
}
