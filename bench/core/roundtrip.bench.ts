// Round trip through the generated client and dispatcher vs a raw `ws` echo of a frame of the same
// size: sequential (one request in flight), measured in interleaved blocks in the same run so machine
// noise hits both alike. Client validation on (validate: true); the dispatcher always validates
// envelope and params. The servers run on their own thread, as a real server is another process.
// Target: median ratio ≤ 1.15.
import { connect, type IdeaClient } from '../../generated/v0.1.6/client';
import { type BenchRow, emit } from '../lib/contract';
import { echoRoundTrips, jsonRoundTrips, openSocket } from '../lib/echo';
import { BENCH_PARAMS as PARAMS, BENCH_TOPIC as TOPIC } from '../lib/request';
import { TOKEN } from '../lib/server';
import { nowMs, summarize } from '../lib/stats';
import { startServerWorker } from './servers';

const BLOCKS = Number(process.env.BENCH_BLOCKS ?? 20);
const PER_BLOCK = Number(process.env.BENCH_PER_BLOCK ?? 1000);

async function ideaRoundTrips(client: IdeaClient, n: number): Promise<Float64Array> {
  const lat = new Float64Array(n);
  for (let i = 0; i < n; i++) {
    const t0 = nowMs();
    await client.request(TOPIC, PARAMS);
    lat[i] = nowMs() - t0;
  }
  return lat;
}

async function main(): Promise<void> {
  const idea = await startServerWorker('idea');
  const ideaChecked = await startServerWorker('idea', { validateResults: true });
  const echo = await startServerWorker('echo');
  const json = await startServerWorker('json', { topic: TOPIC });
  const jsock = await openSocket(json.url);
  const client = await connect({ url: idea.url, token: TOKEN, validate: true });
  const clientChecked = await connect({ url: ideaChecked.url, token: TOKEN, validate: true });
  const sock = await openSocket(echo.url);
  const frame = JSON.stringify({ topic: TOPIC, requestId: crypto.randomUUID(), params: PARAMS });

  const sides: [string, (n: number) => Promise<Float64Array>][] = [
    ['echo', (n) => echoRoundTrips(sock, frame, n)],
    ['json', (n) => jsonRoundTrips(jsock, TOPIC, PARAMS, n)],
    ['idea', (n) => ideaRoundTrips(client, n)],
    ['checked', (n) => ideaRoundTrips(clientChecked, n)],
  ];
  for (const [, run] of sides) await run(2000); // warm-up: JIT, socket buffers
  const samples = new Map<string, number[]>(sides.map(([k]) => [k, []]));
  for (let k = 0; k < BLOCKS; k++) {
    // Rotate the order so no side always runs first after a pause.
    for (let j = 0; j < sides.length; j++) {
      const [name, run] = sides[(k + j) % sides.length]!;
      samples.get(name)!.push(...(await run(PER_BLOCK)));
    }
  }
  const j = summarize(samples.get('json')!);
  const e = summarize(samples.get('echo')!),
    a = summarize(samples.get('idea')!),
    c = summarize(samples.get('checked')!);
  const us = (ms: number) => ms * 1000;
  const row = (metric: string, v: number, base: number, target?: number): BenchRow => ({
    metric,
    value: us(v),
    unit: 'µs',
    baseline: us(base),
    ratio: v / base,
    ...(target ? { target: `≤ ${target.toFixed(2)}×`, ok: v / base <= target } : {}),
  });
  emit({
    name: 'round trip vs raw ws echo',
    rows: [
      row('p50 round trip (client validate on)', a.p50, e.p50, 1.15),
      row('p90 round trip', a.p90, e.p90),
      row('p99 round trip', a.p99, e.p99),
      row('p50 round trip, server result validation also on', c.p50, e.p50),
      row('p50 JSON floor (parse+stringify both ends, no validation) vs raw echo', j.p50, e.p50),
      row('p50 round trip vs the JSON floor', a.p50, j.p50),
      { metric: 'samples per side', value: a.n, unit: 'round trips' },
    ],
  });
  await client.close();
  await clientChecked.close();
  sock.close();
  jsock.close();
  await Promise.all([idea.stop(), ideaChecked.stop(), echo.stop(), json.stop()]);
}

await main();
