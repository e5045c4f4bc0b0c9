// Where a warm nav/definition through idea-server goes (issue 19's missed ≤ 1.2× of typescript-language-
// server direct), stage by stage, not a bench entry. idea-server runs from the sources in a child
// process with timing marks (idea-server-nav-server.mts); this process is the client. Interleaved
// blocks, so machine noise hits every side alike:
//   nav      nav/definition through idea-server (the bench's request: `Circle` in src/shapes.ts);
//   no-op    events/unsubscribe {} through idea-server: the session answers it, no handler, no language
//            server: the socket hop + frame parse/validate/encode every IDEA request pays;
//   no-LS    nav/definition in a copy of src/shapes.ts named .txt: the handler's path (gate, path and
//            line checks, its read) without a language server (answers no locations);
//   direct   the same textDocument/definition to typescript-language-server directly over stdio;
//   floor    nav/definition through a minimal Node proxy (floor-proxy.mts: ws in → LSP out, nothing
//            else, its own typescript-language-server): what one more process in the chain costs at
//            least, so "added" splits into the hop's floor and what idea-server adds beyond it;
//   floor-no-op  events/unsubscribe answered by that proxy: the floor of the no-op round trip;
//   base     with --base DIR: nav/definition through idea-server from another checkout's sources (its
//            bench/profiling/idea-server-nav-server.mts, which must answer "cpu" as this tree's does;
//            link node_modules into it), for a same-run A/B;
//   lsp-only the same request from inside idea-server on its own LSP connection (no ws, no handler).
// Prints p50s per side; the CPU time (user + system, all threads) a request costs idea-server's process
// and the proxy's (on this machine a wake-up, a write that wakes another process and JavaScript run
// cold cost far more than on a desktop, and two cores are shared by four processes per request); and the
// p50 of each server-side stage of the nav requests, the LSP stage split at its stdin writes and
// stdout chunks into our sending, the language server's time and our reading.
//   mkdir /tmp/base && git archive <commit> | tar -x -C /tmp/base && ln -s $PWD/node_modules /tmp/base/node_modules
//   npx tsx bench/profiling/idea-server-nav.mts [--rounds 10] [--per-block 20] [--base /tmp/base]
import { type ChildProcess, spawn } from 'node:child_process';
import { copyFileSync, mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { buildFixtureWorkspace } from '../../conformance/workspace';
import { connect } from '../../generated/current';
import { summarize } from '../lib/stats';
import { startTslsDirect } from '../lib/tsls-direct';

const { values } = parseArgs({
  options: { rounds: { type: 'string' }, 'per-block': { type: 'string' }, base: { type: 'string' } },
});
const ROUNDS = Number(values.rounds ?? 10);
const PER_BLOCK = Number(values['per-block'] ?? 20);
const DEF = { file: 'src/shapes.ts', line: 18, character: 25 };

type Marks = [string, number][];
const ask = <R extends object = { records: Marks[] }>(child: ChildProcess, what: unknown): Promise<R> =>
  new Promise((resolve) => {
    child.once('message', (m) => resolve(m as R));
    child.send(what as string);
  });

const tmp = mkdtempSync(join(tmpdir(), 'idea-server-nav-'));
const children: ChildProcess[] = [];
try {
  const ws = buildFixtureWorkspace(join(tmp, 'ws')).dir;
  copyFileSync(join(ws, DEF.file), join(ws, 'shapes-copy.txt'));
  const home = join(tmp, 'home');
  mkdirSync(home);
  const served = await start(join(import.meta.dirname, 'idea-server-nav-server.mts'), [ws, home]);
  const child = served.child;
  const floorProxy = await start(join(import.meta.dirname, '..', 'lib', 'floor-proxy.mts'), [ws, DEF.file]);
  const base = values.base
    ? await start(join(values.base, 'bench', 'profiling', 'idea-server-nav-server.mts'), [ws, home], values.base)
    : undefined;
  const client = await connect({ url: served.url, token: served.token });
  const floor = await connect({ url: floorProxy.url });
  const baseClient = base && (await connect({ url: base.url, token: base.token }));
  const nav = { filePath: join(ws, DEF.file), line: DEF.line, character: DEF.character };
  const noLs = { ...nav, filePath: join(ws, 'shapes-copy.txt') };
  const tsls = await startTslsDirect(ws, DEF);
  const found = (r: { locations: unknown[] }) => {
    if (r.locations.length === 0) throw new Error('nav/definition found nothing');
  };
  const sides: Record<string, () => Promise<unknown>> = {
    nav: async () => found(await client.navDefinition(nav)),
    'no-op': () => client.eventsUnsubscribe({}),
    'no-LS': () => client.navDefinition(noLs),
    direct: () => tsls.definition(),
    floor: async () => found(await floor.navDefinition(nav)),
    'floor-no-op': () => floor.eventsUnsubscribe({}),
    ...(baseClient && { base: async () => found(await baseClient.navDefinition(nav)) }),
  };
  // In the server process, its own LSP connection only (the block is timed there, one entry per request).
  const lspOnly: number[] = [];
  const lspOnlyRecords: Marks[] = [];
  // The proxy's language server answers nothing until its project loaded (at most 20 s).
  for (let i = 0; i < 200 && (await floor.navDefinition(nav)).locations.length === 0; i++)
    await new Promise((r) => setTimeout(r, 100));
  for (let i = 0; i < 20; i++) for (const f of Object.values(sides)) await f(); // warm
  const times: Record<string, number[]> = Object.fromEntries(Object.keys(sides).map((k) => [k, []]));
  const navRecords: Marks[] = [];
  const load0 = loadavg();
  // The process whose CPU time a side's requests cost (user + system, all its threads, µs per request).
  const cpuOf: Record<string, ChildProcess> = {
    nav: child,
    'no-op': child,
    'no-LS': child,
    floor: floorProxy.child,
    'floor-no-op': floorProxy.child,
    ...(base && { base: base.child }),
  };
  const cpu: Record<string, number[]> = Object.fromEntries(Object.keys(cpuOf).map((k) => [k, []]));
  const cpuNow = async (c: ChildProcess) => {
    const u = (await ask<{ cpu: NodeJS.CpuUsage }>(c, 'cpu')).cpu;
    return u.user + u.system;
  };
  for (let r = 0; r < ROUNDS; r++) {
    for (const [side, f] of Object.entries(sides)) {
      await ask(child, 'reset');
      const proc = cpuOf[side];
      const cpu0 = proc && (await cpuNow(proc));
      for (let i = 0; i < PER_BLOCK; i++) {
        const t0 = performance.now();
        await f();
        times[side]!.push(performance.now() - t0);
      }
      if (proc) cpu[side]!.push(((await cpuNow(proc)) - cpu0!) / PER_BLOCK);
      if (side === 'nav') navRecords.push(...(await ask(child, 'dump')).records);
    }
    const only = await ask<{ times: number[]; records: Marks[] }>(child, { lspOnly: PER_BLOCK });
    lspOnly.push(...only.times);
    lspOnlyRecords.push(...only.records);
  }
  const load1 = loadavg();
  await tsls.close();
  for (const c of [client, floor, baseClient]) c?.close();
  for (const c of [child, floorProxy.child, base?.child]) c?.send('stop');

  const f = (x: number) => x.toFixed(3);
  console.log(
    `${ROUNDS} rounds × ${PER_BLOCK} per side; load average ${load0.map((x) => x.toFixed(2)).join(' ')} → ${load1.map((x) => x.toFixed(2)).join(' ')}`,
  );
  const p50: Record<string, number> = {};
  for (const [side, t] of Object.entries(times)) {
    const s = summarize(t);
    p50[side] = s.p50;
    console.log(`  ${side.padEnd(7)} p50 ${f(s.p50)} ms  p90 ${f(s.p90)} ms`);
  }
  console.log(
    `  CPU per request (median of the blocks, µs): ${Object.entries(cpu)
      .map(([side, us]) => `${side} ${summarize(us).p50.toFixed(0)}`)
      .join(', ')} (idea-server's process for nav, no-op, no-LS; the proxy's for floor; the base's for base)`,
  );
  console.log(`  lsp-only p50 ${f(summarize(lspOnly).p50)} ms (idea-server's LSP connection, no ws, no handler)`);
  console.log(
    `  nav / direct ${(p50.nav! / p50.direct!).toFixed(2)}×; added ${f(p50.nav! - p50.direct!)} ms; no-op round trip ${f(p50['no-op']!)} ms = ${((p50['no-op']! / p50.direct!) * 100).toFixed(0)} % of direct`,
  );
  console.log(
    `  floor proxy / direct ${(p50.floor! / p50.direct!).toFixed(2)}×: the hop's floor ${f(p50.floor! - p50.direct!)} ms; idea-server beyond it ${f(p50.nav! - p50.floor!)} ms (no-op ${f(p50['no-op']! - p50['floor-no-op']!)} ms)`,
  );
  if (p50.base !== undefined)
    console.log(
      `  base (${values.base}) ${f(p50.base)} ms → this tree ${f(p50.nav!)} ms: ${f(p50.nav! - p50.base)} ms`,
    );
  // Server-side stages of the nav requests (p50 of each span over the requests that have both marks).
  // `name` is a mark's first occurrence, `name$` its last.
  const at = (m: Marks, name: string) =>
    name.endsWith('$') ? m.filter(([n]) => n === name.slice(0, -1)).at(-1)?.[1] : m.find(([n]) => n === name)?.[1];
  const lspSpans: [string, string, string][] = [
    ['LSP request (tsls, from idea-server)', 'lsp', 'lsp.end'],
    ['  request() → first stdin write called', 'lsp', 'lsp.write.call'],
    ['  the write call (to its return)', 'lsp.write.call', 'lsp.write'],
    ['  first → last stdin write', 'lsp.write', 'lsp.write$'],
    ['  last write → first answer chunk (tsls, tsserver)', 'lsp.write$', 'lsp.data'],
    ['  first → last answer chunk', 'lsp.data', 'lsp.data$'],
    ['  last chunk → request() settled', 'lsp.data$', 'lsp.end'],
  ];
  const spans: [string, string, string][] = [
    ['frame parse + validate', 'frame', 'run'],
    ['run → documents.sync (gate, handler, path check)', 'run', 'sync'],
    ['documents.sync (stat pass)', 'sync', 'sync.end'],
    ['sync end → LSP request sent', 'sync.end', 'lsp'],
    ...lspSpans,
    ['LSP answer → result frame (convert, code, encode)', 'lsp.end', 'send'],
    ['ws send', 'send', 'sent'],
    ['line-check readFile (beside the LSP call)', 'readFile', 'readFile.end'],
    ['server total (frame in → frame out)', 'frame', 'sent'],
  ];
  const printSpans = (records: Marks[], list: [string, string, string][]) => {
    for (const [label, a, b] of list) {
      const d = records.flatMap((m) => {
        const x = at(m, a);
        const y = at(m, b);
        return x !== undefined && y !== undefined ? [y - x] : [];
      });
      console.log(`    ${label.padEnd(52)} ${d.length ? f(summarize(d).p50) : '-'} (${d.length})`);
    }
  };
  console.log(`  server-side stages of ${navRecords.length} nav requests (p50, ms):`);
  printSpans(navRecords, spans);
  console.log(`  the same LSP stages of ${lspOnlyRecords.length} lsp-only requests (p50, ms):`);
  printSpans(lspOnlyRecords, lspSpans);
  const count = (name: string) => summarize(navRecords.map((m) => m.filter(([n]) => n === name).length)).p50;
  console.log(
    `    per nav request (p50): ${count('stat')} stat, ${count('readFile')} readFile, ${count('lsp')} LSP requests, ${count('lsp.write')} stdin writes, ${count('lsp.data')} answer chunks`,
  );
  const serverTotal = summarize(navRecords.map((m) => at(m, 'sent')! - at(m, 'frame')!)).p50;
  console.log(`  client-side + socket (nav p50 − server total p50): ${f(p50.nav! - serverTotal)} ms`);
} finally {
  for (const c of children) c.kill();
  rmSync(tmp, { recursive: true, force: true });
}

/** A child process of `script` (under tsx, from `cwd`'s tree) and the first IPC message it sends when ready. */
async function start(script: string, args: string[], cwd?: string) {
  const c = spawn(process.execPath, ['--import', 'tsx', script, ...args], {
    cwd,
    stdio: ['ignore', 'inherit', 'inherit', 'ipc'],
  });
  children.push(c);
  const ready = await new Promise<{ url: string; token?: string }>((resolve, reject) => {
    c.once('message', (m) => resolve(m as { url: string; token?: string }));
    c.once('exit', (code) => reject(new Error(`${script} exited ${code}`)));
  });
  return { child: c, ...ready };
}
