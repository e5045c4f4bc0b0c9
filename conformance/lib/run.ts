// The suite: probe the server's handshake, run the selected cases in order (resetting the workspace
// after destructive ones), apply the expected-failures list, and feed the reporters.
import { Connection } from './connection';
import { executeCase, type ServerInfo, type Target } from './execute';
import { compareVersions } from './select';
import type { CaseResult, LoadedCase, Verdict } from './types';
import { isOkVerdict, type Reporter, type RunSummary } from '../reporters/types';

export interface RunOptions {
  target: Target;
  cases: LoadedCase[];
  reporters?: Reporter[];
  expectedFailures?: Map<string, string>;
  /** Every case id that exists (to flag expected-failure entries naming no case). */
  allIds?: Set<string>;
  /** Restores the fixture workspace; without it destructive cases are skipped. */
  reset?: () => void | Promise<void>;
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
  const total = opts.cases.length;
  await emit(reporters, 'onRunStart', { url: opts.target.url, server, total });
  const results: CaseResult[] = [];
  for (const [i, lc] of opts.cases.entries()) {
    await emit(reporters, 'onCaseStart', lc, i, total);
    let r: CaseResult;
    const skip = (reason: string): CaseResult => ({ id: lc.case.id, file: lc.file, topic: lc.topic, verdict: 'skip', reason, checks: [], durationMs: 0, frames: 0 });
    if (compareVersions(lc.case.since, server.version) > 0) r = skip(`not applicable: since ${lc.case.since}, server speaks ${server.version}`);
    else if (lc.case.destructive && !opts.reset) r = skip('destructive case and no way to reset the workspace');
    else {
      try {
        r = await executeCase(lc, opts.target, server);
      } finally {
        if (lc.case.destructive && opts.reset) await opts.reset();
      }
    }
    const reason = opts.expectedFailures?.get(r.id);
    if (reason !== undefined && r.verdict !== 'pass' && r.verdict !== 'skip') {
      r = { ...r, expectedFailure: true, reason: `expected failure (${reason}); ${r.reason ?? ''}`.trim() };
    }
    results.push(r);
    await emit(reporters, 'onCaseEnd', r, i, total);
  }
  const stale: string[] = [];
  for (const [id] of opts.expectedFailures ?? []) {
    const r = results.find((x) => x.id === id);
    if (r?.verdict === 'pass') stale.push(`${id}: listed as an expected failure but passes`);
    else if (!r && opts.allIds && !opts.allIds.has(id)) stale.push(`${id}: listed as an expected failure but no such case exists`);
  }
  const counts: Record<Verdict, number> = { pass: 0, fail: 0, warn: 0, skip: 0, unimplemented: 0 };
  for (const r of results) counts[r.verdict]++;
  const summary: RunSummary = {
    url: opts.target.url, server, results, counts, stale,
    ok: stale.length === 0 && results.every(isOkVerdict),
    durationMs: Math.round(performance.now() - started), startedAt,
  };
  await emit(reporters, 'onRunEnd', summary);
  return summary;
}
