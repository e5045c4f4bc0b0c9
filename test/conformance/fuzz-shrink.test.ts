// Shrinking keeps a finding's kind: its oracle on its subject, and what a case written from it expects
// (valid params, or T8's / T10's error). Here against a stand-in trial, no server: edit/find "times out"
// whenever its params carry an `exclude`, valid or not, so invalid params could shrink to valid ones
// that fail the same way. And a finding whose shrunk labels do not hold is written as first found.
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { type TopicModel, topicArb } from '../../conformance/fuzz/generate';
import type { FuzzInput } from '../../conformance/fuzz/input';
import { invalidClause, type Problem } from '../../conformance/fuzz/oracles';
import { asWritten, type Found, labelsHold, searchAndShrink } from '../../conformance/fuzz/shrink';
import { CURRENT_VERSION, FRAMES } from '../../generated/current';
import { loadMcpTools } from '../../generated/versions';

const FIND = '/app/vscode/edit/find';
const validatorOf = (topic: string) => FRAMES.params.get(topic);
const expects = (i: FuzzInput) => (i.invalid ? invalidClause(i) : 'valid');
const timeout: Problem = { oracle: 'timeout', clause: 'T12', detail: 'no answer within 1 ms' };
const schema: Problem = { oracle: 'schema', clause: 'T12', detail: 'result: not an object' };

async function findModel(): Promise<TopicModel> {
  const tool = (await loadMcpTools(CURRENT_VERSION))!.find((t) => t.topic === FIND)!;
  return { topic: FIND, schema: tool.inputSchema, validate: validatorOf(FIND)!, destructive: false };
}

/** Times out on any edit/find whose params are an object with `exclude`; a schema problem too when pattern is "x". */
async function trial(input: FuzzInput): Promise<Problem[]> {
  const p = input.params;
  if (typeof p !== 'object' || p === null || !('exclude' in p)) return [];
  return (p as { pattern?: unknown }).pattern === 'x' ? [schema, timeout] : [timeout];
}

describe('shrinking', () => {
  it('keeps what the case expects: invalid params that time out never shrink to valid ones (and back)', async () => {
    const arb = topicArb(await findModel(), { workspace: '/nonexistent/ws', files: ['a.ts'] });
    const originals = new Set<string>();
    await fc.assert(
      fc.asyncProperty(fc.integer(), async (seed) => {
        const { findings } = await searchAndShrink(arb, trial, {
          seed,
          runs: 200,
          deadline: Number.POSITIVE_INFINITY,
          shrinkMs: 5000,
          known: [`${FIND} schema`], // reported already: it comes along in the shrunk problems only
        });
        expect(findings).toHaveLength(1);
        const f = findings[0]!;
        originals.add(expects(f.original));
        expect(expects(f.input), JSON.stringify({ original: f.original, shrunk: f.input })).toBe(expects(f.original));
        expect(labelsHold(f.input, validatorOf)).toBe(true);
        // The finding's own problem first, whatever else the shrunk input broke.
        expect(f.problems[0]).toBe(timeout);
        expect(f.originalProblems[0]).toBe(timeout);
      }),
      { numRuns: 25, seed: 43 },
    );
    // Every kind was tried: findings that began with valid params, with T8's and with T10's invalid ones.
    expect([...originals].sort()).toEqual(['T10', 'T8', 'valid']);
  }, 60_000);
});

describe('the finding as written', () => {
  const found = (input: FuzzInput, original: FuzzInput): Found => ({
    input,
    problems: [timeout],
    original,
    originalProblems: [timeout, schema],
    signature: `${FIND} timeout`,
    seed: 1,
    path: '0',
    shrinks: 3,
    shrinkMs: 10,
  });
  const valid: FuzzInput = { topic: FIND, params: { pattern: 'x' } };
  const invalid: FuzzInput = { topic: FIND, params: { pattern: 0 }, invalid: { field: 'pattern', rule: 'type' } };
  const validLabelledInvalid: FuzzInput = { ...valid, invalid: { field: 'pattern', rule: 'type' } };
  const invalidLabelledValid: FuzzInput = { topic: FIND, params: { pattern: 0 } };

  it('is the shrunk input when its labels hold', () => {
    expect(asWritten(found(valid, invalid), validatorOf)?.input).toBe(valid);
    expect(asWritten(found(invalid, valid), validatorOf)?.input).toBe(invalid);
  });

  it('is the input first found, with its problems, when the shrunk labels do not hold', () => {
    for (const wrong of [validLabelledInvalid, invalidLabelledValid]) {
      const w = asWritten(found(wrong, invalid), validatorOf);
      expect(w).toMatchObject({ input: invalid, problems: [timeout, schema], shrinks: 0 });
    }
  });

  it('is none when neither holds; frames are judged by how they go out, not by a label', () => {
    expect(asWritten(found(validLabelledInvalid, invalidLabelledValid), validatorOf)).toBeUndefined();
    const frame: FuzzInput = { topic: FIND, params: {}, frame: { rule: 'not-json', text: '{' } };
    expect(labelsHold(frame, validatorOf)).toBe(true);
    const pair: FuzzInput = { ...valid, duplicate: { other: invalidLabelledValid } };
    expect(labelsHold(pair, validatorOf)).toBe(false);
  });
});
