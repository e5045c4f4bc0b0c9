// Event subscriptions with an edit between them (0.1.7 on, servers advertising files/changed or
// diagnostics/changed in the handshake `events`): subscribe with random params of the subscribe schema,
// an edit/replace on the fuzz workspace, unsubscribe; every event frame must validate against its event's
// data schema (T31), and nothing may arrive once the unsubscribe is answered.
import fc from 'fast-check';
import { eventProblem, type FrameValidators, isObject, serverFrameProblem } from '../../runtime/frames';
import type { Connection } from '../lib/connection';
import type { FuzzInput } from './generate';
import type { Problem } from './oracles';

export const SUBSCRIBE = '/app/vscode/events/subscribe';
export const UNSUBSCRIBE = '/app/vscode/events/unsubscribe';
export const REPLACE = '/app/vscode/edit/replace';
/** The events fuzzed: the ones an edit on the workspace can cause. */
export const EDIT_EVENTS = ['/app/vscode/files/changed', '/app/vscode/diagnostics/changed'];
/** The edit between subscribe and unsubscribe (the fixture workspace's notes/journal.md has "draft-0"). */
export const EDIT_PARAMS = { pattern: 'draft-0', replacement: 'draft-1', include: 'notes/**' };
/** How long events are awaited after the edit, and watched for after the unsubscribe answer. */
const SETTLE_MS = 400;

/** Subscription trials: subscribe params with a non-empty subset of `events`, `initial` or not, maybe an unknown field. */
export function subscriptionArb(events: readonly string[]): fc.Arbitrary<FuzzInput> {
  return fc
    .record(
      {
        events: fc.subarray([...events], { minLength: 1 }),
        initial: fc.boolean(),
        extra: fc.constantFrom('x', 0, null),
      },
      { requiredKeys: ['events'] },
    )
    .map((params): FuzzInput => ({ topic: SUBSCRIBE, params, subscription: true }));
}

const cut = (s: string, n = 300) => (s.length > n ? `${s.slice(0, n)}… (${s.length} chars)` : s);

/** One subscription trial on `conn`: the problems seen (events not validating, events after unsubscribe, answers missing). */
export async function subscriptionTrial(
  conn: Connection,
  input: FuzzInput,
  n: number,
  frames: FrameValidators,
  timeoutMs: number,
): Promise<Problem[]> {
  const problems: Problem[] = [];
  const seen = new Set<string>();
  const onEvent = (msg: Record<string, unknown>, text: string, after: boolean) => {
    if (after) {
      problems.push({
        oracle: 'late-event',
        clause: 'T31',
        detail: `an event arrived after the unsubscribe was answered: ${cut(text)}`,
      });
      return;
    }
    const p = eventProblem(frames, msg);
    if (p && !seen.has(p)) {
      seen.add(p);
      problems.push({ oracle: 'event-schema', clause: 'T31', detail: `${p}: ${cut(text)}` });
    }
  };
  // Reads frames until the answer to `id` (or, without id, for `ms`); events are judged on the way.
  const read = async (id: string | undefined, ms: number, after = false): Promise<Record<string, unknown> | string> => {
    const until = Date.now() + ms;
    for (;;) {
      const left = until - Date.now();
      const got = left > 0 ? await conn.next(left) : undefined;
      if (!got) return id === undefined ? '' : `no answer to ${id} within ${ms} ms`;
      if (got.kind === 'close') return `the server closed the connection (code ${got.code})`;
      let msg: unknown;
      try {
        msg = JSON.parse(got.text);
      } catch {
        return `a frame that is not JSON: ${cut(got.text)}`;
      }
      if (!isObject(msg)) return `a frame that is not an object: ${cut(got.text)}`;
      if (msg.type === 'event' && msg.requestId === undefined) onEvent(msg, got.text, after);
      else if (id !== undefined && msg.requestId === id) {
        const bad = serverFrameProblem(frames, got.text);
        return bad ? `${bad}: ${cut(got.text)}` : msg;
      }
    }
  };
  const step = async (topic: string, params: unknown, id: string): Promise<boolean> => {
    conn.send({ topic, requestId: id, params });
    const answer = await read(id, timeoutMs);
    if (typeof answer === 'string' || isObject(answer.error)) {
      problems.push({
        oracle: typeof answer === 'string' ? 'closed' : 'error-code',
        clause: 'T31',
        detail: `${topic} with ${cut(JSON.stringify(params), 120)}: ${typeof answer === 'string' ? answer : `an error: ${cut(JSON.stringify(answer))}`}`,
      });
      return false;
    }
    return true;
  };
  if (!(await step(SUBSCRIBE, input.params, `sub-${n}`))) return problems;
  if (await step(REPLACE, EDIT_PARAMS, `edit-${n}`)) await read(undefined, SETTLE_MS);
  if (!(await step(UNSUBSCRIBE, {}, `unsub-${n}`))) return problems;
  await read(undefined, SETTLE_MS, true);
  return problems;
}
