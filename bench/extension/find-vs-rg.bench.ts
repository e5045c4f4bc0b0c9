// The extension in a live VS Code against ripgrep run directly, same corpus, same run:
// - edit/find round trip (client → extension → rg + JS check → client) vs spawning rg on the corpus;
// - first-call latency of nav/symbols, nav/definition, diag/list right after start (tsserver cold);
// - live-host cold start (code-server spawn → extension port ready) and peak memory of both trees.
// Usage: npx tsx bench/extension/find-vs-rg.bench.ts [--json out.json] [--files 6000] [--runs 10]
import { spawn } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { buildFixtureWorkspace } from '../../conformance/workspace';
import { connect } from '../../generated/v0.1.6/client';
import { findCodeServer, launchHost } from '../../livehost';
import { buildTarget, ROOT } from '../../scripts/build';
import { ripgrepPath } from '../../server-core/search/ripgrep';
import { type BenchRow, emit } from '../lib/contract';
import { nowMs, summarize } from '../lib/stats';

const argv = process.argv.slice(2);
const num = (name: string, dflt: number) => {
  const i = argv.indexOf(name);
  return i >= 0 ? Number(argv[i + 1]) : dflt;
};
const FILES = num('--files', 6000);
const RUNS = num('--runs', 15);

/** Deterministic pseudo-source files: 60 folders, ~3 KB each, a rare token in 1 file of 50. */
function writeCorpus(root: string): number {
  let seed = 42;
  const rnd = () => (seed = (seed * 1103515245 + 12345) & 0x7fffffff) / 0x7fffffff;
  const words = [
    'alpha',
    'value',
    'count',
    'index',
    'result',
    'buffer',
    'handler',
    'config',
    'item',
    'node',
    'token',
    'state',
  ];
  let bytes = 0;
  for (let f = 0; f < FILES; f++) {
    const dir = join(root, `pkg${String(f % 60).padStart(2, '0')}`, `mod${Math.floor(f / 600)}`);
    mkdirSync(dir, { recursive: true });
    const lines: string[] = [`# module ${f}`];
    for (let l = 0; l < 70; l++) {
      const w = () => words[Math.floor(rnd() * words.length)]!;
      lines.push(
        l % 7 === 0
          ? `def ${w()}_${Math.floor(rnd() * 1000)}(${w()}, ${w()}):`
          : `    ${w()} = ${w()}_${Math.floor(rnd() * 100)}(${w()}) + ${Math.floor(rnd() * 9999)}`,
      );
    }
    if (f % 50 === 7) lines.splice(30, 0, '    needleToken = locate(haystack)  # rare');
    const text = `${lines.join('\n')}\n`;
    bytes += text.length;
    writeFileSync(join(dir, `file${f}.py`), text);
  }
  return bytes;
}

/** rg run directly on the corpus, collecting its output the way a caller would. */
function rgDirect(rg: string, cwd: string, args: string[]): Promise<number> {
  return new Promise((resolve, reject) => {
    const t0 = nowMs();
    const child = spawn(rg, args, { cwd, stdio: ['ignore', 'pipe', 'ignore'] });
    let lines = 0;
    child.stdout.on('data', (c: Buffer) => {
      for (const b of c) if (b === 10) lines++;
    });
    child.on('error', reject);
    child.on('close', () => resolve(nowMs() - t0 + 0 * lines));
  });
}

