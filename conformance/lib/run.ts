// The suite: probe the server's handshake, run the selected cases in order (resetting the workspace
// after destructive ones), apply the expected-failures list, and feed the reporters.

import { compareVersions } from '@idea-kit/spec-lib/version';
import { type Implementation, isOkVerdict, type Reporter, type RunSummary } from '../reporters/types';
import type { RunContext, ServerInfo, Target } from './case-context';
import { PROFILES, type Profile } from './clauses';
import { Connection } from './connection';
import { executeCase, notRun } from './execute';
import { frameCheckerFor } from './schema-check';
import { FIND_TOPIC, type SettleFile, SettleProbe } from './settle';
import { isKnownTopic, KNOWN_TOPICS, spokenVersion, topicSince } from './topics';
import { type CaseResult, type LoadedCase, VERDICTS, type Verdict } from './types';

export interface RunOptions {
  target: Target;
  cases: LoadedCase[];
  reporters?: Reporter[];
  expectedFailures?: Map<string, string>;
  /** Every case id that exists (to flag expected-failure entries naming no case). */
  allIds?: Set<string>;
  /**
   * Restores the fixture workspace after a destructive case; without it destructive cases are skipped.
   * Returns whether anything had changed (false: nothing was touched), or a ResetReport saying which files.
   */
  reset?: () => boolean | void | ResetReport | Promise<boolean | void | ResetReport>;
  /**
   * After a reset that restored files, the longest the runner waits for the server to show them (edit/find
   * reports exactly the restored lines; see settle.ts) before the next case. 0: do not wait. Default 3000.
   * Not settled in time: the run goes on, with a warning, and later resets get the fixed FALLBACK_SETTLE_MS.
   */
  settleTimeoutMs?: number;
  /**
   * A fixed wait after every reset that changed files, before the above (default 0). Without an answer the
   * runner can check (a reset that does not report its files, a server without edit/find), it waits
   * FALLBACK_SETTLE_MS instead.
   */
  settleMs?: number;
  /** Read-only cases (`workspace: "any"`, not destructive) run this many at a time. Default 8. */
  concurrency?: number;
  /** The selected profiles (default all three): reports and the verdict cover these. */
  profiles?: readonly Profile[];
  /** Topics whose absence from the capabilities fails the run (default none: unimplemented is reported, not failed). */
  requireTopics?: readonly string[];
  /** Apply cases and schemas by this version instead of the one the server is found to speak. */
  assumeVersion?: string;
  /** What the server is, for the reports (the handshake does not say). */
  implementation?: Implementation;
}

/** What a reset restored, so the runner can wait until the server shows it. */
interface ResetReport {
  changed: boolean;
  /** Files written back (`text`) or removed (`text: null`), workspace-relative; `searchable: false` for those a search does not see (ignored, files.exclude). */
  restored?: readonly (SettleFile & { searchable?: boolean })[];
}

/** The wait after a reset when the runner cannot ask the server whether it shows the restored files. */
export const FALLBACK_SETTLE_MS = 300;

/** How many `${advertised.N}` variables cases may use. */
const ADVERTISED_VARS = 10;

/** The version the run applies cases and schemas by: assumed, or the newest of the announced one and its topics'. */
function runVersion(
  server: ServerInfo,
  assumeVersion?: string,
): { version: string; source: 'assumed' | 'announced' | 'topics' } {
  if (assumeVersion) return { version: assumeVersion, source: 'assumed' };
  const { version, newestTopic } = spokenVersion(server.version, server.capabilities);
  return { version, source: newestTopic ? 'topics' : 'announced' };
}

/** Topics whose effect is the editor's one shared state (the active editor, its selection, the tabs). */
const EDITOR_STATE_TOPICS: readonly string[] = ['/app/vscode/editor/open'];

/**
 * Cases that neither change the workspace nor need it fresh can overlap with each other, unless they
 * change the editor's state: two cases that open a file and then read the active editor would each
 * see the other's file whenever they overlap (a race that shows on a loaded machine).
 */
export function isParallelSafe(lc: Pick<LoadedCase, 'case' | 'needs'>): boolean {
  return lc.case.workspace === 'any' && !lc.case.destructive && !lc.needs.some((t) => EDITOR_STATE_TOPICS.includes(t));
}

async function probeServer(url: string, token: string | undefined, timeoutMs = 15_000): Promise<ServerInfo> {
  const conn = await Connection.open(url, { timeoutMs });
  try {
    conn.send(token === undefined ? { type: 'handshake' } : { type: 'handshake', token });
    const got = await conn.next(timeoutMs);
    if (got?.kind !== 'frame') throw new Error(`no handshake reply from ${url}`);
    const h = JSON.parse(got.text) as Partial<ServerInfo> & { error?: { code: string; message: string } };
    if (h.error) throw new Error(`handshake refused by ${url}: ${h.error.code} ${h.error.message}`);
    return {
      version: String(h.version),
      authRequired: h.authRequired === true,
      capabilities: Array.isArray(h.capabilities) ? h.capabilities : [],
      workspaces: Array.isArray(h.workspaces) ? h.workspaces : [],
      events: Array.isArray(h.events) ? h.events.filter((e): e is string => typeof e === 'string') : [],
    };
  } finally {
    await conn.close();
  }
}

