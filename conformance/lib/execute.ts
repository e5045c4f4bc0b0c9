// Runs one fixture case against a server and turns what happened into checks and a verdict.
import { createHash, randomUUID } from 'node:crypto';
import { networkInterfaces } from 'node:os';
import { compareVersions } from '@idea-kit/spec-lib/version';
import { createTwoFilesPatch } from 'diff';
import { isPortOpen } from '../../runtime/loopback';
import { type FiredTrap, firedTraps, type PlantedTraps, readTrapManifest, TRAPS_MANIFEST } from '../workspace/traps';
import { Connection, UpgradeRefusedError } from './connection';
import { diagnosticsViewOracle, type ObservedFrame } from './diagnostics-view';
import { match, renderMismatch, unknownRuleKeys } from './match';
import { KNOWN_RELEASES, type KnownReleases, releaseStatus } from './releases';
import type { FrameChecker } from './schema-check';
import { spokenVersion, topicSince } from './topics';
import { transcriptOf } from './transcript';
import type {
  CaseResult,
  Check,
  ExchangeCase,
  Expectation,
  LoadedCase,
  RequestCase,
  RequestStep,
  SetupStep,
  TransportCase,
} from './types';
import { bindFrom, placeholdersIn, substitute, type Vars } from './vars';
import {
  deleteWorkspaceFile,
  type FileState,
  readWorkspaceFile,
  WorkspacePathError,
  writeWorkspaceFile,
} from './workspace-files';

export interface Target {
  url: string;
  token?: string;
  /** Fixture variables: `workspace`, `commit.<name>`, `short.<name>`. */
  vars: Vars;
  /** Absolute workspace root, for setup file writes. */
  workspaceDir: string;
  /** Which versions count as released (the draft claim, T34); default KNOWN_RELEASES. */
  releases?: KnownReleases;
}

export interface ServerInfo {
  version: string;
  authRequired: boolean;
  capabilities: string[];
  workspaces: string[];
  /** Events the server can push (handshake `events`, 0.1.7 on; none before). */
  events?: string[];
}

/** What the runner knows about the server for the whole run. */
export interface RunContext {
  server: ServerInfo;
  /** The version cases and schemas are applied by (see run.ts). */
  version: string;
  schemas: FrameChecker;
  /** The readings profile is selected: preferences (`prefer`) are checked. */
  preferences: boolean;
}

const DEFAULT_TIMEOUT = 15_000;

/**
 * Something that ends the case early: a failed check of the case itself, or (`setup`) a step that had
 * to succeed for the case to be judged at all.
 */
class Abort extends Error {
  constructor(
    readonly check: Check,
    readonly setup = false,
    /** No answer came (a timeout, a close): later answers on the connection cannot be paired with requests. */
    readonly noAnswer = false,
  ) {
    super(check.detail ?? check.name);
  }
}

class CaseContext {
  readonly checks: Check[] = [];
  readonly connections: Connection[] = [];
  /** Per connection, how many leading frames were the runner's own handshake (checked by the handshake cases, not here). */
  private readonly ownFrames = new Map<Connection, number>();
  private readonly ownTraffic = new Map<Connection, number>();
  vars: Vars;
  /** Transport cases: what was sent, for the reports. */
  sent: string | undefined;
  constructor(
    readonly target: Target,
    readonly timeoutMs: number,
    private readonly schemas: FrameChecker,
  ) {
    this.vars = { ...target.vars };
  }

  async open(headers?: Readonly<Record<string, string | undefined>>): Promise<Connection> {
    const given =
      headers && Object.fromEntries(Object.entries(headers).filter((e): e is [string, string] => e[1] !== undefined));
    const c = await Connection.open(this.target.url, { headers: given, timeoutMs: this.timeoutMs });
    this.connections.push(c);
    return c;
  }

  async handshake(conn: Connection): Promise<void> {
    conn.send(
      this.target.token === undefined ? { type: 'handshake' } : { type: 'handshake', token: this.target.token },
    );
    const got = await conn.next(this.timeoutMs);
    const frame = got?.kind === 'frame' ? safeParse(got.text) : undefined;
    const ok =
      typeof frame === 'object' &&
      frame !== null &&
      (frame as Record<string, unknown>).type === 'handshake' &&
      !('error' in frame);
    if (!ok)
      throw new Abort(
        {
          name: 'setup: handshake',
          ok: false,
          detail: `handshake with the valid token failed: ${describeIncoming(got)}`,
        },
        true,
      );
    this.ownFrames.set(conn, conn.received.length);
    this.ownTraffic.set(conn, conn.traffic.length);
  }

