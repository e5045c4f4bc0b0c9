// clause T37: the view oracle (conformance/lib/diagnostics-view.ts), pure: a connection's frames in wire
// order in, the breaches of the subscriber's view out.
import { describe, expect, it } from 'vitest';
import { DIAGNOSTICS_CHANGED, diagnosticsViewOracle, type ObservedFrame } from '../../conformance/lib/diagnostics-view';

const A = '/ws/a.ts';
const B = '/ws/b.ts';
const err = (line: number, message = 'boom') => ({
  line,
  character: 0,
  endLine: line,
  endCharacter: 3,
  severity: 'error',
  message,
  source: 'ts',
  code: '2322',
});

const sent = (frame: unknown): ObservedFrame => ({ direction: 'sent', frame });
const got = (frame: unknown): ObservedFrame => ({ direction: 'received', frame });
const subscribe = (initial: boolean | undefined, id = 'sub', events = [DIAGNOSTICS_CHANGED]) =>
  sent({
    topic: '/app/vscode/events/subscribe',
    requestId: id,
    params: { events, ...(initial === undefined ? {} : { initial }) },
  });
const subscribed = (list: string[], id = 'sub', topic = '/app/vscode/events/subscribe') =>
  got({ topic, requestId: id, result: { subscribed: list } });
const delta = (filePath: string, added: unknown[], removed: unknown[], total: number) => ({
  filePath,
  added,
  removed,
  total,
});
const event = (...files: unknown[]) => got({ type: 'event', event: DIAGNOSTICS_CHANGED, data: { files } });
const handshake = [sent({ type: 'handshake', token: 't' }), got({ type: 'handshake', version: '0.1.7' })];

