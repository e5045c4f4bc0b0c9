// Opt-in latency trace of the events the extension pushes, for bench/events/extension-latency.bench.ts.
// With IDEA_EVENT_TRACE=<absolute file> in the environment VS Code was started with, every event emitted
// appends one JSON line to that file: the event, the ms from the VS Code callback that led to it (entry)
// to the end of the tick that sent its frame, the ms from the emit to that point, and the callback's wall
// clock time, which the bench compares with the time its client received the frame. The path comes from the
// person launching VS Code, never from a client. Unset (normal use): eventTraceFromEnv returns undefined
// at activation and nothing else is done. VS Code-free (no `vscode` import) so it is unit-tested alone.
import { appendFileSync } from 'node:fs';
import { isAbsolute } from 'node:path';

export const EVENT_TRACE_ENV = 'IDEA_EVENT_TRACE';
/**
 * A windowed callback this much older than the next one led to no frame (its change was out of scope, or
 * changed nothing a subscriber sees, or came after its window's frame): the next one starts the clock
 * afresh. Longer than any coalescing window (50 ms) plus the lateness of a normally loaded host.
 */
export const STALE_MS = 250;

export interface EventTraceLine {
  event: string;
  /**
   * From the entry of the first VS Code callback since the event's previous frame to the end of the tick
   * that sent the frame: when a corked frame leaves (runtime/tick-cork.ts); the tick's first frame
   * leaves earlier, inside the send.
   */
  fromCallbackMs: number;
  /** From the emit (after any coalescing window) to that same point. */
  fromEmitMs: number;
  /** That callback's entry, ms since the epoch (performance.timeOrigin-based; comparable across processes). */
  callbackAt: number;
}

export interface EventTrace {
  /**
   * Wraps a VS Code callback feeding `event`. `windowed`: the event is sent later, coalesced (files,
   * editor), so the first callback since the last frame starts the clock; otherwise (diagnostics) the
   * event is emitted inside the callback or not at all.
   */
  callback<A extends unknown[]>(event: string, windowed: boolean, fn: (...args: A) => void): (...args: A) => void;
  /** Runs `send` (the emit) and records the line once its frames left: after the socket's per-tick uncork. */
  emitted(event: string, send: () => void): void;
}

export interface TraceIO {
  now(): number;
  /** performance.timeOrigin: now() + origin is the wall clock. */
  origin: number;
  append(file: string, line: string): void;
}

const realIO: TraceIO = {
  now: () => performance.now(),
  origin: performance.timeOrigin,
  append: (f, l) => appendFileSync(f, l),
};

export function eventTraceFromEnv(env: NodeJS.ProcessEnv = process.env, io: TraceIO = realIO): EventTrace | undefined {
  const file = env[EVENT_TRACE_ENV];
  if (!file || !isAbsolute(file)) return undefined;
  /** Event → entry time of the first callback not yet answered by a frame. */
  const since = new Map<string, number>();
  return {
    callback:
      (event, windowed, fn) =>
      (...args) => {
        const t = io.now();
        const s = since.get(event);
        if (!windowed || s === undefined || t - s > STALE_MS) since.set(event, t);
        try {
          fn(...args);
        } finally {
          if (!windowed) since.delete(event);
        }
      },
    emitted: (event, send) => {
      const t0 = io.now();
      const start = since.get(event) ?? t0;
      since.delete(event);
      send();
      // The ws binding corks a socket for the tick and uncorks it on process.nextTick (runtime/tick-cork.ts):
      // a tick queued after the send runs after that write.
      process.nextTick(() => {
        const t1 = io.now();
        const line: EventTraceLine = {
          event,
          fromCallbackMs: t1 - start,
          fromEmitMs: t1 - t0,
          callbackAt: io.origin + start,
        };
        try {
          io.append(file, `${JSON.stringify(line)}\n`);
        } catch {
          // tracing must never cost an event
        }
      });
    },
  };
}
