// The raw `ws` echo baseline: the cheapest possible round trip over the same library, loopback and
// frame size, measured in the same run as the generated client/server so ratios survive machine noise.

import type { AddressInfo } from 'node:net';
import { WebSocket, WebSocketServer } from 'ws';
import { nowMs } from './stats';

export interface EchoServer {
  url: string;
  close(): Promise<void>;
}

/**
 * `reply` undefined: echo every frame byte for byte. Otherwise the "JSON floor": parse the frame and
 * answer {topic, requestId, result: reply}, the least work any JSON request/response server does.
 */
export async function startEchoServer(reply?: unknown): Promise<EchoServer> {
  const wss = new WebSocketServer({ host: '127.0.0.1', port: 0, perMessageDeflate: false });
  wss.on('connection', (ws) =>
    ws.on('message', (data, isBinary) => {
      if (reply === undefined) {
        ws.send(data, { binary: isBinary });
        return;
      }
      const m = JSON.parse(data.toString());
      ws.send(JSON.stringify({ topic: m.topic, requestId: m.requestId, result: reply }));
    }),
  );
  await new Promise<void>((resolve, reject) => {
    wss.once('listening', resolve);
    wss.once('error', reject);
  });
  const { port } = wss.address() as AddressInfo;
  return {
    url: `ws://127.0.0.1:${port}`,
    close: () =>
      new Promise<void>((resolve) => {
        for (const c of wss.clients) c.terminate();
        wss.close(() => resolve());
      }),
  };
}

export async function openSocket(url: string): Promise<WebSocket> {
  const ws = new WebSocket(url, { perMessageDeflate: false });
  await new Promise<void>((resolve, reject) => {
    ws.once('open', resolve);
    ws.once('error', reject);
  });
  return ws;
}

/** Sequential round trips of `frame`: one in flight at a time. Returns each latency in ms. */
export async function echoRoundTrips(ws: WebSocket, frame: string, n: number): Promise<Float64Array> {
  const lat = new Float64Array(n);
  let resolveOne: (() => void) | undefined;
  const onMessage = () => resolveOne?.();
  ws.on('message', onMessage);
  for (let i = 0; i < n; i++) {
    const t0 = nowMs();
    await new Promise<void>((resolve) => {
      resolveOne = resolve;
      ws.send(frame);
    });
    lat[i] = nowMs() - t0;
  }
  ws.off('message', onMessage);
  return lat;
}

/** Sequential JSON round trips against a JSON-floor server: the client stringifies each request and parses each reply. */
export async function jsonRoundTrips(ws: WebSocket, topic: string, params: unknown, n: number): Promise<Float64Array> {
  const lat = new Float64Array(n);
  let resolveOne: ((v: unknown) => void) | undefined;
  const onMessage = (data: Buffer) => resolveOne?.(JSON.parse(data.toString()));
  ws.on('message', onMessage);
  for (let i = 0; i < n; i++) {
    const t0 = nowMs();
    await new Promise((resolve) => {
      resolveOne = resolve;
      ws.send(JSON.stringify({ topic, requestId: crypto.randomUUID(), params }));
    });
    lat[i] = nowMs() - t0;
  }
  ws.off('message', onMessage);
  return lat;
}

/** Pipelined echo: keeps `window` frames in flight on each socket until `total` replies arrived. Returns req/s. */
export async function echoThroughput(
  sockets: WebSocket[],
  frame: string,
  total: number,
  window: number,
): Promise<number> {
  const per = Math.ceil(total / sockets.length);
  const t0 = nowMs();
  await Promise.all(
    sockets.map(
      (ws) =>
        new Promise<void>((resolve) => {
          let sent = 0,
            got = 0;
          const onMessage = () => {
            got++;
            if (sent < per) {
              sent++;
              ws.send(frame);
            }
            if (got === per) {
              ws.off('message', onMessage);
              resolve();
            }
          };
          ws.on('message', onMessage);
          for (; sent < Math.min(window, per); sent++) ws.send(frame);
        }),
    ),
  );
  return (per * sockets.length) / ((nowMs() - t0) / 1000);
}