  /** Sends one request and waits for the response with the same requestId. */
  /**
   * Sends one request and waits for the response with the same requestId. `setup`: the step prepares
   * the case, so anything short of the expected response makes the case an error naming the step.
   */
  async request(
    conn: Connection,
    step: RequestStep,
    label: string,
    expect: Expectation | undefined,
    setup: boolean,
    prefer?: { spec: string; expect: Expectation },
  ): Promise<unknown> {
    const req = substitute(step.request, this.vars);
    const name = setup ? `${label} (${req.topic})` : label;
    const requestId = randomUUID();
    conn.send({ topic: req.topic, requestId, params: req.params ?? {} });
    const got = await conn.next(this.timeoutMs);
    if (got?.kind !== 'frame')
      throw new Abort(
        { name, ok: false, detail: `no response to ${req.topic}: ${describeIncoming(got)}` },
        setup,
        true,
      );
    const frame = safeParse(got.text);
    if (expect) {
      const outcome = match(substitute(expectedFrame(req.topic, requestId, expect), this.vars), frame);
      const check: Check = { name, ok: outcome.ok, detail: outcome.ok ? undefined : renderMismatch(outcome, label) };
      if (!outcome.ok && setup) throw new Abort(check, true);
      this.checks.push(check);
      // A preference is judged only where the answer conforms: otherwise the failure says it all.
      if (prefer && outcome.ok) {
        const p = match(substitute(expectedFrame(req.topic, requestId, prefer.expect), this.vars), frame);
        this.checks.push({
          name: `preference (${prefer.spec})`,
          ok: p.ok,
          level: 'should',
          clause: prefer.spec,
          detail: p.ok ? undefined : renderMismatch(p, label),
        });
      }
    }
    const bound = bindFrom(frame, step.bind);
    if (bound.problem) throw new Abort({ name, ok: false, detail: bound.problem }, setup);
    Object.assign(this.vars, bound.vars);
    return frame;
  }

  /**
   * The runner writes or deletes a workspace file itself, as another process would (setup `writeFile`,
   * exchange `writeFile` / `deleteFile`): inside the workspace only, following no symlink a server planted.
   * Anything that goes wrong is the case's setup failing (an error), not the server's.
   */
  writeFile(path: string, content: string, name = 'setup: writeFile'): void {
    const rel = substituteOrAbort(path, this.vars, name);
    try {
      writeWorkspaceFile(this.target.workspaceDir, rel, substituteOrAbort(content, this.vars, name));
    } catch (err) {
      throw new Abort({ name, ok: false, detail: `cannot write ${rel}: ${(err as Error).message}` }, true);
    }
  }

  deleteFile(path: string, name: string): void {
    const rel = substituteOrAbort(path, this.vars, name);
    try {
      deleteWorkspaceFile(this.target.workspaceDir, rel);
    } catch (err) {
      throw new Abort({ name, ok: false, detail: `cannot delete ${rel}: ${(err as Error).message}` }, true);
    }
  }

  /** A workspace file as the runner reads it now (a path outside the workspace is a broken fixture: an error). */
  readFile(rel: string, name: string): FileState {
    try {
      return readWorkspaceFile(this.target.workspaceDir, rel);
    } catch (err) {
      if (err instanceof WorkspacePathError)
        throw new Abort({ name, ok: false, detail: `${rel}: ${err.message}` }, true);
      throw err;
    }
  }

  /** Per connection, event frames an `await` step skipped, kept for later `await` steps (oldest first). */
  readonly skippedEvents = new Map<Connection, string[]>();
  /** `expectFilesUnchanged`: each named file as the case began. */
  readonly filesAtStart = new Map<string, FileState>();

  /**
   * T37, on every connection of the case: where one subscribed to diagnostics/changed with `initial: true`,
   * each event it received must agree with the subscriber's view of each file (diagnostics-view.ts).
   * Undefined when no connection did (the oracle did not apply).
   */
  diagnosticsViewCheck(): Check | undefined {
    const problems: string[] = [];
    let applied = 0;
    let events = 0;
    this.connections.forEach((c, k) => {
      const frames: ObservedFrame[] = c.traffic.flatMap((t) =>
        t.direction === 'closed' ? [] : [{ direction: t.direction, frame: safeParse(t.text) }],
      );
      const out = diagnosticsViewOracle(frames);
      if (!out.applied) return;
      applied++;
      events += out.events;
      for (const p of out.problems)
        problems.push(
          `  • ${p.filePath}: diagnostics/changed event ${p.event} after the subscribe answer (frame ${p.received} received on connection ${k + 1}): ${p.problem}`,
        );
    });
    if (applied === 0) return undefined;
    return {
      name: 'diagnostics/changed view (T37)',
      ok: problems.length === 0,
      clause: 'T37',
      detail: problems.length
        ? `${problems.length} breach${problems.length === 1 ? '' : 'es'} of the subscriber's view in ${events} diagnostics/changed events (the first after an initial: true subscribe answer is the initial one):\n${problems.join('\n')}`
        : undefined,
    };
  }

