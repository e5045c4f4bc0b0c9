// Direction-aware classification of single schema edits: the same edit breaks clients when it
// narrows what a server accepts (request) or widens what a server returns (response).

import type { Json, Spec as SpecVersion } from '@idea-kit/spec-lib/spec';
import { describe, expect, it } from 'vitest';
import { inlineSchema } from '../../spec-tools/diff/inline';
import { diffSchemas } from '../../spec-tools/diff/schema-diff';
import type { Change, Direction } from '../../spec-tools/diff/types';

// The version diff compares inlined schemas (refs resolved, prose conditions extracted); so do these tests.
const noRefs = {
  version: '0.0.0',
  folder: 'v0.0.0',
  dir: '',
  index: {},
  docs: [],
  byPath: new Map(),
  byId: new Map(),
} as unknown as SpecVersion;
const inline = (s: Json) => inlineSchema(noRefs, 'x.schema.json', s);

function diff(direction: Direction, a: Json, b: Json, isIndexOwnedEnum?: (v: Json[]) => boolean): Change[] {
  const out: Change[] = [];
  diffSchemas(inline(a), inline(b), {
    direction,
    location: 'x',
    emit: (c) => out.push(c),
    ...(isIndexOwnedEnum ? { isIndexOwnedEnum } : {}),
  });
  return out;
}

const summary = (cs: Change[]) => cs.map((c) => `${c.level} ${c.kind} ${c.path}`);

const obj = (properties: Record<string, Json>, required: string[] = [], extra: Record<string, Json> = {}): Json => ({
  type: 'object',
  properties,
  required,
  ...extra,
});

describe('schema diff, request direction (what a client sends)', () => {
  it('a new required param is ERR, a new optional one INFO', () => {
    const base = obj({ a: { type: 'string' } }, ['a']);
    expect(summary(diff('request', base, obj({ a: { type: 'string' }, b: { type: 'string' } }, ['a', 'b'])))).toEqual([
      'ERR param-required-added b',
    ]);
    expect(summary(diff('request', base, obj({ a: { type: 'string' }, b: { type: 'string' } }, ['a'])))).toEqual([
      'INFO param-optional-added b',
    ]);
  });

  it('an optional field whose description says it is required under a condition is WARN', () => {
    const b = obj({ token: { type: 'string', description: 'Auth token. Required when the server requires auth.' } });
    const cs = diff('request', obj({}), b);
    expect(summary(cs)).toEqual(['WARN param-conditionally-required-added token']);
    expect(cs[0]!.message).toContain('Required when the server requires auth');
  });

  it('narrowing is ERR and widening INFO: enum values, types, bounds, patterns', () => {
    const e = (...v: string[]) => obj({ s: { type: 'string', enum: v } });
    expect(summary(diff('request', e('a', 'b'), e('a')))).toEqual(['ERR enum-value-removed s']);
    expect(summary(diff('request', e('a'), e('a', 'b')))).toEqual(['INFO enum-value-added s']);
    expect(summary(diff('request', obj({ n: { type: 'number' } }), obj({ n: { type: 'integer' } })))).toEqual([
      'ERR type-narrowed n',
    ]);
    expect(summary(diff('request', obj({ n: { type: 'integer' } }), obj({ n: { type: 'number' } })))).toEqual([
      'INFO type-widened n',
    ]);
    expect(
      summary(
        diff('request', obj({ n: { type: 'integer', minimum: 0 } }), obj({ n: { type: 'integer', minimum: 1 } })),
      ),
    ).toEqual(['ERR bound-tightened n']);
    expect(
      summary(
        diff('request', obj({ n: { type: 'integer', maximum: 10 } }), obj({ n: { type: 'integer', maximum: 5 } })),
      ),
    ).toEqual(['ERR bound-tightened n']);
    expect(
      summary(diff('request', obj({ n: { type: 'integer', maximum: 5 } }), obj({ n: { type: 'integer' } }))),
    ).toEqual(['INFO bound-relaxed n']);
    expect(
      summary(diff('request', obj({ s: { type: 'string' } }), obj({ s: { type: 'string', pattern: '^a' } }))),
    ).toEqual(['ERR constraint-added s']);
    expect(
      summary(
        diff('request', obj({ s: { type: 'string', pattern: '^a' } }), obj({ s: { type: 'string', pattern: '^b' } })),
      ),
    ).toEqual(['ERR constraint-changed s']);
  });

  it('optional → required is ERR, required → optional INFO', () => {
    const p = { a: { type: 'string' } };
    expect(summary(diff('request', obj(p), obj(p, ['a'])))).toEqual(['ERR param-made-required a']);
    expect(summary(diff('request', obj(p, ['a']), obj(p)))).toEqual(['INFO param-made-optional a']);
  });

  it('a removed param is WARN while unknown params are ignored, ERR once they are refused', () => {
    const a = obj({ a: { type: 'string' }, b: { type: 'string' } });
    expect(summary(diff('request', a, obj({ a: { type: 'string' } })))).toEqual(['WARN param-removed b']);
    const cs = diff('request', a, obj({ a: { type: 'string' } }, [], { additionalProperties: false }));
    expect(summary(cs)).toEqual(['ERR param-removed b', 'ERR closed ']);
  });

  it('string → string | string[] widens (INFO); the reverse narrows (ERR)', () => {
    const one = obj({ f: { type: 'string' } });
    const many = obj({ f: { anyOf: [{ type: 'string' }, { type: 'array', items: { type: 'string' } }] } });
    expect(summary(diff('request', one, many))).toEqual(['INFO union-branch-added f']);
    expect(summary(diff('request', many, one))).toEqual(['ERR union-branch-removed f']);
  });

  it('a new conditional constraint is ERR, its removal INFO', () => {
    const plain = obj({ a: { type: 'integer' }, b: { type: 'integer' } });
    const cond = {
      ...(plain as object),
      if: { properties: { a: { const: 0 } }, required: ['a'] },
      then: { properties: { b: { const: 1 } } },
    } as Json;
    expect(summary(diff('request', plain, cond))).toEqual(['ERR constraint-added ']);
    expect(summary(diff('request', cond, plain))).toEqual(['INFO constraint-removed ']);
  });

  it('a changed default is WARN for a param clients may omit', () => {
    expect(
      summary(
        diff('request', obj({ n: { type: 'integer', default: 20 } }), obj({ n: { type: 'integer', default: 10 } })),
      ),
    ).toEqual(['WARN default-changed n']);
  });

  it('annotations alone are no change', () => {
    expect(
      diff(
        'request',
        obj({ a: { type: 'string', description: 'x', title: 'A' } }),
        obj({ a: { type: 'string', description: 'y' } }),
      ),
    ).toEqual([]);
  });
});

