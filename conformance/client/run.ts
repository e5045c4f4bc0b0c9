// The client suite: for each scenario a scripted server (loopback, a random port, a fresh token), then
// the command against it (command.ts), then the judge (replay.ts, judge.ts). Results go to the same
// reporters as a server run's, as the same RunSummary, with `client` set.
import { randomBytes } from 'node:crypto';
import { CURRENT_VERSION } from '../../generated/current';
import { loadFrameValidators, NEWEST_VERSION } from '../../generated/versions';
import type { FrameValidators } from '../../runtime/frames';
import { type Clause, clauseOf, levelOf, PROFILES, type Profile, profileOf } from '../lib/clauses';
import { countVerdicts, emit, staleEntries, withExpectedFailure } from '../lib/run';
import { transcriptOf } from '../lib/transcript';
import type { CaseResult, Check, Verdict } from '../lib/types';
import { type Implementation, isOkVerdict, type Reporter, type RunSummary } from '../reporters/types';
import { ANSWERED_TOPICS, WORKSPACE } from './answers';
import { type CommandRun, runCommand } from './command';
import { DEFAULT_CLIENT_TIMEOUT_MS } from './contract';
import { judge } from './judge';
import { replay } from './replay';
import type { ClientScenario } from './scenario';
import { type Recording, startScriptedServer } from './scripted-server';

/** The version most scenarios' servers speak (the served one), what a client run's summary names. */
const SERVED = CURRENT_VERSION;

export interface ClientRunOptions {
  /** The command, run through the shell with the server's url appended. */
  command: string;
  scenarios: readonly ClientScenario[];
  reporters?: Reporter[];
  expectedFailures?: Map<string, string>;
  /** Every scenario id that exists (to flag expected-failure entries naming none). */
  allIds?: ReadonlySet<string>;
  /** Bound on each run of the command (default DEFAULT_CLIENT_TIMEOUT_MS). */
  timeoutMs?: number;
  /** Scenarios run this many at a time, each with its own server (default 2). */
  concurrency?: number;
  profiles?: readonly Profile[];
  implementation?: Implementation;
  /** Where the command runs, and what it inherits (defaults: this process's). */
  cwd?: string;
  env?: NodeJS.ProcessEnv;
}

/** A scenario's clause, profile and level; throws on a clause that binds no client. */
export function scenarioClause(sc: Pick<ClientScenario, 'id' | 'clause'>): {
  clause: Clause;
  profile: Profile;
  level: 'must' | 'should';
} {
  const clause = clauseOf(sc.clause);
  if (!clause) throw new Error(`client scenario ${sc.id}: clause ${sc.clause} does not exist`);
  return { clause, profile: profileOf(clause), level: levelOf(clause) };
}

/** fail when a must check failed, warn when only should checks did (as the server suite judges a case). */
function verdictOf(level: 'must' | 'should', checks: readonly Check[]): Verdict {
  const failed = checks.filter((k) => !k.ok);
  if (failed.length === 0) return 'pass';
  return level === 'must' && failed.some((k) => (k.level ?? 'must') === 'must') ? 'fail' : 'warn';
}

async function validatorsOf(version: string): Promise<FrameValidators> {
  return (await (loadFrameValidators(version) ?? loadFrameValidators(NEWEST_VERSION)))!;
}

