// A level the diff gives is one it can prove: ERR only where the change breaks someone, INFO only where
// it breaks no one; a change it can prove neither way is WARN and says "unproven", never ERR and never
// passed over as safe. Property tests (fast-check) over the paths that gave a level without proof:
// constraints of a type only one side allows, a `oneOf` whose branches may overlap, unrelated formats,
// index fields the diff does not classify; and the wording over random schema edits.
import { join } from 'node:path';
import { type Json, loadSpec, type Spec as SpecVersion, specVersions } from '@idea-kit/spec-lib/spec';
import Ajv2020 from 'ajv/dist/2020';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { inlineSchema } from '../../spec-tools/diff/inline';
import { diffSchemas, UNPROVEN } from '../../spec-tools/diff/schema-diff';
import type { Change, Direction } from '../../spec-tools/diff/types';
import { diffVersions } from '../../spec-tools/diff/version-diff';
import { ajvMisreads, rng, schemaGen, VALUES } from './random-schema';
import { REPO } from './scratch';
import { copySpec } from './spec-copy';

const noRefs = {
  version: '0.0.0',
  folder: 'v0.0.0',
  dir: '',
  index: {},
  docs: [],
  byPath: new Map(),
  byId: new Map(),
} as unknown as SpecVersion;

function diff(direction: Direction, a: Json, b: Json): Change[] {
  const out: Change[] = [];
  const inline = (s: Json) => inlineSchema(noRefs, 'x.schema.json', s);
  diffSchemas(inline(a), inline(b), { direction, location: 'x', emit: (c) => out.push(c) });
  return out;
}

const ajv = new Ajv2020({ strict: false });
/** The sample values the old schema allows and the new one refuses (lost), and the reverse (gained). */
function moved(a: Json, b: Json, values: readonly Json[] = VALUES): { lost: Json[]; gained: Json[] } {
  const [va, vb] = [a, b].map((s) => ajv.compile(s as object));
  return { lost: values.filter((v) => va!(v) && !vb!(v)), gained: values.filter((v) => !va!(v) && vb!(v)) };
}

const unproven = (c: Change) => c.level === 'WARN' && c.message.includes(UNPROVEN);

/** Keywords that constrain one type only, with a value that constrains it. */
const TYPED: Record<string, [string, Json][]> = {
  string: [
    ['minLength', 1],
    ['maxLength', 0],
    ['pattern', '^a'],
  ],
  number: [
    ['minimum', 5],
    ['maximum', -5],
    ['multipleOf', 7],
  ],
  array: [
    ['minItems', 2],
    ['maxItems', 0],
    ['uniqueItems', true],
    ['items', { type: 'string' }],
  ],
  object: [
    ['required', ['a']],
    ['minProperties', 2],
    ['additionalProperties', false],
    ['propertyNames', { maxLength: 0 }],
    ['dependentRequired', { a: ['b'] }],
  ],
};
const TYPE_OF_KEY: Record<string, string[]> = {
  null: ['null'],
  boolean: ['boolean'],
  integer: ['number'],
  number: ['number'],
  string: ['string'],
  array: ['array'],
  object: ['object'],
};

describe('a constraint of a type only one side allows', () => {
  const pair = fc
    .tuple(
      fc.constantFrom(...Object.keys(TYPE_OF_KEY)),
      fc.constantFrom(...Object.entries(TYPED).flatMap(([t, ks]) => ks.map(([k, v]) => ({ t, k, v })))),
    )
    .filter(([from, c]) => !TYPE_OF_KEY[from]!.includes(c.t));

  it('is no ERR for requests when the type constraint goes: only values of the dropped type are new', () => {
    fc.assert(
      fc.property(pair, ([from, { k, v }]) => {
        const a = { type: from };
        const b = { [k]: v };
        expect(moved(a, b).lost).toEqual([]); // nothing a client sent is refused now
        const request = diff('request', a, b);
        expect(request.filter((c) => c.level === 'ERR')).toEqual([]);
        expect(request.map((c) => c.kind)).toContain('type-widened');
        // For responses the widening is a break, and is said so once, by the type.
        expect(diff('response', a, b).map((c) => `${c.level} ${c.kind}`)).toEqual(['ERR type-widened']);
      }),
    );
  });

  it('is no ERR for responses when the type constraint comes: only values of the new type remain', () => {
    fc.assert(
      fc.property(pair, ([to, { k, v }]) => {
        const a = { [k]: v };
        const b = { type: to };
        expect(moved(a, b).gained).toEqual([]);
        expect(diff('response', a, b).filter((c) => c.level === 'ERR')).toEqual([]);
      }),
    );
  });
});

describe('a oneOf whose branches may overlap', () => {
  const BRANCHES: Json[] = [
    { type: 'string', minLength: 1 },
    { type: 'string', maxLength: 2 },
    { type: 'string', pattern: '^a' },
    { type: 'string', pattern: 'b$' },
  ];

  it('a branch narrowed can widen the whole: "ab" matched two branches, now one', () => {
    const a: Json = {
      oneOf: [
        { type: 'string', maxLength: 2 },
        { type: 'string', pattern: '^a' },
      ],
    };
    const b: Json = {
      oneOf: [
        { type: 'string', maxLength: 1 },
        { type: 'string', pattern: '^a' },
      ],
    };
    expect(moved(a, b, ['ab', 'bb', 'b'])).toEqual({ lost: ['bb'], gained: ['ab'] });
    for (const d of ['request', 'response'] as const) expect(diff(d, a, b).every(unproven)).toBe(true);
  });

  it('any branch edited, added or removed is WARN "unproven" both ways, never ERR or INFO', () => {
    const edit = fc.oneof(
      fc.record({ op: fc.constant('bound' as const), n: fc.integer({ min: 0, max: 4 }) }),
      fc.record({ op: fc.constantFrom('add' as const, 'remove' as const), n: fc.constant(0) }),
    );
    fc.assert(
      fc.property(fc.uniqueArray(fc.constantFrom(...BRANCHES), { minLength: 2, maxLength: 3 }), edit, (bs, e) => {
        const a = { oneOf: bs };
        const next = structuredClone(bs) as Record<string, Json>[];
        if (e.op === 'bound') next[0] = { ...next[0], maxLength: e.n };
        else if (e.op === 'add') next.push({ type: 'string', minLength: 3 });
        else next.pop();
        const b = { oneOf: next };
        if (JSON.stringify(next) === JSON.stringify(bs)) return; // the bound it had already
        for (const d of ['request', 'response'] as const) {
          const cs = diff(d, a, b);
          expect(cs.length).toBeGreaterThan(0);
          expect(cs.filter((c) => !unproven(c)).map((c) => `${c.level} ${c.kind}: ${c.message}`)).toEqual([]);
        }
      }),
    );
  });
});

