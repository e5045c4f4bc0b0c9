// The diff's levels must agree with what the schemas allow: random schema pairs (one keyword added,
// replaced or removed) and the per-keyword edits of diff-keywords.cases.ts are validated by ajv
// against sample values, and a pair whose diff is empty must accept the same values, and a pair
// classified INFO only must not break anyone (no value refused any more for a request, no new value
// for a response). A new optional param with a type is INFO by convention (servers ignore unknown
// params; see docs/maintainers.md) and is left out of the random edits.

import { inlineRefs } from '@idea-kit/spec-lib/inline';
import { isObject, type Json, type Spec as SpecVersion } from '@idea-kit/spec-lib/spec';
import Ajv2020 from 'ajv/dist/2020';
import addFormats from 'ajv-formats';
import { describe, expect, it } from 'vitest';
import { inlineSchema } from '../../spec-tools/diff/inline';
import { diffSchemas } from '../../spec-tools/diff/schema-diff';
import type { Change, Direction } from '../../spec-tools/diff/types';
import { diffKeywordCase, KEYWORD_CASES, KEYWORD_SPEC } from './diff-keywords.cases';
import { ajvMisreads, isAjvBug, rng, schemaGen, VALUES } from './random-schema';

const spec = {
  version: '9.9.9',
  folder: 'v9.9.9',
  dir: '',
  index: {},
  docs: [],
  byPath: new Map(),
  byId: new Map(),
} as unknown as SpecVersion;

// CPU-bound work with no waits: on a loaded 2-core machine the keyword cases took 37 s.
const CPU_BOUND_MS = 180_000;

describe('diff soundness against ajv', () => {
  it(
    '800 random edits: no change means the same values, INFO only means nothing breaks',
    () => {
      const ajv = new Ajv2020({ strict: false });
      const { schema, keyword, pick } = schemaGen(rng(7));
      const problems: string[] = [];
      let checked = 0;
      for (let i = 0; i < 800; i++) {
        const a = schema();
        const b = structuredClone(a);
        if (Math.floor(i / 2) % 2 === 0) delete b[pick(Object.keys(b))];
        else keyword(b);
        if (ajvMisreads([a, b])) continue;
        let valid: boolean[][];
        try {
          valid = [a, b].map((s) => {
            const f = ajv.compile(s);
            return VALUES.map((v) => f(v) as boolean);
          });
        } catch (e) {
          if (!isAjvBug(e)) throw e;
          continue;
        }
        const lost = VALUES.filter((_, j) => valid[0]![j] && !valid[1]![j]);
        const gained = VALUES.filter((_, j) => !valid[0]![j] && valid[1]![j]);
        for (const direction of ['request', 'response'] as const) {
          const cs: Change[] = [];
          diffSchemas(inlineSchema(spec, 'x', a), inlineSchema(spec, 'x', b), {
            direction,
            location: 'x',
            emit: (c) => cs.push(c),
          });
          checked++;
          if (cs.some((c) => c.kind === 'param-optional-added')) continue;
          const breaking = direction === 'request' ? lost : gained;
          const infoOnly = cs.length > 0 && cs.every((c) => c.level === 'INFO');
          if ((cs.length === 0 && (lost.length > 0 || gained.length > 0)) || (infoOnly && breaking.length > 0)) {
            problems.push(
              `[${direction}] ${JSON.stringify(a)} → ${JSON.stringify(b)}: lost ${JSON.stringify(lost)}, gained ${JSON.stringify(gained)}, reported ${cs.map((c) => `${c.level} ${c.kind}`).join(', ') || 'nothing'}`,
            );
          }
        }
      }
      expect(problems).toEqual([]);
      expect(checked).toBeGreaterThan(1400);
    },
    CPU_BOUND_MS,
  );

  it(
    'every keyword edit does what its case says, and no INFO hides a break',
    () => {
      const problems: string[] = [];
      for (const k of KEYWORD_CASES) {
        const values = [...VALUES, ...(k.witnesses ?? [])];
        const valid = [k.from, k.to].map((s) => {
          // A fresh ajv per schema: cases reuse $ids. ajv judges 2020-12 whatever `$schema` says.
          const ajv = addFormats(new Ajv2020({ strict: false }));
          const f = ajv.compile(withoutDialect(inlineRefs(KEYWORD_SPEC, 'x.schema.json', s)) as object);
          return values.map((v) => f(v) as boolean);
        });
        const lost = values.filter((_, j) => valid[0]![j] && !valid[1]![j]);
        const gained = values.filter((_, j) => !valid[0]![j] && valid[1]![j]);
        const says = {
          narrows: lost.length > 0 && gained.length === 0,
          widens: gained.length > 0 && lost.length === 0,
          same: lost.length === 0 && gained.length === 0,
          annotates: lost.length === 0 && gained.length === 0,
          unproven: true,
        }[k.edit];
        const what = `${k.keyword} ${k.edit} ${JSON.stringify(k.from)} → ${JSON.stringify(k.to)}: lost ${JSON.stringify(lost)}, gained ${JSON.stringify(gained)}`;
        if (!says) problems.push(`not what the case says: ${what}`);
        for (const direction of ['request', 'response'] as Direction[]) {
          const cs = diffKeywordCase(k, direction);
          const breaking = direction === 'request' ? lost : gained;
          if (cs.length === 0 && (lost.length > 0 || gained.length > 0))
            problems.push(`[${direction}] nothing reported: ${what}`);
          if (cs.length > 0 && cs.every((c) => c.level === 'INFO') && breaking.length > 0)
            problems.push(`[${direction}] INFO only: ${what}`);
        }
      }
      expect(problems).toEqual([]);
    },
    CPU_BOUND_MS,
  );
});

function withoutDialect(x: Json): Json {
  if (Array.isArray(x)) return x.map(withoutDialect);
  if (!isObject(x)) return x;
  return Object.fromEntries(
    Object.entries(x)
      .filter(([k]) => k !== '$schema')
      .map(([k, v]) => [k, withoutDialect(v)]),
  );
}