  /** Every frame the case received (but the runner's own handshakes), each distinct problem once with the frames it was seen in. */
  schemaCheck(): Check {
    const problems = new Map<string, { frames: number[]; example: string }>();
    let n = 0;
    for (const c of this.connections) {
      const own = this.ownFrames.get(c) ?? 0;
      c.received.forEach((text, k) => {
        n++;
        if (k < own) return;
        const p = this.schemas.check(text);
        if (!p) return;
        const seen = problems.get(p);
        if (seen) seen.frames.push(n);
        else problems.set(p, { frames: [n], example: text });
      });
    }
    const detail = [...problems].map(
      ([p, { frames, example }]) =>
        `  • ${frames.length === 1 ? 'frame' : 'frames'} ${frames.join(', ')} (schemas of ${this.schemas.version}): ${p}\n    ${example.length > 300 ? `${example.slice(0, 300)}…` : example}`,
    );
    return { name: 'schema', ok: problems.size === 0, detail: detail.length ? detail.join('\n') : undefined };
  }

  get frames(): number {
    return this.connections.reduce((s, c) => s + c.received.length, 0);
  }

  /** For the reports: the case's frames, the token and its prefix (protocol cases send both) redacted. */
  transcript(): Pick<CaseResult, 'transcript' | 'transcriptOmitted'> {
    const { entries, omitted } = transcriptOf(
      this.connections.map((c) => ({ traffic: c.traffic, own: this.ownTraffic.get(c) })),
      [this.target.token ?? '', this.target.vars.tokenPrefix ?? ''],
    );
    return entries.length ? { transcript: entries, ...(omitted ? { transcriptOmitted: omitted } : {}) } : {};
  }
}

function safeParse(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return text;
  }
}

function describeIncoming(i: { kind: string; text?: string; code?: number } | undefined): string {
  if (!i) return 'nothing arrived before the timeout';
  if (i.kind === 'close') return `the connection closed (code ${i.code})`;
  return `got ${i.text}`;
}

/** The whole expected response frame: topic and requestId echoed, then result or error (or any of several). */
function expectedFrame(topic: string, requestId: string, e: Expectation): unknown {
  if ('anyOf' in e) return { $oneOf: e.anyOf.map((x) => expectedFrame(topic, requestId, x)) };
  if ('result' in e) return { topic, requestId, result: e.result, error: { $absent: true } };
  return {
    topic,
    requestId,
    error: {
      code: e.error.code,
      message: e.error.message ?? { $type: 'string' },
      ...('candidates' in e.error ? { candidates: e.error.candidates } : {}),
    },
    result: { $absent: true },
  };
}

async function runSetup(ctx: CaseContext, conn: Connection, steps: SetupStep[]): Promise<void> {
  for (const [i, s] of steps.entries()) {
    if ('writeFile' in s) ctx.writeFile(s.writeFile.path, s.writeFile.content);
    else if ('sleepMs' in s) await new Promise((r) => setTimeout(r, s.sleepMs));
    else await ctx.request(conn, s, `setup[${i}]`, s.expect, true);
  }
}

/** Substitution of a setup-only value: an unknown variable is a broken fixture or an unbound value, not the server's fault. */
function substituteOrAbort<T>(value: T, vars: Vars, step: string): T {
  try {
    return substitute(value, vars);
  } catch (err) {
    throw new Abort({ name: `setup: ${step}`, ok: false, detail: (err as Error).message }, true);
  }
}

