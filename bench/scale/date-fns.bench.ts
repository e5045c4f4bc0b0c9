// idea-server on a real repository (date-fns, ../shared/corpus: 1,538 TypeScript files) against its
// floors, same run (issue 33). A fresh copy of the corpus per run (common.ts dateFnsCopy).
// 1. The agent's loop: edit/replace puts a type error into src/addDays/index.ts (and the next one takes
//    it out); timed from the request sent to the diagnostics/changed event that adds (removes) that
//    error for that file, the connection subscribed first. Baselines: `tsc --noEmit -p` on the same
//    project (what an agent runs otherwise), and the floor: the same change sent to
//    typescript-language-server directly (didChange → the publishDiagnostics of that file that has (has
//    not) the error). Cycles alternate between the two sides. Target ≤ 1.2× the floor.
//    idea-server tells its language server about a write only for files it has open; when no event
//    comes for the file no request opened, the bench opens it with nav/hover and says so.
// 2. Cold start → first nav/definition answer (spawn of the bin → a non-empty answer), vs
//    typescript-language-server started directly (spawn → initialize → didOpen → a non-empty
//    textDocument/definition); alternating, median of --runs (default 3). Target ≤ 1.1× + 50 ms.
// 3. Warm nav/definition, nav/hover, nav/references p50 through idea-server vs the same request through
//    the floor proxy (bench/lib/floor-proxy.mts: ws in → LSP out, nothing else), interleaved blocks.
//    Target ≤ 1.1× of the floor.
//   npx tsx bench/scale/date-fns.bench.ts [--runs N] [--no-build] [--json out.json]
//   BENCH_BIN=/path/to/idea-server.mjs: that bin instead of this tree's build (an A/B of two builds made
//   with bench/profiling/build-bin.mts, run one after the other)
import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { createRequire } from 'node:module';
import { join } from 'node:path';
import { connect, type IdeaClient } from '../../generated/current';
import { type BenchRow, emit } from '../lib/contract';
import { type BinServer, startIdeaServerBin } from '../lib/idea-server-bin';
import { type LspDirect, type Published, startLspDirect } from '../lib/lsp-direct';
import { summarize } from '../lib/stats';
import {
  childrenOf,
  cpuNs,
  dateFnsCopy,
  ensureServerBuilt,
  LoadSampler,
  median,
  r2,
  scaleArgs,
  sleep,
  startFloorProxy,
} from './common';
import { CACHE_ROOT } from './generate';

const args = scaleArgs();
const load = new LoadSampler();
const FILE = 'src/addDays/index.ts';
const GOOD = '_date.getDate() + amount)';
const BAD = '_date.getDate() + amountX)';
/** The error the edit makes: TypeScript's "Cannot find name 'amountX'". */
const ERROR = 'amountX';
const CYCLES = 8;
const NAV_ROUNDS = 6;
const NAV_BLOCK = 10;

const bin = process.env.BENCH_BIN || (await ensureServerBuilt(args));
const copy = dateFnsCopy();
const ws = copy.dir;
const filePath = join(ws, FILE);
const original = readFileSync(filePath, 'utf8');
if (!original.includes(GOOD)) throw new Error(`${FILE} no longer holds "${GOOD}"`);
const broken = original.replace(GOOD, BAD);
/** 0-based position of `token` on the first line holding `lineHas`. */
function position(lineHas: string, token: string): { line: number; character: number } {
  const lines = original.split('\n');
  const line = lines.findIndex((l) => l.includes(lineHas));
  if (line < 0) throw new Error(`${FILE}: no line with ${lineHas}`);
  return { line, character: lines[line]!.indexOf(token) };
}
const DEF = position('const _date = toDate(', 'toDate');
const HOVER = position('return constructFrom(', 'constructFrom');
const REFS = position('export interface AddDaysOptions', 'AddDaysOptions');
const at = (p: { line: number; character: number }) => ({ filePath, ...p });

const rows: BenchRow[] = [];
const notes: string[] = [];
const home = mkdtempSync(join(CACHE_ROOT, 'run-date-fns-home-'));
const startServer = () => startIdeaServerBin({ workspace: ws, home, bin });

