// What a fuzzed answer is judged by, all from the spec: the frame schemas of the version spoken, the
// topic's listed error codes, T8 (a malformed request is INVALID_REQUEST), T10 (an unusable value is an
// error), R6/H5 (a path outside the workspace is refused), the timeout, and T1 (the connection stays
// usable). The write check (nothing changes on invalid params) is run.ts's: it needs the workspace.
import { type FrameValidators, isObject, serverFrameProblem } from '../../runtime/frames';
import { CLAUSES } from '../lib/clauses';
import { escapingPath, type FuzzInput } from './generate';

export type Oracle =
  | 'closed' // the server closed the connection instead of answering
  | 'timeout' // no answer within the timeout
  | 'schema' // a frame that does not validate (result schema, error envelope)
  | 'error-code' // an error code the topic does not list, or not INVALID_REQUEST for a malformed request
  | 'accepted-invalid' // a result for params that break the schema
  | 'escape' // a result for a path outside the workspace
  | 'canary' // after a failure, the connection no longer answers
  | 'wrote' // a write topic changed the workspace on invalid params
  | 'wrote-outside'; // something appeared beside the workspace

export interface Problem {
  oracle: Oracle;
  /** The clause broken (fixture `spec`). */
  clause: string;
  detail: string;
}

export type Answer =
  | { kind: 'frame'; text: string }
  | { kind: 'timeout'; ms: number }
  | { kind: 'closed'; code: number; reason: string };

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
export function invalidClause(input: FuzzInput): 'T8' | 'T10' {
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
  return [];
}

/** A problem's kind for deduplication and shrinking: the same oracle on the same topic is the same finding. */
export function signature(topic: string, p: Problem): string {
  return `${topic} ${p.oracle}`;
}