/** Runs one scenario: its server, the command against it, the judge. */
export async function runScenario(
  sc: ClientScenario,
  o: Pick<ClientRunOptions, 'command' | 'timeoutMs' | 'cwd' | 'env'> & {
    /** Receives what the scripted server recorded and the version it spoke (the suite's own tests check its frames). */
    onRecording?: (recording: Recording, version: string) => void;
  },
): Promise<CaseResult> {
  const started = performance.now();
  const { clause, profile, level } = scenarioClause(sc);
  const timeoutMs = o.timeoutMs ?? DEFAULT_CLIENT_TIMEOUT_MS;
  const script = sc.server();
  const frames = await validatorsOf(script.version);
  const capabilities = script.capabilities ?? [...frames.params.keys()];
  const token = randomBytes(24).toString('base64url');
  const server = await startScriptedServer({ ...script, capabilities }, sc.requests, token);
  let recording: Recording;
  let run: CommandRun;
  try {
    run = await runCommand({
      command: o.command,
      url: sc.host ? `ws://${sc.host}:${server.port}` : server.url,
      token,
      scenario: sc.id,
      requests: sc.requests,
      timeoutMs,
      ...(o.cwd ? { cwd: o.cwd } : {}),
      ...(o.env ? { env: o.env } : {}),
    });
  } finally {
    recording = await server.stop();
  }
  o.onRecording?.(recording, script.version);
  const rp = replay(recording, { entries: sc.requests, frames, version: script.version, capabilities, token });
  const checks = judge({ scenario: sc, replay: rp, run, timeoutMs, version: script.version });
  const verdict = verdictOf(level, checks);
  const failed = checks.filter((k) => !k.ok);
  const transcript = transcriptOf(
    recording.connections.map((c) => ({ traffic: c.traffic })),
    [token],
  );
  return {
    id: sc.id,
    file: 'scenarios.ts',
    verdict,
    ...(failed.length ? { reason: failed.map((k) => k.name.split(':')[0]).join(', ') } : {}),
    checks,
    durationMs: Math.round(performance.now() - started),
    frames: recording.connections.reduce((n, c) => n + c.traffic.filter((t) => t.direction === 'received').length, 0),
    description: sc.description,
    clause: clause.id,
    profile,
    level,
    transcript: transcript.entries,
    ...(transcript.omitted ? { transcriptOmitted: transcript.omitted } : {}),
  };
}

export async function runClientSuite(o: ClientRunOptions): Promise<RunSummary> {
  const started = performance.now();
  const startedAt = new Date().toISOString();
  const reporters = o.reporters ?? [];
  const profiles = o.profiles ?? PROFILES;
  const timeoutMs = o.timeoutMs ?? DEFAULT_CLIENT_TIMEOUT_MS;
  const scenarios = o.scenarios.filter((sc) => profiles.includes(scenarioClause(sc).profile));
  const client = { command: o.command, timeoutMs };
  const server = {
    version: SERVED,
    authRequired: true,
    capabilities: [...ANSWERED_TOPICS],
    workspaces: [WORKSPACE],
  };
  const total = scenarios.length;
  await emit(reporters, 'onRunStart', {
    url: o.command,
    server,
    total,
    version: SERVED,
    versionSource: 'announced',
    profiles,
    warnings: [],
    client,
  });
  const results: CaseResult[] = new Array(total);
  let next = 0;
  const worker = async () => {
    while (next < total) {
      const i = next++;
      const r = withExpectedFailure(await runScenario(scenarios[i]!, { ...o, timeoutMs }), o.expectedFailures);
      results[i] = r;
      await emit(reporters, 'onCaseEnd', r, i, total);
    }
  };
  await Promise.all(Array.from({ length: Math.max(1, Math.min(o.concurrency ?? 2, total)) }, worker));
  const stale = staleEntries(o.expectedFailures, results, o.allIds);
  const summary: RunSummary = {
    url: o.command,
    server,
    ...(o.implementation ? { implementation: o.implementation } : {}),
    client,
    version: SERVED,
    versionSource: 'announced',
    profiles,
    results,
    counts: countVerdicts(results),
    byProfile: Object.fromEntries(
      profiles.map((p) => [p, countVerdicts(results.filter((r) => r.profile === p))]),
    ) as RunSummary['byProfile'],
    scope: { served: [], known: 0 },
    warnings: [],
    stale,
    ok: stale.length === 0 && results.every(isOkVerdict),
    durationMs: Math.round(performance.now() - started),
    startedAt,
  };
  await emit(reporters, 'onRunEnd', summary);
  return summary;
}
