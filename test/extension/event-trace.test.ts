// extension/src/event-trace.ts, the opt-in IDEA_EVENT_TRACE seam: off unless an absolute path is set;
// which callback starts the clock (windowed and not, stale ones ignored); the line written only after
// the socket's per-tick uncork; a failing write never reaches the event path.
import { describe, expect, it } from 'vitest';
import { EVENT_TRACE_ENV, type EventTraceLine, eventTraceFromEnv, STALE_MS } from '../../extension/src/event-trace';
import { nextTicks } from '../support/wait';

const FILE = '/tmp/idea-trace-test.jsonl';

function traced(env: NodeJS.ProcessEnv = { [EVENT_TRACE_ENV]: FILE }) {
  const clock = { t: 0 };
  const lines: EventTraceLine[] = [];
  const order: string[] = [];
  const trace = eventTraceFromEnv(env, {
    now: () => clock.t,
    origin: 1000,
    append: (file, line) => {
      expect(file).toBe(FILE);
      order.push('traced');
      lines.push(JSON.parse(line) as EventTraceLine);
    },
  });
  return { trace: trace!, clock, lines, order };
}

describe('IDEA_EVENT_TRACE', () => {
  it('is off when unset, empty or not an absolute path', () => {
    expect(eventTraceFromEnv({})).toBeUndefined();
    expect(eventTraceFromEnv({ [EVENT_TRACE_ENV]: '' })).toBeUndefined();
    expect(eventTraceFromEnv({ [EVENT_TRACE_ENV]: 'trace.jsonl' })).toBeUndefined();
  });

  it('times an event emitted inside its callback from the callback entry', async () => {
    const { trace, clock, lines } = traced();
    const cb = trace.callback('diag', false, (n: number) => {
      clock.t += n; // the callback's own work before the emit
      trace.emitted('diag', () => {
        clock.t += 2; // the fan-out and ws.send
      });
      clock.t += 1; // the callback goes on: the corked frame leaves after it returns, so this counts
    });
    clock.t = 100;
    cb(3);
    await nextTicks();
    expect(lines).toEqual([{ event: 'diag', fromCallbackMs: 6, fromEmitMs: 3, callbackAt: 1100 }]);
  });

  it('a non-windowed callback that emitted nothing does not start the next frame’s clock', async () => {
    const { trace, clock, lines } = traced();
    const quiet = trace.callback('diag', false, () => undefined);
    const loud = trace.callback('diag', false, () => trace.emitted('diag', () => undefined));
    quiet();
    clock.t = 500;
    loud();
    await nextTicks();
    expect(lines[0]!.fromCallbackMs).toBe(0);
  });

  it('a windowed event is timed from the first callback since its last frame; stale ones are dropped', async () => {
    const { trace, clock, lines } = traced();
    const change = trace.callback('files', true, () => undefined);
    clock.t = 10;
    change();
    clock.t = 30;
    change();
    clock.t = 60; // the window fires
    trace.emitted('files', () => undefined);
    await nextTicks();
    clock.t = 100;
    change(); // out of scope: no frame follows
    clock.t = 100 + STALE_MS + 50;
    change();
    clock.t += 50;
    trace.emitted('files', () => undefined);
    await nextTicks();
    expect(lines.map((l) => l.fromCallbackMs)).toEqual([50, 50]);
  });

  it('a frame slower than STALE_MS is still timed from its callback, not hidden', async () => {
    const { trace, clock, lines } = traced();
    trace.callback('files', true, () => undefined)();
    clock.t = STALE_MS * 3; // the host was that busy
    trace.emitted('files', () => undefined);
    await nextTicks();
    expect(lines[0]!.fromCallbackMs).toBe(STALE_MS * 3);
  });

  it('writes the line after the socket’s uncork (a tick queued by the send runs first)', async () => {
    const { trace, order } = traced();
    trace.emitted('files', () => process.nextTick(() => order.push('uncorked')));
    order.push('emit returned');
    await nextTicks();
    await nextTicks();
    expect(order).toEqual(['emit returned', 'uncorked', 'traced']);
  });

  it('a failing write is swallowed', async () => {
    const trace = eventTraceFromEnv(
      { [EVENT_TRACE_ENV]: FILE },
      {
        now: () => 0,
        origin: 0,
        append: () => {
          throw new Error('disk full');
        },
      },
    )!;
    let sent = 0;
    trace.emitted('files', () => sent++);
    await nextTicks();
    await nextTicks();
    expect(sent).toBe(1);
  });
});
