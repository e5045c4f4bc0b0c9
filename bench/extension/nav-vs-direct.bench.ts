// nav/hover, nav/typeDefinition and nav/implementation through IDEA (client → socket → extension →
// VS Code command → client) vs the same VS Code command run inside the extension host directly, in the
// same live VS Code and the same run. "Directly" is a bench-only extension loaded next to ours
// (direct-probe/: it times `vscode.executeHoverProvider` & co. inside the host and answers the timings).
// Target (issue 21): IDEA ≤ 1.1× the direct command plus the socket round trip, measured in the same run
// as the p50 of editor/context (a request the extension answers from its own state, no provider).
// Idle costs what the baselines leave out, so a second set of rows compares like with like: a
// direct side that idles IDLE_MS (untimed) before each call, as the host does between a client's calls,
// plus the round trip of an editor/context sent after the client idled for CALL_MS, as it does while a
// nav call runs (a woken process waits for a core: ~1 ms more than back to back at load 5 on 2 cores).
// Those rows are reported next to the issue's, not instead of them.
// Usage: npx tsx bench/extension/nav-vs-direct.bench.ts [--json out.json] [--rounds 10] [--per-block 10]
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { get } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { buildFixtureWorkspace } from '../../conformance/workspace';
import { connect, type IdeaClient } from '../../generated/current';
import { launchHost } from '../../livehost';
import { poll } from '../../runtime/poll';
import { buildTarget, ROOT } from '../../scripts/build';
import { type BenchRow, emit } from '../lib/contract';
import { nowMs, summarize } from '../lib/stats';

const argv = process.argv.slice(2);
const num = (name: string, dflt: number) => {
  const i = argv.indexOf(name);
  return i >= 0 ? Number(argv[i + 1]) : dflt;
};
const ROUNDS = num('--rounds', 10);
const PER_BLOCK = num('--per-block', 10);
const TARGET = 1.1;
/** The paced direct side's idle before each call: setTimeout's 1 ms, about the round trip a client's calls idle. */
const IDLE_MS = 1;
/** The idle before each idle round trip: about a nav call's time in the host. */
const CALL_MS = 15;

interface At {
  filePath: string;
  line: number;
  character: number;
}

/** Position of the first `token` in a file (fixtures move; positions are looked up). */
function at(filePath: string, token: string): At {
  const lines = readFileSync(filePath, 'utf8').split('\n');
  const line = lines.findIndex((l) => l.includes(token));
  if (line < 0) throw new Error(`"${token}" not in ${filePath}`);
  return { filePath, line, character: lines[line]!.indexOf(token) };
}

interface Probe {
  time(command: string, where: At, n: number, idleMs?: number): Promise<{ samples: number[]; results: number }>;
}

function httpGet(url: string, token: string): Promise<{ status: number; text: string }> {
  return new Promise((resolve, reject) => {
    get(url, { headers: { authorization: `Bearer ${token}` } }, (res) => {
      let text = '';
      res.setEncoding('utf8');
      res.on('data', (d: string) => (text += d));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, text }));
    }).on('error', reject);
  });
}

async function probeOf(file: string): Promise<Probe> {
  const info = await poll(
    () => {
      try {
        return JSON.parse(readFileSync(file, 'utf8')) as { port: number; token: string };
      } catch {
        return undefined;
      }
    },
    { timeoutMs: 60_000, intervalMs: 100 },
  );
  if (!info) throw new Error('the direct probe extension did not start');
  return {
    async time(command, where, n, idleMs = 0) {
      const q = new URLSearchParams({
        command,
        file: where.filePath,
        line: String(where.line),
        character: String(where.character),
        n: String(n),
        idle: String(idleMs),
      });
      const { status, text } = await httpGet(`http://127.0.0.1:${info.port}/time?${q}`, info.token);
      const body = JSON.parse(text) as { samples: number[]; results: number; error?: string };
      if (status !== 200) throw new Error(`probe: ${body.error}`);
      return body;
    },
  };
}

