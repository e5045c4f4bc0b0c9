// Random JSON Schemas over the keywords the diff normalises and compares, and sample values, for
// property tests checked against ajv. Deterministic (seeded), so a failure is reproducible.
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
  'a',
  'b',
  '',
  'abc',
  'zz',
  [],
  ['a'],
  [1, 2],
  {},
  { a: 1 },
  { a: 'x', b: 2 },
  { b: null },
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
    switch (Math.floor(r() * (depth > 1 ? 10 : 14))) {
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
        s[pick(['minLength', 'maxLength', 'minItems', 'maxItems'])] = pick([0, 1, 2]);
        break;
      case 6:
        s.required = [...new Set(some(['a', 'b'], 2))];
        break;
      case 7:
        s.properties = { [pick(['a', 'b'])]: { type: pick(TYPES) } };
        break;
      case 8:
        s.additionalProperties = pick([true, false]);
        break;
      case 9:
        s.pattern = pick(['^a', 'b$', '^[a-c]+$', '^[a-z]*$', 'z']);
        break;
      case 10:
        s.anyOf = Array.from({ length: 1 + Math.floor(r() * 3) }, () => schema(depth + 1));
        break;
      case 11:
        s.oneOf = Array.from({ length: 1 + Math.floor(r() * 3) }, () => schema(depth + 1));
        break;
      case 12:
        s.allOf = Array.from({ length: 1 + Math.floor(r() * 2) }, () => schema(depth + 1));
        break;
      default:
        s.items = schema(depth + 1);
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

/** ajv's generated code fails on a few nested oneOf/additionalProperties schemas ("props0 is not defined"). */
export function isAjvBug(e: unknown): boolean {
  return e instanceof ReferenceError && /props\d+ is not defined/.test(e.message);
}
