// Wall time of the whole conformance suite: cold (fresh workspace + live VS Code launch + first run,
// tsserver and git caches cold) and warm (the same host again), plus same-run baselines: the warm
// suite with concurrency 1 (every case one after the other, the same reset and settle policy), and the
// warm suite with the runner's old policy (every reset through git, a fixed 300 ms settle after it).
//   npx tsx bench/conformance/run.ts [--runs N] [--concurrency N] [--settle ms] [--settle-timeout ms] [--no-old-policy] [--json out.json]
import { mkdtempSync, rmSync } from 'node:fs';
import { loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { HOST_USER_SETTINGS } from '../../conformance/launch';
import { readExpectedFailures } from '../../conformance/lib/expected-failures';
import { CONFORMANCE_DIR, loadCases } from '../../conformance/lib/load';
import { FALLBACK_SETTLE_MS, runSuite } from '../../conformance/lib/run';
import { targetFor } from '../../conformance/lib/session';
import {
  buildFixtureWorkspace,
  resetFixtureWorkspace,
  resetFixtureWorkspaceDetailed,
} from '../../conformance/workspace';
import { launchHost, REPO_ROOT } from '../../livehost';
import { emit } from '../lib/contract';
import { suiteFixedWaits } from '../lib/suite-waits';

const { values } = parseArgs({
  options: {
    runs: { type: 'string' },
    json: { type: 'string' },
    concurrency: { type: 'string' },
    settle: { type: 'string' },
    'settle-timeout': { type: 'string' },
    'no-old-policy': { type: 'boolean' },
  },
});
const concurrencyOpt = values.concurrency ? Number(values.concurrency) : undefined;
const settleMs = values.settle ? Number(values.settle) : undefined;
const settleTimeoutMs = values['settle-timeout'] ? Number(values['settle-timeout']) : undefined;
const warmRuns = Math.max(1, Number(values.runs ?? 2));
// Issue 11's targets, the warm suite ≤ 10 s and the cold run (workspace + launch + suite + teardown)
// ≤ 25 s, were set when the fixtures slept ~4 s in all. By issue 33 they held 16 s of fixed waits that
// no server can shorten (bench/lib/suite-waits.ts), so the targets apply to each run less its waits,
// and the waits are printed beside them.
const TARGET_MS = 10_000;
const COLD_TARGET_MS = 25_000;

const cases = loadCases();
const expectedFailures = readExpectedFailures(join(CONFORMANCE_DIR, 'expected-failures.json'));
const tmp = mkdtempSync(join(tmpdir(), 'idea-conformance-bench-'));
const dir = join(tmp, 'workspace');
const fmt = (ms: number) => `${(ms / 1000).toFixed(1)} s`;

try {
  const t0 = performance.now();
  buildFixtureWorkspace(dir);
  const host = await launchHost({
    workspace: dir,
    extensionDevPath: join(REPO_ROOT, 'extension'),
    userSettings: HOST_USER_SETTINGS,
  });
  const launched = performance.now();
  const loads: number[] = [];
  /** One suite run; `oldPolicy`: resets through git with a fixed settle, as the runner did before issue 11. */
  const run = async (concurrency?: number, oldPolicy = false) => {
    resetFixtureWorkspace(dir);
    const s = await runSuite({
      target: targetFor(host.url, host.token, dir),
      cases,
      expectedFailures,
      concurrency: concurrency ?? concurrencyOpt,
      ...(oldPolicy
        ? {
            reset: () => resetFixtureWorkspace(dir, { forceGit: true }),
            settleMs: FALLBACK_SETTLE_MS,
            settleTimeoutMs: 0,
          }
        : { reset: () => resetFixtureWorkspaceDetailed(dir), settleMs, settleTimeoutMs }),
    });
    loads.push(loadavg()[0]!);
    for (const r of s.results.filter((x) => x.verdict !== 'pass' && !x.expectedFailure)) {
      console.error(
        `  [${r.verdict}] ${r.id}: ${r.reason ?? ''}\n${r.checks
          .filter((c) => !c.ok)
          .map((c) => c.detail)
          .join('\n')}`,
      );
    }
    for (const w of s.warnings) console.error(`  warning: ${w}`);
    // Fixed waits of this run (a case that ended before its waits counts none).
    const waits = suiteFixedWaits(
      cases,
      s.results.map((r) => ({ id: r.id, ms: r.durationMs })),
    ).total;
    return { ms: s.durationMs, pass: s.counts.pass, total: s.results.length, ok: s.ok, waits };
  };
  let cold;
  const warm: { ms: number; pass: number; total: number; ok: boolean; waits: number }[] = [];
  let sequential;
  let old;
  let teardownMs = 0;
  try {
    cold = await run();
    const coldEnd = performance.now();
    for (let i = 0; i < warmRuns; i++) warm.push(await run());
    sequential = await run(1);
    if (!values['no-old-policy']) old = await run(undefined, true);
    const all = [cold, ...warm, sequential, ...(old ? [old] : [])];
    const c0 = performance.now();
    await host.close();
    teardownMs = performance.now() - c0;
    const coldTotal = coldEnd - t0 + teardownMs;
    const best = Math.min(...warm.map((w) => w.ms));
    const bestRun = warm.find((w) => w.ms === best)!;
    const bestLessWaits = best - bestRun.waits;
    const coldLessWaits = Math.round(coldTotal - cold.waits);
    const figures = {
      cases: cases.length,
      launchMs: Math.round(launched - t0),
      coldSuiteMs: cold.ms,
      coldTotalMs: Math.round(coldTotal),
      warmSuiteMs: warm.map((w) => w.ms),
      warmBestMs: best,
      sequentialWarmMs: sequential.ms,
      teardownMs: Math.round(teardownMs),
      oldPolicyWarmMs: old?.ms,
      allPassed: all.every((r) => r.ok),
      passCounts: all.map((r) => `${r.pass}/${r.total}`),
      loadAverages: loads.map((l) => Number(l.toFixed(2))),
    };
    console.log(
      `conformance suite, ${cases.length} cases, against our extension in a live VS Code (code-server + headless Chromium)`,
    );
    console.log(
      `  cold run (build workspace + launch + suite + teardown): ${fmt(coldTotal)}  (launch ${fmt(figures.launchMs)}, suite ${fmt(cold.ms)}, teardown ${fmt(teardownMs)}); less its fixtures' fixed waits (${fmt(cold.waits)}): ${fmt(coldLessWaits)}, target ${COLD_TARGET_MS / 1000} s (${coldLessWaits <= COLD_TARGET_MS ? 'met' : 'NOT met'})`,
    );
    console.log(
      `  warm suite: ${warm.map((w) => fmt(w.ms)).join(', ')}  → best ${fmt(best)}; less its fixed waits (${fmt(bestRun.waits)}): ${fmt(bestLessWaits)}, ${(bestLessWaits / TARGET_MS).toFixed(2)}× the ${TARGET_MS / 1000} s target (${bestLessWaits <= TARGET_MS ? 'met' : 'NOT met'})`,
    );
    console.log(
      `  baseline, warm suite one case at a time: ${fmt(sequential.ms)}  → the concurrent pool is ${(sequential.ms / best).toFixed(2)}× faster`,
    );
    if (old)
      console.log(
        `  before: warm suite with the old policy (reset through git + fixed ${FALLBACK_SETTLE_MS} ms settle): ${fmt(old.ms)}  → ${(old.ms / best).toFixed(2)}× slower`,
      );
    console.log(`  load average (1 min) after each run: ${figures.loadAverages.join(', ')} (2 cores, shared machine)`);
    console.log(
      `  verdicts: ${figures.passCounts.join(', ')} passed${figures.allPassed ? ` (all green; ${expectedFailures.size} listed expected failure(s))` : ' (NOT all green)'}`,
    );
    // The bench contract (bench/README.md): one row per figure; bench/run.ts prints them.
    emit({
      name: 'conformance',
      rows: [
        {
          metric: `cold run: build workspace + launch host + suite + teardown (${cases.length} cases)`,
          value: figures.coldTotalMs,
          unit: 'ms',
        },
        {
          // The floor beside the target: the fixtures' fixed waits, which no server can shorten.
          metric: `the cold run less its fixtures' fixed waits, ${fmt(cold.waits)} (sleepMs steps, expectSilence windows: bench/lib/suite-waits.ts)`,
          value: coldLessWaits,
          unit: 'ms',
          target: `≤ ${COLD_TARGET_MS} ms`,
          ok: coldLessWaits <= COLD_TARGET_MS,
        },
        { metric: 'live host launch (part of the cold run)', value: figures.launchMs, unit: 'ms' },
        { metric: 'cold suite (tsserver and git caches cold)', value: cold.ms, unit: 'ms' },
        {
          metric: `warm suite, best of ${warm.length} (baseline: same host, one case at a time)`,
          value: best,
          unit: 'ms',
          baseline: sequential.ms,
        },
        {
          metric: `that warm suite less its fixtures' fixed waits, ${fmt(bestRun.waits)}`,
          value: Math.round(bestLessWaits),
          unit: 'ms',
          target: `≤ ${TARGET_MS} ms`,
          ok: bestLessWaits <= TARGET_MS,
        },
        ...(old
          ? [
              {
                metric: `warm suite, best of ${warm.length} (baseline: same host, the old policy: resets through git + fixed ${FALLBACK_SETTLE_MS} ms settle)`,
                value: best,
                unit: 'ms',
                baseline: old.ms,
              },
            ]
          : []),
        {
          metric: 'load average (1 min), highest after any run (2 cores)',
          value: Number(Math.max(...loads).toFixed(2)),
          unit: '',
        },
        {
          metric: `cases passing, worst of the ${all.length} runs`,
          value: Math.min(...all.map((r) => r.pass)),
          unit: `of ${cases.length}`,
          target: expectedFailures.size ? `all but ${expectedFailures.size} listed expected failure(s)` : 'all',
          ok: figures.allPassed,
        },
      ],
    });
  } finally {
    await host.close();
  }
} finally {
  rmSync(tmp, { recursive: true, force: true });
}
