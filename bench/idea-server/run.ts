// idea-server against its same-run baselines (issue 19's targets):
// - cold start: the built bin spawned until it logs "ready" (Node's start-up included; language servers
//   lazy), median of 5; baseline: an empty `node -e ''` process;
// - the conformance suite's wall time against idea-server vs against our extension in a live VS Code
//   (code-server), each on its own fresh fixture workspace, one run to warm up, the second measured; the
//   VS Code side's measured run has the cases idea-server ran (its unimplemented ones cost it nothing),
//   and a row leaves out of both the fixed waits of the cases run one at a time (issue 33);
// - peak memory during those suites: idea-server's process tree (with its typescript-language-server
//   and tsserver) vs the code-server tree plus the headless browser its window needs (the target's row),
//   and vs the code-server tree alone; PSS (shared pages divided fairly; an RSS row too);
// - warm nav/definition p50 through idea-server (client → ws → core → LSP → back, the declaration's text
//   read) vs the same textDocument/definition sent to typescript-language-server directly over stdio,
//   interleaved in blocks, with a no-op round trip through idea-server (events/unsubscribe) and the same
//   request through a minimal proxy process (bench/lib/floor-proxy.mts: ws in → one LSP write → answer
//   out, nothing else) beside them: what any process between client and language server costs here
//   (issue 33 moved the target, ≤ 1.2× of tsls direct before, onto that floor: ≤ 1.1× of it);
// --cases FILE writes every measured case's duration (and reset/settle time) per target, to see which
// cases dominate a suite.
//   npx tsx bench/idea-server/run.ts [--json out.json] [--no-vscode] [--cases cases.json]
import { spawn, spawnSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { HOST_USER_SETTINGS } from '../../conformance/launch';
import { readExpectedFailures } from '../../conformance/lib/expected-failures';
import { CONFORMANCE_DIR, loadCases } from '../../conformance/lib/load';
import { isParallelSafe, runSuite } from '../../conformance/lib/run';
import { targetFor } from '../../conformance/lib/session';
import { buildFixtureWorkspace, resetFixtureWorkspaceDetailed } from '../../conformance/workspace';
import { connect } from '../../generated/current';
import { launchHost, REPO_ROOT } from '../../livehost';
import { PeakSampler } from '../../livehost/proc-memory';
import { buildTarget } from '../../scripts/build';
import { type BenchRow, emit } from '../lib/contract';
import { type BinServer, startIdeaServerBin } from '../lib/idea-server-bin';
import { summarize } from '../lib/stats';
import { suiteFixedWaits, waitsOnDiagnostics } from '../lib/suite-waits';
import { startTslsDirect } from '../lib/tsls-direct';

const { values } = parseArgs({
  options: { json: { type: 'string' }, 'no-vscode': { type: 'boolean' }, cases: { type: 'string' } },
});
const tmp = mkdtempSync(join(tmpdir(), 'idea-server-bench-'));
const cases = loadCases();
const expectedFailures = readExpectedFailures(join(CONFORMANCE_DIR, 'expected-failures.json'));
// nav-definition/class-from-type-reference: `Circle` used as a type in src/shapes.ts.
const DEF = { file: 'src/shapes.ts', line: 18, character: 25 };
const NAV_ROUNDS = 10;
const NAV_BLOCK = 20;
const NAV_RUNS = NAV_ROUNDS * NAV_BLOCK;

/** The bin on `ws` (HOME empty, no registry). */
const startServer = (ws: string, home: string) => startIdeaServerBin({ workspace: ws, home });

interface CaseTime {
  id: string;
  ms: number;
  resetMs?: number;
  settleMs?: number;
}

async function suite(
  url: string,
  token: string,
  ws: string,
  only?: ReadonlySet<string>,
): Promise<{ ms: number; pass: number; total: number; cases: CaseTime[] }> {
  resetFixtureWorkspaceDetailed(ws);
  const s = await runSuite({
    target: targetFor(url, token, ws),
    cases: only ? cases.filter((c) => only.has(c.case.id)) : cases,
    expectedFailures,
    reset: () => resetFixtureWorkspaceDetailed(ws),
  });
  for (const r of s.results.filter((x) => x.verdict !== 'pass' && !x.expectedFailure))
    console.error(`  [${r.verdict}] ${r.id}: ${r.reason ?? ''}`);
  const times = s.results
    .filter((r) => r.verdict !== 'unimplemented' && r.verdict !== 'skip')
    .map(({ id, durationMs, resetMs, settleMs }) => ({ id, ms: durationMs, resetMs, settleMs }));
  return { ms: s.durationMs, pass: s.counts.pass, total: s.results.length, cases: times };
}

interface NavTimes {
  viaServer: number[];
  direct: number[];
  /** events/unsubscribe through idea-server: answered by the session, no handler, no language server. */
  noop: number[];
  /** nav/definition through the floor proxy (its own typescript-language-server). */
  floor: number[];
}

/** bench/lib/floor-proxy.mts as a child process on `ws`; resolved with its url once it answers nav/definition. */
async function startFloorProxy(ws: string) {
  const child = spawn(
    process.execPath,
    ['--import', 'tsx', join(import.meta.dirname, '../lib/floor-proxy.mts'), ws, DEF.file],
    {
      stdio: ['ignore', 'inherit', 'inherit', 'ipc'],
    },
  );
  const { url } = await new Promise<{ url: string }>((resolve, reject) => {
    child.once('message', (m) => resolve(m as { url: string }));
    child.once('exit', (code) => reject(new Error(`the floor proxy exited ${code}`)));
  });
  return { url, stop: () => void child.send('stop') };
}

/**
 * nav/definition through idea-server vs the same request to typescript-language-server directly, and a
 * no-op round trip through idea-server: all warm, in interleaved blocks (NAV_ROUNDS × NAV_BLOCK each),
 * so a load that comes and goes on a shared machine hits every side alike.
 */
async function navCompare(s: BinServer, ws: string): Promise<NavTimes> {
  const client = await connect({ url: s.url, token: s.token });
  const tsls = await startTslsDirect(ws, DEF);
  const proxy = await startFloorProxy(ws);
  const floor = await connect({ url: proxy.url });
  const params = { filePath: join(ws, DEF.file), line: DEF.line, character: DEF.character };
  const found = (r: { locations: unknown[] }) => {
    if (r.locations.length === 0) throw new Error('nav/definition found nothing');
  };
  const sides: Record<keyof NavTimes, () => Promise<unknown>> = {
    viaServer: async () => found(await client.navDefinition(params)),
    direct: () => tsls.definition(),
    noop: () => client.eventsUnsubscribe({}),
    floor: async () => found(await floor.navDefinition(params)),
  };
  const times: NavTimes = { viaServer: [], direct: [], noop: [], floor: [] };
  try {
    // The proxy's language server answers nothing until its project has loaded (at most 20 s).
    for (let i = 0; i < 200 && (await floor.navDefinition(params)).locations.length === 0; i++)
      await new Promise((r) => setTimeout(r, 100));
    for (let i = 0; i < 10; i++) for (const f of Object.values(sides)) await f();
    for (let r = 0; r < NAV_ROUNDS; r++)
      for (const [side, f] of Object.entries(sides) as [keyof NavTimes, () => Promise<unknown>][])
        for (let i = 0; i < NAV_BLOCK; i++) {
          const t0 = performance.now();
          await f();
          times[side].push(performance.now() - t0);
        }
    return times;
  } finally {
    client.close();
    floor.close();
    proxy.stop();
    await tsls.close();
  }
}

try {
  await buildTarget('server');
  await buildTarget('extension'); // the VS Code host's baseline runs our extension from extension/dist
  const round = (x: number) => Math.round(x * 10) / 10;

  // Cold start, 5 times; baseline an empty Node process.
  const emptyNode: number[] = [];
  for (let i = 0; i < 5; i++) {
    const t0 = performance.now();
    spawnSync(process.execPath, ['-e', '']);
    emptyNode.push(performance.now() - t0);
  }
  const small = join(tmp, 'small');
  mkdirSync(small);
  const starts: number[] = [];
  for (let i = 0; i < 5; i++) {
    const home = mkdtempSync(join(tmp, 'home-'));
    const s = await startServer(small, home);
    starts.push(s.readyMs);
    await s.stop();
  }
  const startP50 = summarize(starts).p50;
  const nodeP50 = summarize(emptyNode).p50;
  console.log(
    `idea-server cold start to serving: ${starts.map(Math.round).join(', ')} ms (empty node ${round(nodeP50)} ms)`,
  );

  // The suite against idea-server, memory sampled; then nav/definition both ways.
  const wsServer = buildFixtureWorkspace(join(tmp, 'ws-server')).dir;
  const served = await startServer(wsServer, mkdtempSync(join(tmp, 'home-')));
  const serverMem = new PeakSampler(() => ({ server: served.child.pid }), 200).start();
  await suite(served.url, served.token, wsServer);
  const serverSuite = await suite(served.url, served.token, wsServer);
  const serverPeak = serverMem.stop().server!;
  console.log(
    `suite against idea-server: ${serverSuite.ms} ms, ${serverSuite.pass}/${serverSuite.total} passed; peak ${serverPeak.pssMB} MB PSS, ${serverPeak.rssMB} MB RSS, ${serverPeak.procs} processes`,
  );
  const nav = await navCompare(served, wsServer);
  await served.stop();
  const viaServer = summarize(nav.viaServer);
  const direct = summarize(nav.direct);
  const noop = summarize(nav.noop);
  const floor = summarize(nav.floor);
  const added = viaServer.p50 - direct.p50;
  console.log(
    `nav/definition p50: through idea-server ${round(viaServer.p50)} ms, tsls directly ${round(direct.p50)} ms (added ${added.toFixed(2)} ms), through the floor proxy ${floor.p50.toFixed(2)} ms; no-op round trip through idea-server ${noop.p50.toFixed(2)} ms`,
  );

  const rows: BenchRow[] = [
    {
      metric: 'cold start to serving, p50 of 5 (spawn → "ready"; baseline: empty node process)',
      value: Math.round(startP50),
      unit: 'ms',
      baseline: Math.round(nodeP50),
      target: '≤ 1000 ms',
      ok: startP50 <= 1000,
    },
    {
      metric: `warm nav/definition p50 of ${NAV_RUNS} via idea-server (baseline: the same request to typescript-language-server directly)`,
      value: round(viaServer.p50),
      unit: 'ms',
      baseline: round(direct.p50),
    },
    {
      metric: `nav/definition p50 added by idea-server (via − direct; baseline: a no-op round trip through it, events/unsubscribe: the socket hop every request pays)`,
      value: Math.round(added * 100) / 100,
      unit: 'ms',
      baseline: Math.round(noop.p50 * 100) / 100,
    },
    {
      // What any design with a process between client and language server costs on this machine: the
      // floor proxy's own ratio, same run, same request. Issue 19's ≤ 1.2× of tsls direct sat below it.
      metric: `warm nav/definition p50 of ${NAV_RUNS} via the floor proxy (a process with nothing but ws in → LSP out; baseline: typescript-language-server directly)`,
      value: Math.round(floor.p50 * 100) / 100,
      unit: 'ms',
      baseline: round(direct.p50),
    },
    {
      // Issue 33's target, on the floor measured beside it.
      metric: `warm nav/definition p50 via idea-server (baseline: via the floor proxy)`,
      value: round(viaServer.p50),
      unit: 'ms',
      baseline: Math.round(floor.p50 * 100) / 100,
      target: '≤ 1.1×',
      ok: viaServer.p50 <= 1.1 * floor.p50,
    },
  ];

  let hostCases: CaseTime[] | undefined;
  if (!values['no-vscode']) {
    const wsHost = buildFixtureWorkspace(join(tmp, 'ws-vscode')).dir;
    const host = await launchHost({
      workspace: wsHost,
      extensionDevPath: join(REPO_ROOT, 'extension'),
      userSettings: HOST_USER_SETTINGS,
      memorySampleMs: 200,
    });
    // The cases idea-server ran (its unimplemented ones answer at once, so they cost it nothing): the
    // VS Code side's measured run has the same ones, so both times are of the same work.
    const ran = new Set(serverSuite.cases.map((c) => c.id));
    let hostSuite;
    let hostPeak;
    try {
      await suite(host.url, host.token, wsHost); // warm-up: the whole suite
      hostSuite = await suite(host.url, host.token, wsHost, ran);
      hostPeak = host.peakMemory()!;
    } finally {
      await host.close();
    }
    hostCases = hostSuite.cases;
    const both = new Set(hostSuite.cases.map((c) => c.id).filter((id) => ran.has(id)));
    const waitsServer = suiteFixedWaits(cases, serverSuite.cases, both);
    const waitsHost = suiteFixedWaits(cases, hostSuite.cases, both);
    const waitServer = waitsServer.total;
    const waitHost = waitsHost.total;
    // The cases run one at a time whose time is mostly the language server checking files (T35–T37):
    // both servers wait on the same tsserver there, so these seconds bound how low the ratio can go.
    const byId = new Map(cases.map((c) => [c.case.id, c]));
    const diagSerial = (timed: readonly CaseTime[]) =>
      timed
        .filter((t) => {
          const lc = byId.get(t.id);
          return lc && both.has(t.id) && !isParallelSafe(lc) && waitsOnDiagnostics(lc);
        })
        .reduce((sum, t) => sum + t.ms, 0);
    const diagServer = diagSerial(serverSuite.cases);
    const diagHost = diagSerial(hostSuite.cases);
    const s1 = (ms: number) => `${(ms / 1000).toFixed(1)} s`;
    const waitText = waitServer === waitHost ? s1(waitServer) : `${s1(waitServer)} (VS Code's cases: ${s1(waitHost)})`;
    const sleepText =
      waitsServer.sleep === waitsHost.sleep
        ? s1(waitsServer.sleep)
        : `${s1(waitsServer.sleep)} (VS Code's: ${s1(waitsHost.sleep)})`;
    console.log(
      `fixed waits of the cases both ran: idea-server ${waitsServer.sleep} ms sleepMs + ${waitsServer.silence} ms expectSilence one at a time + the pool's longest ${waitsServer.pool} ms, VS Code ${waitsHost.sleep} + ${waitsHost.silence} + ${waitsHost.pool} ms; waiting on diagnostics one at a time: idea-server ${diagServer} ms, VS Code ${diagHost} ms`,
    );
    const cs = hostPeak.codeServer!;
    const hostPssMB = Math.round((cs.pssMB + (hostPeak.chromium?.pssMB ?? 0)) * 10) / 10;
    console.log(
      `suite against VS Code (extension): ${hostSuite.ms} ms, ${hostSuite.pass}/${hostSuite.total} passed; peak code-server tree ${cs.pssMB} MB PSS, ${cs.rssMB} MB RSS (browser ${hostPeak.chromium?.pssMB ?? '-'} MB PSS)`,
    );
    rows.push(
      {
        // idea-server's absolute time (the issue asks for it beside the ratio); no target of its own.
        metric: `conformance suite, warm, the ${ran.size} of ${cases.length} cases idea-server runs, against idea-server (baseline: the same cases against VS Code + extension)`,
        value: serverSuite.ms,
        unit: 'ms',
        baseline: hostSuite.ms,
      },
      {
        // Issue 33's row (issue 19's ≤ 0.4× of the whole suites moved here): the fixed waits are the same
        // seconds on every server and pull any ratio towards 1; without them the row compares the servers'
        // work. Counted: the sleepMs steps (local history entries a second apart, a cancel after 1.5 s)
        // and expectSilence windows (nothing may come for that long) of the cases run one at a time.
        metric: `the same suites less their fixtures' fixed waits, ${waitText}: sleepMs steps and expectSilence windows of the cases run one at a time, and the longest of the pool's (baseline: VS Code's, less its own)`,
        value: serverSuite.ms - waitServer,
        unit: 'ms',
        baseline: hostSuite.ms - waitHost,
        target: '≤ 0.3×',
        ok: serverSuite.ms - waitServer <= 0.3 * (hostSuite.ms - waitHost),
      },
      {
        // The floor beside the target: time both servers spend waiting on the same language server.
        metric:
          "of those: the cases run one at a time that wait on the language server's diagnostics, T35–T37 (baseline: VS Code's)",
        value: diagServer,
        unit: 'ms',
        baseline: diagHost,
      },
      {
        metric: "the rest: the same suites less their fixed waits and those cases (baseline: VS Code's)",
        value: serverSuite.ms - waitServer - diagServer,
        unit: 'ms',
        baseline: hostSuite.ms - waitHost - diagHost,
      },
      {
        metric: `the same suites less only their sleepMs steps, ${sleepText} (baseline: VS Code's, less its own)`,
        value: serverSuite.ms - waitsServer.sleep,
        unit: 'ms',
        baseline: hostSuite.ms - waitsHost.sleep,
      },
      {
        // The target's basis: a VS Code host serves IDEA only while a window is connected to it (the
        // extension host runs per window), here the headless browser; code-server alone serves nothing.
        metric:
          'peak memory (PSS) during the suites: idea-server + language servers (baseline: code-server tree + the browser its window needs)',
        value: serverPeak.pssMB,
        unit: 'MB',
        baseline: hostPssMB,
        target: '≤ 0.3×',
        ok: serverPeak.pssMB <= 0.3 * hostPssMB,
      },
      {
        metric: 'peak memory (PSS), the same idea-server tree (baseline: the code-server tree alone, browser left out)',
        value: serverPeak.pssMB,
        unit: 'MB',
        baseline: cs.pssMB,
      },
      {
        metric: 'peak memory (RSS), idea-server tree (baseline: the code-server tree alone)',
        value: serverPeak.rssMB,
        unit: 'MB',
        baseline: cs.rssMB,
      },
    );
    if (hostPeak.chromium)
      rows.push({
        metric: 'peak memory (PSS) of the headless browser the VS Code host also needs',
        value: hostPeak.chromium.pssMB,
        unit: 'MB',
      });
  }
  if (values.cases)
    writeFileSync(
      values.cases,
      `${JSON.stringify({ 'idea-server': serverSuite.cases, vscode: hostCases }, null, 1)}\n`,
    );
  emit({ name: 'idea-server', rows });
} finally {
  rmSync(tmp, { recursive: true, force: true });
}
