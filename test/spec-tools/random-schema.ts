// Random JSON Schemas over the keywords the diff normalises and compares (every draft 2020-12
// validation and applicator keyword), and sample values, for property tests checked against ajv.
// Deterministic (seeded), so a failure is reproducible.
import type { Json, JsonObject } from '@idea-kit/spec-lib/spec';

export const VALUES: Json[] = [
  null,
  true,
  false,
  0,
  1,
  2,
  1.5,
  -1,
  10,
  4,
  'a',
  'b',
  '',
  'abc',
  'zz',
  [],
  ['a'],
  [1, 2],
  [1, 1],
  ['a', 1, null],
  {},
  { a: 1 },
  { a: 'x', b: 2 },
  { b: null },
  { a: 1, c: 'x' },
  { ab: true },
];
const TYPES = ['null', 'boolean', 'integer', 'number', 'string', 'array', 'object'];

/** mulberry32 */
export function rng(seed: number): () => number {
  return () => {
    seed = (seed + 0x6d2b79f5) | 0;
    let t = Math.imul(seed ^ (seed >>> 15), 1 | seed);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

export function schemaGen(r: () => number) {
  const pick = <T>(xs: readonly T[]): T => xs[Math.floor(r() * xs.length)]!;
  const some = <T>(xs: readonly T[], max: number): T[] =>
    Array.from({ length: 1 + Math.floor(r() * max) }, () => pick(xs));
  /** Adds one random keyword to `s` (replacing it when present). */
  const keyword = (s: JsonObject, depth = 0): void => {
    const sub = () => schema(depth + 1);
    switch (Math.floor(r() * (depth > 1 ? 10 : 28))) {
      case 0:
        s.type = r() < 0.5 ? pick(TYPES) : [...new Set(some(TYPES, 3))];
        break;
      case 1:
        s.enum = [...new Map(some(VALUES, 4).map((v) => [JSON.stringify(v), v])).values()];
        break;
      case 2:
        s.const = pick(VALUES);
        break;
      case 3:
        s[pick(['minimum', 'exclusiveMinimum'])] = pick([0, 1, 0.5, -1]);
        break;
      case 4:
        s[pick(['maximum', 'exclusiveMaximum'])] = pick([1, 2, 1.5, 10]);
        break;
      case 5:
        s[pick(['minLength', 'maxLength', 'minItems', 'maxItems', 'minProperties', 'maxProperties'])] = pick([0, 1, 2]);
        break;
      case 6:
        s.required = [...new Set(some(['a', 'b'], 2))];
        break;
      case 7:
        s.properties = { [pick(['a', 'b'])]: { type: pick(TYPES) } };
        break;
      case 8:
        s.additionalProperties = pick([true, false, { type: pick(TYPES) }]);
        break;
      case 9:
        s.pattern = pick(['^a', 'b$', '^[a-c]+$', '^[a-z]*$', 'z']);
        break;
      case 10:
        s.anyOf = Array.from({ length: 1 + Math.floor(r() * 3) }, sub);
        break;
      case 11:
        s.oneOf = Array.from({ length: 1 + Math.floor(r() * 3) }, sub);
        break;
      case 12:
        s.allOf = Array.from({ length: 1 + Math.floor(r() * 2) }, sub);
        break;
      case 13:
        s.items = sub();
        break;
      case 14:
        s.not = r() < 0.3 ? { not: sub() } : sub();
        break;
      case 15:
        s.if = sub();
        if (r() < 0.7) s.then = sub();
        if (r() < 0.5) s.else = sub();
        break;
      case 16:
        s[pick(['then', 'else'])] = sub();
        break;
      case 17:
        s.multipleOf = pick([1, 2, 0.5]);
        break;
      case 18:
        s.uniqueItems = pick([true, false]);
        break;
      case 19:
        s.contains = sub();
        break;
      case 20:
        s[pick(['minContains', 'maxContains'])] = pick([0, 1, 2]);
        break;
      case 21:
        s.prefixItems = Array.from({ length: 1 + Math.floor(r() * 2) }, sub);
        break;
      case 22:
        s.propertyNames = pick<JsonObject>([{ pattern: '^a' }, { maxLength: 1 }, { enum: ['a', 'b'] }]);
        break;
      case 23:
        s.patternProperties = { [pick(['^a', 'b', '^c$'])]: sub() };
        break;
      case 24:
        s.dependentRequired = { [pick(['a', 'b'])]: [...new Set(some(['a', 'b', 'c'], 2))] };
        break;
      case 25:
        s.dependentSchemas = { [pick(['a', 'b'])]: sub() };
        break;
      case 26:
        s[pick(['unevaluatedProperties', 'unevaluatedItems'])] = pick([false, { type: pick(TYPES) }]);
        break;
      default:
        s.type = pick(['number', 'integer']);
        s.multipleOf = pick([1, 2]);
    }
  };
  const schema = (depth = 0): JsonObject => {
    const s: JsonObject = {};
    const n = 1 + Math.floor(r() * 3);
    for (let i = 0; i < n; i++) keyword(s, depth);
    return s;
  };
  return { schema, keyword, pick };
}

/** ajv's generated code fails on a few nested oneOf/additionalProperties schemas ("props0 is not
 *  defined") and, validating, on some unevaluatedProperties beside dynamic applicators ("Cannot set
 *  properties of undefined", thrown from a generated validate function). */
export function isAjvBug(e: unknown): boolean {
  if (e instanceof ReferenceError) return /props\d+ is not defined/.test(e.message);
  return (
    e instanceof TypeError &&
    /Cannot set properties of undefined/.test(e.message) &&
    /at validate\d+/.test(e.stack ?? '')
  );
}

/** ajv 8 accepts `[]` for `contains` beside a `prefixItems` whose schemas constrain (it skips the
 *  `contains` check when the prefix check ran on no item): schemas with both in one object are not
 *  used to judge the normaliser or the diff. */
export function ajvMisreads(x: Json): boolean {
  if (Array.isArray(x)) return x.some(ajvMisreads);
  if (x === null || typeof x !== 'object') return false;
  if (x.contains !== undefined && x.prefixItems !== undefined) return true;
  return Object.values(x).some(ajvMisreads);
}
