// The scripted server a client is judged against: loopback, a random port, a fresh token, and behaviour
// written by the scenario (answer out of order, push an event between answers, close mid-request, …).
// It does the handshake itself, as a server of the scenario's version would (a wrong or missing token
// refused with UNAUTHORIZED from 0.1.3 on, a first frame that is not a handshake refused with
// INVALID_REQUEST), hands every request to the script, and records every frame both ways, per
// connection, in order: the judge (judge.ts) reads the record, never the socket.
//
// The client under test may be hostile: its frames are bounded in size, in number and in connections,
// and whatever it sends is only ever parsed and recorded.
import type { IncomingMessage } from 'node:http';
import type { AddressInfo } from 'node:net';
import { compareVersions } from '@idea-kit/spec-lib/version';
import { WebSocket, WebSocketServer } from 'ws';
import { frameText } from '../../runtime/frame-text';
import { clauseSince } from '../lib/clauses';
import type { Traffic } from '../lib/connection';
import { resultFor, WORKSPACE } from './answers';
import { entryOf, type RequestEntry } from './contract';

/** A request frame as it arrived, matched to the entry of the requests array it is (or -1). */
export interface ArrivedRequest {
  connection: number;
  topic: string;
  requestId: string;
  params: unknown;
  /** 0-based index into the requests array; -1 for a request the client was not asked to send. */
  entry: number;
  /** How many frames of the same entry arrived before this one (a client sending it again after a close). */
  attempt: number;
}

/** What a script can do. */
export interface ScriptIo {
  /** Every request that arrived so far, in order. */
  readonly arrivals: readonly ArrivedRequest[];
  /** Answers `req` with `result`, by default the entry's own result (answers.ts resultFor). */
  result(req: ArrivedRequest, result?: Record<string, unknown>): void;
  error(req: ArrivedRequest, code: string, message: string): void;
  /** Any frame (an object is sent as JSON, a string as it is). */
  send(connection: number, frame: unknown): void;
  close(connection: number, code: number, reason: string): void;
  /** A timer the server clears when it stops. */
  after(ms: number, fn: () => void): void;
}

export interface ServerScript {
  version: string;
  capabilities: readonly string[];
  events?: readonly string[];
  draft?: boolean;
  /** Fields added to the handshake success (the unknown-fields scenarios). */
  handshakeExtra?: Record<string, unknown>;
  /** Wait this long before answering each handshake. */
  handshakeDelayMs?: number;
  /** Refuse every handshake with UNAUTHORIZED, whatever the token. */
  refuse?: boolean;
  /** Sent on a connection right after its handshake success. */
  afterHandshake?(connection: number, io: ScriptIo): void;
  onRequest(req: ArrivedRequest, io: ScriptIo): void;
}

export interface ConnectionRecord {
  /** 1, 2, … in order of arrival. */
  id: number;
  /** The Host header of the upgrade. */
  host?: string;
  /** Every frame both ways and the close, in order: `received` from the client, `sent` to it. */
  traffic: Traffic[];
  /** Frames beyond the record's bound, counted. */
  dropped: number;
}

export interface Recording {
  connections: ConnectionRecord[];
  /** Connections refused beyond the bound. */
  refusedConnections: number;
}

export interface RunningScriptedServer {
  /** ws://127.0.0.1:<port> */
  readonly url: string;
  readonly port: number;
  readonly token: string;
  /** Stops listening, closes every connection and clears the script's timers; resolves with the record. */
  stop(): Promise<Recording>;
}

/**
 * Bounds on what a client can make the server keep: a frame's size, frames and characters recorded per
 * connection (the client's frames; the server's own are the scenario's), connections.
 */
export const SERVER_LIMITS = {
  maxPayload: 1024 * 1024,
  framesPerConnection: 2000,
  receivedCharsPerConnection: 4 * 1024 * 1024,
  connections: 50,
} as const;

const isObject = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);
const parse = (text: string): unknown => {
  try {
    return JSON.parse(text);
  } catch {
    return undefined;
  }
};

/** Whether a version has the token and `authRequired` (from the version of UNAUTHORIZED on: T5). */
export function hasAuth(version: string): boolean {
  return compareVersions(version, clauseSince('T5')) >= 0;
}