describe('an `if` beside `unevaluated*`', () => {
  it('is unproven both ways: what `if` evaluates when it holds counts, so a narrower `if` refuses more', () => {
    const base = {
      type: 'object',
      properties: { b: {} },
      then: { not: { required: ['zz'] } },
      unevaluatedProperties: false,
    };
    const ifA = (a: Json): Json => ({
      ...base,
      if: { anyOf: [{ properties: { a }, required: ['a'] }, { required: ['q'] }] as Json[] },
    });
    const [a, b] = [ifA({}), ifA({ type: 'string' })];
    // By `if`/`then` alone a narrower `if` widens the whole (¬if ∨ then); here it narrows it.
    expect(moved(a, b, [{ a: 1 }, { a: 'x' }, { b: 1 }])).toEqual({ lost: [{ a: 1 }], gained: [] });
    for (const d of ['request', 'response'] as const) {
      const cs = diff(d, a, b);
      expect(cs.length).toBeGreaterThan(0);
      expect(cs.filter((c) => !unproven(c)).map((c) => `${c.level} ${c.message}`)).toEqual([]);
    }
  });
});

describe('formats', () => {
  const FORMATS = ['date', 'date-time', 'time', 'email', 'hostname', 'ipv4', 'uri', 'uri-reference', 'uuid', 'x-own'];
  const RELATED = new Set(['uri>uri-reference', 'uri-reference>uri']);

  it('a format replaced by one the diff does not relate is WARN "unproven" both ways', () => {
    fc.assert(
      fc.property(fc.uniqueArray(fc.constantFrom(...FORMATS), { minLength: 2, maxLength: 2 }), ([x, y]) => {
        for (const d of ['request', 'response'] as const) {
          const cs = diff(d, { type: 'string', format: x! }, { type: 'string', format: y! });
          if (RELATED.has(`${x}>${y}`)) expect(cs.some(unproven)).toBe(false);
          else expect(cs.map((c) => [c.level, unproven(c)])).toEqual([['WARN', true]]);
        }
      }),
    );
  });
});

describe('what the index says beside the schemas', () => {
  const SPEC = join(REPO, 'spec');
  const LATEST = loadSpec(SPEC, specVersions(SPEC).at(-1)!);
  const changed = (edit: (s: SpecVersion) => void): Change[] => {
    const b = copySpec(LATEST, '99.0.0');
    edit(b);
    return diffVersions(copySpec(LATEST), b).changes;
  };
  type Entry = Record<string, Json>;

  it('an entry field the diff does not classify is WARN "unproven", never passed over', () => {
    const edits: [string, (s: SpecVersion) => void][] = [
      ['event coalesce', (s) => void ((s.index.events![0] as unknown as Entry).coalesce = 'whole')],
      ['topic servedBy', (s) => void ((s.index.topics[0] as unknown as Entry).servedBy = 'session')],
      ['error code answers', (s) => void ((s.index.errorCodes[0] as unknown as Entry).answers = 'cancel')],
      ['an index key of its own', (s) => void ((s.index as unknown as Entry)['x-notes'] = 'new')],
    ];
    for (const [what, edit] of edits) {
      const cs = changed(edit);
      expect(
        cs.map((c) => `${c.level} ${c.path} ${unproven(c)}`),
        what,
      ).toEqual([expect.stringMatching(/^WARN \S+ true$/)]);
    }
    // A description is prose: no change.
    expect(changed((s) => void (s.index.topics[0]!.description = 'Reworded.'))).toEqual([]);
  });
});

describe('wording over random schema edits', () => {
  /** WARN levels the diff proves: a real change that breaks no one but changes behaviour. */
  const PROVEN_WARN = new Set([
    'default-changed',
    'param-conditionally-required',
    'param-conditionally-required-added',
    'param-removed',
    'field-removed',
    'opened',
  ]);

  it('"unproven" is always a WARN, and a WARN that is not proven always says "unproven"', () => {
    fc.assert(
      fc.property(fc.integer(), fc.boolean(), (seed, drop) => {
        const { schema, keyword, pick } = schemaGen(rng(seed));
        const a = schema();
        const b = structuredClone(a);
        if (drop) delete b[pick(Object.keys(b))];
        else keyword(b);
        if (ajvMisreads([a, b])) return;
        for (const d of ['request', 'response'] as const) {
          for (const c of diff(d, a, b)) {
            const says = c.message.includes(UNPROVEN);
            if (says) expect(c.level, c.message).toBe('WARN');
            if (c.level === 'WARN' && !PROVEN_WARN.has(c.kind)) expect(says, `${c.kind}: ${c.message}`).toBe(true);
          }
        }
      }),
      { numRuns: 400 },
    );
  });
});