/** tsc --noEmit -p on the copy's library config, wall ms (its exit code is 2: date-fns's packages are not installed). */
function tscOnce(): number {
  const tsc = join(createRequire(import.meta.url).resolve('typescript/package.json'), '..', 'bin', 'tsc');
  const t0 = performance.now();
  const r = spawnSync(process.execPath, [tsc, '--noEmit', '-p', copy.tsconfig], { cwd: ws, stdio: 'ignore' });
  if (r.error) throw r.error;
  return performance.now() - t0;
}

type Diag = { filePath: string; added: { message: string }[]; removed: { message: string }[] };

/** The next diagnostics/changed frame for FILE that adds (`hasError`) or removes the error. */
function nextDiagnostics(client: IdeaClient, hasError: boolean, timeoutMs: number): Promise<number | undefined> {
  return new Promise((resolve) => {
    const timer = setTimeout(() => {
      off();
      resolve(undefined);
    }, timeoutMs);
    const off = client.on('/app/vscode/diagnostics/changed', (data) => {
      const f = (data.files as Diag[]).find((x) => x.filePath === filePath);
      const list = f ? (hasError ? f.added : f.removed) : [];
      if (!list.some((d) => d.message.includes(ERROR))) return;
      clearTimeout(timer);
      off();
      resolve(performance.now());
    });
  });
}

/** One edit through idea-server: ms from edit/replace sent to its answer, and to the diagnostics event. */
async function ideaEdit(client: IdeaClient, toBroken: boolean, timeoutMs = 30_000) {
  const event = nextDiagnostics(client, toBroken, timeoutMs);
  const t0 = performance.now();
  const r = await client.editReplace({
    pattern: toBroken ? GOOD : BAD,
    replacement: toBroken ? BAD : GOOD,
    include: FILE,
  });
  if (r.replacedCount !== 1) throw new Error(`edit/replace made ${r.replacedCount} replacements, not 1`);
  const answered = performance.now() - t0;
  const got = await event;
  return { answered, event: got === undefined ? undefined : got - t0 };
}

/** The floor: didChange to the direct server, ms to the first publish for FILE that has (has not) the error. */
function directEdit(lsp: LspDirect, toBroken: boolean): Promise<number> {
  return new Promise((resolve, reject) => {
    const timer = setTimeout(
      () => reject(new Error('the direct server published nothing for the change in 30 s')),
      30_000,
    );
    let t0 = 0;
    const off = lsp.onDiagnostics((p: Published) => {
      if (p.path !== filePath || t0 === 0) return;
      if (p.diagnostics.some((d) => d.message.includes(ERROR)) !== toBroken) return;
      clearTimeout(timer);
      off();
      resolve(p.at - t0);
    });
    t0 = performance.now();
    lsp.change(filePath, toBroken ? broken : original);
  });
}

/** Waits until the direct server published FILE's diagnostics once (its project loaded). */
function firstPublish(lsp: LspDirect): Promise<void> {
  return new Promise((resolve) => {
    const off = lsp.onDiagnostics((p) => {
      if (p.path !== filePath) return;
      off();
      resolve();
    });
  });
}

