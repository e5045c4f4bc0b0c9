// Event fan-out (issue 20): events/s delivered to every one of 1 and of 64 subscribers, through the
// runtime's server (createIdeaServer: a ServerSession per connection on the ws binding, emit() → each
// subscribed session's EventQueue → its socket) vs a raw `ws` server broadcasting frames of the same
// size to as many plain `ws` clients, same run, rounds interleaved. Target ≥ 0.8× the raw broadcast.
// Servers on a thread of their own (fanout-worker.ts), subscribers here; both sides' subscribers only
// count frames. Every subscriber must get every frame (nothing coalesced or dropped), else the run fails.
//   npx tsx bench/events/fanout.bench.ts [--json out.json]      BENCH_EVENTS scales the event counts
import { Worker } from 'node:worker_threads';
import type { WebSocket } from 'ws';
import { type BenchRow, emit } from '../lib/contract';
import { openSocket } from '../lib/echo';
import { nowMs } from '../lib/stats';
import { eventFrame, FANOUT_EVENT, FANOUT_TOKEN, type FanoutKind } from './fanout-worker';

const SCALE = Number(process.env.BENCH_EVENTS ?? 1);
const TARGET = 0.8;
const ROUNDS = 3;

interface Server {
  url: string;
  /** Tells the server to push n events; resolves when it handed the last one to its sockets. */
  run(n: number): Promise<void>;
  stop(): Promise<void>;
}

async function startServer(kind: FanoutKind): Promise<Server> {
  const entry = new URL('./fanout-worker.ts', import.meta.url).href;
  const boot = `import('tsx/esm/api').then(({ register }) => { register(); return import(${JSON.stringify(entry)}); })`;
  const w = new Worker(boot, { eval: true, workerData: { fanout: kind } });
  const url = await new Promise<string>((resolve, reject) => {
    w.once('message', (m) => resolve(m.url));
    w.once('error', reject);
  });
  return {
    url,
    run: (n) =>
      new Promise((resolve) => {
        w.once('message', () => resolve());
        w.postMessage({ run: n });
      }),
    stop: async () => {
      w.postMessage({ close: true });
      await new Promise((r) => w.once('exit', r));
    },
  };
}

/** A subscriber: counts frames after its setup; `until(n)` resolves once it has n. */
interface Subscriber {
  ws: WebSocket;
  count: number;
  bytes: number;
  until(n: number): Promise<void>;
}

function counting(ws: WebSocket): Subscriber {
  let want = Infinity;
  let done: (() => void) | undefined;
  const s: Subscriber = {
    ws,
    count: 0,
    bytes: 0,
    until: (n) =>
      s.count >= n
        ? Promise.resolve()
        : new Promise((r) => {
            want = n;
            done = r;
          }),
  };
  ws.on('message', (data: Buffer) => {
    s.count++;
    s.bytes += data.length;
    if (s.count >= want) {
      want = Infinity;
      done?.();
    }
  });
  return s;
}

/** A plain ws client past the handshake, subscribed to the event (frames of its own setup not counted). */
async function ideaSubscriber(url: string): Promise<Subscriber> {
  const ws = await openSocket(url);
  const answered = new Promise<void>((resolve, reject) => {
    let frames = 0;
    const onMessage = (data: Buffer) => {
      const f = JSON.parse(String(data)) as { error?: unknown; type?: string };
      if (f.error) reject(new Error(`setup refused: ${String(data)}`));
      if (++frames === 2) {
        ws.off('message', onMessage);
        resolve();
      }
    };
    ws.on('message', onMessage);
  });
  ws.send(JSON.stringify({ type: 'handshake', token: FANOUT_TOKEN }));
  ws.send(
    JSON.stringify({ topic: '/app/vscode/events/subscribe', requestId: 's', params: { events: [FANOUT_EVENT] } }),
  );
  await answered;
  return counting(ws);
}

/** Events/s for n events to every subscriber: from the order to the last frame at the last subscriber. */
async function round(server: Server, subs: Subscriber[], n: number): Promise<number> {
  const base = subs.map((s) => s.count);
  const t0 = nowMs();
  await Promise.all([server.run(n), ...subs.map((s, i) => s.until(base[i]! + n))]);
  const ms = nowMs() - t0;
  return n / (ms / 1000);
}

async function main(): Promise<void> {
  const idea = await startServer('idea');
  const raw = await startServer('raw');
  const corked = await startServer('raw-corked');
  const rows: BenchRow[] = [];
  const frameBytes = Buffer.byteLength(eventFrame(0));
  try {
    for (const [subscribers, events] of [
      [1, 100_000],
      [64, 10_000],
    ] as const) {
      const n = Math.max(100, Math.round(events * SCALE));
      const sides = [
        { server: idea, subs: await Promise.all(Array.from({ length: subscribers }, () => ideaSubscriber(idea.url))) },
        {
          server: raw,
          subs: await Promise.all(Array.from({ length: subscribers }, async () => counting(await openSocket(raw.url)))),
        },
        {
          server: corked,
          subs: await Promise.all(
            Array.from({ length: subscribers }, async () => counting(await openSocket(corked.url))),
          ),
        },
      ];
      for (const s of sides) await round(s.server, s.subs, n / 5); // warm-up
      // Rotating rounds, best of ROUNDS per side (throughput is limited by noise from below only).
      const best = sides.map(() => 0);
      for (let k = 0; k < ROUNDS; k++)
        for (const [i, s] of sides.entries()) best[i] = Math.max(best[i]!, await round(s.server, s.subs, n));
      // Every frame arrived, and ours were the size of the baseline's (no coalescing, no `dropped`).
      const expected = n / 5 + ROUNDS * n;
      const perFrame = (subs: Subscriber[]) => subs.reduce((t, s) => t + s.bytes, 0) / (subscribers * expected);
      for (const { subs } of sides) {
        for (const s of subs)
          if (s.count !== expected) throw new Error(`a subscriber got ${s.count} frames, not ${expected}`);
        if (Math.abs(perFrame(subs) - frameBytes) > 1)
          throw new Error(`frames of ${perFrame(subs)} bytes on average, not ${frameBytes}`);
      }
      const [a, b, c] = best as [number, number, number];
      console.log(
        `${subscribers} subscriber(s): ${a.toFixed(0)} vs raw ${b.toFixed(0)}, raw corked ${c.toFixed(0)} events/s (${n} events × ${ROUNDS}, ${frameBytes} B frames)`,
      );
      const who = `${subscribers} subscriber${subscribers > 1 ? 's' : ''}`;
      rows.push(
        {
          metric: `events/s delivered to each of ${who}, ${frameBytes} B frames (baseline: raw ws broadcast)`,
          value: a,
          unit: 'events/s',
          baseline: b,
          ratio: a / b,
          target: `≥ ${TARGET}×`,
          ok: a / b >= TARGET,
        },
        {
          metric: `events/s delivered to each of ${who} (baseline: raw ws broadcast, sockets corked per tick like ours)`,
          value: a,
          unit: 'events/s',
          baseline: c,
          ratio: a / c,
          target: `≥ ${TARGET}×`,
          ok: a / c >= TARGET,
        },
      );
      for (const { subs } of sides) for (const s of subs) s.ws.terminate();
    }
  } finally {
    await Promise.all([idea.stop(), raw.stop(), corked.stop()]);
  }
  emit({ name: 'event fan-out vs raw ws broadcast', rows });
}

await main();
