// The schema normaliser (spec-tools/diff/normalise.ts): one test per rule. Equivalent spellings must
// reach the same normal form, and therefore diff as no change at all; non-equivalent ones must not.

import type { Json, JsonObject, Spec as SpecVersion } from '@idea-kit/spec-lib/spec';
import { describe, expect, it } from 'vitest';
import { inlineSchema } from '../../spec-tools/diff/inline';
import { canonical } from '../../spec-tools/diff/keywords';
import { defUse } from '../../spec-tools/diff/normalise';
import { diffSchemas } from '../../spec-tools/diff/schema-diff';
import type { Change, Direction } from '../../spec-tools/diff/types';

const DEFS = {
  $defs: {
    Name: { type: 'string', minLength: 1 },
    Point: { type: 'object', properties: { x: { type: 'integer' }, y: { type: 'integer' } }, required: ['x', 'y'] },
  },
};
const spec = {
  version: '9.9.9',
  folder: 'v9.9.9',
  dir: '',
  index: {},
  docs: [],
  byPath: new Map([['defs.schema.json', { path: 'defs.schema.json', id: '', schema: DEFS }]]),
  byId: new Map(),
} as unknown as SpecVersion;
const norm = (s: Json) => inlineSchema(spec, 'x.schema.json', s) as JsonObject;
const same = (a: Json, b: Json) => canonical(norm(a)) === canonical(norm(b));

function diff(direction: Direction, a: Json, b: Json): string[] {
  const out: Change[] = [];
  diffSchemas(norm(a), norm(b), { direction, location: 'x', emit: (c) => out.push(c) });
  return out.map((c) => `${c.level} ${c.kind}`);
}

