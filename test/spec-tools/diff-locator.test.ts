// A params change that adds a second way to name something (0.1.8's locator: line and character, or a
// name path, never both) is no break for existing clients, and the diff proves it: a new anyOf one of
// whose branches asks only for fields the old params required holds for every old request, and a
// dependentSchemas keyed on a new field binds only requests carrying that field. Checked against ajv's
// verdicts on sample requests, with the cases that must stay ERR beside them.
import type { Json, JsonObject } from '@idea-kit/spec-lib/spec';
import Ajv2020 from 'ajv/dist/2020';
import { describe, expect, it } from 'vitest';
import { inlineSchema } from '../../spec-tools/diff/inline';
import { diffSchemas } from '../../spec-tools/diff/schema-diff';
import type { Change, Direction } from '../../spec-tools/diff/types';

const noRefs = { version: '0.0.0', folder: 'v0.0.0', dir: '', index: {}, docs: [], byPath: new Map(), byId: new Map() };
function diff(a: Json, b: Json, direction: Direction = 'request'): Change[] {
  const out: Change[] = [];
  const inline = (s: Json) => inlineSchema(noRefs as never, 'x.schema.json', s);
  diffSchemas(inline(a), inline(b), { direction, location: 'x', emit: (c) => out.push(c) });
  return out;
}
const levels = (cs: Change[]) => cs.map((c) => `${c.level} ${c.kind}`).sort();

const OLD: JsonObject = {
  type: 'object',
  properties: { filePath: { type: 'string' }, line: { type: 'integer' }, character: { type: 'integer' } },
  required: ['filePath', 'line', 'character'],
};
const either: JsonObject[] = [
  { properties: { line: true, character: true }, required: ['line', 'character'] },
  { properties: { namePath: true }, required: ['namePath'] },
];
const notBoth: JsonObject = { namePath: { not: { anyOf: [{ required: ['line'] }, { required: ['character'] }] } } };
const NEW: JsonObject = {
  type: 'object',
  properties: { ...(OLD.properties as JsonObject), namePath: { type: 'string', minLength: 1 } },
  required: ['filePath'],
  anyOf: either,
  dependentSchemas: notBoth,
};

const ajv = new Ajv2020({ strict: false });
const OLD_REQUESTS: Json[] = [
  { filePath: 'a.ts', line: 1, character: 2 },
  { filePath: 'a.ts', line: 0, character: 0, extra: true },
];

describe('the locator of 0.1.8 against 0.1.7 params', () => {
  it('is INFO throughout: a new way to ask, nothing an existing client sends refused', () => {
    const cs = diff(OLD, NEW);
    expect(cs.filter((c) => c.level !== 'INFO').map((c) => c.message)).toEqual([]);
    expect(levels(cs)).toEqual([
      'INFO constraint-added-implied',
      'INFO new-field-constraint',
      'INFO param-made-optional',
      'INFO param-made-optional',
      'INFO param-optional-added',
    ]);
    // …and ajv agrees on what existing clients send.
    const [va, vb] = [ajv.compile(OLD), ajv.compile(NEW)];
    for (const r of OLD_REQUESTS) expect([va(r), vb(r)]).toEqual([true, true]);
  });

  it('stays ERR when the new anyOf asks for a field the old params did not require', () => {
    const cs = diff(OLD, { ...NEW, anyOf: [{ required: ['line', 'column'] }, either[1]!] });
    expect(levels(cs)).toContain('ERR constraint-added');
    expect(ajv.compile({ ...NEW, anyOf: [{ required: ['line', 'column'] }, either[1]!] })(OLD_REQUESTS[0])).toBe(false);
  });

  it('stays ERR when a branch constrains what it requires (only required-only branches are kept)', () => {
    const strict = [{ properties: { line: { maximum: 10 } }, required: ['line'] }, either[1]!];
    expect(levels(diff(OLD, { ...NEW, anyOf: strict }))).toContain('ERR constraint-added');
  });

  it('stays ERR for a dependentSchemas on a field existing clients already send', () => {
    const cs = diff(OLD, { ...NEW, dependentSchemas: { line: { required: ['character'] }, ...notBoth } });
    expect(levels(cs)).toContain('ERR constraint-added');
    expect(levels(cs)).toContain('INFO new-field-constraint');
  });

  it('under not the convention does not hold: the effect on the values decides', () => {
    // A constraint added inside `not` lets the whole allow more: a widening of params, INFO by its effect.
    const inner: JsonObject = { ...OLD, properties: NEW.properties as JsonObject, dependentSchemas: notBoth };
    const constraint = (cs: Change[]) => cs.filter((c) => c.kind === 'new-field-constraint');
    const req = constraint(diff({ not: OLD }, { not: inner }));
    expect(levels(req)).toEqual(['INFO new-field-constraint']);
    expect(req[0]!.message).not.toContain('existing clients do not send');
    // In a result, the same widening is what existing clients may not expect.
    expect(levels(constraint(diff({ not: OLD }, { not: inner }, 'response')))).toEqual(['ERR new-field-constraint']);
  });
});
