// Codegen benchmark: wall and CPU time of a full generation and of `--check` (whole processes, as
// a user runs them; target < 2 s each), and the per-frame cost of the generated validators against a
// same-run baseline (JSON.parse of the same frame).
//   npx tsx bench/codegen/run.ts [--runs N] [--json <file>]   (N default 5; --json: bench/run.ts contract)
import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { cpus, loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { specVersions } from '@idea-kit/spec-lib/spec';
import { type BenchResult, type BenchRow, jsonOutArg } from '../lib/contract';

const ROOT = join(import.meta.dirname, '..', '..');
const CLI = join(ROOT, 'codegen', 'src', 'cli.ts');
const runsArg = process.argv.indexOf('--runs');
const RUNS = runsArg > 0 ? Number(process.argv[runsArg + 1]) : 5;

const versionsCount = () => specVersions(join(ROOT, 'spec')).length;
const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;

interface Timing {
  wallMs: number;
  cpuMs: number;
}

/**
 * Median wall and CPU time of one process `node --import tsx <args>` (what `npm run codegen` runs,
 * minus npm and the tsx CLI wrapper process). CPU time is reported by the process itself, so it stays
 * meaningful when other work loads the machine; wall time does not.
 */
function timeProcess(args: string[]): Timing {
  const walls: number[] = [];
  const cpuTimes: number[] = [];
  for (let i = 0; i < RUNS; i++) {
    const t0 = performance.now();
    const r = spawnSync(
      process.execPath,
      ['--import', 'tsx', '--import', join(import.meta.dirname, 'cpu-report.mjs'), ...args],
      {
        cwd: ROOT,
        encoding: 'utf8',
      },
    );
    walls.push(performance.now() - t0);
    if (r.status !== 0) throw new Error(`${args.join(' ')} exited ${r.status}: ${r.stderr}`);
    cpuTimes.push(Number(/BENCH_CPU_MS ([\d.]+)/.exec(r.stderr)?.[1] ?? NaN));
  }
  return { wallMs: median(walls), cpuMs: median(cpuTimes) };
}

type Validate = ((v: unknown) => boolean) & { errors?: unknown };

/** ns per call: median over batches of 1000 calls, so a batch preempted by other work does not count. */
function nsPerOp(fn: () => void, batches = 200): number {
  for (let i = 0; i < 5000; i++) fn(); // warm up
  const samples: number[] = [];
  for (let b = 0; b < batches; b++) {
    const t0 = process.hrtime.bigint();
    for (let i = 0; i < 1000; i++) fn();
    samples.push(Number(process.hrtime.bigint() - t0) / 1000);
  }
  return median(samples);
}

const rows: BenchRow[] = [];

function benchGeneration(): void {
  const out = mkdtempSync(join(tmpdir(), 'idea-bench-codegen-'));
  try {
    const empty = join(out, 'empty.ts');
    writeFileSync(empty, 'export {};\n');
    const load = loadavg()[0]!.toFixed(2);
    const startup = timeProcess([empty]);
    const gen = timeProcess([CLI, '--out', out]);
    const check = timeProcess([CLI, '--check']);
    const full = timeProcess([CLI, '--check', '--full']);
    const line = (label: string, t: Timing) =>
      `  ${label.padEnd(22)} wall ${t.wallMs.toFixed(0).padStart(5)} ms · cpu ${t.cpuMs.toFixed(0).padStart(5)} ms  (target < 2000 ms) ${t.wallMs < 2000 ? 'OK' : 'OVER'}`;
    console.log(
      `codegen, all ${versionsCount()} spec versions, median of ${RUNS} runs (load avg ${load} when started, ${cpus().length} cores):`,
    );
    console.log(line('full generation', gen));
    console.log(line('--check (manifests)', check));
    console.log(line('--check --full', full));
    console.log(
      `  baseline: empty process wall ${startup.wallMs.toFixed(0).padStart(5)} ms · cpu ${startup.cpuMs.toFixed(0).padStart(5)} ms (node + tsx start-up, inside every figure)`,
    );
    const timed = (metric: string, t: Timing) => [
      {
        metric: `${metric}, wall (baseline: empty tsx process)`,
        value: t.wallMs,
        unit: 'ms',
        baseline: startup.wallMs,
        target: '< 2000 ms',
        ok: t.wallMs < 2000,
      },
      { metric: `${metric}, cpu (baseline: empty tsx process)`, value: t.cpuMs, unit: 'ms', baseline: startup.cpuMs },
    ];
    rows.push(
      ...timed(`full generation, ${versionsCount()} versions`, gen),
      ...timed('--check via manifests', check),
      ...timed('--check --full (regenerates in memory)', full),
    );
  } finally {
    rmSync(out, { recursive: true, force: true });
  }
}

async function benchValidators(): Promise<void> {
  const v = (await import(pathToFileURL(join(ROOT, 'generated', 'v0.1.6', 'validators.js')).href)) as Record<
    string,
    Validate
  >;
  const requestId = '550e8400-e29b-41d4-a716-446655440000';
  const request = JSON.stringify({
    topic: '/app/vscode/edit/find',
    requestId,
    params: {
      pattern: 'searchText',
      include: '**/*.ts',
      exclude: '**/node_modules/**',
      isRegex: false,
      isCaseSensitive: true,
    },
  });
  const matches = Array.from({ length: 100 }, (_, i) => ({
    filePath: `/home/user/project/src/f${i}.ts`,
    line: i,
    character: 4,
    lineText: `const x${i} = searchText;`,
  }));
  const response = JSON.stringify({ topic: '/app/vscode/edit/find', requestId, result: { matches, totalCount: 100 } });

  const cases: [string, string, (o: Record<string, unknown>) => boolean][] = [
    [
      'request edit/find (envelope + params)',
      request,
      (o) => v.validateRequest!(o) && v.validateEditFindParams!(o.params),
    ],
    [
      'response edit/find, 100 matches (envelope + result)',
      response,
      (o) => v.validateResponseSuccess!(o) && v.validateEditFindResult!(o.result),
    ],
  ];
  console.log('generated validators, per frame (ns; baseline = JSON.parse of the same frame, same run):');
  let sink = 0;
  for (const [name, frame, validate] of cases) {
    const parsed = JSON.parse(frame) as Record<string, unknown>;
    if (!validate(parsed)) throw new Error(`${name}: the benchmark frame does not validate`);
    const parse = nsPerOp(() => {
      sink += (JSON.parse(frame) as object) ? 1 : 0;
    });
    const only = nsPerOp(() => {
      sink += validate(parsed) ? 1 : 0;
    });
    console.log(
      `  ${name} (${frame.length} B): JSON.parse ${parse.toFixed(0)} · validate ${only.toFixed(0)} (${(only / parse).toFixed(2)}× parse)`,
    );
    rows.push({
      metric: `validate ${name}, ${frame.length} B (baseline: JSON.parse of the frame)`,
      value: only,
      unit: 'ns/frame',
      baseline: parse,
    });
  }
  if (sink < 0) console.log(sink);
}

benchGeneration();
await benchValidators();
const jsonOut = jsonOutArg();
if (jsonOut) writeFileSync(jsonOut, JSON.stringify({ name: 'codegen', rows } satisfies BenchResult, null, 2));
