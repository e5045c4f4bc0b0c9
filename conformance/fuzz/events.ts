// Event subscriptions with edits around them (0.1.7 on, servers advertising files/changed or
// diagnostics/changed in the handshake `events`): subscribe with random params of the subscribe schema,
// maybe an edit/replace on the fuzz workspace, unsubscribe with random params of its schema (every event,
// or some), maybe another edit, then a watch. Every event frame must validate against its event's data
// schema and name an event subscribed to (T31); once the unsubscribe is answered, no event of a name it
// unsubscribed from may come, queued ones included (T42). Such a finding becomes an exchange case when its
// shrunk trial is one the fixture steps can replay (below).
import fc from 'fast-check';
import { eventProblem, type FrameValidators, isObject, serverFrameProblem } from '../../runtime/frames';
import type { Connection } from '../lib/connection';
import type { FuzzInput, SubscriptionPlan } from './input';
import type { Problem } from './oracles';

export const SUBSCRIBE = '/app/vscode/events/subscribe';
export const UNSUBSCRIBE = '/app/vscode/events/unsubscribe';
export const REPLACE = '/app/vscode/edit/replace';
/** The events fuzzed: the ones an edit on the workspace can cause. */
export const EDIT_EVENTS = ['/app/vscode/files/changed', '/app/vscode/diagnostics/changed'];
/** The edit around the unsubscribe (the fixture workspace's notes/journal.md has "draft-0"). */
export const EDIT_PARAMS = { pattern: 'draft-0', replacement: 'draft-1', include: 'notes/**' };
/** How long events are awaited after an edit, and watched for after the unsubscribe answer. */
export const SETTLE_MS = 400;

/**
 * Subscription trials: subscribe params with a non-empty subset of `events`, `initial` or not, maybe an
 * unknown field; unsubscribe params `{}` (every event: the shrink target) or a subset. fast-check shrinks
 * booleans to false, so a shrunk trial keeps an edit only when the failure needs it.
 */
export function subscriptionArb(events: readonly string[]): fc.Arbitrary<FuzzInput> {
  return fc
    .tuple(
      fc.record(
        {
          events: fc.subarray([...events], { minLength: 1 }),
          initial: fc.boolean(),
          extra: fc.constantFrom('x', 0, null),
        },
        { requiredKeys: ['events'] },
      ),
      fc.boolean(),
      fc.record({ events: fc.subarray([...events], { minLength: 1 }) }, { requiredKeys: [] }),
      fc.boolean(),
    )
    .map(
      ([params, editBefore, unsubscribe, editAfter]): FuzzInput => ({
        topic: SUBSCRIBE,
        params,
        subscription: { editBefore, unsubscribe, editAfter },
      }),
    );
}

/** The names an unsubscribe with these params stops (all of `subscribed` when it lists none). */
function stopped(unsubscribe: Record<string, unknown>, subscribed: readonly string[]): Set<string> {
  const listed = Array.isArray(unsubscribe.events) ? (unsubscribe.events as unknown[]).map(String) : undefined;
  return new Set(listed ?? subscribed);
}

function subscribedBy(params: unknown): string[] {
  return isObject(params) && Array.isArray(params.events) ? params.events.map(String) : [];
}

const cut = (s: string, n = 300) => (s.length > n ? `${s.slice(0, n)}… (${s.length} chars)` : s);

