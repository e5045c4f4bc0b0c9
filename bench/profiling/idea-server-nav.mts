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
//   lsp-only the same request from inside idea-server on its own LSP connection (no ws, no handler).
// Prints p50s per side and the p50 of each server-side stage of the nav requests.
//   npx tsx bench/profiling/idea-server-nav.mts [--rounds 10] [--per-block 20]
import { type ChildProcess, spawn } from 'node:child_process';
import { copyFileSync, mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { buildFixtureWorkspace } from '../../conformance/workspace';
import { connect } from '../../generated/current';
import { summarize } from '../lib/stats';
import { startTslsDirect } from '../lib/tsls-direct';

const { values } = parseArgs({ options: { rounds: { type: 'string' }, 'per-block': { type: 'string' } } });
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
let child: ChildProcess | undefined;
try {
  const ws = buildFixtureWorkspace(join(tmp, 'ws')).dir;
  copyFileSync(join(ws, DEF.file), join(ws, 'shapes-copy.txt'));
  const home = join(tmp, 'home');
  mkdirSync(home);
  child = spawn(
    process.execPath,
    ['--import', 'tsx', join(import.meta.dirname, 'idea-server-nav-server.mts'), ws, home],
    { stdio: ['ignore', 'inherit', 'inherit', 'ipc'] },
  );
  const served = await new Promise<{ url: string; token: string }>((resolve, reject) => {
    child!.once('message', (m) => resolve(m as { url: string; token: string }));
    child!.once('exit', (c) => reject(new Error(`server exited ${c}`)));
  });
  const client = await connect({ url: served.url, token: served.token });
  const nav = { filePath: join(ws, DEF.file), line: DEF.line, character: DEF.character };
  const noLs = { ...nav, filePath: join(ws, 'shapes-copy.txt') };
  const tsls = await startTslsDirect(ws, DEF);
  const sides: Record<string, () => Promise<unknown>> = {
    nav: async () => {
      if ((await client.navDefinition(nav)).locations.length === 0) throw new Error('nav/definition found nothing');
    },
    'no-op': () => client.eventsUnsubscribe({}),
    'no-LS': () => client.navDefinition(noLs),
    direct: () => tsls.definition(),
  };
  // In the server process, its own LSP connection only (the block is timed there, one entry per request).
  const lspOnly: number[] = [];
  for (let i = 0; i < 20; i++) for (const f of Object.values(sides)) await f(); // warm
  const times: Record<string, number[]> = Object.fromEntries(Object.keys(sides).map((k) => [k, []]));
  const navRecords: Marks[] = [];
  const load0 = loadavg();
  for (let r = 0; r < ROUNDS; r++) {
    for (const [side, f] of Object.entries(sides)) {
      await ask(child, 'reset');
      for (let i = 0; i < PER_BLOCK; i++) {
        const t0 = performance.now();
        await f();
        times[side]!.push(performance.now() - t0);
      }
      if (side === 'nav') navRecords.push(...(await ask(child, 'dump')).records);
    }
    lspOnly.push(...(await ask<{ times: number[] }>(child, { lspOnly: PER_BLOCK })).times);
  }
  const load1 = loadavg();
  await tsls.close();
  client.close();
  child.send('stop');

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
  console.log(`  lsp-only p50 ${f(summarize(lspOnly).p50)} ms (idea-server's LSP connection, no ws, no handler)`);
  console.log(
    `  nav / direct ${(p50.nav! / p50.direct!).toFixed(2)}×; added ${f(p50.nav! - p50.direct!)} ms; no-op round trip ${f(p50['no-op']!)} ms = ${((p50['no-op']! / p50.direct!) * 100).toFixed(0)} % of direct`,
  );
  // Server-side stages of the nav requests (p50 of each span over the requests that have both marks).
  const at = (m: Marks, name: string) => m.find(([n]) => n === name)?.[1];
  const spans: [string, string, string][] = [
    ['frame parse + validate', 'frame', 'run'],
    ['run → documents.sync (gate, handler, path check)', 'run', 'sync'],
    ['documents.sync (stat pass)', 'sync', 'sync.end'],
    ['sync end → LSP request sent', 'sync.end', 'lsp'],
    ['LSP request (tsls, from idea-server)', 'lsp', 'lsp.end'],
    ['LSP answer → result frame (convert, code, encode)', 'lsp.end', 'send'],
    ['ws send', 'send', 'sent'],
    ['line-check readFile (beside the LSP call)', 'readFile', 'readFile.end'],
    ['server total (frame in → frame out)', 'frame', 'sent'],
  ];
  console.log(`  server-side stages of ${navRecords.length} nav requests (p50, ms):`);
  for (const [label, a, b] of spans) {
    const d = navRecords.flatMap((m) => {
      const x = at(m, a);
      const y = at(m, b);
      return x !== undefined && y !== undefined ? [y - x] : [];
    });
    console.log(`    ${label.padEnd(52)} ${d.length ? f(summarize(d).p50) : '-'} (${d.length})`);
  }
  const count = (name: string) => summarize(navRecords.map((m) => m.filter(([n]) => n === name).length)).p50;
  console.log(`    per request: ${count('stat')} stat, ${count('readFile')} readFile, ${count('lsp')} LSP requests`);
  const serverTotal = summarize(navRecords.map((m) => at(m, 'sent')! - at(m, 'frame')!)).p50;
  console.log(`  client-side + socket (nav p50 − server total p50): ${f(p50.nav! - serverTotal)} ms`);
} finally {
  child?.kill();
  rmSync(tmp, { recursive: true, force: true });
}
