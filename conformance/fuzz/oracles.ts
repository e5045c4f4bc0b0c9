// What a fuzzed answer is judged by, all from the spec: the frame schemas of the version spoken, the
// topic's listed error codes, T8 (a malformed request is INVALID_REQUEST), T10 (an unusable value is an
// error), R6/H5 (a path outside the workspace is refused), the timeout, and T1 (the connection stays
// usable). The write check (nothing changes on invalid params) is run.ts's: it needs the workspace.
import { type FrameValidators, isObject, serverFrameProblem } from '../../runtime/frames';
import { CLAUSES, type Level, levelOf, type Profile, profileOf } from '../lib/clauses';
import type { FrameExpect } from './frames';
import { escapingPath } from './generate';
import { type Carried, expectsByLabel, type FuzzInput, subjectOf } from './input';
import { judgeNamePath } from './name-paths';
import type { Answer, Oracle, Problem } from './verdict';

export type { Answer, Oracle, Problem };

export interface JudgeContext {
  frames: FrameValidators;
  /** The error codes the topic lists (spec index). */
  errors: readonly string[];
  workspace: string;
}

/** The results clause of `topic` (T12 edit/find results, …), else T1. */
export function resultsClause(topic: string): string {
  for (const c of CLAUSES.values()) if (c.topic === topic) return c.id;
  return 'T1';
}

/** The clause an invalid input's expected error rests on: T8 for a malformed request, T10 for an unusable value. */
export function invalidClause(input: Carried): 'T8' | 'T10' {
  const rule = input.invalid?.rule;
  return rule === 'type' || rule === 'required' || rule === 'params' ? 'T8' : 'T10';
}

const cut = (s: string, n = 300) => (s.length > n ? `${s.slice(0, n)}… (${s.length} chars)` : s);

/** The problems with one answer to `input` (empty when it conforms). */
export function judge(input: FuzzInput, answer: Answer, ctx: JudgeContext): Problem[] {
  if (answer.kind === 'closed')
    return [
      {
        oracle: 'closed',
        clause: 'T1',
        detail: `the server closed the connection (code ${answer.code}${answer.reason ? ` ${answer.reason}` : ''}) instead of answering`,
      },
    ];
  if (answer.kind === 'timeout')
    return [{ oracle: 'timeout', clause: resultsClause(input.topic), detail: `no answer within ${answer.ms} ms` }];
  const schema = serverFrameProblem(ctx.frames, answer.text);
  if (schema)
    return [{ oracle: 'schema', clause: resultsClause(input.topic), detail: `${schema}: ${cut(answer.text)}` }];
  const frame = JSON.parse(answer.text) as Record<string, unknown>;
  const error = isObject(frame.error) ? frame.error : undefined;
  const code = error ? String(error.code) : undefined;
  if (input.invalid) {
    const clause = invalidClause(input);
    const broke = `params break ${input.invalid.rule} of ${input.invalid.field}`;
    if (code === undefined)
      return [
        {
          oracle: 'accepted-invalid',
          clause,
          detail: `${broke}, but the server answered a result: ${cut(answer.text)}`,
        },
      ];
    if (clause === 'T8' && code !== 'INVALID_REQUEST')
      return [
        {
          oracle: 'error-code',
          clause,
          detail: `${broke} (a malformed request): INVALID_REQUEST expected, got ${code}`,
        },
      ];
  }
  if (code !== undefined && !ctx.errors.includes(code))
    return [
      {
        oracle: 'error-code',
        clause: 'T10',
        detail: `error code ${code} is not one ${input.topic} lists (${ctx.errors.join(', ')})`,
      },
    ];
  const outside = escapingPath(input, ctx.workspace);
  if (outside !== undefined && code === undefined)
    return [
      {
        oracle: 'escape',
        clause: 'H5',
        detail: `filePath ${JSON.stringify(outside)} is outside the workspace, but the server answered a result: ${cut(answer.text)}`,
      },
    ];
  return judgeNamePath(input, answer);
}

const FRAME_CLAUSE = { PARSE_ERROR: 'T7', INVALID_REQUEST: 'T8', UNKNOWN_TOPIC: 'T9' } as const;

