// The suite: probe the server's handshake, run the selected cases in order (resetting the workspace
// after destructive ones), apply the expected-failures list, and feed the reporters.
import { Connection } from './connection';
import { executeCase, type ServerInfo, type Target } from './execute';
import { compareVersions, isVersion } from '../../codegen/src/version';
import type { CaseResult, LoadedCase, Verdict } from './types';
import { isOkVerdict, type Reporter, type RunSummary } from '../reporters/types';

export interface RunOptions {
  target: Target;
  cases: LoadedCase[];
  reporters?: Reporter[];
  expectedFailures?: Map<string, string>;
  /** Every case id that exists (to flag expected-failure entries naming no case). */
  allIds?: Set<string>;
  /** Restores the fixture workspace (false: nothing had changed); without it destructive cases are skipped. */
  reset?: () => boolean | void | Promise<boolean | void>;
  /**
   * After a reset that changed files, wait this long so the editor reloads them from disk before the
   * next case edits them (an open, stale document would otherwise be saved over the reset). Default 300.
   */
  settleMs?: number;
  /** Read-only cases (`workspace: "any"`, not destructive) run this many at a time. Default 8. */
  concurrency?: number;
}

/** Cases that neither change the workspace nor need it fresh can overlap with each other. */
export function isParallelSafe(lc: LoadedCase): boolean {
  return lc.case.workspace === 'any' && !lc.case.destructive;
}

export async function probeServer(url: string, token: string | undefined, timeoutMs = 15_000): Promise<ServerInfo> {
  const conn = await Connection.open(url, { timeoutMs });
  try {
    conn.send(token === undefined ? { type: 'handshake' } : { type: 'handshake', token });
    const got = await conn.next(timeoutMs);
    if (got?.kind !== 'frame') throw new Error(`no handshake reply from ${url}`);
    const h = JSON.parse(got.text) as Partial<ServerInfo> & { error?: { code: string; message: string } };
    if (h.error) throw new Error(`handshake refused by ${url}: ${h.error.code} ${h.error.message}`);
    return { version: String(h.version), authRequired: h.authRequired === true, capabilities: Array.isArray(h.capabilities) ? h.capabilities : [], workspaces: Array.isArray(h.workspaces) ? h.workspaces : [] };
  } finally {
    await conn.close();
  }
}

async function emit<K extends keyof Reporter>(reporters: Reporter[], hook: K, ...args: Parameters<NonNullable<Reporter[K]>>): Promise<void> {
  for (const r of reporters) await (r[hook] as ((...a: unknown[]) => unknown) | undefined)?.apply(r, args);
}

export async function runSuite(opts: RunOptions): Promise<RunSummary> {
  const reporters = opts.reporters ?? [];
  const started = performance.now();
  const startedAt = new Date().toISOString();
  const server = await probeServer(opts.target.url, opts.target.token);
  // Cases are independent: read-only ones go first so they share one concurrent pool.
  const cases = [...opts.cases.filter(isParallelSafe), ...opts.cases.filter((c) => !isParallelSafe(c))];
  const total = cases.length;
  await emit(reporters, 'onRunStart', { url: opts.target.url, server, total });
  const results: CaseResult[] = new Array(total);
  const settleMs = opts.settleMs ?? 300;
  const runOne = async (lc: LoadedCase, i: number): Promise<void> => {
    await emit(reporters, 'onCaseStart', lc, i, total);
    let r: CaseResult;
    const skip = (reason: string): CaseResult => ({ id: lc.case.id, file: lc.file, topic: lc.topic, verdict: 'skip', reason, checks: [], durationMs: 0, frames: 0 });
    // A server announcing no protocol version runs every case: its handshake check reports that.
    if (isVersion(server.version) && compareVersions(lc.case.since, server.version) > 0) r = skip(`not applicable: since ${lc.case.since}, server speaks ${server.version}`);
    else if (lc.case.destructive && !opts.reset) r = skip('destructive case and no way to reset the workspace');
    else {
      try {
        r = await executeCase(lc, opts.target, server);
      } finally {
        if (lc.case.destructive && opts.reset && (await opts.reset()) !== false) await new Promise((res) => setTimeout(res, settleMs));
      }
    }
    const reason = opts.expectedFailures?.get(r.id);
    if (reason !== undefined && r.verdict !== 'pass' && r.verdict !== 'skip') {
      r = { ...r, expectedFailure: true, reason: `expected failure (${reason}); ${r.reason ?? ''}`.trim() };
    }
    results[i] = r;
    await emit(reporters, 'onCaseEnd', r, i, total);
  };
  // Consecutive parallel-safe cases form a batch run by a small pool; every other case runs alone.
  const limit = Math.max(1, opts.concurrency ?? 8);
  let i = 0;
  while (i < total) {
    if (!isParallelSafe(cases[i]!)) {
      await runOne(cases[i]!, i);
      i++;
      continue;
    }
    let end = i;
    while (end < total && isParallelSafe(cases[end]!)) end++;
    let next = i;
    const worker = async () => {
      while (next < end) {
        const k = next++;
        await runOne(cases[k]!, k);
      }
    };
    await Promise.all(Array.from({ length: Math.min(limit, end - i) }, worker));
    i = end;
  }
  const stale: string[] = [];
  for (const [id] of opts.expectedFailures ?? []) {
    const r = results.find((x) => x.id === id);
    if (r?.verdict === 'pass') stale.push(`${id}: listed as an expected failure but passes`);
    else if (!r && opts.allIds && !opts.allIds.has(id)) stale.push(`${id}: listed as an expected failure but no such case exists`);
  }
  const counts: Record<Verdict, number> = { pass: 0, fail: 0, warn: 0, skip: 0, unimplemented: 0 };
  for (const r of results) counts[r.verdict]++;
  // Reports list cases in the order of the fixture files, whatever order they ran in.
  const order = new Map(opts.cases.map((c, k) => [c.case.id, k]));
  results.sort((a, b) => (order.get(a.id) ?? 0) - (order.get(b.id) ?? 0));
  const summary: RunSummary = {
    url: opts.target.url, server, results, counts, stale,
    ok: stale.length === 0 && results.every(isOkVerdict),
    durationMs: Math.round(performance.now() - started), startedAt,
  };
  await emit(reporters, 'onRunEnd', summary);
  return summary;
}
