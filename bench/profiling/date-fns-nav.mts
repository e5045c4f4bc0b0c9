// Warm nav on date-fns (bench/scale/date-fns.bench.ts's three requests) through built idea-server bins
// and the floor proxy (bench/lib/floor-proxy.mts), with the CPU each request costs each process: a same-
// run A/B of two builds (build-bin.mts) against the floor, not a bench entry (issue 33, fifth round).
// Interleaved blocks (every side, every topic, each round), so machine noise hits every side alike.
// CPU: on-CPU ns of every thread of the server's own process (/proc/<pid>/task/*/schedstat), and of its
// descendants (language server, tsserver) apart, over each block, per request.
//   npx tsx bench/profiling/build-bin.mts /tmp/nav-base /tmp/nav-bin-base   (and the tree's, likewise)
//   npx tsx bench/profiling/date-fns-nav.mts --bin base=/tmp/nav-bin-base/dist/idea-server.mjs \
//     --bin after=/tmp/nav-bin-after/dist/idea-server.mjs [--rounds 10] [--per-block 50] [--warm 30]
//     (--rounds 6 --per-block 10 --warm 5: the bench's own counts, its JIT barely warm) [--topics definition,hover,references] [--prof DIR] (the bins under --cpu-prof, written to DIR/<side>)
//     [--strace DIR] (after the timed rounds, `strace -c -f` of each side's process over one more block
//     per topic: DIR/<topic>-<side>.txt, syscalls per request = calls / --per-block)
//     [--perf DIR] (the bins under --perf-basic-prof; after the timed rounds, `perf record -g` of each
//     side's process over one more block per topic: DIR/<topic>-<side>.data)
import { type ChildProcess, spawn } from 'node:child_process';
import { mkdirSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { loadavg } from 'node:os';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { connect, type IdeaClient } from '../../generated/current';
import { summarize } from '../lib/stats';
import { childrenOf, cpuNs, dateFnsCopy, sleep } from '../scale/common';
import { CACHE_ROOT } from '../scale/generate';

const { values } = parseArgs({
  options: {
    bin: { type: 'string', multiple: true },
    rounds: { type: 'string' },
    'per-block': { type: 'string' },
    topics: { type: 'string' },
    prof: { type: 'string' },
    strace: { type: 'string' },
    perf: { type: 'string' },
    warm: { type: 'string' },
  },
});
const ROUNDS = Number(values.rounds ?? 10);
const PER_BLOCK = Number(values['per-block'] ?? 50);
const TOPICS = (values.topics ?? 'definition,hover,references').split(',');
const bins = (values.bin ?? []).map((b) => b.split('=') as [string, string]);
const FILE = 'src/addDays/index.ts';

const descendants = (pid: number): number[] => childrenOf(pid).flatMap((c) => [c, ...descendants(c)]);
const treeNs = (pid: number) => descendants(pid).reduce((a, c) => a + cpuNs(c), 0);

const copy = dateFnsCopy();
const ws = copy.dir;
const filePath = join(ws, FILE);
const lines = readFileSync(filePath, 'utf8').split('\n');
const position = (lineHas: string, token: string) => {
  const line = lines.findIndex((l) => l.includes(lineHas));
  return { filePath, line, character: lines[line]!.indexOf(token) };
};
const DEF = position('const _date = toDate(', 'toDate');
const HOVER = position('return constructFrom(', 'constructFrom');
const REFS = position('export interface AddDaysOptions', 'AddDaysOptions');

const children: ChildProcess[] = [];
const home = mkdtempSync(join(CACHE_ROOT, 'run-nav-home-'));

async function startBin(name: string, bin: string): Promise<{ child: ChildProcess; client: IdeaClient }> {
  const token = 'bench-token-0123456789abcdef';
  const h = join(home, name);
  mkdirSync(h, { recursive: true });
  const prof = [
    ...(values.prof ? ['--cpu-prof', '--cpu-prof-interval', '100', '--cpu-prof-dir', join(values.prof, name)] : []),
    ...(values.perf ? ['--perf-basic-prof'] : []),
  ];
  const child = spawn(
    process.execPath,
    [
      ...prof,
      bin,
      ...['--workspace', ws, '--port', '0', '--token', token, '--no-registry', '--history-dir', join(h, 'h')],
    ],
    { env: { PATH: process.env.PATH ?? '', HOME: h }, stdio: ['ignore', 'ignore', 'pipe'] },
  );
  children.push(child);
  let log = '';
  const url = await new Promise<string>((resolve, reject) => {
    child.stderr!.on('data', (d: Buffer) => {
      log += d.toString();
      const u = /on (ws:\/\/127\.0\.0\.1:\d+)/.exec(log)?.[1];
      if (u && /ready in \d+ ms/.test(log)) resolve(u);
    });
    child.once('exit', (code) => reject(new Error(`${name} exited ${code}: ${log}`)));
  });
  return { child, client: await connect({ url, token, timeoutMs: 120_000 }) };
}

async function startFloor(): Promise<{ child: ChildProcess; client: IdeaClient }> {
  const child = spawn(
    process.execPath,
    ['--import', 'tsx', join(import.meta.dirname, '../lib/floor-proxy.mts'), ws, FILE],
    { stdio: ['ignore', 'inherit', 'inherit', 'ipc'] },
  );
  children.push(child);
  const { url } = await new Promise<{ url: string }>((resolve, reject) => {
    child.once('message', (m) => resolve(m as { url: string }));
    child.once('exit', (code) => reject(new Error(`the floor proxy exited ${code}`)));
  });
  return { child, client: await connect({ url, timeoutMs: 120_000 }) };
}

try {
  const sides: Record<string, { child: ChildProcess; client: IdeaClient }> = {};
  for (const [name, bin] of bins) sides[name] = await startBin(name, bin);
  sides.floor = await startFloor();
  const ask: Record<string, (c: IdeaClient) => Promise<void>> = {
    definition: async (c) => {
      if ((await c.navDefinition(DEF)).locations.length === 0) throw new Error('no definition');
    },
    hover: async (c) => {
      if ((await c.navHover(HOVER)).contents.length === 0) throw new Error('no hover');
    },
    references: async (c) => {
      if ((await c.navReferences(REFS)).totalCount === 0) throw new Error('no references');
    },
  };
  // Each server answers nothing until its project loaded.
  for (const [name, s] of Object.entries(sides)) {
    const t0 = performance.now();
    for (let i = 0; (await s.client.navDefinition(DEF)).locations.length === 0; i++) {
      if (i > 1200) throw new Error(`${name}: no definition after 2 min`);
      await sleep(100);
    }
    console.error(`${name}: project loaded after ${((performance.now() - t0) / 1000).toFixed(1)} s`);
  }
  // Warm-up: --warm requests per side and topic (default 30; the bench's is 5, its JIT barely warm).
  const warm = Number(values.warm ?? 30);
  for (let i = 0; i < warm; i++) for (const s of Object.values(sides)) for (const t of TOPICS) await ask[t]!(s.client);
  const times: Record<string, number[]> = {};
  const cpu: Record<string, number[]> = {};
  const tree: Record<string, number[]> = {};
  const key = (side: string, topic: string) => `${topic} ${side}`;
  const load0 = loadavg();
  for (let r = 0; r < ROUNDS; r++)
    for (const topic of TOPICS)
      for (const [name, s] of Object.entries(sides)) {
        const k = key(name, topic);
        const pid = s.child.pid!;
        const c0 = cpuNs(pid);
        const t0n = treeNs(pid);
        for (let i = 0; i < PER_BLOCK; i++) {
          const t0 = performance.now();
          await ask[topic]!(s.client);
          (times[k] ??= []).push(performance.now() - t0);
        }
        (cpu[k] ??= []).push((cpuNs(pid) - c0) / 1000 / PER_BLOCK);
        (tree[k] ??= []).push((treeNs(pid) - t0n) / 1000 / PER_BLOCK);
      }
  if (values.strace) {
    mkdirSync(values.strace, { recursive: true });
    for (const topic of TOPICS)
      for (const [name, s] of Object.entries(sides)) {
        const out = join(values.strace, `${topic}-${name}.txt`);
        const tracer = spawn('strace', ['-c', '-f', '-o', out, '-p', String(s.child.pid)], { stdio: 'ignore' });
        await sleep(1000); // attached to every thread
        for (let i = 0; i < PER_BLOCK; i++) await ask[topic]!(s.client);
        const done = new Promise((r) => tracer.once('exit', r));
        tracer.kill('SIGINT');
        await done;
      }
  }
  if (values.perf) {
    mkdirSync(values.perf, { recursive: true });
    for (const topic of TOPICS)
      for (const [name, s] of Object.entries(sides)) {
        const out = join(values.perf, `${topic}-${name}.data`);
        const args = ['record', '-g', '-F', '4999', '-o', out, '-p', String(s.child.pid)];
        const recorder = spawn('perf', args, { stdio: 'ignore' });
        await sleep(1000);
        for (let i = 0; i < PER_BLOCK; i++) await ask[topic]!(s.client);
        const done = new Promise((r) => recorder.once('exit', r));
        recorder.kill('SIGINT');
        await done;
      }
  }
  const load1 = loadavg();
  const f = (x: number) => x.toFixed(3);
  console.log(
    `${ROUNDS} rounds × ${PER_BLOCK} per side and topic; load ${load0.map((x) => x.toFixed(2)).join(' ')} → ${load1.map((x) => x.toFixed(2)).join(' ')}`,
  );
  for (const topic of TOPICS) {
    const floor = summarize(times[key('floor', topic)]!).p50;
    for (const name of Object.keys(sides)) {
      const k = key(name, topic);
      const s = summarize(times[k]!);
      const c = summarize(cpu[k]!);
      console.log(
        `  ${k.padEnd(22)} p50 ${f(s.p50)} ms (${(s.p50 / floor).toFixed(2)}× floor)  p90 ${f(s.p90)}  CPU/request: process ${c.p50.toFixed(0)} µs (blocks ${Math.min(...cpu[k]!).toFixed(0)}–${Math.max(...cpu[k]!).toFixed(0)}), its children ${summarize(tree[k]!).p50.toFixed(0)} µs`,
      );
    }
  }
  for (const s of Object.values(sides)) s.client.close();
  for (const [name] of bins) {
    const c = sides[name]!.child;
    const exited = new Promise((r) => c.once('exit', r));
    c.kill('SIGTERM');
    await exited;
  }
  sides.floor!.child.send('stop');
} finally {
  for (const c of children) if (c.exitCode === null) c.kill();
  rmSync(home, { recursive: true, force: true });
  rmSync(copy.tmp, { recursive: true, force: true });
}