/** Calls one hook of every reporter, in turn (a client run too: client/run.ts). */
export async function emit<K extends keyof Reporter>(
  reporters: Reporter[],
  hook: K,
  ...args: Parameters<NonNullable<Reporter[K]>>
): Promise<void> {
  for (const r of reporters) await (r[hook] as ((...a: unknown[]) => unknown) | undefined)?.apply(r, args);
}

/** Why a case does not run against this server, or undefined when it does. */
function notApplicable(
  lc: LoadedCase,
  run: RunContext,
  served: ReadonlySet<string>,
  required: ReadonlySet<string>,
  canReset: boolean,
): CaseResult | undefined {
  if (compareVersions(lc.case.since, run.version) > 0)
    return notRun(lc, 'skip', `not applicable: since ${lc.case.since}, the server speaks ${run.version}`);
  const missing = lc.needs.filter((t) => !served.has(t));
  if (missing.length) {
    const req = missing.some((t) => required.has(t));
    return notRun(
      lc,
      'unimplemented',
      `${missing.join(', ')} ${missing.length === 1 ? 'is' : 'are'} not in the server's capabilities${req ? ' (required by --require-topics)' : ''}`,
      { missingTopics: missing, ...(req ? { required: true } : {}) },
    );
  }
  const noEvent = lc.needsEvents.filter((e) => !(run.server.events ?? []).includes(e));
  if (noEvent.length)
    return notRun(
      lc,
      'unimplemented',
      `${noEvent.join(', ')} ${noEvent.length === 1 ? 'is' : 'are'} not in the events the server advertises`,
      { missingTopics: [] },
    );
  if (lc.needsAdvertised && served.size === 0)
    return notRun(lc, 'unimplemented', 'the server advertises no topic of the protocol to send requests to', {
      missingTopics: [],
    });
  if (lc.case.destructive && !canReset) return notRun(lc, 'skip', 'destructive case and no way to reset the workspace');
  return undefined;
}

