// Frames near the server's frame bound (H4: a frame larger than the bound closes the connection with
// 1009, 16 MiB is over it). The bound is given (--frame-limit) or found once at the start: a canary
// request padded with JSON whitespace, 16 MiB first, then bisected between the largest size answered
// and the smallest closed. Trials then send a generated request padded the same way to a size just
// under the largest answered (judged as that request alone: whitespace changes nothing) or just over
// the smallest closed (closed with 1009, after which a new connection's canary is answered). Padding
// is one cached run of spaces, sliced: no 16 MiB string is built per trial.
import fc from 'fast-check';
import { isObject } from '../../runtime/frames';
import type { Connection } from '../lib/connection';
import { carried, type FuzzInput } from './input';
import type { Problem } from './oracles';

/** H4's size that is over every bound. */
export const OVER_EVERY_BOUND = 16 * 1024 * 1024;
/** How far from the bound trial sizes go (the shrink target is the bound itself). */
export const SIZE_SPAN = 64 * 1024;

export interface FrameBound {
  /** The largest frame size (bytes) known to be answered. */
  under: number;
  /** The smallest known to close the connection (with 1009, or the code it was seen with). */
  over: number;
  /** Given by --frame-limit instead of found. */
  given: boolean;
}

/** Padded requests around `bound`: under it always, over it in one trial of two. */
export function sizeArb(requests: fc.Arbitrary<FuzzInput>): fc.Arbitrary<FuzzInput> {
  return fc
    .tuple(requests, fc.boolean(), fc.integer({ min: 0, max: SIZE_SPAN }))
    .map(([r, over, offset]): FuzzInput => ({ ...carried(r), size: { over, offset } }));
}

let spaces = '';
function pad(n: number): string {
  if (n <= 0) return '';
  if (spaces.length < n) spaces = ' '.repeat(Math.max(n, 1024 * 1024));
  return spaces.slice(0, n);
}

/** The request as one JSON object followed by whitespace, `bytes` long in UTF-8 (or just the JSON when that is longer). */
export function paddedFrame(value: unknown, bytes: number): { text: string; bytes: number } {
  const json = JSON.stringify(value);
  const len = Buffer.byteLength(json);
  return { text: json + pad(bytes - len), bytes: Math.max(bytes, len) };
}

/** The size an input's frame is padded to. */
export function targetBytes(input: FuzzInput, bound: FrameBound): number {
  const { over, offset } = input.size!;
  return over ? bound.over + offset : Math.max(1, bound.under - offset);
}

/** What one padded frame got: its answer, a close, or nothing within the timeout. */
export type Reaction = { kind: 'answer'; text: string } | { kind: 'close'; code: number } | { kind: 'silence' };

/** Reads until a frame carrying `requestId` (other frames are passed over), a close, or the timeout. */
export async function reactionTo(conn: Connection, requestId: string, timeoutMs: number): Promise<Reaction> {
  const until = Date.now() + timeoutMs;
  for (;;) {
    const left = until - Date.now();
    const got = left > 0 ? await conn.next(left) : undefined;
    if (!got) return { kind: 'silence' };
    if (got.kind === 'close') return { kind: 'close', code: got.code };
    try {
      const m = JSON.parse(got.text) as unknown;
      if (isObject(m) && m.requestId === requestId) return { kind: 'answer', text: got.text };
    } catch {
      // not JSON: not its answer
    }
  }
}

const n = (b: number) => b.toLocaleString('en-US');

/** The problems with what an over-the-bound frame got (an answer before the close is tolerated, as the suite's oversize case does). */
export async function judgeOver(
  conn: Connection,
  requestId: string,
  bytes: number,
  bound: FrameBound,
  timeoutMs: number,
): Promise<Problem[]> {
  let r = await reactionTo(conn, requestId, timeoutMs);
  if (r.kind === 'answer') r = await reactionTo(conn, `${requestId}\u0000none`, timeoutMs);
  const why = `a frame of ${n(bytes)} bytes, over the bound (${bound.given ? `--frame-limit ${n(bound.under)}` : `${n(bound.over)} bytes closed the connection`})`;
  if (r.kind === 'close' && r.code === 1009) return [];
  return [
    {
      oracle: 'frame-limit',
      clause: 'H4',
      detail:
        r.kind === 'close'
          ? `${why}: closed with ${r.code}, not 1009`
          : `${why}: the connection stayed open (no close within ${timeoutMs} ms)`,
    },
  ];
}

export interface BoundSearch {
  /** Undefined when no bound was found (a 16 MiB frame answered) or the search could not finish. */
  bound?: FrameBound;
  problems: Problem[];
  /** The size of the frame each problem is about. */
  bytes?: number;
  probes: number;
}

/**
 * Finds the bound with padded canary requests (`topic` unknown, so each is answered UNKNOWN_TOPIC at
 * once): 16 MiB first (it must close the connection with 1009), then bisection to the byte.
 */
export async function findFrameBound(
  open: () => Promise<Connection>,
  topic: string,
  timeoutMs: number,
  /** Told of each probe sent (its size and head), for a finding that needs the last frames sent. */
  sent?: (line: string) => void,
): Promise<BoundSearch> {
  let conn: Connection | undefined;
  let probes = 0;
  const probe = async (bytes: number): Promise<Reaction> => {
    if (!conn || conn.closed) conn = await open();
    const requestId = `frame-bound-${++probes}`;
    const value = { topic, requestId, params: {} };
    const { text } = paddedFrame(value, bytes);
    await conn.sendTextFlushed(text, timeoutMs);
    conn.traffic.length = 0; // a connection keeps what it sent: not these
    sent?.(`${n(bytes)} bytes: ${JSON.stringify(value)}…`);
    return reactionTo(conn, requestId, timeoutMs);
  };
  const problems: Problem[] = [];
  try {
    const big = await probe(OVER_EVERY_BOUND);
    if (big.kind !== 'close' || big.code !== 1009) {
      problems.push({
        oracle: 'frame-limit',
        clause: 'H4',
        detail:
          big.kind === 'answer'
            ? `a frame of ${n(OVER_EVERY_BOUND)} bytes (16 MiB) was answered: the bound must be lower, a larger frame closing the connection with 1009`
            : big.kind === 'close'
              ? `a frame of ${n(OVER_EVERY_BOUND)} bytes (16 MiB) closed the connection with ${big.code}, not 1009`
              : `a frame of ${n(OVER_EVERY_BOUND)} bytes (16 MiB) got neither an answer nor a close within ${timeoutMs} ms`,
      });
      if (big.kind !== 'close') return { problems, bytes: OVER_EVERY_BOUND, probes };
    }
    let lo = Buffer.byteLength(JSON.stringify({ topic, requestId: 'frame-bound-1', params: {} }));
    let hi = OVER_EVERY_BOUND;
    while (hi - lo > 1) {
      const mid = Math.floor((lo + hi) / 2);
      const r = await probe(mid);
      if (r.kind === 'answer') lo = mid;
      else if (r.kind === 'close') hi = mid;
      else {
        problems.push({
          oracle: 'frame-limit',
          clause: 'H4',
          detail: `a frame of ${n(mid)} bytes got neither an answer nor a close within ${timeoutMs} ms`,
        });
        return { problems, bytes: mid, probes };
      }
    }
    return { bound: { under: lo, over: hi, given: false }, problems, bytes: OVER_EVERY_BOUND, probes };
  } finally {
    await conn?.close();
  }
}
