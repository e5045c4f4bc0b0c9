// Runs every bench entry (see bench/README.md for the contract), one process at a time, and prints
// one table; a whole run (no --only) also writes it to bench/RESULTS.md.
// Usage: npx tsx bench/run.ts [--only <substring>] [--json <file>] [--markdown] [--results <file>]
import { execFileSync, spawnSync } from 'node:child_process';
import {
  existsSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  renameSync,
  rmSync,
  statSync,
  writeFileSync,
} from 'node:fs';
import { cpus, loadavg, tmpdir } from 'node:os';
import { dirname, join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import { type BenchResult, checkBenchResult } from './lib/contract';
import { machineLine } from './lib/machine';
import { renderTable, resultsMarkdown, runLine, type Section } from './lib/results';

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
/** Where the page of a run goes: --results, else bench/RESULTS.md for a whole run; a partial run writes none. */
const resultsOut = opt('--results') ?? (only ? undefined : join(here, 'RESULTS.md'));

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

function runEntry(entry: string, out: string): Section {
  const t0 = Date.now();
  const rel = relative(root, entry);
  console.error(`[bench] ${rel} …`);
  // --expose-gc lets benches settle the heap between phases; tsx passes node flags through.
  const r = spawnSync(process.execPath, ['--expose-gc', '--import', 'tsx', entry, '--json', out], {
    // The entry's own output goes to stderr: stdout carries only the table (e.g. for --markdown > file).
    cwd: root,
    stdio: ['ignore', process.stderr, 'inherit'],
    // A bound, not a target: at 100k files one language server takes many minutes to load its project.
    timeout: 60 * 60_000,
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

/** The command as typed: the BENCH_* settings the entries read, then the runner and its arguments. */
function commandLine(): string {
  const env = Object.entries(process.env)
    .filter(([k]) => k.startsWith('BENCH_'))
    .sort(([a], [b]) => a.localeCompare(b))
    .map(([k, v]) => `${k}=${v} `)
    .join('');
  return `${env}npx tsx bench/run.ts${args.length ? ` ${args.join(' ')}` : ''}`;
}

/** The commit measured, and whether the tree had changes beside it (they are in the figures too). */
function tree(): string {
  try {
    const git = (a: string[]) => execFileSync('git', a, { cwd: root, encoding: 'utf8' }).trim();
    const dirty = git(['status', '--porcelain']) !== '';
    return `${git(['rev-parse', '--short', 'HEAD'])}${dirty ? ' with uncommitted changes' : ', nothing uncommitted'}`;
  } catch {
    return 'not a git checkout';
  }
}

function main(): void {
  const entries = findEntries(here).filter((e) => !only || relative(root, e).includes(only));
  const tmp = mkdtempSync(join(tmpdir(), 'idea-bench-'));
  const sections: Section[] = [];
  const started = new Date();
  const t0 = started.getTime();
  const load = () => Number(loadavg()[0]!.toFixed(2));
  const loadAtStart = load();
  const measured = tree(); // before the run: what was measured, whatever changes while it runs
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
  const run = runLine(
    (Date.now() - t0) / 60_000,
    cpus().length,
    loadAtStart,
    sections.map((s) => s.load!),
  );
  console.log(`\n${machineLine(started)} (start) · ${run}\n`);
  console.log(renderTable(sections, markdown ? 'markdown' : 'text'));
  const failed = sections.filter((s) => s.error);
  if (jsonOut) writeFileSync(jsonOut, JSON.stringify({ machine: machineLine(started), run, sections }, null, 2));
  if (resultsOut) {
    const page = resultsMarkdown({
      machine: machineLine(started),
      run,
      command: commandLine(),
      tree: measured,
      sections,
    });
    // Written whole or not at all: a reader never meets half a table.
    const tmpFile = `${resultsOut}.${process.pid}.tmp`;
    writeFileSync(tmpFile, page);
    renameSync(tmpFile, resultsOut);
    console.error(`[bench] wrote ${resultsOut}`);
  }
  if (failed.length) {
    console.error(`\n[bench] ${failed.length} entr${failed.length === 1 ? 'y' : 'ies'} failed`);
    process.exitCode = 1;
  }
}

if (process.argv[1] && fileURLToPath(import.meta.url) === process.argv[1]) main();
