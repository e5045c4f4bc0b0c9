// Server side of roundtrip-stages.mts (a profiling driver, not a bench entry): the raw echo, a
// string echo, the JSON floor and the generated dispatcher, each stamping process.hrtime (one clock
// for every thread) at: socket 'data', ws 'message' / session.onFrame, handler start/end, send
// entry, send return. Stamps are posted back on request.

import type { AddressInfo } from 'node:net';
import { parentPort } from 'node:worker_threads';
import { type WebSocket, WebSocketServer } from 'ws';
import { ServerSession } from '../../generated/v0.1.6/server';
import { startWebSocketServer } from '../../runtime/ws-server';
import { constantHandlers, exampleResults, TOKEN, WORKSPACES } from '../lib/server';

const now = () => Number(process.hrtime.bigint());
type Stamps = Record<string, number[]>;
const stamps = new Map<string, Stamps>();
const STAMP = !process.env.NOSTAMP;
const rec = (kind: string, stage: string) => {
  if (!STAMP) {
    (stamps.get(kind) ?? stamps.set(kind, {}).get(kind)!).sMsg ??= [];
    return;
  }
  let s = stamps.get(kind);
  if (!s) stamps.set(kind, (s = {}));
  (s[stage] ??= []).push(now());
};
const TOPIC = '/app/vscode/edit/find';
const reply = exampleResults().get(TOPIC);

function tapData(kind: string, ws: WebSocket): void {
  const sock = (ws as unknown as { _socket: import('node:net').Socket })._socket;
  sock.prependListener('data', () => rec(kind, 'sData'));
}

async function rawServer(
  kind: string,
  onMessage: (ws: WebSocket, data: Buffer, isBinary: boolean) => void,
): Promise<string> {
  const wss = new WebSocketServer({ host: '127.0.0.1', port: 0, perMessageDeflate: false });
  wss.on('connection', (ws) => {
    tapData(kind, ws);
    ws.on('message', (data, isBinary) => {
      rec(kind, 'sMsg');
      onMessage(ws, data as Buffer, isBinary);
      rec(kind, 'sSent');
    });
  });
  await new Promise((r) => wss.once('listening', r));
  return `ws://127.0.0.1:${(wss.address() as AddressInfo).port}`;
}

const urls: Record<string, string> = {};
// Exactly bench/lib/echo.ts: the received Buffer goes back, no string round trip.
urls.echo = await rawServer('echo', (ws, data, isBinary) => {
  rec('echo', 'sSend');
  ws.send(data, { binary: isBinary });
});
// Echo through a string, as any JSON server must decode and encode.
urls.echoStr = await rawServer('echoStr', (ws, data) => {
  const t = data.toString();
  rec('echoStr', 'sSend');
  ws.send(t);
});
// Echo after a busy wait of N µs on the server: does CPU time before the reply cost 1:1?
const spin = (us: number) => {
  const end = now() + us * 1000;
  while (now() < end);
};
for (const us of [5, 10, 20])
  urls[`spin${us}`] = await rawServer(`spin${us}`, (ws, data, isBinary) => {
    spin(us);
    rec(`spin${us}`, 'sSend');
    ws.send(data, { binary: isBinary });
  });
// In-situ cost of the JSON floor's work, timed inside the server (sMsg → sSend is toString+parse+stringify).
// Exactly the JSON floor of bench/lib/echo.ts.
urls.json = await rawServer('json', (ws, data) => {
  const m = JSON.parse(data.toString());
  const f = JSON.stringify({ topic: m.topic, requestId: m.requestId, result: reply });
  rec('json', 'sSend');
  ws.send(f);
});

// The generated dispatcher behind the runtime ws binding, as startTestServer builds it.
const handlers = constantHandlers() as unknown as Record<string, (...a: unknown[]) => Promise<unknown>>;
const timed = Object.fromEntries(
  Object.entries(handlers).map(([k, h]) => [
    k,
    (...a: unknown[]) => {
      rec('idea', 'hStart');
      const p = h(...a);
      rec('idea', 'hEnd');
      return p;
    },
  ]),
);
const origUpgrade = WebSocketServer.prototype.handleUpgrade;
WebSocketServer.prototype.handleUpgrade = function (req, socket, head, cb) {
  return origUpgrade.call(this, req, socket, head, (ws, r) => {
    tapData('idea', ws);
    cb(ws, r);
  });
};
const srv = await startWebSocketServer({
  host: '127.0.0.1',
  port: 0,
  createSession: (io) => {
    const s = new ServerSession({
      handlers: timed as never,
      auth: { required: true, token: TOKEN },
      workspaces: () => WORKSPACES,
      send: (f) => {
        rec('idea', 'sSend');
        io.send(f);
        rec('idea', 'sSent');
      },
      close: io.close,
    });
    const onFrame = s.onFrame.bind(s);
    s.onFrame = (t: string) => {
      rec('idea', 'sMsg');
      onFrame(t);
    };
    return s;
  },
});
urls.idea = `ws://127.0.0.1:${srv.port}`;

// The JSON floor doing its JSON work twice: the second pass runs on warm caches, so the round-trip
// difference to `json` is the warm cost of that work, to compare with `json` minus `echoStr` (cold).
urls.json2 = await rawServer('json2', (ws, data) => {
  const text = data.toString();
  JSON.stringify({ topic: JSON.parse(text).topic, requestId: 'x', result: reply });
  const m = JSON.parse(text);
  const f = JSON.stringify({ topic: m.topic, requestId: m.requestId, result: reply });
  rec('json2', 'sSend');
  ws.send(f);
});

parentPort!.postMessage({ urls });
parentPort!.on('message', (m) => {
  if (m === 'stamps') {
    parentPort!.postMessage({ stamps: Object.fromEntries(stamps) });
    stamps.clear();
  }
  if (m === 'reset') {
    stamps.clear();
    parentPort!.postMessage('ok');
  }
  if (m === 'close') process.exit(0);
});