describe('normaliser rules', () => {
  it('drops trivial keywords and sorts required', () => {
    expect(same({ type: 'object', required: ['b', 'a'] }, { type: 'object', required: ['a', 'b', 'a'] })).toBe(true);
    expect(same({ type: 'object', required: [], additionalProperties: true, properties: {} }, { type: 'object' })).toBe(
      true,
    );
    expect(same({ type: 'string', minLength: 0 }, { type: 'string' })).toBe(true);
    expect(same({ type: 'array', items: true, minItems: 0, uniqueItems: false }, { type: 'array' })).toBe(true);
    expect(same({ type: 'array', minItems: 1 }, { type: 'array' })).toBe(false);
  });

  it('reads const as a one-value enum', () => {
    expect(same({ const: 'a' }, { enum: ['a'] })).toBe(true);
    expect(same({ const: 'a' }, { enum: ['a', 'b'] })).toBe(false);
  });

  it('flattens allOf: a $ref wrapped in it, an object in parts, a base type plus added fields', () => {
    expect(same({ allOf: [{ $ref: 'defs.schema.json#/$defs/Name' }] }, { $ref: 'defs.schema.json#/$defs/Name' })).toBe(
      true,
    );
    expect(
      same(
        {
          type: 'object',
          allOf: [
            { properties: { a: { type: 'string' } }, required: ['a'] },
            { properties: { b: { type: 'integer' } } },
          ],
        },
        { type: 'object', properties: { a: { type: 'string' }, b: { type: 'integer' } }, required: ['a'] },
      ),
    ).toBe(true);
    const sub = {
      allOf: [{ $ref: 'defs.schema.json#/$defs/Point' }],
      properties: { z: { type: 'integer' } },
      required: ['z'],
    };
    expect(norm(sub).required).toEqual(['x', 'y', 'z']);
    expect(diff('response', { $ref: 'defs.schema.json#/$defs/Point' }, sub)).toEqual(['INFO field-added']);
    expect(diff('request', { $ref: 'defs.schema.json#/$defs/Point' }, sub)).toEqual(['ERR param-required-added']);
  });

  it('keeps allOf whose parts cannot merge (additionalProperties sees only its own part)', () => {
    const parts: Json = {
      allOf: [
        { properties: { a: { type: 'string' } }, additionalProperties: false },
        { properties: { b: { type: 'string' } } },
      ],
    };
    expect(norm(parts).allOf).toHaveLength(2);
  });

  it('filters enum values by type and derives the type from the values', () => {
    expect(same({ type: 'string', enum: ['a', 'b'] }, { enum: ['b', 'a'] })).toBe(true);
    expect(same({ type: 'string', enum: ['a', 1] }, { enum: ['a'] })).toBe(true);
    expect(same({ type: 'number', enum: [1, 2] }, { type: 'integer', enum: [2, 1] })).toBe(true);
  });

  it('a type list, anyOf and disjoint oneOf of types are one set of alternatives', () => {
    const list = { type: ['string', 'null'], minLength: 1 };
    expect(same(list, { anyOf: [{ type: 'null' }, { type: 'string', minLength: 1 }] })).toBe(true);
    expect(same(list, { oneOf: [{ type: 'string', minLength: 1 }, { type: 'null' }] })).toBe(true);
    expect(
      same(
        { anyOf: [{ type: 'string' }, { anyOf: [{ type: 'null' }, { type: 'boolean' }] }] },
        { type: ['boolean', 'null', 'string'] },
      ),
    ).toBe(true);
  });

  it('a oneOf whose branches overlap is not an anyOf (exactly one must hold)', () => {
    const overlap: Json = { oneOf: [{ type: 'string' }, { type: 'string', minLength: 2 }] };
    expect(same(overlap, { anyOf: [{ type: 'string' }, { type: 'string', minLength: 2 }] })).toBe(false);
  });

  it('anyOf/oneOf of consts is an enum', () => {
    expect(same({ anyOf: [{ const: 'a' }, { const: 'b' }] }, { type: 'string', enum: ['a', 'b'] })).toBe(true);
    expect(same({ oneOf: [{ const: 'a' }, { const: 1 }] }, { enum: [1, 'a'] })).toBe(true);
  });

  it('distributes the parent type over anyOf branches; a branch of another type vanishes', () => {
    expect(
      same({ type: 'string', anyOf: [{ const: 'a' }, { const: 'b' }, { type: 'null' }] }, { enum: ['a', 'b'] }),
    ).toBe(true);
    expect(same({ type: 'string', anyOf: [{ const: 'a' }, { const: 1 }] }, { enum: ['a'] })).toBe(true);
    expect(same({ enum: ['a', 'b'], anyOf: [{ const: 'a' }, { const: 'c' }] }, { enum: ['a'] })).toBe(true);
    // Nothing left: the schema allows no value.
    expect(same({ type: 'string', anyOf: [{ const: 1 }] }, { not: {} })).toBe(true);
    expect(same({ type: 'string', enum: [1] }, { not: {} })).toBe(true);
  });

  it('merges a single alternative into its parent', () => {
    expect(
      same({ anyOf: [{ type: 'string', minLength: 1 }], default: 'x' }, { type: 'string', minLength: 1, default: 'x' }),
    ).toBe(true);
  });

  it('makes integer bounds inclusive; a number keeps the tighter of minimum and exclusiveMinimum', () => {
    expect(same({ type: 'integer', exclusiveMinimum: 0 }, { type: 'integer', minimum: 1 })).toBe(true);
    expect(same({ type: 'integer', exclusiveMaximum: 10 }, { type: 'integer', maximum: 9.5 })).toBe(true);
    expect(same({ type: 'number', exclusiveMinimum: 0 }, { type: 'number', minimum: 0 })).toBe(false);
    expect(same({ type: 'number', minimum: 0, exclusiveMinimum: 0 }, { type: 'number', exclusiveMinimum: 0 })).toBe(
      true,
    );
  });

  it('drops keywords of types the schema does not allow', () => {
    expect(same({ type: 'string', minimum: 3, items: { type: 'string' } }, { type: 'string' })).toBe(true);
    expect(
      same(
        { type: ['string', 'array'], items: { type: 'string' } },
        { anyOf: [{ type: 'string' }, { type: 'array', items: { type: 'string' } }] },
      ),
    ).toBe(true);
  });

  it('reads a number with an integer multipleOf as an integer, filtering its enum again', () => {
    expect(same({ type: 'number', multipleOf: 1 }, { type: 'integer' })).toBe(true);
    expect(same({ type: 'number', multipleOf: 2 }, { type: 'integer', multipleOf: 2 })).toBe(true);
    expect(same({ type: 'number', multipleOf: 1, exclusiveMinimum: 4 }, { type: 'integer', minimum: 5 })).toBe(true);
    expect(same({ enum: [1.5, 2], multipleOf: 1 }, { enum: [2] })).toBe(true);
    expect(same({ type: 'number', multipleOf: 0.5 }, { type: 'integer' })).toBe(false);
  });

  it('one alternative, double negation, false and keywords without their partner', () => {
    const req = { type: 'object', required: ['a'] };
    expect(same({ type: 'object', anyOf: [{ required: ['a'] }] }, req)).toBe(true);
    expect(same({ type: 'object', oneOf: [{ required: ['a'] }] }, req)).toBe(true);
    expect(same({ not: { not: { type: 'string' } } }, { type: 'string' })).toBe(true);
    expect(same({ type: 'string', not: false }, { type: 'string' })).toBe(true);
    expect(
      same({ type: 'object', additionalProperties: { not: {} } }, { type: 'object', additionalProperties: false }),
    ).toBe(true);
    expect(same({ then: { required: ['a'] }, else: { required: ['b'] } }, {})).toBe(true);
    expect(same({ if: { required: ['a'] }, then: {} }, {})).toBe(true);
    expect(same({ type: 'array', minContains: 2 }, { type: 'array' })).toBe(true);
    expect(same({ contains: { type: 'string' }, minContains: 1 }, { contains: { type: 'string' } })).toBe(true);
    expect(same({ dependentRequired: { a: ['c', 'b', 'a'], b: [] } }, { dependentRequired: { a: ['b', 'c'] } })).toBe(
      true,
    );
  });

  it('keeps what marks items or properties evaluated where unevaluated* sees it', () => {
    expect(same({ type: 'array', items: true }, { type: 'array' })).toBe(true);
    expect(
      same({ type: 'array', items: true, unevaluatedItems: false }, { type: 'array', unevaluatedItems: false }),
    ).toBe(false);
    const props = { properties: { a: true } };
    expect(same({ not: { not: props } }, props)).toBe(true);
    expect(
      same({ not: { not: props }, unevaluatedProperties: false }, { ...props, unevaluatedProperties: false }),
    ).toBe(false);
  });

  it('remembers which $def a node uses, through allOf and a single anyOf branch', () => {
    const name = (s: Json) => defUse(norm(s))?.def;
    expect(name({ $ref: 'defs.schema.json#/$defs/Name' })).toBe('$defs/Name');
    expect(name({ allOf: [{ $ref: 'defs.schema.json#/$defs/Name' }], default: 'a' })).toBe('$defs/Name');
    expect(name({ anyOf: [{ $ref: 'defs.schema.json#/$defs/Name' }] })).toBe('$defs/Name');
    expect(defUse(norm({ allOf: [{ $ref: 'defs.schema.json#/$defs/Name' }], default: 'a' }))?.site).toEqual({
      default: 'a',
    });
  });
});