/** One subscription trial on `conn`: the problems seen (events not validating, stray or late, answers missing). */
export async function subscriptionTrial(
  conn: Connection,
  input: FuzzInput,
  n: number,
  frames: FrameValidators,
  timeoutMs: number,
): Promise<Problem[]> {
  const plan: SubscriptionPlan = input.subscription ?? { editBefore: true, unsubscribe: {}, editAfter: false };
  const problems: Problem[] = [];
  const seen = new Set<string>();
  const subscribed = subscribedBy(input.params);
  const off = stopped(plan.unsubscribe, subscribed);
  let unsubscribed = false;
  const onEvent = (msg: Record<string, unknown>, text: string) => {
    const name = String(msg.event);
    if (!subscribed.includes(name)) {
      if (!seen.has('stray'))
        problems.push({
          oracle: 'stray-event',
          clause: 'T31',
          detail: `an event of ${name}, which the connection never subscribed to (${subscribed.join(', ')}): ${cut(text)}`,
        });
      seen.add('stray');
      return;
    }
    if (unsubscribed && off.has(name)) {
      if (!seen.has('late'))
        problems.push({
          oracle: 'late-event',
          clause: 'T42',
          detail: `an event of ${name} arrived after the unsubscribe (${JSON.stringify(plan.unsubscribe)}) was answered: ${cut(text)}`,
        });
      seen.add('late');
      return;
    }
    const p = eventProblem(frames, msg);
    if (p && !seen.has(p)) {
      seen.add(p);
      problems.push({ oracle: 'event-schema', clause: 'T31', detail: `${p}: ${cut(text)}` });
    }
  };
  // Reads frames until the answer to `id` (or, without id, for `ms`); events are judged on the way.
  const read = async (id: string | undefined, ms: number): Promise<Record<string, unknown> | string> => {
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
      if (msg.type === 'event' && msg.requestId === undefined) onEvent(msg, got.text);
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
  if (plan.editBefore && (await step(REPLACE, EDIT_PARAMS, `edit-${n}`))) await read(undefined, SETTLE_MS);
  if (!(await step(UNSUBSCRIBE, plan.unsubscribe, `unsub-${n}`))) return problems;
  unsubscribed = true;
  if (plan.editAfter && !(await step(REPLACE, EDIT_PARAMS, `edit2-${n}`))) return problems;
  await read(undefined, SETTLE_MS);
  // Whatever stays subscribed goes too: the next trials start on a connection subscribed to nothing.
  if (!subscribed.every((e) => off.has(e))) await step(UNSUBSCRIBE, {}, `unsub-all-${n}`);
  return problems;
}

/**
 * A late-event finding as an exchange case, when its unsubscribe stops every name subscribed (else the
 * names left may report the edits after it). Plain steps (`expect` reads the next frame) when no event
 * is due before the unsubscribe answer (no edit before it, no `initial` state), a pause first so the
 * events of the reset before the case pass while nothing is subscribed; otherwise `await` steps, which
 * skip the events before each answer. After the unsubscribe answer, plain steps: the next frame must be
 * the edit's answer, then nothing.
 */
export function lateEventSteps(input: FuzzInput): { steps: unknown[]; events: string[]; edits: boolean } | undefined {
  const plan = input.subscription;
  if (!plan) return undefined;
  const subscribed = subscribedBy(input.params);
  const off = stopped(plan.unsubscribe, subscribed);
  if (!subscribed.every((e) => off.has(e))) return undefined;
  const initial = isObject(input.params) && input.params.initial === true;
  const answer = (topic: string, requestId: string) => ({ topic, requestId, result: { $type: 'object' } });
  const plain = !plan.editBefore && !initial;
  const before = (topic: string, requestId: string) =>
    plain ? { expect: answer(topic, requestId) } : { await: answer(topic, requestId) };
  return {
    events: subscribed,
    edits: plan.editBefore || plan.editAfter,
    steps: [
      ...(plain ? [{ sleepMs: SETTLE_MS }] : []),
      { send: { topic: SUBSCRIBE, requestId: 'sub', params: input.params } },
      before(SUBSCRIBE, 'sub'),
      ...(plan.editBefore
        ? [
            { send: { topic: REPLACE, requestId: 'edit', params: EDIT_PARAMS } },
            before(REPLACE, 'edit'),
            { sleepMs: SETTLE_MS },
          ]
        : []),
      { send: { topic: UNSUBSCRIBE, requestId: 'unsub', params: plan.unsubscribe } },
      before(UNSUBSCRIBE, 'unsub'),
      ...(plan.editAfter
        ? [
            { send: { topic: REPLACE, requestId: 'edit-after', params: EDIT_PARAMS } },
            { expect: answer(REPLACE, 'edit-after') },
          ]
        : []),
      { expectSilence: SETTLE_MS },
    ],
  };
}
