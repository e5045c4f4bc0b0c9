// Runs every bench entry (see bench/README.md for the contract), one process at a time, and prints
// one table. Usage: npx tsx bench/run.ts [--only <substring>] [--json <file>] [--markdown]
import { spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { cpus, loadavg, tmpdir } from 'node:os';
import { basename, dirname, join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import { type BenchResult, type BenchRow, checkBenchResult, fmt } from './lib/contract';
import { machineLine } from './lib/machine';

const here = dirname(fileURLToPath(import.meta.url));
const root = dirname(here);
const args = process.argv.slice(2);
const opt = (name: string) => {
  const i = args.indexOf(name);
  return i >= 0 ? args[i + 1] : undefined;
};
const only = opt('--only');
const jsonOut = opt('--json');
const markdown = args.includes('--markdown');

/** Entry scripts: bench/core first, then every other folder in name order. */
export function findEntries(benchDir: string): string[] {
  const dirs = readdirSync(benchDir)
    .filter((d) => d !== 'lib' && statSync(join(benchDir, d)).isDirectory())
    .sort((a, b) => (a === 'core' ? -1 : b === 'core' ? 1 : a.localeCompare(b)));
  const entries: string[] = [];
  for (const d of dirs) {
    const files = readdirSync(join(benchDir, d));
    const marked = files.filter((f) => f.endsWith('.bench.ts')).sort();
    const fallback = ['bench.ts', 'run.ts', 'index.ts'].find((f) => files.includes(f));
    for (const f of marked.length ? marked : fallback ? [fallback] : []) entries.push(join(benchDir, d, f));
  }
  return entries;
}

interface Section {
  entry: string;
  result?: BenchResult;
  error?: string;
  seconds: number;
  /** The 1-minute load average when the entry ended (the machine is shared: it says what the figures met). */
  load?: number;
}

function runEntry(entry: string, out: string): Section {
  const t0 = Date.now();
  const rel = relative(root, entry);
  console.error(`[bench] ${rel} …`);
  // --expose-gc lets benches settle the heap between phases; tsx passes node flags through.
  const r = spawnSync(process.execPath, ['--expose-gc', '--import', 'tsx', entry, '--json', out], {
    // The entry's own output goes to stderr: stdout carries only the table (e.g. for --markdown > file).
    cwd: root,
    stdio: ['ignore', process.stderr, 'inherit'],
    timeout: 20 * 60_000,
  });
  const seconds = (Date.now() - t0) / 1000;
  if (r.error) return { entry: rel, error: String(r.error.message), seconds };
  if (r.status !== 0) return { entry: rel, error: `exit ${r.status ?? r.signal}`, seconds };
  if (!existsSync(out)) return { entry: rel, error: 'wrote no --json file', seconds };
  let parsed: unknown;
  try {
    parsed = JSON.parse(readFileSync(out, 'utf8'));
  } catch (e) {
    return { entry: rel, error: `bad JSON: ${(e as Error).message}`, seconds };
  }
  const why = checkBenchResult(parsed);
  if (why) return { entry: rel, error: `bad result shape: ${why}`, seconds };
  const result = parsed as BenchResult;
  for (const row of result.rows)
    if (row.baseline !== undefined && row.ratio === undefined && row.baseline !== 0)
      row.ratio = row.value / row.baseline;
  return { entry: rel, result, seconds };
}

function cells(section: string, row: BenchRow): string[] {
  const status = row.ok === undefined ? '' : row.ok ? 'ok' : 'MISSED';
  return [
    section,
    row.metric,
    `${fmt(row.value)} ${row.unit}`,
    row.baseline === undefined ? '' : `${fmt(row.baseline)} ${row.unit}`,
    row.ratio === undefined ? '' : `${row.ratio.toFixed(2)}×`,
    row.target ?? '',
    status,
  ];
}

function render(sections: Section[]): string {
  const head = ['bench', 'metric', 'value', 'baseline (same run)', 'ratio', 'target', ''];
  const body: string[][] = [];
  for (const s of sections) {
    if (s.error)
      body.push([s.result?.name ?? basename(dirname(s.entry)), `FAILED (${s.entry})`, s.error, '', '', '', 'FAILED']);
    else for (const row of s.result!.rows) body.push(cells(s.result!.name, row));
  }
  if (markdown) {
    const line = (c: string[]) => `| ${c.map((x) => x.replace(/\|/g, '\\|')).join(' | ')} |`;
    return [line(head), line(head.map(() => '---')), ...body.map(line)].join('\n');
  }
  const w = head.map((h, i) => Math.max(h.length, ...body.map((r) => r[i]!.length)));
  const line = (c: string[]) =>
    c
      .map((x, i) => x.padEnd(w[i]!))
      .join('  ')
      .trimEnd();
  return [
    line(head),
    w
      .map((n) => '-'.repeat(n))
      .join('  ')
      .trimEnd(),
    ...body.map(line),
  ].join('\n');
}

function main(): void {
  const entries = findEntries(here).filter((e) => !only || relative(root, e).includes(only));
  const tmp = mkdtempSync(join(tmpdir(), 'idea-bench-'));
  const sections: Section[] = [];
  const started = new Date();
  const t0 = started.getTime();
  const load = () => Number(loadavg()[0]!.toFixed(2));
  const loadAtStart = load();
  try {
    for (const [i, e] of entries.entries()) {
      const s = runEntry(e, join(tmp, `${i}.json`));
      s.load = load();
      console.error(
        `[bench] ${s.entry}: ${s.seconds.toFixed(0)} s, load average ${s.load}${s.error ? `, ${s.error}` : ''}`,
      );
      sections.push(s);
    }
  } finally {
    rmSync(tmp, { recursive: true, force: true });
  }
  const loads = sections.map((s) => s.load!);
  const runLine =
    `${((Date.now() - t0) / 60_000).toFixed(1)} min; load average (1 min, ${cpus().length} cores) ${loadAtStart} at the start, ` +
    `${loads.length ? `${Math.min(...loads)}–${Math.max(...loads)} after the entries` : 'no entries'}`;
  console.log(`\n${machineLine(started)} (start) · ${runLine}\n`);
  console.log(render(sections));
  const failed = sections.filter((s) => s.error);
  if (jsonOut)
    writeFileSync(jsonOut, JSON.stringify({ machine: machineLine(started), run: runLine, sections }, null, 2));
  if (failed.length) {
    console.error(`\n[bench] ${failed.length} entr${failed.length === 1 ? 'y' : 'ies'} failed`);
    process.exitCode = 1;
  }
}

if (process.argv[1] && fileURLToPath(import.meta.url) === process.argv[1]) main();