describe('schema diff, response direction (what a server returns)', () => {
  it('a new enum value in a result is ERR, a removed one INFO', () => {
    const e = (...v: string[]) => obj({ s: { type: 'string', enum: v } }, ['s']);
    expect(summary(diff('response', e('a'), e('a', 'b')))).toEqual(['ERR enum-value-added s']);
    expect(summary(diff('response', e('a', 'b'), e('a')))).toEqual(['INFO enum-value-removed s']);
  });

  it('a field made optional or nullable is ERR', () => {
    const p = { a: { type: 'string' } };
    expect(summary(diff('response', obj(p, ['a']), obj(p)))).toEqual(['ERR field-made-optional a']);
    expect(summary(diff('response', obj(p, ['a']), obj({ a: { type: ['string', 'null'] } }, ['a'])))).toEqual([
      'ERR made-nullable a',
    ]);
  });

  it('a removed field is ERR when it was required, WARN when optional; a new field INFO', () => {
    const ab = obj({ a: { type: 'string' }, b: { type: 'string' } }, ['a']);
    expect(summary(diff('response', ab, obj({ b: { type: 'string' } })))).toEqual(['ERR field-removed a']);
    expect(summary(diff('response', ab, obj({ a: { type: 'string' } }, ['a'])))).toEqual(['WARN field-removed b']);
    expect(summary(diff('response', obj({}), obj({ c: { type: 'integer' } }, ['c'])))).toEqual(['INFO field-added c']);
  });

  it('looks into array items and nested objects', () => {
    const list = (kind: Json) => obj({ items: { type: 'array', items: obj({ kind }, ['kind']) } }, ['items']);
    expect(summary(diff('response', list({ enum: ['a'] }), list({ enum: ['a', 'b'] })))).toEqual([
      'ERR enum-value-added items[].kind',
    ]);
  });

  it('widening a union in a result is ERR (a null alternative reads as nullable, however it is spelled)', () => {
    const one = obj({ f: { type: 'string' } }, ['f']);
    const many = obj({ f: { anyOf: [{ type: 'string' }, { type: 'array', items: { type: 'string' } }] } }, ['f']);
    expect(summary(diff('response', one, many))).toEqual(['ERR union-branch-added f']);
    const nullable = obj({ f: { anyOf: [{ type: 'string' }, { type: 'null' }] } }, ['f']);
    expect(summary(diff('response', one, nullable))).toEqual(['ERR made-nullable f']);
  });

  it('enumerations owned by the index (topic lists, error codes) are left to the index diff', () => {
    const codes = (...v: string[]) => obj({ code: { enum: v } }, ['code']);
    expect(diff('response', codes('A'), codes('A', 'B'), (vs) => vs.every((v) => v === 'A' || v === 'B'))).toEqual([]);
  });

  it('an unknown keyword change is WARN for review, never silently dropped', () => {
    expect(summary(diff('response', { type: 'string', 'x-foo': 1 }, { type: 'string', 'x-foo': 2 }))).toEqual([
      'WARN keyword-changed ',
    ]);
  });
});