describe('the T37 view oracle', () => {
  it('does not apply without a subscription with initial: true (nor to one that failed)', () => {
    expect(diagnosticsViewOracle([...handshake, subscribe(false), subscribed([DIAGNOSTICS_CHANGED]), event()])).toEqual(
      { applied: false, events: 0, problems: [] },
    );
    expect(
      diagnosticsViewOracle([
        subscribe(true),
        got({
          topic: '/app/vscode/events/subscribe',
          requestId: 'sub',
          error: { code: 'INVALID_REQUEST', message: 'x' },
        }),
        event(delta(A, [], [err(1)], 0)),
      ]),
    ).toEqual({ applied: false, events: 0, problems: [] });
  });

  it('a consistent history passes: initial set, additions, a changed diagnostic removed and added, duplicates counted', () => {
    const out = diagnosticsViewOracle([
      ...handshake,
      subscribe(true),
      subscribed([DIAGNOSTICS_CHANGED]),
      event(delta(A, [err(1), err(1)], [], 2)), // initial: two equal diagnostics count twice
      event(delta(B, [err(4)], [], 1), delta(A, [err(2)], [err(1)], 2)),
      event(delta(A, [err(2, 'changed')], [err(2)], 2)),
      event(delta(A, [], [err(1), err(2, 'changed')], 0)),
      got({ topic: '/app/vscode/edit/find', requestId: 'x', result: { matches: [], totalCount: 0 } }),
    ]);
    expect(out).toEqual({ applied: true, events: 4, problems: [] });
  });

  it('equal in every field is the same diagnostic, whatever the key order', () => {
    const reordered = Object.fromEntries(Object.entries(err(1)).reverse());
    expect(
      diagnosticsViewOracle([
        subscribe(true),
        subscribed([DIAGNOSTICS_CHANGED]),
        event(delta(A, [err(1)], [], 1)),
        event(delta(A, [], [reordered], 0)),
      ]).problems,
    ).toEqual([]);
  });

  it('removed must be part of the view: the initial event removes nothing, and a diagnostic goes only as often as it came', () => {
    const out = diagnosticsViewOracle([
      ...handshake,
      subscribe(true),
      subscribed([DIAGNOSTICS_CHANGED]),
      event(delta(A, [err(1)], [err(9)], 1)),
      event(delta(A, [], [err(1), err(1)], 0)),
    ]);
    expect(out.problems).toEqual([
      {
        event: 1,
        received: 3,
        filePath: A,
        problem: expect.stringMatching(
          /^removed a diagnostic not in the subscriber's view \(0 before this event\): .*"line":9/,
        ),
      },
      {
        event: 2,
        received: 4,
        filePath: A,
        problem: expect.stringMatching(/^removed a diagnostic not in the subscriber's view \(1 before/),
      },
    ]);
  });

  it('total must be the size of the view after the event', () => {
    const out = diagnosticsViewOracle([
      subscribe(true),
      subscribed([DIAGNOSTICS_CHANGED]),
      event(),
      event(delta(A, [err(1)], [], 1)),
      event(delta(A, [err(2)], [], 1)), // the view holds 2 now
    ]);
    expect(out.problems).toEqual([
      {
        event: 3,
        received: 4,
        filePath: A,
        problem: 'total is 1, but the view after this event holds 2 (1 before, −0 removed, +1 added)',
      },
    ]);
  });

  it('added and removed are never both empty', () => {
    const out = diagnosticsViewOracle([subscribe(true), subscribed([DIAGNOSTICS_CHANGED]), event(delta(B, [], [], 0))]);
    expect(out.problems).toEqual([
      { event: 1, received: 2, filePath: B, problem: expect.stringMatching(/^added and removed are both empty/) },
    ]);
  });

  it('stops at the unsubscribe answer, and starts afresh at a new subscription with initial: true', () => {
    const out = diagnosticsViewOracle([
      subscribe(true),
      subscribed([DIAGNOSTICS_CHANGED]),
      event(delta(A, [err(1)], [], 1)),
      sent({ topic: '/app/vscode/events/unsubscribe', requestId: 'un', params: {} }),
      subscribed([], 'un', '/app/vscode/events/unsubscribe'),
      event(delta(A, [], [err(7)], 0)), // after the unsubscribe: T42's business, not the view's
      subscribe(true, 'sub2'),
      subscribed([DIAGNOSTICS_CHANGED], 'sub2'),
      event(delta(A, [err(2)], [], 1)), // the new initial event: A's view starts again from it
      event(delta(A, [], [err(1)], 0)), // err(1) was in the old view only
    ]);
    expect(out.applied).toBe(true);
    expect(out.problems).toEqual([
      { event: 3, received: 7, filePath: A, problem: expect.stringMatching(/^removed a diagnostic not in/) },
      {
        event: 3,
        received: 7,
        filePath: A,
        problem: expect.stringMatching(/^total is 0, but the view after this event holds 1/),
      },
    ]);
  });

  it('a second subscribe while subscribed (no initial event then) does not reset the view', () => {
    const out = diagnosticsViewOracle([
      subscribe(true),
      subscribed([DIAGNOSTICS_CHANGED]),
      event(delta(A, [err(1)], [], 1)),
      subscribe(true, 'again'),
      subscribed([DIAGNOSTICS_CHANGED], 'again'),
      event(delta(A, [], [err(1)], 0)),
    ]);
    expect(out.problems).toEqual([]);
  });

  it('leaves unreadable entries and other events to the schema check', () => {
    const out = diagnosticsViewOracle([
      subscribe(true, 'sub', [DIAGNOSTICS_CHANGED, '/app/vscode/files/changed']),
      subscribed([DIAGNOSTICS_CHANGED, '/app/vscode/files/changed']),
      got({ type: 'event', event: '/app/vscode/files/changed', data: { changes: [] } }),
      got({ type: 'event', event: DIAGNOSTICS_CHANGED, data: { files: [{ filePath: A }, 'x', null] } }),
      got({ type: 'event', event: DIAGNOSTICS_CHANGED }),
      got('not json'),
    ]);
    expect(out).toEqual({ applied: true, events: 2, problems: [] });
  });
});
