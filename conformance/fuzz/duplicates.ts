// Two requests in flight with one requestId: a generated request sent twice, or two different ones,
// back to back on one connection. What the text requires (T2: every request is answered; T41, 0.1.7 on:
// exactly once): two answers carrying that requestId, no third, each a conforming answer to one of the
// two requests. The reading R9 adds that a reused requestId is "answered like any other": the same
// read-only request twice must not be answered once with a result and once with an error (a should,
// reported under readings, as the suite does).

import { compareVersions } from '@idea-kit/spec-lib/version';
import fc from 'fast-check';
import { isObject } from '../../runtime/frames';
import { clauseSince } from '../lib/clauses';
import type { Connection } from '../lib/connection';
import { type Carried, carried, type FuzzInput } from './input';
import { type Answer, type JudgeContext, judge, type Problem } from './oracles';

/** The same request twice (the shrink target) or the first with a second one. */
export function duplicateArb(requests: fc.Arbitrary<FuzzInput>): fc.Arbitrary<FuzzInput> {
  return fc
    .tuple(requests, fc.option(requests, { nil: null, freq: 2 }))
    .map(([a, b]): FuzzInput => ({ ...carried(a), duplicate: { other: b === null ? null : carried(b) } }));
}

/** The two requests of a duplicate-id input. */
export function pairOf(input: FuzzInput): [Carried, Carried] {
  const first = carried(input);
  return [first, input.duplicate?.other ?? first];
}

const cut = (s: string, n = 300) => (s.length > n ? `${s.slice(0, n)}… (${s.length} chars)` : s);

export interface DuplicateOutcome {
  problems: Problem[];
  /** The connection closed (the run reopens it). */
  closed: boolean;
}

/**
 * Sends both requests with `requestId`, reads until two answers carry it (the timeout), then sends a
 * canary and counts any further answer carrying it until the canary's own arrives.
 */
export async function duplicateTrial(
  conn: Connection,
  input: FuzzInput,
  requestId: string,
  canary: { topic: string; requestId: string },
  ctx: JudgeContext & {
    version: string;
    errorsOf(topic: string): readonly string[];
    destructive(topic: string): boolean;
  },
  timeoutMs: number,
): Promise<DuplicateOutcome> {
  const [a, b] = pairOf(input);
  conn.send({ topic: a.topic, requestId, params: a.params });
  conn.send({ topic: b.topic, requestId, params: b.params });
  const answers: string[] = [];
  const extra: string[] = [];
  let close: { code: number; reason: string } | undefined;
  const read = async (until: number, done: (id: unknown) => boolean): Promise<boolean> => {
    for (;;) {
      const left = until - Date.now();
      const got = left > 0 ? await conn.next(left) : undefined;
      if (!got) return false;
      if (got.kind === 'close') {
        close = got;
        return false;
      }
      let id: unknown;
      try {
        const m = JSON.parse(got.text) as unknown;
        id = isObject(m) ? m.requestId : undefined;
      } catch {
        id = undefined;
      }
      if (id === requestId) (answers.length < 2 ? answers : extra).push(got.text);
      if (done(id)) return true;
    }
  };
  await read(Date.now() + timeoutMs, () => answers.length >= 2);
  const problems: Problem[] = [];
  const what = `two requests in flight with requestId ${JSON.stringify(requestId)} (${input.duplicate?.other ? `${a.topic} and ${b.topic}` : `the same ${a.topic} request twice`})`;
  if (close && answers.length < 2) {
    problems.push(
      ...judge(a, { kind: 'closed', code: close.code, reason: close.reason }, ctx).map((p) => ({
        ...p,
        detail: `${what}: ${p.detail}`,
      })),
    );
    return { problems, closed: true };
  }
  if (answers.length < 2)
    problems.push({
      oracle: 'unanswered',
      clause: 'T2',
      detail: `${what}: ${answers.length} answer(s) within ${timeoutMs} ms, 2 expected (every request is answered)${answers[0] ? `: ${cut(answers[0])}` : ''}`,
    });
  // Any third answer: the canary's own answer comes after whatever the server had still to send for requestId.
  let canaryAnswered = false;
  if (!close) {
    conn.send({ topic: canary.topic, requestId: canary.requestId, params: {} });
    canaryAnswered = await read(Date.now() + timeoutMs, (id) => id === canary.requestId);
  }
  if (extra.length && compareVersions(ctx.version, clauseSince('T41')) >= 0)
    problems.push({
      oracle: 'extra-answer',
      clause: 'T41',
      detail: `${what}: ${2 + extra.length} answers carry it, one each expected: ${cut(extra[0]!)}`,
    });
  // Each answer must be a conforming answer to one of the two requests (told apart by topic when they differ).
  const verdicts = answers.map((text) => {
    const answer: Answer = { kind: 'frame', text };
    let topic: unknown;
    try {
      topic = (JSON.parse(text) as { topic?: unknown }).topic;
    } catch {
      topic = undefined;
    }
    const candidates =
      a.topic !== b.topic && (topic === a.topic || topic === b.topic) ? [topic === a.topic ? a : b] : [a, b];
    const judged = candidates.map((c) => judge(c, answer, { ...ctx, errors: ctx.errorsOf(c.topic) }));
    return judged.find((ps) => ps.length === 0) ?? judged[0]!;
  });
  for (const ps of verdicts) for (const p of ps) problems.push({ ...p, detail: `${what}: ${p.detail}` });
  // R9: the same read-only request twice, answered once with a result and once with an error.
  if (
    problems.length === 0 &&
    answers.length === 2 &&
    input.duplicate?.other === null &&
    !a.invalid &&
    !ctx.destructive(a.topic)
  ) {
    const kinds = answers.map((t) => ('error' in (JSON.parse(t) as object) ? 'error' : 'result'));
    if (kinds[0] !== kinds[1])
      problems.push({
        oracle: 'reuse-refused',
        clause: 'R9',
        detail: `${what}: one answered with a result, the other with an error (a reused requestId is answered like any other): ${cut(answers[kinds[0] === 'error' ? 0 : 1]!)}`,
      });
  }
  // The canary is part of this trial: a connection that no longer answers after the pair is a finding either way.
  if (!canaryAnswered)
    problems.push({
      oracle: 'canary',
      clause: 'T1',
      detail: `after that, a request to an unknown topic on the same connection got ${close ? `a close (code ${close.code})` : `no answer within ${timeoutMs} ms`}`,
    });
  return { problems, closed: close !== undefined || conn.closed !== undefined };
}
