// The bench runner's side of the contract in bench/README.md: which files are entries, and which
// --json files are accepted (a bench writing another shape must show up as FAILED, not vanish).
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, relative } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { checkBenchResult } from '../../bench/lib/contract';
import { percentile, summarize } from '../../bench/lib/stats';
import { findEntries } from '../../bench/run';

const dir = mkdtempSync(join(tmpdir(), 'bench-contract-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe('bench contract', () => {
  it('accepts {name, rows[{metric, value, unit, baseline?, ratio?, target?, ok?}]} and nothing else', () => {
    expect(
      checkBenchResult({
        name: 'x',
        rows: [{ metric: 'm', value: 1, unit: 'ms', baseline: 2, ratio: 0.5, target: '< 3 ms', ok: true }],
      }),
    ).toBeUndefined();
    expect(checkBenchResult({ name: 'x', rows: [] })).toBeUndefined();
    expect(checkBenchResult({ cases: 181, warmBestMs: 20_600 })).toMatch(/name/);
    expect(checkBenchResult({ name: 'x', rows: [{ metric: 'm', value: 'fast', unit: 'ms' }] })).toMatch(/value/);
    expect(checkBenchResult({ name: 'x', rows: [{ metric: 'm', value: NaN, unit: 'ms' }] })).toMatch(/value/);
    expect(checkBenchResult({ name: 'x', rows: [{ metric: 'm', value: 1 }] })).toMatch(/unit/);
    expect(checkBenchResult({ name: 'x', rows: [{ metric: 'm', value: 1, unit: 'ms', ok: 'yes' }] })).toMatch(/ok/);
    expect(checkBenchResult(null)).toBeDefined();
  });

  it('finds bench/core first, then *.bench.ts per folder, else bench.ts/run.ts/index.ts; never lib/', () => {
    const files = [
      'core/a.bench.ts',
      'core/helper.ts',
      'alpha/run.ts',
      'alpha/x.ts',
      'beta/b.bench.ts',
      'beta/run.ts',
      'lib/c.bench.ts',
      'gamma/notes.md',
    ];
    for (const f of files) {
      mkdirSync(join(dir, f, '..'), { recursive: true });
      writeFileSync(join(dir, f), '');
    }
    expect(findEntries(dir).map((e) => relative(dir, e))).toEqual([
      'core/a.bench.ts',
      'alpha/run.ts',
      'beta/b.bench.ts',
    ]);
  });

  it('percentiles by nearest rank', () => {
    const xs = Array.from({ length: 100 }, (_, i) => 100 - i);
    expect(percentile(xs, 50)).toBe(50);
    expect(percentile(xs, 99)).toBe(99);
    expect(percentile([], 50)).toBeNaN();
    expect(summarize([3, 1, 2])).toMatchObject({ n: 3, p50: 2, max: 3, mean: 2 });
  });
});