async function main(): Promise<void> {
  await buildTarget('extension');
  const base = mkdtempSync(join(tmpdir(), 'idea-bench-ext-'));
  const ws = buildFixtureWorkspace(join(base, 'ws'));
  const corpusBytes = writeCorpus(join(ws.dir, 'corpus'));
  console.error(`[extension] corpus: ${FILES} files, ${(corpusBytes / 1e6).toFixed(1)} MB`);
  // The same binary the extension uses: VS Code's bundled ripgrep (appRoot = <code-server>/lib/vscode).
  const rg = ripgrepPath(join(dirname(findCodeServer()), '..', 'code-server', 'lib', 'vscode'));
  if (rg === null) throw new Error('no ripgrep: neither code-server nor PATH has one');
  console.error(`[extension] ripgrep: ${rg}`);
  const rows: BenchRow[] = [];
  const host = await launchHost({ workspace: ws.dir, extensionDevPath: join(ROOT, 'extension'), memorySampleMs: 250 });
  try {
    rows.push({
      metric: 'live host cold start (code-server spawn → extension port ready)',
      value: host.timings.spawnToReadyMs,
      unit: 'ms',
    });
    const client = await connect({ url: host.url, token: host.token, timeoutMs: 120_000 });

    // First calls after start, in this order: the first one pays for tsserver's start-up.
    const first = async (metric: string, f: () => Promise<unknown>) => {
      const t0 = nowMs();
      await f();
      rows.push({ metric, value: nowMs() - t0, unit: 'ms' });
    };
    await first('first nav/symbols after start (tsserver cold)', () =>
      client.navSymbols({ filePath: 'src/shapes.ts' }),
    );
    await first('first nav/definition after start', () =>
      client.navDefinition({ filePath: 'src/main.ts', line: 7, character: 14 }),
    );
    await first('first diag/list after start (broken.ts, until settled)', () =>
      client.diagList({ filePath: 'src/broken.ts' }),
    );

    // Baseline: rg's plain command line on the same folder, minus .git (VS Code's files.exclude default
    // keeps it out of the extension's search too). For the regex, the faster of rg's two engines.
    const cases: {
      name: string;
      params: { pattern: string; isRegex?: boolean; isCaseSensitive?: boolean };
      rgArgs: string[][];
    }[] = [
      {
        name: 'literal, rare',
        params: { pattern: 'needleToken' },
        rgArgs: [['--ignore-case', '--fixed-strings', 'needleToken']],
      },
      {
        name: 'regex with \\b and \\d+',
        params: { pattern: '\\bdef alpha_\\d+\\(', isRegex: true, isCaseSensitive: true },
        rgArgs: [
          ['--case-sensitive', '\\bdef alpha_\\d+\\('],
          ['--case-sensitive', '--pcre2', '\\bdef alpha_\\d+\\('],
        ],
      },
    ];
    for (const c of cases) {
      const variants = c.rgArgs.map((a) => [
        '--hidden',
        '--no-config',
        '--glob',
        '!.git',
        '--line-number',
        '--no-heading',
        '--with-filename',
        ...a,
        '.',
      ]);
      for (let i = 0; i < 2; i++) {
        await client.editFind(c.params);
        for (const v of variants) await rgDirect(rg, ws.dir, v);
      } // warm caches
      const ext: number[] = [];
      const direct: number[][] = variants.map(() => []);
      let total = 0;
      for (let i = 0; i < RUNS; i++) {
        const t0 = nowMs();
        total = (await client.editFind(c.params)).totalCount;
        ext.push(nowMs() - t0);
        for (const [k, v] of variants.entries()) direct[k]!.push(await rgDirect(rg, ws.dir, v));
      }
      const e = summarize(ext).p50;
      const d = Math.min(...direct.map((x) => summarize(x).p50));
      rows.push({
        metric: `edit/find p50 (${c.name}; ${total} matches in ${FILES} files) vs rg direct p50`,
        value: e,
        unit: 'ms',
        baseline: d,
        ratio: e / d,
        target: '≤ 1.5×',
        ok: e / d <= 1.5,
      });
    }
    client.close();
  } finally {
    await host.close();
    const peak = host.peakMemory();
    if (peak?.total) {
      rows.push({
        metric: 'live host peak RSS (code-server tree + Chromium tree)',
        value: peak.total.rssMB,
        unit: 'MB',
      });
      rows.push({
        metric: 'live host peak PSS (code-server tree + Chromium tree)',
        value: peak.total.pssMB,
        unit: 'MB',
      });
    }
    rmSync(base, { recursive: true, force: true });
  }
  emit({ name: 'extension', rows });
}

main().catch((e) => {
  console.error(e);
  process.exit(1);
});
