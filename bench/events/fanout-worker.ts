// The fan-out bench's server, on its own thread (as in real use the server is another process than its
// subscribers). `idea`: createIdeaServer of the served version (one ServerSession per connection on the
// runtime's ws binding, token auth, the events advertised) and events pushed through its emit() — the
// path the extension's events take. `raw`: a plain `ws` server sending one prebuilt frame of the same
// size to every socket; `raw-corked`: the same, its sockets corked per tick as the runtime's binding
// corks them (the baseline with the same write batching: what is left is the protocol layers' cost). Both are paced alike: a burst of BURST events, then, while any socket holds
// more than PACE_BYTES unsent, wait — so the idea side never reaches its event queue's high-water mark
// (nothing is coalesced or dropped; the bench checks every subscriber got every frame).
import type { AddressInfo } from 'node:net';
import { parentPort, workerData } from 'node:worker_threads';
import { type WebSocket, WebSocketServer } from 'ws';
import { type Handlers, SERVER_PROTOCOL } from '../../generated/current';
import { createIdeaServer } from '../../runtime/idea-server';
import { ServerSession } from '../../runtime/server-session';
import { corkPerTick } from '../../runtime/tick-cork';

export const FANOUT_TOKEN = 'fanout-bench-token-0123456789';
export const FANOUT_EVENT = '/app/vscode/files/changed';
/** Events emitted per burst before the loop yields to I/O. */
const BURST = 32;
/** Unsent bytes on any socket above which the loop waits (well under the queue's 1 MiB high water). */
const PACE_BYTES = 256 * 1024;

/** The event's data for event number i (same size for every i below 10^6). */
export function eventData(i: number): Record<string, unknown> {
  return { changes: [{ filePath: `/tmp/idea-bench-ws/src/file-${String(i).padStart(6, '0')}.ts`, change: 'changed' }] };
}

/** The frame the idea side puts on the wire for event i (what raw sends, byte for byte in size). */
export function eventFrame(i: number): string {
  return JSON.stringify({ type: 'event', event: FANOUT_EVENT, data: eventData(i) });
}

export type FanoutKind = 'idea' | 'raw' | 'raw-corked';

interface Side {
  url: string;
  /** Sends events 0..n-1 to every subscriber, paced; resolves when the last was handed to the sockets. */
  run(n: number): Promise<void>;
  close(): Promise<void>;
}

const tick = () => new Promise<void>((r) => setImmediate(r));

async function paced(n: number, held: () => number, one: (i: number) => void): Promise<void> {
  for (let i = 0; i < n; ) {
    const end = Math.min(n, i + BURST);
    for (; i < end; i++) one(i);
    do await tick();
    while (held() > PACE_BYTES);
  }
}

async function ideaSide(): Promise<Side> {
  const buffered: (() => number)[] = [];
  const server = await createIdeaServer<Handlers>({
    protocol: SERVER_PROTOCOL,
    port: 0,
    limits: { maxClients: 256, maxPending: 256, failedHandshakeBurst: 256 },
    handlers: () => ({}),
    auth: { required: true, token: FANOUT_TOKEN },
    workspaces: () => ['/tmp/idea-bench-ws'],
    session: { events: [FANOUT_EVENT] },
    createSession: (options) => {
      if (options.bufferedAmount) buffered.push(options.bufferedAmount);
      return new ServerSession(SERVER_PROTOCOL, options);
    },
  });
  const held = () => buffered.reduce((m, b) => Math.max(m, b()), 0);
  return {
    url: server.url,
    run: (n) => paced(n, held, (i) => server.emit(FANOUT_EVENT, eventData(i))),
    close: () => server.close(),
  };
}

/** `corked`: each socket's frames of one tick leave in one write, as the runtime's binding does (tick-cork.ts). */
async function rawSide(corked: boolean): Promise<Side> {
  const wss = new WebSocketServer({ host: '127.0.0.1', port: 0, perMessageDeflate: false });
  await new Promise<void>((resolve, reject) => wss.once('listening', resolve).once('error', reject));
  const corks = new WeakMap<WebSocket, () => void>();
  wss.on('connection', (c) => corks.set(c, corkPerTick(c)));
  const held = () => {
    let m = 0;
    for (const c of wss.clients) m = Math.max(m, c.bufferedAmount);
    return m;
  };
  return {
    url: `ws://127.0.0.1:${(wss.address() as AddressInfo).port}`,
    run: (n) =>
      paced(n, held, (i) => {
        const frame = eventFrame(i);
        for (const c of wss.clients) {
          if (corked) corks.get(c)?.();
          c.send(frame);
        }
      }),
    close: () =>
      new Promise<void>((resolve) => {
        for (const c of wss.clients) c.terminate();
        wss.close(() => resolve());
      }),
  };
}

if (parentPort && workerData?.fanout) {
  const kind = workerData.fanout as FanoutKind;
  const side = kind === 'idea' ? await ideaSide() : await rawSide(kind === 'raw-corked');
  parentPort.postMessage({ url: side.url });
  parentPort.on('message', async (m: { run?: number; close?: true }) => {
    if (m.run !== undefined) {
      await side.run(m.run);
      parentPort!.postMessage({ ran: m.run });
    } else if (m.close) {
      await side.close();
      process.exit(0);
    }
  });
}
