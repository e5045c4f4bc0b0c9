// The regex workers: a job over its time budget is stopped (worker terminated) while the main thread
// keeps running, the heap limit is enforced, an aborted job kills its worker, and the pool replaces
// what it terminated and serves the next job; one client's runaway jobs leave a worker to others.
import { afterEach, describe, expect, it } from 'vitest';
import type { LinesResult, ReplaceResult } from '../../../server-core/search/regex-jobs';
import { RegexBudget, RegexLimitError, RegexPool } from '../../../server-core/search/regex-pool';
import { until } from '../../support/wait';
import { clientSignal } from '../limits/client-signal';
import { testRegexWorkerScript } from './regex-worker-build';

const CATASTROPHIC = { pattern: '(a+)+$(?<![^]x)', isRegex: true, isCaseSensitive: true };
const PLANTED = `${'a'.repeat(28)}b`; // ~18 s of backtracking in V8
const simple = {
  op: 'lines' as const,
  match: { pattern: 'a+b', isRegex: true, isCaseSensitive: true },
  lines: [PLANTED, 'zzz'],
  keep: 10,
};

let pool: RegexPool | undefined;
afterEach(() => {
  pool?.dispose();
  pool = undefined;
});
const make = (workers = 2, memoryMb = 128) =>
  (pool = new RegexPool({ script: testRegexWorkerScript(), workers, memoryMb }));

/** Longest gap between 5 ms timer ticks while `p` runs: the main thread's responsiveness. */
async function maxEventLoopGap<T>(p: Promise<T>): Promise<{ gap: number; result: PromiseSettledResult<T> }> {
  let last = performance.now();
  let gap = 0;
  const iv = setInterval(() => {
    const n = performance.now();
    gap = Math.max(gap, n - last);
    last = n;
  }, 5);
  const [result] = await Promise.allSettled([p]);
  clearInterval(iv);
  return { gap, result: result! };
}

// clause H10: a user regex runs in a worker under its time and memory budgets, never on the main thread.
describe('RegexPool', () => {
  it('stops a catastrophic regex at its time budget without blocking the main thread, then serves the next job', async () => {
    const p = make();
    const t0 = performance.now();
    const { gap, result } = await maxEventLoopGap(
      p.run({ op: 'lines', match: CATASTROPHIC, lines: [PLANTED], keep: 10 }, new RegexBudget(400)),
    );
    const took = performance.now() - t0;
    expect(result.status).toBe('rejected');
    const err = (result as PromiseRejectedResult).reason as Error;
    expect(err).toBeInstanceOf(RegexLimitError);
    expect(err.message).toMatch(/exceeded its time budget of 400 ms/);
    expect(took).toBeGreaterThanOrEqual(390);
    expect(took).toBeLessThan(3000);
    expect(gap).toBeLessThan(300);
    // The terminated worker was replaced; the pool still works and does not grow past its size.
    await expect(p.run<LinesResult>(simple, new RegexBudget(5000))).resolves.toEqual({ counts: [1, 0], hits: [0, 0] });
    expect(p.stats.live).toBeLessThanOrEqual(2);
  });

  it('charges one budget across the jobs of a request', async () => {
    const p = make();
    const budget = new RegexBudget(300);
    await expect(p.run({ op: 'lines', match: CATASTROPHIC, lines: [PLANTED], keep: 1 }, budget)).rejects.toThrow(
      /time budget of 300 ms/,
    );
    expect(budget.remainingMs).toBeLessThanOrEqual(0);
    await expect(p.run(simple, budget)).rejects.toThrow(/time budget of 300 ms/); // nothing left
  });

  it('enforces the heap limit: a replacement that explodes is stopped with a memory error', async () => {
    const p = make(1, 64);
    const job = {
      op: 'replace' as const,
      match: { pattern: 'a', isRegex: true, isCaseSensitive: true },
      replacement: '$&'.repeat(5000),
      text: 'a'.repeat(1_000_000),
    };
    const { gap, result } = await maxEventLoopGap(p.run(job, new RegexBudget(60_000)));
    expect(result.status).toBe('rejected');
    expect(((result as PromiseRejectedResult).reason as Error).message).toMatch(/exceeded its memory budget of 64 MB/);
    expect(gap).toBeLessThan(300);
    await expect(p.run<LinesResult>(simple, new RegexBudget(5000))).resolves.toMatchObject({ counts: [1, 0] });
  });

  it('an aborted job terminates its worker at once', async () => {
    const p = make(1);
    const ac = new AbortController();
    const running = p.run(
      { op: 'lines', match: CATASTROPHIC, lines: [PLANTED], keep: 1 },
      new RegexBudget(60_000),
      ac.signal,
    );
    setTimeout(() => ac.abort(new Error('connection closed')), 100);
    const t0 = performance.now();
    await expect(running).rejects.toThrow('connection closed');
    expect(performance.now() - t0).toBeLessThan(1000);
    await expect(p.run<LinesResult>(simple, new RegexBudget(5000))).resolves.toMatchObject({ counts: [1, 0] });
  });

  it('reports a job that throws in the worker and keeps the worker', async () => {
    const p = make(1);
    await expect(
      p.run(
        { op: 'lines', match: { pattern: '(', isRegex: true, isCaseSensitive: true }, lines: ['x'], keep: 1 },
        new RegexBudget(5000),
      ),
    ).rejects.toThrow(/the regular expression failed: SyntaxError/);
    await expect(
      p.run<ReplaceResult>(
        {
          op: 'replace',
          match: { pattern: '(\\d+)', isRegex: true, isCaseSensitive: true },
          replacement: '<$1>',
          text: 'a1\r\nb22\rc\n',
        },
        new RegexBudget(5000),
      ),
    ).resolves.toEqual({ text: 'a<1>\r\nb<22>\rc\n', count: 2 });
    expect(p.stats.live).toBe(1);
  });

  it("one client's runaway jobs leave a worker for another client, who is served before any of them ends", async () => {
    const p = make(2);
    // An order, not a time bound (the machine may be loaded): had the victim waited for a worker the
    // runaway jobs hold, it could only be served once one of them had hit its 3 s budget.
    let firstRunawayEnded = Number.POSITIVE_INFINITY;
    const runaway = Array.from({ length: 4 }, () =>
      p
        .run(
          { op: 'lines', match: CATASTROPHIC, lines: [PLANTED], keep: 1 },
          new RegexBudget(3000),
          clientSignal('attacker'),
        )
        .catch((e: Error) => e.message)
        .finally(() => {
          firstRunawayEnded = Math.min(firstRunawayEnded, performance.now());
        }),
    );
    // One runaway job runs in a worker (one client never holds both), the other three wait for it.
    await until(
      'a runaway job in a worker and three queued',
      () => {
        const s = p.stats;
        return s.live === 1 && s.active === 1 && s.queued === 3;
      },
      { detail: () => p.stats },
    );
    await expect(p.run<LinesResult>(simple, new RegexBudget(5000), clientSignal('victim'))).resolves.toMatchObject({
      counts: [1, 0],
    });
    const victimServed = performance.now();
    expect(firstRunawayEnded).toBe(Number.POSITIVE_INFINITY);
    expect(victimServed).toBeLessThan(firstRunawayEnded);
    p.dispose(); // ends the runaway jobs' waiting; their workers are terminated
    await Promise.allSettled(runaway);
  }, 30_000);
});
