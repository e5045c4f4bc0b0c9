// A scripted server's record read back, connection by connection, in the order things happened: each
// frame the client sent judged against the spec of the version the server announced (the handshake
// first, with its token, and nothing before its success; then valid requests and cancel frames), each
// request paired with the entry of the requests array it is and with the answers the server sent for
// it. Pure: judge.ts turns it into checks.
import { type FrameValidators, isObject, problemOf } from '../../runtime/frames';
import { entryOf, type RequestEntry } from './contract';
import { hasAuth, type Recording } from './scripted-server';

export interface SentRequest {
  connection: number;
  requestId: string;
  topic: string;
  params: unknown;
  /** 0-based entry of the requests array; -1 when it is none. */
  entry: number;
  /** What the server sent back with its requestId: results and errors, in order. */
  answers: Answer[];
}

export type Answer = { kind: 'result'; result: unknown } | { kind: 'error'; code: string; message: string };

export interface Replay {
  connections: number;
  /** Hosts the client's upgrades named (the Host header). */
  hosts: string[];
  requests: SentRequest[];
  /** A handshake refusal the server sent (its error), on any connection. */
  refusal?: { code: string; message: string };
  /** Cancel frames the client sent, by connection and requestId. */
  cancels: { connection: number; requestId: string }[];
  /** What is wrong with the frames the client sent, one line each ("connection 1, frame 3: …"). */
  problems: string[];
}

export interface ReplayContext {
  entries: readonly RequestEntry[];
  /** The validators of the version the server announced (the newest known for a version too new). */
  frames: FrameValidators;
  /** The version the server announced. */
  version: string;
  capabilities: readonly string[];
  token: string;
}

/** Problems beyond this many are counted, not listed. */
const PROBLEMS_LISTED = 12;
const cut = (s: string, n = 160) => (s.length > n ? `${s.slice(0, n)}…` : s);

const parse = (text: string): unknown => {
  try {
    return JSON.parse(text);
  } catch {
    return undefined;
  }
};

export function replay(rec: Recording, ctx: ReplayContext): Replay {
  const out: Replay = {
    connections: rec.connections.length,
    hosts: rec.connections.flatMap((c) => (c.host ? [c.host] : [])),
    requests: [],
    cancels: [],
    problems: [],
  };
  const problem = (connection: number, n: number, what: string) => {
    out.problems.push(`connection ${connection}, frame ${n}: ${what}`);
  };
  for (const conn of rec.connections) {
    let sentByClient = 0;
    /** none: no reply to the handshake yet; accepted; refused. */
    let handshake: 'none' | 'accepted' | 'refused' = 'none';
    const inFlight = new Map<string, SentRequest>();
    const everSent = new Set<string>();
    for (const t of conn.traffic) {
      if (t.direction === 'closed') continue;
      const frame = parse(t.text);
      if (t.direction === 'sent') {
        if (!isObject(frame)) continue;
        if (frame.type === 'handshake') {
          if (isObject(frame.error)) {
            handshake = 'refused';
            out.refusal ??= { code: String(frame.error.code), message: String(frame.error.message) };
          } else handshake = 'accepted';
          continue;
        }
        if (typeof frame.requestId !== 'string' || frame.type === 'event') continue;
        const req = inFlight.get(frame.requestId);
        if (!req) continue;
        inFlight.delete(frame.requestId);
        req.answers.push(
          isObject(frame.error)
            ? { kind: 'error', code: String(frame.error.code), message: String(frame.error.message) }
            : { kind: 'result', result: frame.result },
        );
        continue;
      }
      // A frame the client sent.
      const n = ++sentByClient;
      if (!isObject(frame)) {
        problem(conn.id, n, `not a JSON object: ${cut(t.text)}`);
        continue;
      }
      if (n === 1) {
        if (frame.type !== 'handshake') {
          problem(conn.id, n, `the first frame is not the handshake: ${cut(t.text)}`);
          continue;
        }
        const p = problemOf(ctx.frames.handshakeRequest, frame, '');
        if (p) problem(conn.id, n, `handshake: ${p}`);
        // A client talking to a server older than the token (0.1.3) need not send it.
        if (hasAuth(ctx.version) && frame.token !== ctx.token)
          problem(
            conn.id,
            n,
            frame.token === undefined
              ? 'the handshake carries no token (IDEA_TOKEN)'
              : 'the handshake carries another token than IDEA_TOKEN',
          );
        continue;
      }
      if (handshake === 'none') problem(conn.id, n, `sent before the handshake was answered: ${cut(t.text)}`);
      else if (handshake === 'refused') problem(conn.id, n, `sent after the handshake was refused: ${cut(t.text)}`);
      if (frame.type === 'handshake') {
        problem(conn.id, n, 'a second handshake');
        continue;
      }
      if (frame.type === 'cancel') {
        if (!ctx.frames.cancel)
          problem(conn.id, n, `a cancel frame to a server of protocol ${ctx.version}, which has none`);
        else {
          const p = problemOf(ctx.frames.cancel, frame, '');
          if (p) problem(conn.id, n, `cancel frame: ${p}`);
        }
        if (typeof frame.requestId === 'string') {
          out.cancels.push({ connection: conn.id, requestId: frame.requestId });
          if (!everSent.has(frame.requestId))
            problem(conn.id, n, `a cancel frame naming no request of this connection (${cut(frame.requestId, 60)})`);
        }
        continue;
      }
      const envelope = problemOf(ctx.frames.request, frame, '');
      if (envelope) problem(conn.id, n, `request: ${envelope}: ${cut(t.text)}`);
      if (typeof frame.topic !== 'string' || typeof frame.requestId !== 'string') continue;
      if (!ctx.capabilities.includes(frame.topic))
        problem(conn.id, n, `${frame.topic} is not among the topics the server advertised`);
      const params = frame.params ?? {};
      const validate = ctx.frames.params.get(frame.topic);
      if (!validate) problem(conn.id, n, `protocol ${ctx.version} defines no topic ${frame.topic}`);
      else {
        const p = problemOf(validate, params, 'params');
        if (p) problem(conn.id, n, `${frame.topic}: ${p}`);
      }
      if (inFlight.has(frame.requestId))
        problem(
          conn.id,
          n,
          `requestId ${cut(JSON.stringify(frame.requestId), 60)} is already in flight on this connection`,
        );
      const req: SentRequest = {
        connection: conn.id,
        requestId: frame.requestId,
        topic: frame.topic,
        params: frame.params,
        entry: entryOf(ctx.entries, frame.topic, frame.params),
        answers: [],
      };
      out.requests.push(req);
      everSent.add(frame.requestId);
      if (!inFlight.has(frame.requestId)) inFlight.set(frame.requestId, req);
    }
    if (conn.dropped) out.problems.push(`connection ${conn.id}: ${conn.dropped} frames beyond the record's bound`);
  }
  if (rec.refusedConnections)
    out.problems.push(`${rec.refusedConnections} connections beyond the bound of the scripted server, refused`);
  if (out.problems.length > PROBLEMS_LISTED)
    out.problems.splice(PROBLEMS_LISTED, Infinity, `… and ${out.problems.length - PROBLEMS_LISTED} more`);
  return out;
}