export async function startScriptedServer(
  script: ServerScript,
  entries: readonly RequestEntry[],
  token: string,
): Promise<RunningScriptedServer> {
  const wss = new WebSocketServer({ host: '127.0.0.1', port: 0, maxPayload: SERVER_LIMITS.maxPayload });
  await new Promise<void>((resolve, reject) => {
    wss.once('listening', resolve);
    wss.once('error', reject);
  });
  const { port } = wss.address() as AddressInfo;
  const records: ConnectionRecord[] = [];
  const sockets = new Map<number, WebSocket>();
  const timers = new Set<NodeJS.Timeout>();
  const arrivals: ArrivedRequest[] = [];
  let refusedConnections = 0;
  let stopped = false;

  const receivedChars = new Map<number, number>();
  const record = (rec: ConnectionRecord, t: Traffic) => {
    const chars = t.direction === 'received' ? (receivedChars.get(rec.id) ?? 0) + t.text.length : 0;
    if (rec.traffic.length >= SERVER_LIMITS.framesPerConnection || chars > SERVER_LIMITS.receivedCharsPerConnection)
      return void rec.dropped++;
    if (t.direction === 'received') receivedChars.set(rec.id, chars);
    rec.traffic.push(t);
  };
  const send = (connection: number, frame: unknown) => {
    const ws = sockets.get(connection);
    if (!ws || ws.readyState !== WebSocket.OPEN) return;
    const text = typeof frame === 'string' ? frame : JSON.stringify(frame);
    record(records[connection - 1]!, { direction: 'sent', text });
    ws.send(text);
  };
  const io: ScriptIo = {
    arrivals,
    result: (req, result) =>
      send(req.connection, {
        topic: req.topic,
        requestId: req.requestId,
        result: result ?? resultFor(req.topic, req.entry + 1),
      }),
    error: (req, code, message) =>
      send(req.connection, { topic: req.topic, requestId: req.requestId, error: { code, message } }),
    send,
    close: (connection, code, reason) => {
      const ws = sockets.get(connection);
      if (ws && ws.readyState === WebSocket.OPEN) ws.close(code, reason);
    },
    after: (ms, fn) => {
      const t = setTimeout(() => {
        timers.delete(t);
        if (!stopped) fn();
      }, ms);
      timers.add(t);
    },
  };

  wss.on('connection', (ws: WebSocket, req: IncomingMessage) => {
    if (records.length >= SERVER_LIMITS.connections) {
      refusedConnections++;
      ws.terminate();
      return;
    }
    const rec: ConnectionRecord = { id: records.length + 1, host: req.headers.host, traffic: [], dropped: 0 };
    records.push(rec);
    sockets.set(rec.id, ws);
    /** awaiting: no frame yet; answering: the handshake is being answered (the delay); open; refused. */
    let state: 'awaiting' | 'answering' | 'open' | 'refused' = 'awaiting';
    const early: Record<string, unknown>[] = [];
    ws.on('close', (code, reason) => {
      record(rec, { direction: 'closed', text: `${code}${reason.length ? ` ${reason.toString()}` : ''}` });
      sockets.delete(rec.id);
    });
    ws.on('error', () => undefined); // a client that breaks the framing: the close is recorded
    ws.on('message', (data) => {
      const text = frameText(data);
      record(rec, { direction: 'received', text });
      if (stopped) return;
      // Past the record's bound the client is flooding: it is cut off (the judge reports the frames dropped).
      if (rec.dropped) return void ws.terminate();
      const frame = parse(text);
      if (state === 'awaiting') {
        const hello = isObject(frame) && frame.type === 'handshake';
        if (!hello) {
          state = 'refused';
          send(rec.id, {
            type: 'handshake',
            error: { code: 'INVALID_REQUEST', message: 'the first frame must be the handshake' },
          });
          io.close(rec.id, 1002, 'handshake expected');
          return;
        }
        const bad = script.refuse || (hasAuth(script.version) && frame.token !== token);
        state = 'answering';
        io.after(script.handshakeDelayMs ?? 0, () => {
          if (bad) {
            state = 'refused';
            send(rec.id, { type: 'handshake', error: { code: 'UNAUTHORIZED', message: 'invalid or missing token' } });
            io.close(rec.id, 1008, 'unauthorized');
            return;
          }
          state = 'open';
          send(rec.id, {
            type: 'handshake',
            version: script.version,
            ...(hasAuth(script.version) ? { authRequired: true } : {}),
            capabilities: script.capabilities,
            workspaces: [WORKSPACE],
            ...(script.events ? { events: script.events } : {}),
            ...(script.draft !== undefined ? { draft: script.draft } : {}),
            ...script.handshakeExtra,
          });
          // Requests sent before the success are never served (T6): refused, so the client is not left waiting.
          for (const f of early.splice(0))
            send(rec.id, {
              topic: typeof f.topic === 'string' ? f.topic : '',
              requestId: typeof f.requestId === 'string' ? f.requestId : '',
              error: { code: 'INVALID_REQUEST', message: 'sent before the handshake was answered; not served' },
            });
          script.afterHandshake?.(rec.id, io);
        });
        return;
      }
      if (state === 'refused') return;
      if (state === 'answering') {
        if (isObject(frame) && early.length < SERVER_LIMITS.framesPerConnection) early.push(frame);
        return;
      }
      // open: requests go to the script; cancel frames and anything else are only recorded (judged later).
      if (!isObject(frame) || typeof frame.topic !== 'string' || typeof frame.requestId !== 'string') return;
      const entry = entryOf(entries, frame.topic, frame.params);
      const attempt = arrivals.filter((a) => a.entry === entry && entry >= 0).length;
      const arrived: ArrivedRequest = {
        connection: rec.id,
        topic: frame.topic,
        requestId: frame.requestId,
        params: frame.params,
        entry,
        attempt,
      };
      arrivals.push(arrived);
      if (entry < 0) io.error(arrived, 'HANDLER_ERROR', 'not a request of this scenario');
      else script.onRequest(arrived, io);
    });
  });

  return {
    url: `ws://127.0.0.1:${port}`,
    port,
    token,
    async stop() {
      stopped = true;
      for (const t of timers) clearTimeout(t);
      timers.clear();
      for (const ws of wss.clients) ws.terminate();
      await new Promise<void>((resolve) => wss.close(() => resolve()));
      return { connections: records, refusedConnections };
    },
  };
}
