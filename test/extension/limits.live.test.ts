// Issue 9 (regex deadline, unbounded work) against the live extension: a catastrophic regex is stopped
// at its budget while another client is served in < 500 ms; PCRE2's match limit is reported, not
// swallowed; 1,000 in-flight edit/find on one connection and 4×1,000 fs/findFiles keep another
// client's p99 < 2 s, with never more rg processes than the limit and the per-server bound answering
// a clear error; the workspace's own settings cannot raise the limits. Figures are printed for the
// issue's closing note.
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { connect, type IdeaClient } from '../../generated/v0.1.6/client';
import { processTable, sampleTreeMemory, treePids } from '../../livehost';
import { type LiveFixture, startLiveFixture } from './helpers';

const BUDGET_MS = 1000; // the planted line takes ~4 s in V8 on these machines (18 s in the issue)
const MAX_PROCESSES = 8;
const MAX_IN_FLIGHT = 2000;
const PLANTED = `${'a'.repeat(28)}b`;

let fx: LiveFixture;
beforeAll(async () => {
  fx = await startLiveFixture({
    userSettings: {
      'idea.server.limits.regexTimeBudgetMs': BUDGET_MS,
      'idea.server.limits.maxChildProcesses': MAX_PROCESSES,
      'idea.server.limits.maxRequestsInFlight': MAX_IN_FLIGHT,
    },
    prepare: (dir) => {
      writeFileSync(join(dir, 'planted.txt'), `first line\n${PLANTED}\n`);
      // A repository trying to raise the limits through its own settings: machine scope ignores it.
      const file = join(dir, '.vscode/settings.json');
      const s = JSON.parse(readFileSync(file, 'utf8'));
      writeFileSync(
        file,
        JSON.stringify(
          {
            ...s,
            'idea.server.limits.maxChildProcesses': 64,
            'idea.server.limits.regexTimeBudgetMs': 600000,
            'idea.server.limits.maxRequestsInFlight': 100000,
          },
          null,
          2,
        ),
      );
    },
  });
});
afterAll(async () => {
  await fx?.close();
});

const client = () => connect({ url: fx.host.url, token: fx.host.token, timeoutMs: 180_000 });
const now = () => performance.now();

/** What another client sees meanwhile: one request at a time, mixed topics. */
const VICTIM_CALLS: ((c: IdeaClient) => Promise<unknown>)[] = [
  (c) => c.editFind({ pattern: 'Circle' }),
  (c) => c.editFind({ pattern: 'order-\\d+', isRegex: true }),
  (c) => c.fsFindFiles({ query: 'shapes' }),
];

async function victimWhile(busy: () => boolean, c: IdeaClient, minSamples = 10): Promise<number[]> {
  const lat: number[] = [];
  for (let i = 0; busy() || i < minSamples; i++) {
    const t0 = now();
    await VICTIM_CALLS[i % VICTIM_CALLS.length]!(c);
    lat.push(now() - t0);
  }
  return lat;
}

const pct = (xs: number[], p: number) => {
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.min(s.length - 1, Math.ceil((p / 100) * s.length) - 1)]!;
};
const fmt = (xs: number[]) =>
  `n=${xs.length} p50=${pct(xs, 50).toFixed(0)} p99=${pct(xs, 99).toFixed(0)} max=${Math.max(...xs).toFixed(0)} ms`;

/** rg processes of the live host right now. */
function rgProcesses(): number {
  let n = 0;
  for (const pid of treePids(fx.host.codeServerPid, processTable())) {
    try {
      if (readFileSync(`/proc/${pid}/comm`, 'utf8').trim() === 'rg') n++;
    } catch {
      /* gone */
    }
  }
  return n;
}

/** Samples, during a flood, the most rg processes at once and the host tree's peak PSS. */
function sampleRg(): { stop(): { maxRg: number; peakPssMB: number } } {
  let maxRg = 0;
  let peakPssMB = 0;
  let tick = 0;
  const iv = setInterval(() => {
    maxRg = Math.max(maxRg, rgProcesses());
    if (tick++ % 5 === 0) peakPssMB = Math.max(peakPssMB, sampleTreeMemory(fx.host.codeServerPid).pssMB);
  }, 50);
  return {
    stop: () => {
      clearInterval(iv);
      return { maxRg, peakPssMB };
    },
  };
}

async function outcome(p: Promise<unknown>): Promise<{ ok: boolean; code?: string; message?: string }> {
  try {
    await p;
    return { ok: true };
  } catch (e) {
    return { ok: false, code: String((e as { code?: unknown }).code), message: (e as Error).message };
  }
}

