// Same-run A/B of two trees (not a bench entry): the generated client + dispatcher of a BASE checkout
// and of this tree, measured in one process, interleaved block by block with the raw ws echo and the
// JSON floor, so machine noise hits all four sides alike. Servers run on worker threads (as in
// bench/core/*.bench.ts); each side uses its own tree's bench/core/server-worker.ts and client.
//   git archive <commit> | tar -x -C /tmp/base && ln -s $PWD/node_modules /tmp/base/node_modules
//   npx tsx bench/profiling/ab.mts --base /tmp/base [--blocks 20] [--per-block 1000] [--rounds 3]
// Prints round-trip p50/p90 per side and ratios, then pipelined throughput (1 and 8 connections,
// alternating base/new per round; median of the rounds).
import { loadavg } from 'node:os';
import { resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import { parseArgs } from 'node:util';
import { Worker } from 'node:worker_threads';
import { echoRoundTrips, echoThroughput, jsonRoundTrips, openSocket } from '../lib/echo';
import { BENCH_PARAMS as PARAMS, BENCH_TOPIC as TOPIC } from '../lib/request';
import { nowMs, summarize } from '../lib/stats';

const { values } = parseArgs({
  options: {
    base: { type: 'string' },
    blocks: { type: 'string' },
    'per-block': { type: 'string' },
    rounds: { type: 'string' },
  },
});
if (!values.base) throw new Error('--base <dir of the other tree> is required');
const TREES = { base: resolve(values.base), new: resolve(new URL('../..', import.meta.url).pathname) };
const BLOCKS = Number(values.blocks ?? 20),
  PER_BLOCK = Number(values['per-block'] ?? 1000),
  ROUNDS = Number(values.rounds ?? 3);
const TOKEN = '3f2b8c1e-5d4a-4e7b-9c1a-2b3c4d5e6f70'; // bench/lib/server.ts

interface Client {
  request(topic: string, params: unknown): Promise<unknown>;
  close(): Promise<void>;
}
type Connect = (o: { url: string; token: string; validate: boolean }) => Promise<Client>;

async function worker(tree: string, data: object): Promise<{ url: string; stop(): Promise<void> }> {
  const entry = pathToFileURL(`${tree}/bench/core/server-worker.ts`).href;
  const w = new Worker(
    `import('tsx/esm/api').then(({ register }) => { register(); return import(${JSON.stringify(entry)}); })`,
    { eval: true, workerData: data },
  );
  const url = await new Promise<string>((res, rej) => {
    w.once('message', (m) => res(m.url));
    w.once('error', rej);
  });
  return {
    url,
    stop: async () => {
      w.postMessage('close');
      await new Promise((r) => w.once('exit', r));
    },
  };
}

const connectOf = async (tree: string): Promise<Connect> =>
  (await import(pathToFileURL(`${tree}/generated/v0.1.6/client.ts`).href)).connect;

async function ideaRoundTrips(c: Client, n: number): Promise<Float64Array> {
  const lat = new Float64Array(n);
  for (let i = 0; i < n; i++) {
    const t0 = nowMs();
    await c.request(TOPIC, PARAMS);
    lat[i] = nowMs() - t0;
  }
  return lat;
}

async function ideaThroughput(clients: Client[], total: number, window = 128): Promise<number> {
  const per = Math.ceil(total / clients.length);
  const t0 = nowMs();
  await Promise.all(
    clients.map(async (c) => {
      let sent = 0;
      const lane = async () => {
        while (sent < per) {
          sent++;
          await c.request(TOPIC, PARAMS);
        }
      };
      await Promise.all(Array.from({ length: window }, lane));
    }),
  );
  return (per * clients.length) / ((nowMs() - t0) / 1000);
}

const load = () =>
  loadavg()
    .map((x) => x.toFixed(2))
    .join(' ');
const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;
const us = (ms: number) => (ms * 1000).toFixed(1);

console.log(`A/B base=${TREES.base} new=${TREES.new}; load ${load()}`);
const servers = {
  base: await worker(TREES.base, { kind: 'idea' }),
  new: await worker(TREES.new, { kind: 'idea' }),
  echo: await worker(TREES.new, { kind: 'echo' }),
  json: await worker(TREES.new, { kind: 'json', topic: TOPIC }),
};
const connects = { base: await connectOf(TREES.base), new: await connectOf(TREES.new) };
const clients = {
  base: await connects.base({ url: servers.base.url, token: TOKEN, validate: true }),
  new: await connects.new({ url: servers.new.url, token: TOKEN, validate: true }),
};
const echo = await openSocket(servers.echo.url),
  json = await openSocket(servers.json.url);
const frame = JSON.stringify({ topic: TOPIC, requestId: crypto.randomUUID(), params: PARAMS });
const sides: [string, (n: number) => Promise<Float64Array>][] = [
  ['echo', (n) => echoRoundTrips(echo, frame, n)],
  ['json', (n) => jsonRoundTrips(json, TOPIC, PARAMS, n)],
  ['base', (n) => ideaRoundTrips(clients.base, n)],
  ['new', (n) => ideaRoundTrips(clients.new, n)],
];
for (const [, run] of sides) await run(2000);
const samples = new Map<string, number[]>(sides.map(([k]) => [k, []]));
for (let k = 0; k < BLOCKS; k++) {
  for (let j = 0; j < sides.length; j++) {
    const [name, run] = sides[(k + j) % sides.length]!;
    samples.get(name)!.push(...(await run(PER_BLOCK)));
  }
}
const s = Object.fromEntries([...samples].map(([k, v]) => [k, summarize(v)]));
console.log(`round trip (${BLOCKS}×${PER_BLOCK} per side, interleaved; load ${load()})`);
for (const k of ['echo', 'json', 'base', 'new'])
  console.log(`  ${k.padEnd(5)} p50 ${us(s[k]!.p50)} µs  p90 ${us(s[k]!.p90)} µs`);
console.log(
  `  new/base p50 ${(s.new!.p50 / s.base!.p50).toFixed(3)}×; vs JSON floor: base ${(s.base!.p50 / s.json!.p50).toFixed(3)}×, new ${(s.new!.p50 / s.json!.p50).toFixed(3)}×`,
);
await Promise.all([clients.base.close(), clients.new.close()]);

for (const conns of [1, 8]) {
  const cs = { base: [] as Client[], new: [] as Client[] };
  for (const side of ['base', 'new'] as const) {
    for (let i = 0; i < conns; i++)
      cs[side].push(await connects[side]({ url: servers[side].url, token: TOKEN, validate: true }));
  }
  const socks = await Promise.all(Array.from({ length: conns }, () => openSocket(servers.echo.url)));
  await ideaThroughput(cs.base, 20_000);
  await ideaThroughput(cs.new, 20_000);
  await echoThroughput(socks, frame, 20_000, 128);
  const r = { base: [] as number[], new: [] as number[], echo: [] as number[] };
  for (let k = 0; k < ROUNDS; k++) {
    const order = k % 2 === 0 ? (['base', 'new'] as const) : (['new', 'base'] as const);
    for (const side of order) r[side].push(await ideaThroughput(cs[side], 100_000));
    r.echo.push(await echoThroughput(socks, frame, 100_000, 128));
  }
  const f = (xs: number[]) => xs.map((x) => Math.round(x).toLocaleString('en-US')).join(' / ');
  console.log(
    `throughput, ${conns} connection(s) × 128 in flight (load ${load()}): base ${f(r.base)}; new ${f(r.new)}; echo ${f(r.echo)} req/s`,
  );
  console.log(`  median new/base ${(median(r.new) / median(r.base)).toFixed(3)}×`);
  await Promise.all([...cs.base, ...cs.new].map((c) => c.close()));
  for (const sk of socks) sk.close();
}
echo.close();
json.close();
await Promise.all(Object.values(servers).map((w) => w.stop()));
