// Runs one fixture case against a server and turns what happened into checks and a verdict. Each case
// kind has its runner in KINDS: the request case here, the exchange case in exchange-steps.ts, the
// transport case in transport-cases.ts; all of them act through the case's context (case-context.ts).
import { Abort, CaseContext, openForCase, type RunContext, substituteOrAbort, type Target } from './case-context';
import type { Connection } from './connection';
import { runExchangeCase } from './exchange-steps';
import { unknownRuleKeys } from './match';
import { type KindOf, knownKey, type StepEntry, type StepOf, stepKind } from './step-table';
import { runTransportCase } from './transport-cases';
import type { CaseResult, Check, FixtureCase, LoadedCase, RequestCase, SetupStep } from './types';

const DEFAULT_TIMEOUT = 15_000;

type SetupKind = KindOf<SetupStep>;
type SetupHandler<K extends SetupKind> = (
  ctx: CaseContext,
  conn: Connection,
  step: StepOf<SetupStep, K>,
  label: string,
) => Promise<unknown> | void;

/** A request case's setup steps, by kind (the fixture schema's `setupStep`). */
const SETUP: { [K in SetupKind]: StepEntry & { run: SetupHandler<K> } } = {
  request: { modifiers: ['expect', 'bind'], run: (ctx, conn, s, label) => ctx.request(conn, s, label, s.expect, true) },
  writeFile: { run: (ctx, _conn, s) => ctx.writeFile(s.writeFile.path, s.writeFile.content) },
  sleepMs: { modifiers: ['why'], run: (_ctx, _conn, s) => new Promise((r) => setTimeout(r, s.sleepMs)) },
};

async function runSetup(ctx: CaseContext, conn: Connection, steps: readonly SetupStep[]): Promise<void> {
  for (const [i, s] of steps.entries()) {
    const label = `setup[${i}]`;
    const kind = stepKind(s, SETUP, label);
    await (SETUP[kind].run as SetupHandler<typeof kind>)(ctx, conn, s as StepOf<SetupStep, typeof kind>, label);
  }
}

async function runRequestCase(ctx: CaseContext, c: RequestCase, run: RunContext): Promise<void> {
  const conn = await openForCase(ctx);
  await ctx.handshake(conn);
  await runSetup(ctx, conn, c.setup ?? []);
  substituteOrAbort(c.request, ctx.vars, 'request variables');
  await ctx.request(conn, { request: c.request }, 'response', c.expect, false, run.preferences ? c.prefer : undefined);
  for (const [i, s] of (c.then ?? []).entries()) await ctx.request(conn, s, `then[${i}]`, s.expect, false);
}

type Kind = FixtureCase['kind'];
/** Runs a case of one kind; returns a skip reason, or undefined when the case ran. */
type KindRunner<K extends Kind> = (
  ctx: CaseContext,
  c: Extract<FixtureCase, { kind: K }>,
  run: RunContext,
) => Promise<string | undefined>;

const KINDS: { [K in Kind]: KindRunner<K> } = {
  request: async (ctx, c, run) => {
    await runRequestCase(ctx, c, run);
    return undefined;
  },
  exchange: async (ctx, c) => {
    await runExchangeCase(ctx, c);
    return undefined;
  },
  transport: (ctx, c, run) => runTransportCase(ctx, c, run),
};

function runCase(ctx: CaseContext, c: FixtureCase, run: RunContext): Promise<string | undefined> {
  knownKey(KINDS, c.kind, 'kind', 'case kind');
  return (KINDS[c.kind] as KindRunner<typeof c.kind>)(ctx, c, run);
}

export function caseTopic(c: LoadedCase['case']): string | undefined {
  if (c.kind === 'request') return c.request.topic;
  if (c.kind === 'transport' && c.action === 'in-flight-bound') return c.request.topic;
  if (c.kind === 'exchange') return c.topic;
  return undefined;
}

/** The result of a case that did not run (skip or unimplemented). */
export function notRun(
  lc: LoadedCase,
  verdict: 'skip' | 'unimplemented',
  reason: string,
  extra: Partial<CaseResult> = {},
): CaseResult {
  return { ...baseOf(lc), verdict, reason, checks: [], durationMs: 0, frames: 0, ...extra };
}

function baseOf(lc: LoadedCase) {
  return {
    id: lc.case.id,
    file: lc.file,
    topic: lc.topic,
    description: lc.case.description,
    clause: lc.clause.id,
    profile: lc.profile,
    level: lc.level,
  };
}

/** fail when a must check failed (a should case has none), warn when only should checks did. */
function verdictOf(level: CaseResult['level'], checks: readonly Check[]): 'pass' | 'fail' | 'warn' {
  const failed = checks.filter((k) => !k.ok);
  if (failed.length === 0) return 'pass';
  return level === 'must' && failed.some((k) => (k.level ?? 'must') === 'must') ? 'fail' : 'warn';
}

export async function executeCase(lc: LoadedCase, target: Target, run: RunContext): Promise<CaseResult> {
  const c = lc.case;
  const started = performance.now();
  const base = baseOf(lc);
  const badRules = unknownRuleKeys(c);
  if (badRules.length)
    return {
      ...base,
      verdict: 'error',
      reason: `fixture uses unknown match rules: ${badRules.join(', ')}`,
      checks: [],
      durationMs: 0,
      frames: 0,
    };
  const ctx = new CaseContext(target, c.timeoutMs ?? DEFAULT_TIMEOUT, run.schemas);
  let skipReason: string | undefined;
  let setupError: Check | undefined;
  try {
    skipReason = await runCase(ctx, c, run);
  } catch (err) {
    if (err instanceof Abort && err.setup) setupError = err.check;
    else if (err instanceof Abort) ctx.checks.push(err.check);
    else setupError = { name: 'error', ok: false, detail: err instanceof Error ? err.message : String(err) };
  } finally {
    await Promise.all(ctx.connections.map((conn) => conn.close()));
  }
  const durationMs = Math.round(performance.now() - started);
  const sent = { ...(ctx.sent ? { sent: ctx.sent } : {}), ...ctx.transcript() };
  if (setupError) {
    // The case could not be set up: its own checks are not judged.
    return {
      ...base,
      ...sent,
      verdict: 'error',
      reason: `${setupError.name} failed: ${firstLine(setupError.detail ?? '')}`,
      checks: [setupError],
      durationMs,
      frames: ctx.frames,
    };
  }
  if (skipReason)
    return {
      ...base,
      ...sent,
      verdict: 'skip',
      reason: skipReason,
      checks: ctx.checks,
      durationMs,
      frames: ctx.frames,
    };
  const view = ctx.diagnosticsViewCheck();
  if (view) ctx.checks.push(view);
  ctx.checks.push(ctx.schemaCheck());
  const failed = ctx.checks.filter((k) => !k.ok);
  return {
    ...base,
    ...sent,
    verdict: verdictOf(lc.level, ctx.checks),
    reason: failed.length ? `${failed.map((f) => f.name).join(', ')} failed` : undefined,
    checks: ctx.checks,
    durationMs,
    frames: ctx.frames,
  };
}

function firstLine(s: string): string {
  const l = s.trim().split('\n')[0] ?? '';
  return l.length > 200 ? `${l.slice(0, 200)}…` : l;
}