// clause H10: regex budgets, unsearchable files and process slots in the real extension host.
describe('regex with a deadline', () => {
  it('the catastrophic regex answers an error within its budget while another client is served in < 500 ms', async () => {
    const attacker = await client();
    const victim = await client();
    try {
      for (const call of VICTIM_CALLS) await call(victim); // warm
      const t0 = now();
      let done = false;
      const attack = outcome(attacker.editFind({ pattern: '(a+)+$(?<![^]x)', isRegex: true })).then((r) => {
        done = true;
        return { ...r, ms: now() - t0 };
      });
      const lat = await victimWhile(() => !done, victim);
      const a = await attack;
      console.log(
        `[limits.live] catastrophic regex answered after ${a.ms.toFixed(0)} ms: ${a.code} ${a.message}; victim ${fmt(lat)}`,
      );
      expect(a).toMatchObject({ ok: false, code: 'HANDLER_ERROR' });
      expect(a.message).toMatch(new RegExp(`exceeded its time budget of ${BUDGET_MS} ms`));
      expect(a.ms).toBeLessThan(BUDGET_MS + 1500);
      expect(Math.max(...lat)).toBeLessThan(500);
      // The host is fine afterwards, and the same client can search again.
      expect((await attacker.editFind({ pattern: PLANTED })).totalCount).toBe(1);
    } finally {
      attacker.close();
      victim.close();
    }
  });

  it('PCRE2 hitting its match limit is reported with the file, not answered as "no matches"', async () => {
    const r = await outcome(fx.client.editFind({ pattern: '(a+)+$', isRegex: true }));
    console.log(`[limits.live] PCRE2 match limit: ${r.code} ${r.message}`);
    expect(r).toMatchObject({ ok: false, code: 'HANDLER_ERROR' });
    expect(r.message).toContain(join(fx.ws.dir, 'planted.txt'));
    expect(r.message).toMatch(/match limit/i);
  });
});

describe('unbounded work', () => {
  it("1,000 in-flight edit/find on one connection keep another client's p99 < 2 s", async () => {
    const flood = await client();
    const victim = await client();
    try {
      const rg = sampleRg();
      const t0 = now();
      let left = 1000;
      const all = Array.from({ length: 1000 }, () =>
        outcome(flood.editFind({ pattern: 'needle' })).finally(() => {
          left--;
        }),
      );
      const lat = await victimWhile(() => left > 0, victim, 20);
      const results = await Promise.all(all);
      const { maxRg, peakPssMB } = rg.stop();
      console.log(
        `[limits.live] 1,000 edit/find on one connection: ${results.filter((r) => r.ok).length} answered in ${((now() - t0) / 1000).toFixed(1)} s, max ${maxRg} rg at once, code-server tree peak PSS ${peakPssMB} MB; victim ${fmt(lat)}`,
      );
      expect(results.filter((r) => !r.ok)).toEqual([]);
      expect(pct(lat, 99)).toBeLessThan(2000);
      expect(maxRg).toBeLessThanOrEqual(MAX_PROCESSES);
    } finally {
      flood.close();
      victim.close();
    }
  });

  it("4×1,000 in-flight fs/findFiles keep another client's p99 < 2 s; over the server bound a clear error", async () => {
    const floods = await Promise.all([client(), client(), client(), client()]);
    const victim = await client();
    try {
      const rg = sampleRg();
      const t0 = now();
      let left = 4000;
      const all = floods.flatMap((f) =>
        Array.from({ length: 1000 }, () =>
          outcome(f.fsFindFiles({ query: 'main' })).finally(() => {
            left--;
          }),
        ),
      );
      const lat = await victimWhile(() => left > 0, victim, 20);
      const results = await Promise.all(all);
      const { maxRg, peakPssMB } = rg.stop();
      const refused = results.filter((r) => !r.ok);
      console.log(
        `[limits.live] 4×1,000 fs/findFiles: ${results.length - refused.length} answered, ${refused.length} refused in ${((now() - t0) / 1000).toFixed(1)} s, max ${maxRg} rg at once, code-server tree peak PSS ${peakPssMB} MB; victim ${fmt(lat)}`,
      );
      expect(pct(lat, 99)).toBeLessThan(2000);
      expect(maxRg).toBeLessThanOrEqual(MAX_PROCESSES);
      expect(refused.length).toBeGreaterThan(0);
      for (const r of refused) {
        expect(r.code).toBe('HANDLER_ERROR');
        expect(r.message).toMatch(new RegExp(`too many requests in flight on this server \\(limit ${MAX_IN_FLIGHT}`));
      }
    } finally {
      for (const f of floods) f.close();
      victim.close();
    }
  });
});