async function openForCase(
  ctx: CaseContext,
  headers?: Readonly<Record<string, string | undefined>>,
): Promise<Connection> {
  try {
    return await ctx.open(headers);
  } catch (err) {
    if (err instanceof UpgradeRefusedError) throw err;
    throw new Abort(
      {
        name: 'setup: connect',
        ok: false,
        detail: `could not connect to ${ctx.target.url}: ${(err as Error).message}`,
      },
      true,
    );
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

type ExchangeStep = ExchangeCase['steps'][number];

/** The paths `expectFilesUnchanged` steps name, nested alternatives included. */
function unchangedPaths(steps: readonly ExchangeStep[]): string[] {
  return steps.flatMap((s) => {
    if ('expectFilesUnchanged' in s) return s.expectFilesUnchanged;
    if ('expectOneOf' in s) return s.expectOneOf.flatMap((alt) => unchangedPaths(alt.then ?? []));
    return [];
  });
}

function isEventFrame(frame: unknown): boolean {
  return typeof frame === 'object' && frame !== null && (frame as { type?: unknown }).type === 'event';
}

/** One frame for a failure message: cut to `max` characters. */
function cut(text: string, max = 300): string {
  return text.length > max ? `${text.slice(0, max)}…` : text;
}

async function runExchangeCase(ctx: CaseContext, c: ExchangeCase): Promise<void> {
  const conn = await openForCase(ctx);
  if (c.handshake === 'auto') await ctx.handshake(conn);
  // Before the first step: what `expectFilesUnchanged` compares with.
  for (const p of new Set(unchangedPaths(c.steps))) {
    const rel = substituteOrAbort(p, ctx.vars, 'expectFilesUnchanged');
    ctx.filesAtStart.set(rel, ctx.readFile(rel, 'setup: expectFilesUnchanged'));
  }
  await runSteps(ctx, conn, c.steps, 'step');
}

async function runSteps(ctx: CaseContext, conn: Connection, steps: readonly ExchangeStep[], prefix: string) {
  for (const [i, step] of steps.entries()) {
    const label = `${prefix}[${i}]`;
    if ('send' in step) conn.send(substitute(step.send, ctx.vars));
    else if ('sendText' in step) conn.sendText(substitute(step.sendText, ctx.vars));
    else if ('expect' in step) {
      const got = await conn.next(ctx.timeoutMs);
      if (got?.kind !== 'frame')
        throw new Abort({ name: label, ok: false, detail: `expected a frame, ${describeIncoming(got)}` });
      const frame = safeParse(got.text);
      const outcome = match(substitute(step.expect, ctx.vars), frame);
      ctx.checks.push({
        name: label,
        ok: outcome.ok,
        detail: outcome.ok ? undefined : renderMismatch(outcome, 'frame'),
      });
      const bound = bindFrom(frame, step.bind);
      Object.assign(ctx.vars, bound.vars);
    } else if ('expectUnordered' in step) {
      const frames: unknown[] = [];
      for (let k = 0; k < step.expectUnordered.length; k++) {
        const got = await conn.next(ctx.timeoutMs);
        if (got?.kind !== 'frame')
          throw new Abort({
            name: label,
            ok: false,
            detail: `expected ${step.expectUnordered.length} frames, got ${k}; then ${describeIncoming(got)}`,
          });
        frames.push(safeParse(got.text));
      }
      const outcome = match(substitute({ $unordered: step.expectUnordered }, ctx.vars), frames);
      ctx.checks.push({
        name: label,
        ok: outcome.ok,
        detail: outcome.ok ? undefined : renderMismatch(outcome, 'frames'),
      });
    } else if ('expectClose' in step) {
      const got = await conn.next(ctx.timeoutMs);
      if (got?.kind !== 'close') {
        ctx.checks.push({
          name: label,
          ok: false,
          detail: `expected the server to close the connection, ${describeIncoming(got)}`,
        });
        continue;
      }
      const outcome = match(step.expectClose.code ?? { $type: 'integer' }, got.code);
      ctx.checks.push({
        name: label,
        ok: outcome.ok,
        detail: outcome.ok ? undefined : `close code: ${outcome.problems.join('; ')}`,
      });
    } else if ('sleepMs' in step) {
      await new Promise((r) => setTimeout(r, step.sleepMs));
    } else if ('expectSilence' in step) {
      const got = await conn.next(step.expectSilence);
      ctx.checks.push({
        name: label,
        ok: got === undefined,
        detail: got ? `expected no frame for ${step.expectSilence} ms, ${describeIncoming(got)}` : undefined,
      });
    } else if ('writeFile' in step) {
      ctx.writeFile(step.writeFile.path, step.writeFile.content, `${label}: writeFile`);
    } else if ('deleteFile' in step) {
      ctx.deleteFile(step.deleteFile.path, `${label}: deleteFile`);
    } else if ('await' in step) {
      const frame = await awaitFrame(ctx, conn, step.await, step.withinMs ?? ctx.timeoutMs, label);
      if (frame !== undefined) Object.assign(ctx.vars, bindFrom(frame, step.bind).vars);
    } else if ('expectOneOf' in step) {
      const got = await conn.next(ctx.timeoutMs);
      if (got?.kind !== 'frame')
        throw new Abort({ name: label, ok: false, detail: `expected a frame, ${describeIncoming(got)}` });
      const frame = safeParse(got.text);
      const outcomes = step.expectOneOf.map((alt) => match(substitute(alt.expect, ctx.vars), frame));
      const k = outcomes.findIndex((o) => o.ok);
      if (k < 0) {
        ctx.checks.push({
          name: label,
          ok: false,
          detail: `the frame matches none of the ${outcomes.length} alternatives:\n${outcomes
            .map((o, j) => `alternative ${j + 1}:\n${renderMismatch(o, 'frame')}`)
            .join('\n')}`,
        });
        continue;
      }
      ctx.checks.push({ name: `${label} (alternative ${k + 1})`, ok: true });
      await runSteps(ctx, conn, step.expectOneOf[k]!.then ?? [], `${label}.then`);
    } else if ('expectFiles' in step) {
      const expected = substitute(step.expectFiles, ctx.vars);
      const actual: Record<string, unknown> = {};
      for (const rel of Object.keys(expected)) {
        const f = ctx.readFile(rel, `${label}: expectFiles`);
        if (f) actual[rel] = 'bytes' in f ? f.bytes.toString('utf8') : { notAFile: f.other };
      }
      const outcome = match(expected, actual);
      ctx.checks.push({
        name: label,
        ok: outcome.ok,
        detail: outcome.ok ? undefined : renderMismatch(outcome, 'files'),
      });
    } else if ('expectFilesUnchanged' in step) {
      const changed: string[] = [];
      for (const p of step.expectFilesUnchanged) {
        const rel = substitute(p, ctx.vars);
        const diff = fileChange(rel, ctx.filesAtStart.get(rel), ctx.readFile(rel, `${label}: expectFilesUnchanged`));
        if (diff) changed.push(diff);
      }
      ctx.checks.push({
        name: label,
        ok: changed.length === 0,
        detail: changed.length ? `changed since the case began:\n${changed.join('\n')}` : undefined,
      });
    }
  }
}

function describeFile(f: FileState): string {
  if (!f) return 'no file';
  if ('other' in f) return f.other;
  return `${f.bytes.length} bytes, sha256 ${createHash('sha256').update(f.bytes).digest('hex').slice(0, 12)}`;
}

/** How a file differs from what it was (a unified diff for text), or undefined when it is byte for byte the same. */
function fileChange(rel: string, before: FileState, now: FileState): string | undefined {
  if (before && now && 'bytes' in before && 'bytes' in now) {
    if (before.bytes.equals(now.bytes)) return undefined;
    const patch = createTwoFilesPatch(
      `${rel} (before)`,
      `${rel} (now)`,
      before.bytes.toString('utf8'),
      now.bytes.toString('utf8'),
    );
    const body = patch.split('\n').slice(1).join('\n').trimEnd(); // drop the "====" line
    return `  • ${rel}: ${describeFile(before)} → ${describeFile(now)}\n${cut(body, 2000)}`;
  }
  const a = describeFile(before);
  const b = describeFile(now);
  return a === b ? undefined : `  • ${rel}: ${a} → ${b}`;
}

/**
 * `await`: the first frame matching `pattern`, from the events earlier `await` steps skipped (oldest
 * first), then from the wire for at most `withinMs`. Events that do not match are skipped and kept for
 * later; any other frame that does not match fails the step (returns undefined); so does the time
 * running out or the connection closing (the case ends: nothing later can be paired). Failures list
 * what was skipped.
 */
async function awaitFrame(
  ctx: CaseContext,
  conn: Connection,
  pattern: unknown,
  withinMs: number,
  label: string,
): Promise<unknown> {
  const expected = substitute(pattern, ctx.vars);
  const kept = ctx.skippedEvents.get(conn) ?? [];
  ctx.skippedEvents.set(conn, kept);
  const earlier = kept.length;
  for (const [k, text] of kept.entries()) {
    const frame = safeParse(text);
    if (match(expected, frame).ok) {
      kept.splice(k, 1);
      ctx.checks.push({ name: label, ok: true });
      return frame;
    }
  }
  const skipped: string[] = [];
  const deadline = performance.now() + withinMs;
  const skippedSoFar = () => {
    const all = [...kept.slice(0, earlier), ...skipped];
    if (all.length === 0) return 'no event was skipped';
    const shown = all.slice(-5).map((t) => `    ${cut(t)}`);
    const last = renderMismatch(match(expected, safeParse(all.at(-1)!)), 'event');
    return `skipped ${all.length} event${all.length === 1 ? '' : 's'} that did not match (${earlier} kept from earlier steps)${all.length > 5 ? ', the last 5' : ''}:\n${shown.join('\n')}\n  the last one against what was awaited:\n${last}`;
  };
  for (;;) {
    const left = Math.round(deadline - performance.now());
    const got = left > 0 ? await conn.next(left) : undefined;
    if (got?.kind !== 'frame')
      throw new Abort({
        name: label,
        ok: false,
        detail: `no frame matching ${cut(JSON.stringify(expected), 600)} within ${withinMs} ms: ${describeIncoming(got)}; ${skippedSoFar()}`,
      });
    const frame = safeParse(got.text);
    const outcome = match(expected, frame);
    if (outcome.ok) {
      ctx.checks.push({ name: label, ok: true });
      return frame;
    }
    if (isEventFrame(frame)) {
      kept.push(got.text);
      skipped.push(got.text);
      continue;
    }
    ctx.checks.push({
      name: label,
      ok: false,
      detail: `a frame that is not an event and does not match what was awaited:\n${renderMismatch(outcome, 'frame')}\n${skippedSoFar()}`,
    });
    return undefined;
  }
}

function externalAddresses(): string[] {
  return Object.values(networkInterfaces())
    .flat()
    .filter((a): a is NonNullable<typeof a> => !!a && !a.internal && !a.address.startsWith('fe80'))
    .map((a) => a.address);
}

/** The version claim: the announced version against the topics served (T4). */
function versionClaimCheck(run: RunContext): Check {
  const { version: announced, capabilities } = run.server;
  const { newestTopic } = spokenVersion(announced, capabilities);
  if (!/^\d+\.\d+\.\d+$/.test(announced))
    return {
      name: 'version claim',
      ok: false,
      detail: `the handshake's version ${JSON.stringify(announced)} is not a protocol version`,
    };
  if (!newestTopic) return { name: 'version claim', ok: true };
  const newer = capabilities.filter((t) => compareVersions(topicSince(t) ?? '0.0.0', announced) > 0);
  return {
    name: 'version claim',
    ok: false,
    detail:
      `the handshake announces ${announced}, but the server serves ${newer.map((t) => `${t} (since ${topicSince(t)})`).join(', ')}: it speaks at least ${newestTopic.since}` +
      ` (cases and schemas were applied by ${run.version}; --assume-version overrides)`,
  };
}

/** Returns a skip reason, or undefined when the case ran. */
async function runTransportCase(ctx: CaseContext, c: TransportCase, run: RunContext): Promise<string | undefined> {
  if (c.action === 'version-claim') {
    ctx.sent = `(the handshake read at the start: version ${JSON.stringify(run.server.version)}, ${run.server.capabilities.length} capabilities)`;
    ctx.checks.push(versionClaimCheck(run));
    return undefined;
  }
  if (c.action === 'upgrade-with-headers') {
    let outcome: string;
    const headers = substitute(c.headers, ctx.vars);
    ctx.sent = `WebSocket upgrade to ${ctx.target.url} with headers ${JSON.stringify(headers)}`;
    try {
      const conn = await ctx.open(headers);
      conn.send(
        ctx.target.token === undefined ? { type: 'handshake' } : { type: 'handshake', token: ctx.target.token },
      );
      const got = await conn.next(ctx.timeoutMs);
      const frame = got?.kind === 'frame' ? (safeParse(got.text) as Record<string, unknown>) : undefined;
      outcome =
        frame && frame.type === 'handshake' && !('error' in frame) ? 'accepted' : `refused (${describeIncoming(got)})`;
    } catch (err) {
      outcome =
        err instanceof UpgradeRefusedError ? `refused (HTTP ${err.status})` : `refused (${(err as Error).message})`;
    }
    const ok = outcome.startsWith(c.expect);
    ctx.checks.push({
      name: 'transport',
      ok,
      detail: ok ? undefined : `expected the connection to be ${c.expect}, it was ${outcome}`,
    });
    return undefined;
  }
  if (c.action === 'loopback-only') {
    const port = Number(new URL(ctx.target.url).port);
    const addrs = externalAddresses();
    if (addrs.length === 0) return 'this machine has no non-loopback address to probe';
    const open: string[] = [];
    ctx.sent = `TCP connections to port ${port} on ${addrs.join(', ')}`;
    for (const a of addrs) if (await isPortOpen(port, 1000, a)) open.push(a);
    ctx.checks.push({
      name: 'transport',
      ok: open.length === 0,
      detail: open.length
        ? `port ${port} accepts connections on non-loopback addresses: ${open.join(', ')}`
        : undefined,
    });
    return undefined;
  }
  if (c.action === 'in-flight-bound') {
    await inFlightBound(ctx, c);
    return undefined;
  }
  if (c.action === 'no-traps-fired') return noTrapsFired(ctx, c, run);
  if (c.action === 'draft-claim') return draftClaim(ctx);
  // oversize-frame
  ctx.sent = `one text frame of ${c.bytes} bytes ${c.afterHandshake ? 'after' : 'before'} the handshake`;
  const conn = await openForCase(ctx);
  if (c.afterHandshake) await ctx.handshake(conn);
  const head = '{"topic":"/app/vscode/edit/find","requestId":"oversize","params":{"pattern":"';
  const tail = '"}}';
  conn.sendText(head + 'x'.repeat(Math.max(0, c.bytes - head.length - tail.length)) + tail);
  let got = await conn.next(ctx.timeoutMs);
  while (got?.kind === 'frame') got = await conn.next(ctx.timeoutMs); // a reply before the close is tolerated
  const ok = got?.kind === 'close' && got.code === c.expectCloseCode;
  ctx.checks.push({
    name: 'transport',
    ok,
    detail: ok
      ? undefined
      : `expected close ${c.expectCloseCode} after a ${c.bytes}-byte frame, ${describeIncoming(got)}`,
  });
  return undefined;
}

/**
 * T34: a handshake of its own (its answer is schema-checked like any frame of the case), whose `draft`
 * must be true exactly when the version it announces is not released (releases.ts). Returns a skip
 * reason when the runner cannot tell: a version that is none, or newer than every one it knows.
 */
async function draftClaim(ctx: CaseContext): Promise<string | undefined> {
  const conn = await openForCase(ctx);
  ctx.sent = 'a handshake with the valid token';
  conn.send(ctx.target.token === undefined ? { type: 'handshake' } : { type: 'handshake', token: ctx.target.token });
  const got = await conn.next(ctx.timeoutMs);
  const frame = got?.kind === 'frame' ? safeParse(got.text) : undefined;
  if (
    typeof frame !== 'object' ||
    frame === null ||
    (frame as { type?: unknown }).type !== 'handshake' ||
    'error' in frame
  )
    throw new Abort(
      {
        name: 'setup: handshake',
        ok: false,
        detail: `handshake with the valid token failed: ${describeIncoming(got)}`,
      },
      true,
    );
  const { version, draft } = frame as { version?: unknown; draft?: unknown };
  if (typeof version !== 'string' || !/^\d+\.\d+\.\d+$/.test(version))
    return `the handshake's version ${JSON.stringify(version)} is not a protocol version (protocol/handshake-version-claim judges that)`;
  const known = ctx.target.releases ?? KNOWN_RELEASES;
  const { newestReleased, newestKnown } = known;
  const status = releaseStatus(version, known);
  if (status === 'unknown')
    return `whether ${version} is released this runner cannot tell (it knows the versions up to ${newestKnown}, the newest released being ${newestReleased}): update idea-conformance`;
  const said = draft === undefined ? 'has no draft' : `says draft: ${JSON.stringify(draft)}`;
  const ok = status === 'draft' ? draft === true : draft === undefined || draft === false;
  ctx.checks.push({
    name: 'draft claim',
    ok,
    detail: ok
      ? undefined
      : status === 'draft'
        ? `the handshake announces ${version}, which is not released (the newest released version is ${newestReleased}), so it must say draft: true; it ${said}`
        : `the handshake announces ${version}, which is released (the newest released version is ${newestReleased}), so it must have no draft or draft: false; it ${said}`,
  });
  return undefined;
}

/** Floods one in-flight-bound attempt may send: `count`, then twice, then four times as many. */
const IN_FLIGHT_ATTEMPTS = 3;

/**
 * H9: `count` copies of one request at once. Every one must be answered exactly once, some (those over
 * the server's bound) with the refusal, and the connection must still serve the request afterwards.
 * A server may answer as fast as the copies arrive, so that fewer than its bound are ever in flight:
 * then nothing was over the bound, and the flood is sent again on a new connection, twice as large, up
 * to IN_FLIGHT_ATTEMPTS floods. A server without a bound refuses none of them.
 */
async function inFlightBound(
  ctx: CaseContext,
  c: Extract<TransportCase, { action: 'in-flight-bound' }>,
): Promise<void> {
  const req = substituteOrAbort(c.request, ctx.vars, 'request variables');
  const refusal = substitute(
    {
      topic: req.topic,
      requestId: { $type: 'string' },
      error: { code: c.expectRefusal.code, message: c.expectRefusal.message ?? { $type: 'string' } },
    },
    ctx.vars,
  );
  const floods: number[] = [];
  let conn!: Connection;
  let refused = 0;
  let firstOther: string | undefined;
  const strays: string[] = [];
  for (let attempt = 0; attempt < IN_FLIGHT_ATTEMPTS && refused === 0 && strays.length === 0; attempt++) {
    const count = c.count * 2 ** attempt;
    floods.push(count);
    ctx.sent = `${floods.join(', then ')} ${req.topic} requests at once after the handshake (a new connection each), then one more`;
    if (conn) await conn.close();
    conn = await openForCase(ctx);
    await ctx.handshake(conn);
    const ids = new Set<string>();
    const frames: string[] = [];
    for (let i = 0; i < count; i++) {
      ids.add(`in-flight-${i}`);
      frames.push(JSON.stringify({ topic: req.topic, requestId: `in-flight-${i}`, params: req.params ?? {} }));
    }
    for (const f of frames) conn.sendText(f);
    while (ids.size > 0) {
      const got = await conn.next(ctx.timeoutMs);
      if (got?.kind !== 'frame') {
        throw new Abort({
          name: 'answers',
          ok: false,
          detail: `${count - ids.size} of ${count} requests answered, then ${describeIncoming(got)}`,
        });
      }
      const frame = safeParse(got.text) as { requestId?: unknown; error?: unknown } | undefined;
      const id = typeof frame?.requestId === 'string' ? frame.requestId : '';
      if (!ids.delete(id)) {
        strays.push(got.text.length > 200 ? `${got.text.slice(0, 200)}…` : got.text);
        if (strays.length > 10) break;
        continue;
      }
      if (match(refusal, frame).ok) refused++;
      else if (frame && 'error' in frame) firstOther ??= got.text;
    }
  }
  ctx.checks.push({
    name: 'every request answered once',
    ok: strays.length === 0,
    detail: strays.length
      ? `answers to no outstanding request (a repeated or unknown requestId): ${strays.join('\n')}`
      : undefined,
  });
  ctx.checks.push({
    name: 'bound',
    ok: refused > 0,
    detail:
      refused > 0
        ? undefined
        : `none of ${floods.join(', then ')} requests sent at once was refused as over a bound on requests in flight (expected ${JSON.stringify(c.expectRefusal)})${firstOther ? `; an other error: ${firstOther}` : ''}`,
  });
  await ctx.request(conn, { request: req }, 'afterwards', { result: { $type: 'object' } }, false);
}

/**
 * H19: `requests` on the fixture workspace with its traps planted (workspace/traps.ts), each only where the
 * server advertises its topic; then no trap may have left a marker. A skipped request's `bind` variables
 * are unavailable, and so skipped is every later request that needs one. Returns a skip reason when the
 * server serves none of the topics and no trap ran.
 */
async function noTrapsFired(
  ctx: CaseContext,
  c: Extract<TransportCase, { action: 'no-traps-fired' }>,
  run: RunContext,
): Promise<string | undefined> {
  const dir = ctx.target.workspaceDir;
  const rebuild = (why: string) =>
    new Abort(
      {
        name: 'setup: trap manifest',
        ok: false,
        detail: `rebuild the workspace with \`idea-conformance workspace ${dir}\` and open it in the server again: ${why}`,
      },
      true,
    );
  let manifest: PlantedTraps | undefined;
  try {
    manifest = readTrapManifest(dir);
  } catch (err) {
    throw rebuild((err as Error).message);
  }
  // Never a silent pass: without the manifest there are no traps (or none the runner can read).
  if (!manifest)
    throw rebuild(`it has no ${TRAPS_MANIFEST}, so an older builder made it, without the traps this case needs`);
  const served = new Set(run.server.capabilities);
  const conn = await openForCase(ctx);
  await ctx.handshake(conn);
  const unavailable = new Set<string>();
  const skipped: string[] = [];
  let sent = 0;
  for (const [i, step] of c.requests.entries()) {
    const topic = step.request.topic;
    const short = topic.replace('/app/vscode/', '');
    const needs = placeholdersIn(step.request).find((v) => unavailable.has(v));
    if (!served.has(topic) || needs) {
      skipped.push(needs ? `${short} (needs \${${needs}})` : short);
      for (const v of Object.keys(step.bind ?? {})) unavailable.add(v);
      continue;
    }
    sent++;
    try {
      await ctx.request(conn, step, `requests[${i}] (${short})`, step.expect, false);
    } catch (err) {
      if (!(err instanceof Abort) || err.setup) throw err;
      ctx.checks.push(err.check);
      for (const v of Object.keys(step.bind ?? {})) unavailable.add(v);
      if (err.noAnswer) break; // what arrives later cannot be told apart: go on to the markers
    }
  }
  ctx.sent = `${sent} of ${c.requests.length} requests (to the topics the server advertises${skipped.length ? `; skipped: ${skipped.join(', ')}` : ''}), then the markers of ${manifest.traps.length} traps in ${manifest.markerDir}`;
  const fired = firedTraps(manifest.markerDir);
  if (sent === 0 && fired.length === 0)
    return `the server advertises none of the topics this case sends (${skipped.join(', ')})`;
  ctx.checks.push(trapsCheck(manifest, fired));
  return undefined;
}

function trapsCheck(manifest: PlantedTraps, fired: readonly FiredTrap[]): Check {
  if (fired.length === 0) return { name: 'no trap ran', ok: true };
  const what = new Map(manifest.traps.map((t) => [t.id, t.what]));
  const each = fired.map(
    (f) =>
      `  • ${f.id}: ${what.get(f.id) ?? 'a marker in the trap folder'}\n${f.detail
        .split('\n')
        .map((l) => `      ${l}`)
        .join('\n')}`,
  );
  return {
    name: 'no trap ran',
    ok: false,
    detail: `${fired.length} of the workspace's traps ran: the server ran or loaded code the workspace supplies or names (markers in ${manifest.markerDir}):\n${each.join('\n')}`,
  };
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
    if (c.kind === 'request') await runRequestCase(ctx, c, run);
    else if (c.kind === 'exchange') await runExchangeCase(ctx, c);
    else skipReason = await runTransportCase(ctx, c, run);
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