/** The problems with the answer to a malformed frame (`input.frame`), given what it must be. */
export function judgeFrame(input: FuzzInput, expect: FrameExpect, answer: Answer, ctx: JudgeContext): Problem[] {
  const what = `a frame with ${input.frame!.rule}`;
  if ('request' in expect) {
    // Answered as the request it carries (extra top-level fields may also be refused as INVALID_REQUEST).
    if (answer.kind === 'frame' && !serverFrameProblem(ctx.frames, answer.text)) {
      const frame = JSON.parse(answer.text) as Record<string, unknown>;
      const code = isObject(frame.error) ? String(frame.error.code) : undefined;
      if (expect.alsoInvalid && code === 'INVALID_REQUEST') return [];
      if (frame.topic !== expect.topic || frame.requestId !== expect.requestId)
        return [
          {
            oracle: 'echo',
            clause: 'R5',
            detail: `${what}: the answer does not echo topic and requestId: ${cut(answer.text)}`,
          },
        ];
    }
    return judge(input, answer, ctx).map((p) => ({ ...p, detail: `${what}: ${p.detail}` }));
  }
  const clause = FRAME_CLAUSE[expect.code];
  if (answer.kind === 'closed')
    return [
      {
        oracle: 'closed',
        clause: 'T1',
        detail: `${what}: the server closed the connection (code ${answer.code}${answer.reason ? ` ${answer.reason}` : ''}) instead of answering ${expect.code}`,
      },
    ];
  if (answer.kind === 'timeout')
    return [{ oracle: 'timeout', clause, detail: `${what}: no ${expect.code} within ${answer.ms} ms` }];
  const schema = serverFrameProblem(ctx.frames, answer.text);
  if (schema) return [{ oracle: 'schema', clause, detail: `${what}: ${schema}: ${cut(answer.text)}` }];
  const frame = JSON.parse(answer.text) as Record<string, unknown>;
  const error = isObject(frame.error) ? frame.error : undefined;
  if (!error)
    return [
      {
        oracle: 'accepted-invalid',
        clause,
        detail: `${what}: ${expect.code} expected, but the server answered a result: ${cut(answer.text)}`,
      },
    ];
  if (String(error.code) !== expect.code)
    return [{ oracle: 'error-code', clause, detail: `${what}: ${expect.code} expected, got ${String(error.code)}` }];
  if (!expect.topic.includes(frame.topic as string) || !expect.requestId.includes(frame.requestId as string))
    return [
      {
        oracle: 'echo',
        clause: expect.code === 'PARSE_ERROR' ? 'T7' : 'R5',
        detail: `${what}: topic ${JSON.stringify(frame.topic)} and requestId ${JSON.stringify(cut(String(frame.requestId), 60))} expected to be ${expect.topic.map((t) => JSON.stringify(t)).join(' or ')} and ${expect.requestId.map((r) => JSON.stringify(r)).join(' or ')}`,
      },
    ];
  return [];
}

/** The profile and level of a problem's clause, as the suite has them: text is core (must), a reading should, hardening security (must). */
export function gradeOf(p: Problem): { profile: Profile; level: Level } {
  const c = CLAUSES.get(p.clause);
  return c ? { profile: profileOf(c), level: levelOf(c) } : { profile: 'core', level: 'must' };
}

/** A problem's kind for deduplication: the same oracle on the same topic is the same finding. */
export function signature(topic: string, p: Problem): string {
  return `${topic} ${p.oracle}`;
}

/** What a case written from a request expects of its answer: a conforming one (valid params), or T8's / T10's error. */
function expects(r: Carried): string {
  return r.invalid ? `invalid (${invalidClause(r)})` : 'valid';
}

/**
 * What shrinking keeps of a finding: its signature, and, where the case follows the params' label, what
 * a case written from the input expects (both requests' of a duplicate id). Without the second, invalid
 * params that time out could shrink to valid ones that time out too, and the finding would stop saying
 * what was found.
 */
export function shrinkKind(input: FuzzInput, p: Problem): string {
  const sig = signature(subjectOf(input), p);
  if (!expectsByLabel(input)) return sig;
  const other = input.duplicate?.other;
  return `${sig} expecting ${expects(input)}${other ? ` and ${expects(other)}` : ''}`;
}
