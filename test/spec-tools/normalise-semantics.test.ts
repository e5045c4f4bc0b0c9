// The normal form must allow exactly the values the schema allows: random schemas built from the
// keywords the normaliser rewrites are validated by ajv before and after normalisation against the
// same sample values.

import type { JsonObject, Spec as SpecVersion } from '@idea-kit/spec-lib/spec';
import Ajv2020 from 'ajv/dist/2020';
import { describe, expect, it } from 'vitest';
import { inlineSchema } from '../../spec-tools/diff/inline';
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

class AjvMisread extends Error {}

describe('normal form semantics', () => {
  it('600 random schemas allow exactly the same sample values after normalisation', () => {
    const ajv = new Ajv2020({ strict: false, allErrors: false });
    const { schema } = schemaGen(rng(12));
    let checked = 0;
    let skipped = 0;
    for (let i = 0; i < 600; i++) {
      const original = schema();
      const normal = inlineSchema(spec, 'x.schema.json', structuredClone(original)) as JsonObject;
      try {
        if (ajvMisreads([original, normal])) throw new AjvMisread();
        const before = ajv.compile(original);
        const after = ajv.compile(normal);
        const results = VALUES.map((v) => [before(v), after(v)] as const);
        results.forEach(([b, a], j) => {
          expect({ original, normal, value: VALUES[j], valid: a }).toEqual({
            original,
            normal,
            value: VALUES[j],
            valid: b,
          });
          checked++;
        });
      } catch (e) {
        if (!isAjvBug(e) && !(e instanceof AjvMisread)) throw e;
        skipped++;
      }
    }
    expect(skipped).toBeLessThan(20);
    expect(checked).toBe((600 - skipped) * VALUES.length);
  });
});