export async function runSuite(opts: RunOptions): Promise<RunSummary> {
  const reporters = opts.reporters ?? [];
  const started = performance.now();
  const startedAt = new Date().toISOString();
  const server = await probeServer(opts.target.url, opts.target.token);
  const { version, source } = runVersion(server, opts.assumeVersion);
  const profiles = opts.profiles ?? PROFILES;
  const run: RunContext = {
    server,
    version,
    schemas: await frameCheckerFor(version),
    preferences: profiles.includes('readings'),
  };
  const servedList = server.capabilities.filter(isKnownTopic);
  const served = new Set(servedList);
  const required = new Set(opts.requireTopics ?? []);
  // Envelope, id and ordering cases send to the topics the server advertises, in turn.
  const target: Target = { ...opts.target, vars: { ...opts.target.vars } };
  for (let k = 0; k < ADVERTISED_VARS && servedList.length; k++)
    target.vars[`advertised.${k}`] = servedList[k % servedList.length]!;
  const warnings: string[] = [];
  if (!server.workspaces.includes(opts.target.workspaceDir)) {
    warnings.push(
      `the server's workspaces (${server.workspaces.join(', ') || 'none'}) do not contain ${opts.target.workspaceDir}: open that folder in the server, or cases that read or write files will fail`,
    );
  }
  // Cases are independent: read-only ones go first so they share one concurrent pool.
  const cases = [...opts.cases.filter(isParallelSafe), ...opts.cases.filter((c) => !isParallelSafe(c))];
  const total = cases.length;
  await emit(reporters, 'onRunStart', {
    url: opts.target.url,
    server,
    total,
    version,
    versionSource: source,
    profiles,
    warnings,
  });
  const results: CaseResult[] = new Array(total);
  const settleMs = opts.settleMs ?? 0;
  const settleTimeoutMs = opts.settleTimeoutMs ?? 3000;
  const probe = served.has(FIND_TOPIC) ? new SettleProbe(target.url, target.token, target.workspaceDir) : undefined;
  const sleep = (ms: number) => new Promise((res) => setTimeout(res, ms));
  /** After a destructive case: restore the workspace, then wait until the server shows the restored files. */
  const resetAfter = async (lc: LoadedCase): Promise<{ resetMs: number; settleMs: number }> => {
    const t0 = performance.now();
    const out = await opts.reset!();
    const t1 = performance.now();
    const report: ResetReport = typeof out === 'object' ? out : { changed: out !== false };
    if (report.changed && settleTimeoutMs > 0) {
      if (settleMs > 0) await sleep(settleMs);
      const files = report.restored?.filter((f) => f.searchable !== false).map(({ path, text }) => ({ path, text }));
      // Nothing to ask the server about (the reset does not say what it restored, no edit/find): the old fixed wait.
      if (!files || !probe || probe.unusable) await sleep(FALLBACK_SETTLE_MS);
      else if (files.length) {
        const s = await probe.wait(files, settleTimeoutMs);
        if (s.unusable) {
          warnings.push(`resets are waited for a fixed ${FALLBACK_SETTLE_MS} ms from now on: ${s.unusable}`);
          await sleep(FALLBACK_SETTLE_MS);
        } else if (!s.settled) {
          warnings.push(
            `after the reset following ${lc.case.id}, the server did not show the restored files within ${settleTimeoutMs} ms: ${s.detail}; later resets are waited for a fixed ${FALLBACK_SETTLE_MS} ms`,
          );
        }
      }
    } else if (report.changed && settleMs > 0) await sleep(settleMs);
    return { resetMs: Math.round(t1 - t0), settleMs: Math.round(performance.now() - t1) };
  };
  const runOne = async (lc: LoadedCase, i: number): Promise<void> => {
    await emit(reporters, 'onCaseStart', lc, i, total);
    let r: CaseResult;
    const skipped = notApplicable(lc, run, served, required, !!opts.reset);
    if (skipped) r = skipped;
    else {
      let after: { resetMs: number; settleMs: number } | undefined;
      try {
        r = await executeCase(lc, target, run);
      } finally {
        if (lc.case.destructive && opts.reset) after = await resetAfter(lc);
      }
      if (after) r = { ...r, ...after };
    }
    r = withExpectedFailure(r, opts.expectedFailures);
    results[i] = r;
    await emit(reporters, 'onCaseEnd', r, i, total);
  };
  // Consecutive parallel-safe cases form a batch run by a small pool; every other case runs alone.
  const limit = Math.max(1, opts.concurrency ?? 8);
  let i = 0;
  try {
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
  } finally {
    await probe?.close();
  }
  const stale = staleEntries(opts.expectedFailures, results, opts.allIds);
  const counts = countVerdicts(results);
  const byProfile = Object.fromEntries(
    profiles.map((p) => [p, countVerdicts(results.filter((r) => r.profile === p))]),
  ) as RunSummary['byProfile'];
  // Reports list cases in the order of the fixture files, whatever order they ran in.
  const order = new Map(opts.cases.map((c, k) => [c.case.id, k]));
  results.sort((a, b) => (order.get(a.id) ?? 0) - (order.get(b.id) ?? 0));
  const summary: RunSummary = {
    url: opts.target.url,
    server,
    ...(opts.implementation ? { implementation: opts.implementation } : {}),
    results,
    counts,
    stale,
    version,
    versionSource: source,
    profiles,
    byProfile,
    warnings,
    // the topics of the version spoken: a 0.1.6 server is not judged on topics added later
    scope: {
      served: servedList,
      known: KNOWN_TOPICS.filter((t) => compareVersions(topicSince(t)!, version) <= 0).length,
    },
    ok: stale.length === 0 && results.every(isOkVerdict),
    durationMs: Math.round(performance.now() - started),
    startedAt,
  };
  await emit(reporters, 'onRunEnd', summary);
  return summary;
}

/** A result the expected-failures list names, when it did not pass: marked, its reason saying so. */
export function withExpectedFailure(r: CaseResult, expected: ReadonlyMap<string, string> | undefined): CaseResult {
  const reason = expected?.get(r.id);
  if (reason === undefined || !(r.verdict === 'fail' || r.verdict === 'warn' || r.verdict === 'error' || r.required))
    return r;
  return { ...r, expectedFailure: true, reason: `expected failure (${reason}); ${r.reason ?? ''}`.trim() };
}

/** Entries of the expected-failures list that are wrong now: their case passes, or no such case exists. */
export function staleEntries(
  expected: ReadonlyMap<string, string> | undefined,
  results: readonly CaseResult[],
  allIds: ReadonlySet<string> | undefined,
): string[] {
  const stale: string[] = [];
  for (const [id] of expected ?? []) {
    const r = results.find((x) => x.id === id);
    if (r?.verdict === 'pass') stale.push(`${id}: listed as an expected failure but passes`);
    else if (!r && allIds && !allIds.has(id))
      stale.push(`${id}: listed as an expected failure but no such case exists`);
  }
  return stale;
}

export function countVerdicts(results: readonly CaseResult[]): Record<Verdict, number> {
  const counts = Object.fromEntries(VERDICTS.map((v) => [v, 0])) as Record<Verdict, number>;
  for (const r of results) counts[r.verdict]++;
  return counts;
}