async function main(): Promise<void> {
  await buildTarget('extension');
  const base = mkdtempSync(join(tmpdir(), 'idea-bench-nav-'));
  const probeFile = join(base, 'probe.json');
  const ws = buildFixtureWorkspace(join(base, 'ws'));
  const p = (rel: string) => join(ws.dir, rel);
  const host = await launchHost({
    workspace: ws.dir,
    extensionDevPath: join(ROOT, 'extension'),
    extraExtensionDevPaths: [join(ROOT, 'bench', 'extension', 'direct-probe')],
    env: { IDEA_BENCH_PROBE_FILE: probeFile },
    timeoutMs: 240_000, // the machine is shared: a launch under load takes minutes
  });
  const rows: BenchRow[] = [];
  let client: IdeaClient | undefined;
  try {
    const probe = await probeOf(probeFile);
    client = await connect({ url: host.url, token: host.token, timeoutMs: 120_000 });
    const c = client;
    const topics: {
      topic: string;
      command: string;
      where: At;
      idea: (w: At) => Promise<unknown>;
      size: (r: unknown) => number;
    }[] = [
      {
        topic: 'nav/hover',
        command: 'vscode.executeHoverProvider',
        where: at(p('src/main.ts'), 'totalArea('),
        idea: (w) => c.navHover(w),
        size: (r) => (r as { contents: unknown[] }).contents.length,
      },
      {
        topic: 'nav/typeDefinition',
        command: 'vscode.executeTypeDefinitionProvider',
        where: at(p('src/polygon.ts'), 'unit'),
        idea: (w) => c.navTypeDefinition(w),
        size: (r) => (r as { locations: unknown[] }).locations.length,
      },
      {
        topic: 'nav/implementation',
        command: 'vscode.executeImplementationProvider',
        where: at(p('src/shapes.ts'), 'Shape'),
        idea: (w) => c.navImplementation(w),
        size: (r) => (r as { locations: unknown[] }).locations.length,
      },
    ];
    // Warm up both sides (tsserver loads the project on the first call) and check they agree on the answer.
    for (const t of topics) {
      let viaIdea = 0;
      for (let i = 0; i < 5; i++) viaIdea = t.size(await t.idea(t.where));
      const direct = await probe.time(t.command, t.where, 5);
      console.error(`[nav-vs-direct] ${t.topic}: ${viaIdea} item(s) via IDEA, ${direct.results} direct`);
      if (viaIdea === 0 || direct.results === 0) throw new Error(`${t.topic}: an empty answer measures nothing`);
    }
    for (let i = 0; i < 20; i++) await c.editorContext({});

    // Rounds of interleaved blocks, so the machine's load moves every side alike.
    const idea = new Map<string, number[]>(topics.map((t) => [t.topic, []]));
    const direct = new Map<string, number[]>(topics.map((t) => [t.topic, []]));
    const paced = new Map<string, number[]>(topics.map((t) => [t.topic, []]));
    const roundTrip: number[] = [];
    const idleRoundTrip: number[] = [];
    for (let r = 0; r < ROUNDS; r++) {
      for (let k = 0; k < PER_BLOCK; k++) {
        const t0 = nowMs();
        await c.editorContext({});
        roundTrip.push(nowMs() - t0);
      }
      for (let k = 0; k < PER_BLOCK; k++) {
        await new Promise((ok) => setTimeout(ok, CALL_MS));
        const t0 = nowMs();
        await c.editorContext({});
        idleRoundTrip.push(nowMs() - t0);
      }
      for (const t of topics) {
        for (let k = 0; k < PER_BLOCK; k++) {
          const t0 = nowMs();
          await t.idea(t.where);
          idea.get(t.topic)!.push(nowMs() - t0);
        }
        direct.get(t.topic)!.push(...(await probe.time(t.command, t.where, PER_BLOCK)).samples);
        paced.get(t.topic)!.push(...(await probe.time(t.command, t.where, PER_BLOCK, IDLE_MS)).samples);
      }
    }
    const rtt = summarize(roundTrip).p50;
    const idleRtt = summarize(idleRoundTrip).p50;
    rows.push({ metric: 'socket round trip p50 (editor/context, no provider; same run)', value: rtt, unit: 'ms' });
    rows.push({ metric: `socket round trip p50 after the client idled ${CALL_MS} ms`, value: idleRtt, unit: 'ms' });
    for (const t of topics) {
      const v = summarize(idea.get(t.topic)!).p50;
      const d = summarize(direct.get(t.topic)!).p50;
      rows.push({
        metric: `${t.topic} p50 via IDEA (baseline: ${t.command} in the host)`,
        value: v,
        unit: 'ms',
        baseline: d,
        ratio: v / d,
        target: `≤ ${TARGET}× + round trip (${rtt.toFixed(2)} ms)`,
        ok: v <= TARGET * d + rtt,
      });
    }
    for (const t of topics) {
      const v = summarize(idea.get(t.topic)!).p50;
      const d = summarize(paced.get(t.topic)!).p50;
      rows.push({
        metric: `${t.topic} p50 via IDEA (baseline: the command in the host after ${IDLE_MS} ms idle, as between calls)`,
        value: v,
        unit: 'ms',
        baseline: d,
        ratio: v / d,
        target: `≤ ${TARGET}× + idle round trip (${idleRtt.toFixed(2)} ms)`,
        ok: v <= TARGET * d + idleRtt,
      });
    }
    rows.push({ metric: 'samples per side and topic', value: ROUNDS * PER_BLOCK, unit: 'calls' });
  } finally {
    client?.close();
    await host.close();
    rmSync(base, { recursive: true, force: true });
  }
  emit({ name: 'nav vs direct command', rows });
}

main().catch((e) => {
  console.error(e);
  process.exit(1);
});
