// Profiling driver (not a bench entry): where a sequential round trip goes, stage by stage, for the
// raw ws echo, a string echo, the JSON floor and the generated client + dispatcher, servers on a
// worker thread as in bench/core/roundtrip.bench.ts. Run: npx tsx bench/profiling/roundtrip-stages.mts
// Prints the median of each stage delta in µs, and in-situ client costs (see bench/FINDINGS.md,
// round-trip section). Env: N (round trips per side and round), ROUNDS, KINDS (echo, echoStr, json,
// json2, spin5, spin10, spin20, idea), NOSTAMP=1 (no server-side stamps: they perturb the timing).
import { Worker } from 'node:worker_threads';
import { WebSocket } from 'ws';
import { connect } from '../../generated/v0.1.6/client';
import { BENCH_PARAMS as PARAMS, BENCH_TOPIC as TOPIC } from '../lib/request';
import { TOKEN } from '../lib/server';

const N = Number(process.env.N ?? 5000),
  ROUNDS = Number(process.env.ROUNDS ?? 4);
const now = () => Number(process.hrtime.bigint());

const entry = new URL('./stages-worker.mts', import.meta.url).href;
const w = new Worker(
  `import('tsx/esm/api').then(({ register }) => { register(); return import(${JSON.stringify(entry)}); })`,
  { eval: true },
);
w.on('error', (e) => {
  console.error(e);
  process.exit(1);
});
const { urls } = await new Promise<{ urls: Record<string, string> }>((r) => w.once('message', r));
const ask = <T,>(m: string) =>
  new Promise<T>((r) => {
    w.once('message', r);
    w.postMessage(m);
  });

async function open(url: string): Promise<WebSocket> {
  const ws = new WebSocket(url, { perMessageDeflate: false });
  await new Promise((r) => ws.once('open', r));
  return ws;
}
type C = Record<string, number[]>;
const push = (c: C, k: string, v: number) => (c[k] ??= []).push(v);
/** First socket 'data' of each round trip (a reply split over two reads counts once, and is counted). */
const onData = (c: C) => {
  if ((c.cData?.length ?? 0) < (c.c0?.length ?? 0)) push(c, 'cData', now());
  else push(c, 'extraData', 1);
};

async function rawSide(ws: WebSocket, json: boolean, c: C): Promise<void> {
  const frame = JSON.stringify({ topic: TOPIC, requestId: crypto.randomUUID(), params: PARAMS });
  (ws as unknown as { _socket: import('node:net').Socket })._socket.prependListener('data', () => onData(c));
  let done: (() => void) | undefined;
  ws.on('message', (d: Buffer) => {
    const t = now();
    push(c, 'cMsg', t);
    if (json) {
      JSON.parse(d.toString());
      push(c, 'parse', now() - t);
    }
    done!();
  });
  for (let i = 0; i < N; i++) {
    const t0 = now();
    push(c, 'c0', t0);
    await new Promise<void>((r) => {
      done = r;
      if (!json) return ws.send(frame);
      const t1 = now();
      const f = JSON.stringify({ topic: TOPIC, requestId: crypto.randomUUID(), params: PARAMS });
      const t2 = now();
      push(c, 'stringify', t2 - t1);
      ws.send(f);
      push(c, 'send', now() - t2);
    });
    push(c, 'cDone', now());
  }
  if (json)
    for (const k of ['stringify', 'send', 'parse'])
      console.log(`  in-situ client ${k}: ${(med(c[k]!.slice(N / 5)) / 1000).toFixed(2)} µs`);
  ws.removeAllListeners('message');
}