let server: BinServer | undefined;
let direct: LspDirect | undefined;
try {
  // --- 1. the agent's loop -------------------------------------------------------------------------
  server = await startServer();
  const client = await connect({ url: server.url, token: server.token, timeoutMs: 120_000 });
  await client.subscribe(['/app/vscode/diagnostics/changed']);
  // First edit: no request has opened FILE yet. Does its diagnostics event come?
  const first = await ideaEdit(client, true, 45_000);
  let opened = false;
  if (first.event === undefined) {
    opened = true;
    notes.push(
      'no diagnostics/changed within 45 s for the written file no request had opened: it was opened with nav/hover first',
    );
    console.error(`[scale/date-fns] ${notes.at(-1)}`);
    const shown = nextDiagnostics(client, true, 60_000);
    await client.navHover(at(HOVER));
    if ((await shown) === undefined) throw new Error('no diagnostics/changed for the file even after nav/hover');
  } else
    console.error(
      `[scale/date-fns] first edit of an unopened file: event after ${first.event.toFixed(0)} ms (language server cold)`,
    );
  // The floor's server, its project loaded.
  direct = await startLspDirect(ws);
  const loaded = firstPublish(direct);
  direct.open(filePath, broken);
  await loaded;
  // Warm both: one cycle each (idea-server's copy holds the error now, the direct one too).
  await ideaEdit(client, false);
  await directEdit(direct, false);
  await ideaEdit(client, true);
  await directEdit(direct, true);
  const ideaTimes: number[] = [];
  const answeredTimes: number[] = [];
  const floorTimes: number[] = [];
  let toBroken = false;
  for (let i = 0; i < 2 * CYCLES; i++) {
    await sleep(300);
    const e = await ideaEdit(client, toBroken);
    if (e.event === undefined) throw new Error(`no diagnostics/changed within 30 s (edit ${i})`);
    ideaTimes.push(e.event);
    answeredTimes.push(e.answered);
    await sleep(300);
    floorTimes.push(await directEdit(direct, toBroken));
    toBroken = !toBroken;
  }
  // Leave the copy as it was (the last edit above took the error out: 2 × CYCLES is even, started fixing).
  await client.eventsUnsubscribe({});
  const loop = summarize(ideaTimes).p50;
  const floor = summarize(floorTimes).p50;
  const answered = summarize(answeredTimes).p50;
  console.error(
    `[scale/date-fns] agent loop p50: idea-server ${loop.toFixed(1)} ms (edit/replace answered after ${answered.toFixed(1)} ms), floor ${floor.toFixed(1)} ms (${load.line()})`,
  );
  await direct.close();
  direct = undefined;
  const tsc: number[] = [];
  for (let i = 0; i < 3; i++) tsc.push(tscOnce());
  const tscMs = median(tsc);
  console.error(`[scale/date-fns] tsc --noEmit -p: ${tsc.map((x) => Math.round(x)).join(', ')} ms`);
  rows.push(
    {
      metric: `agent loop on date-fns: edit/replace sent → diagnostics/changed for the file, p50 of ${2 * CYCLES} (error in, error out${opened ? '; file opened by nav/hover first' : ''}) vs the floor: didChange → publishDiagnostics to typescript-language-server directly`,
      value: r2(loop),
      unit: 'ms',
      baseline: r2(floor),
      ratio: r2(loop / floor),
      target: '≤ 1.2×',
      ok: loop <= 1.2 * floor,
    },
    {
      metric: 'the same loop vs `tsc --noEmit -p src` on the same project (what an agent runs otherwise; median of 3)',
      value: r2(loop),
      unit: 'ms',
      baseline: Math.round(tscMs),
      ratio: r2(loop / tscMs),
    },
    {
      metric: 'of which edit/replace sent → answered (the write, local history), p50',
      value: r2(answered),
      unit: 'ms',
    },
  );

  // --- 3. warm nav vs the floor proxy (same idea-server, FILE open) ----------------------------------
  const proxy = await startFloorProxy(ws, FILE);
  const floorClient = await connect({ url: proxy.url, timeoutMs: 120_000 });
  try {
    // The proxy's server answers nothing until its project has loaded.
    for (let i = 0; i < 600 && (await floorClient.navDefinition(at(DEF))).locations.length === 0; i++) await sleep(100);
    const topics = {
      definition: {
        ours: async () => {
          if ((await client.navDefinition(at(DEF))).locations.length === 0) throw new Error('no definition');
        },
        floor: async () => {
          if ((await floorClient.navDefinition(at(DEF))).locations.length === 0)
            throw new Error('no definition (floor)');
        },
      },
      hover: {
        ours: async () => {
          if ((await client.navHover(at(HOVER))).contents.length === 0) throw new Error('no hover');
        },
        floor: async () => {
          if ((await floorClient.navHover(at(HOVER))).contents.length === 0) throw new Error('no hover (floor)');
        },
      },
      references: {
        ours: async () => {
          if ((await client.navReferences(at(REFS))).totalCount === 0) throw new Error('no references');
        },
        floor: async () => {
          if ((await floorClient.navReferences(at(REFS))).totalCount === 0) throw new Error('no references (floor)');
        },
      },
    };
    const times: Record<string, { ours: number[]; floor: number[] }> = {};
    // CPU time of each side's own process (all its threads) over its blocks, µs per request: on two
    // shared cores CPU is latency, and it is far steadier than the p50s (bench/FINDINGS.md, issue 33).
    const cpu: Record<string, { ours: number; floor: number }> = {};
    const pids = { ours: server.child.pid!, floor: proxy.pid };
    for (const [name, t] of Object.entries(topics)) {
      times[name] = { ours: [], floor: [] };
      for (let i = 0; i < 5; i++) {
        await t.ours();
        await t.floor();
      }
    }
    for (let r = 0; r < NAV_ROUNDS; r++)
      for (const [name, t] of Object.entries(topics))
        for (const side of ['ours', 'floor'] as const) {
          const c0 = cpuNs(pids[side]);
          for (let i = 0; i < NAV_BLOCK; i++) {
            const t0 = performance.now();
            await t[side]();
            times[name]![side].push(performance.now() - t0);
          }
          cpu[name] ??= { ours: 0, floor: 0 };
          cpu[name]![side] += cpuNs(pids[side]) - c0;
        }
    for (const [name, t] of Object.entries(times)) {
      const o = summarize(t.ours).p50;
      const f = summarize(t.floor).p50;
      const us = (side: 'ours' | 'floor') => (cpu[name]![side] / 1000 / (NAV_ROUNDS * NAV_BLOCK)).toFixed(0);
      console.error(
        `[scale/date-fns] warm ${name} p50: idea-server ${o.toFixed(2)} ms, floor proxy ${f.toFixed(2)} ms; CPU per request ${us('ours')} vs ${us('floor')} µs`,
      );
      rows.push({
        metric: `warm nav/${name} p50 of ${NAV_ROUNDS * NAV_BLOCK} on date-fns via idea-server vs via the floor proxy (ws in → LSP out, nothing else)`,
        value: r2(o),
        unit: 'ms',
        baseline: r2(f),
        ratio: r2(o / f),
        target: '≤ 1.1×',
        ok: o <= 1.1 * f,
      });
    }
  } finally {
    floorClient.close();
    await proxy.stop();
    client.close();
    await server.stop();
    server = undefined;
  }

  // --- 2. cold start → first definition --------------------------------------------------------------
  const runs = args.runs ?? 3;
  const oursCold: number[] = [];
  const directCold: number[] = [];
  const params = at(DEF);
  for (let i = 0; i < runs + 1; i++) {
    // Direct: spawn → initialize → didOpen → definition until it names a target.
    const t0 = performance.now();
    const lsp = await startLspDirect(ws);
    lsp.open(filePath);
    for (;;) {
      const r =
        (await lsp.request<unknown[] | null>('textDocument/definition', lsp.at(filePath, DEF.line, DEF.character))) ??
        [];
      if (r.length > 0) break;
    }
    const d = performance.now() - t0;
    await lsp.close();
    // idea-server: spawn of the bin → ready → connect → nav/definition until it names a target.
    const t1 = performance.now();
    const s = await startServer();
    const c = await connect({ url: s.url, token: s.token, timeoutMs: 120_000 });
    while ((await c.navDefinition(params)).locations.length === 0);
    const o = performance.now() - t1;
    const tree = childrenOf(s.child.pid!).length;
    c.close();
    await s.stop();
    console.error(
      `[scale/date-fns] cold → first definition: idea-server ${o.toFixed(0)} ms, direct ${d.toFixed(0)} ms${i === 0 ? ' (warm-up, not counted)' : ''} (children ${tree})`,
    );
    if (i === 0) continue; // the first pair warms the page cache
    oursCold.push(o);
    directCold.push(d);
  }
  const o = median(oursCold);
  const d = median(directCold);
  rows.push({
    metric: `cold start → first nav/definition on date-fns, median of ${runs} (spawn of the bin → answer) vs typescript-language-server directly (spawn → initialize → didOpen → definition)`,
    value: Math.round(o),
    unit: 'ms',
    baseline: Math.round(d),
    ratio: r2(o / d),
    target: '≤ 1.1× + 50 ms',
    ok: o <= 1.1 * d + 50,
  });
  const l = load.stop();
  rows.push({ metric: 'load average (1 min) during the date-fns runs, highest (2 cores)', value: r2(l.max), unit: '' });
  for (const n of notes) console.error(`[scale/date-fns] note: ${n}`);
  emit({ name: 'scale: date-fns', rows });
} finally {
  await direct?.close();
  await server?.stop();
  rmSync(home, { recursive: true, force: true });
  rmSync(copy.tmp, { recursive: true, force: true });
}
