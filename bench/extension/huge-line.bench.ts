// edit/find's engine on a 40 MB line (issue 9: 8.5 s and 1.1 GB in the live host), in a fresh Node
// process per run, against rg run directly on the same folder in the same run:
// - with the default idea.server.limits.maxLineBytes (16 MiB): the time to the error naming the file;
// - with the limit raised to 64 MiB: the time to the answer, literal and regex;
// each with the process's peak RSS, against an idle probe process's RSS (the Node + worker floor).
// Usage: npx tsx bench/extension/huge-line.bench.ts [--json out.json] [--runs 3] [--mb 40]
import { spawn, spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { build } from 'esbuild';
import { buildTarget, EXTENSION_BUNDLES, ROOT } from '../../scripts/build';
import { LIMIT_RANGES } from '../../server-core/limits/config';
import { type BenchRow, emit } from '../lib/contract';
import { nowMs } from '../lib/stats';

const argv = process.argv.slice(2);
const num = (name: string, dflt: number) => {
  const i = argv.indexOf(name);
  return i >= 0 ? Number(argv[i + 1]) : dflt;
};
const RUNS = num('--runs', 3);
const MB = num('--mb', 40);
const here = dirname(fileURLToPath(import.meta.url));

function rgDirect(cwd: string): Promise<number> {
  return new Promise((resolve, reject) => {
    const t0 = nowMs();
    const child = spawn(
      'rg',
      ['--no-config', '--ignore-case', '--fixed-strings', '--line-number', '--no-heading', 'needle', '.'],
      { cwd, stdio: ['ignore', 'pipe', 'ignore'] },
    );
    child.stdout.on('data', () => undefined);
    child.on('error', reject);
    child.on('close', () => resolve(nowMs() - t0));
  });
}

async function main(): Promise<void> {
  await buildTarget('extension');
  const base = mkdtempSync(join(tmpdir(), 'idea-bench-hugeline-'));
  try {
    const dir = join(base, 'ws');
    spawnSync('mkdir', ['-p', dir]);
    // One line of MB megabytes with a match every ~4 KB (≈10,000 matches), plus an ordinary file.
    const unit = `${'x'.repeat(4090)} needle `;
    writeFileSync(
      join(dir, 'big.txt'),
      `first line\n${unit.repeat(Math.ceil((MB * 1e6) / unit.length))}\nlast needle line\n`,
    );
    writeFileSync(join(dir, 'small.txt'), 'a needle here\n');
    const probe = join(base, 'probe.mjs');
    await build({
      entryPoints: [join(here, 'huge-line-probe.ts')],
      outfile: probe,
      bundle: true,
      format: 'esm',
      platform: 'node',
      target: 'node20',
      logLevel: 'error',
      // CommonJS packages in the bundle (ws, through server-core/errors.ts → protocol.ts → the generated
      // client) call require() for Node's modules, which an ESM bundle lacks unless it is given one.
      banner: {
        js: "import { createRequire as __createRequire } from 'node:module'; const require = __createRequire(import.meta.url);",
      },
    });
    const worker = join(ROOT, EXTENSION_BUNDLES.regexWorker.outfile);
    const run = (folder: string, mode: string, max: number) => {
      const r = spawnSync(process.execPath, [probe, folder, mode, String(max), worker], { encoding: 'utf8' });
      if (r.status !== 0) throw new Error(`probe failed: ${r.stderr}`);
      return JSON.parse(r.stdout.trim().split('\n').pop()!) as {
        ms: number;
        totalCount?: number;
        error?: string;
        maxRssMB: number;
      };
    };
    const empty = join(base, 'empty');
    spawnSync('mkdir', ['-p', empty]);
    const floor = Math.min(
      ...Array.from({ length: RUNS }, () => run(empty, 'regex', LIMIT_RANGES.maxLineBytes.dflt).maxRssMB),
    );
    const rg: number[] = [];
    for (let i = 0; i < RUNS; i++) rg.push(await rgDirect(dir));
    const rgMs = Math.min(...rg);
    const rows: BenchRow[] = [];
    const cases = [
      {
        name: `literal, default limit ${LIMIT_RANGES.maxLineBytes.dflt >> 20} MiB (answers an error)`,
        mode: 'literal',
        max: LIMIT_RANGES.maxLineBytes.dflt,
      },
      { name: 'literal, limit raised to 64 MiB', mode: 'literal', max: 64 << 20 },
      { name: 'regex, limit raised to 64 MiB', mode: 'regex', max: 64 << 20 },
    ];
    for (const c of cases) {
      const rs = Array.from({ length: RUNS }, () => run(dir, c.mode, c.max));
      const best = rs.reduce((a, b) => (a.ms <= b.ms ? a : b));
      console.error(`[huge-line] ${c.name}: ${best.error ? `error "${best.error}"` : `${best.totalCount} matches`}`);
      rows.push({
        metric: `edit/find engine on a ${MB} MB line, ${c.name}: time (baseline rg direct)`,
        value: best.ms,
        unit: 'ms',
        baseline: rgMs,
        ratio: best.ms / rgMs,
      });
      rows.push({
        metric: `edit/find engine on a ${MB} MB line, ${c.name}: peak RSS (baseline idle probe)`,
        value: Math.max(...rs.map((r) => r.maxRssMB)),
        unit: 'MB',
        baseline: floor,
      });
    }
    emit({ name: 'extension huge line', rows });
  } finally {
    rmSync(base, { recursive: true, force: true });
  }
}

main().catch((e) => {
  console.error(e);
  process.exit(1);
});