async function ideaSide(c: C): Promise<Record<string, C>> {
  const client = await connect({ url: urls.idea!, token: TOKEN, validate: true });
  const t = (client as unknown as { transport: { socket: { _socket: import('node:net').Socket } } }).transport;
  t.socket._socket.prependListener('data', () => onData(c));
  client.onFrame(() => push(c, 'cMsg', now()));
  // In-situ client costs: request() up to the socket send, the send itself, and reply → awaited.
  const sock = t.socket as unknown as { send(d: string): void };
  const send = sock.send.bind(sock);
  sock.send = (d: string) => {
    const a = now();
    push(c, 'preSend', a);
    send(d);
    push(c, 'send', now() - a);
  };
  for (let i = 0; i < N; i++) {
    push(c, 'c0', now());
    await client.request(TOPIC, PARAMS);
    push(c, 'cDone', now());
  }
  const tail = (k: string, f: (i: number) => number) => {
    const v: number[] = [];
    for (let i = N / 5; i < N; i++) v.push(f(i));
    console.log(`  in-situ idea client ${k}: ${(med(v) / 1000).toFixed(2)} µs`);
  };
  tail('request() → socket.send', (i) => c.preSend![i]! - c.c0![i]!);
  tail('socket.send', (i) => c.send![i]!);
  tail('reply onFrame → awaited', (i) => c.cDone![i]! - c.cMsg![i]!);
  const { stamps } = await ask<{ stamps: Record<string, C> }>('stamps');
  await client.close();
  return stamps;
}

const med = (a: number[]) => {
  const s = [...a].sort((x, y) => x - y);
  return s[s.length >> 1]!;
};
const results: Record<string, Record<string, number[]>> = {};
const kinds = (process.env.KINDS ?? 'echo,echoStr,json,idea').split(',');
for (let r = 0; r < ROUNDS; r++) {
  for (const k of kinds) {
    const c: C = {};
    await ask('reset');
    // Stamps are collected before the close frame, whose bytes would add a 'data' stamp.
    let stamps: Record<string, C>;
    if (k === 'idea') stamps = await ideaSide(c);
    else {
      const ws = await open(urls[k]!);
      await rawSide(ws, k === 'json', c);
      ({ stamps } = await ask<{ stamps: Record<string, C> }>('stamps'));
      ws.close();
    }
    const s = stamps[k]!;
    // Align the last N stamps of every series (the idea server also stamped the handshake).
    const at = (a: number[] | undefined, i: number) => a![a!.length - N + i]!;
    const d = (to: number[] | undefined, from: number[] | undefined) => (i: number) => at(to, i) - at(from, i);
    if (process.env.NOSTAMP) {
      push((results[k] ??= {}), 'total', med(c.cDone!.map((t, i) => (t - c.c0![i]!) / 1000).slice(N / 5)));
      continue;
    }
    const stages: [string, (i: number) => number][] = [
      ['client send → server socket data', d(s.sData, c.c0)],
      ['server data → message/onFrame', d(s.sMsg, s.sData)],
      ['server message → send call', d(s.sSend, s.sMsg)],
      ['server send call → returns', d(s.sSent, s.sSend)],
      ['server send return → client socket data', d(c.cData, s.sSent)],
      ['client data → message', d(c.cMsg, c.cData)],
      ['client message → awaited', d(c.cDone, c.cMsg)],
      ['total', d(c.cDone, c.c0)],
    ];
    if (k === 'idea')
      stages.splice(
        3,
        0,
        ['  onFrame → handler start', d(s.hStart, s.sMsg)],
        ['  handler end → send call', d(s.sSend, s.hEnd)],
      );
    const out = (results[k] ??= {});
    push(out, 'extra client data events', c.extraData?.length ?? 0);
    for (const [name, f] of stages) {
      const v: number[] = [];
      for (let i = Math.floor(N / 5); i < N; i++) v.push(f(i) / 1000);
      push(out, name, med(v));
    }
  }
}
for (const k of kinds) {
  console.log(`\n${k}`);
  for (const [name, v] of Object.entries(results[k]!))
    console.log(`  ${name.padEnd(44)} ${v.map((x) => x.toFixed(1).padStart(6)).join(' ')}  µs (median per round)`);
}
w.postMessage('close');
