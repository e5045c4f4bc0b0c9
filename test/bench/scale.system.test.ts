// v0.1.8's scale benches (bench/scale/symbols.bench.ts, edits.bench.ts) run end to end at a small
// scale, so that their rows cannot rot between whole bench runs: each bench, on the built idea-server
// and a real typescript-language-server, exits 0 and writes every row with a target, its same-run
// baseline and the floor beside it. Figures are not judged here (never a timed test): the bench does
// that, on a quiet machine, at full scale.
import { execFile } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { type BenchResult, checkBenchResult } from '../../bench/lib/contract';
import { buildTarget, ROOT } from '../../scripts/build';

const TSX = join(ROOT, 'node_modules', '.bin', 'tsx');
const dir = mkdtempSync(join(tmpdir(), 'bench-scale-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

/** Runs a bench entry as bench/run.ts does and returns what it wrote, once it exited 0 (at most 300 s). */
async function runBench(entry: string, args: string[]): Promise<BenchResult> {
  await buildTarget('server');
  const out = join(dir, `${entry.replace(/\W/g, '-')}.json`);
  const { code, stderr } = await new Promise<{ code: number | null; stderr: string }>((done) => {
    const p = execFile(
      TSX,
      [join(ROOT, 'bench', 'scale', entry), '--json', out, '--no-build', ...args],
      { cwd: ROOT, timeout: 300_000, maxBuffer: 16 * 1024 * 1024 },
      (_e, _out, err) => done({ code: p.exitCode, stderr: err }),
    );
  });
  expect(code, `${entry} exited ${code}:\n${stderr.slice(-4000)}`).toBe(0);
  const result = JSON.parse(readFileSync(out, 'utf8')) as unknown;
  expect(checkBenchResult(result)).toBeUndefined();
  return result as BenchResult;
}

/** The rows whose metric matches, each with a finite positive value and a same-run baseline. */
function rowsLike(result: BenchResult, metric: RegExp, withTarget: boolean) {
  const rows = result.rows.filter((r) => metric.test(r.metric));
  expect(rows.length, `a row matching ${metric} in ${result.name}`).toBeGreaterThan(0);
  for (const r of rows) {
    expect(r.value).toBeGreaterThan(0);
    expect(r.baseline).toBeGreaterThan(0);
    // value, baseline and ratio are each rounded to 2 decimals: the ratio within 5% of theirs.
    expect(Math.abs(r.ratio! / (r.value / r.baseline!) - 1)).toBeLessThan(0.05);
    if (withTarget) expect(r, r.metric).toMatchObject({ target: expect.stringMatching(/^≤ 1\.[23]×$/) });
    if (withTarget) expect(typeof r.ok).toBe('boolean');
  }
  return rows;
}

describe('bench/scale at a small scale', () => {
  it('symbols: find-symbol, workspace symbols, referencing symbols and code actions, each with its floor', async () => {
    const result = await runBench('symbols.bench.ts', ['--sizes', '200', '--no-date-fns', '--runs', '1']);
    expect(result.name).toBe('scale: symbols');
    for (const topic of ['nav/findSymbol', 'nav/workspaceSymbols', 'nav/referencingSymbols', 'edit/codeActions'])
      rowsLike(result, new RegExp(`^200 tree: ${topic} .* vs `), true);
    // One floor-proxy row per topic, and the referencing symbols' own work beside it.
    expect(rowsLike(result, /^200 tree: the floor, /, false)).toHaveLength(4);
    rowsLike(result, /^200 tree: the work's floor, /, false);
  }, 360_000);

  it('edits: edit/apply of 1,000 edits and fs/move of 200 importers against the write floors', async () => {
    const result = await runBench('edits.bench.ts', ['--runs', '1']);
    expect(result.name).toBe('scale: edits');
    rowsLike(result, /^edit\/apply of 1000 range edits over 200 files .* crash-safe together/, true);
    rowsLike(result, /^the same edit\/apply vs its 200 files written crash-safe one after another/, false);
    rowsLike(result, /^fs\/move of a file with 200 importers .*willRenameFiles/, true);
  }, 360_000);
});
