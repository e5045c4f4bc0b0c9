// What one case runs in: the target and what the run knows of the server, the case's connections, the
// checks it has made so far and its variables, and the early end of a case (Abort). The case kinds
// (execute.ts, exchange-steps.ts, transport-cases.ts, security-cases.ts) all act through it.
import { randomUUID } from 'node:crypto';
import { isObject } from '../../runtime/frames';
import { Connection, type Incoming, UpgradeRefusedError } from './connection';
import { diagnosticsViewOracle, type ObservedFrame } from './diagnostics-view';
import { match, renderMismatch } from './match';
import type { KnownReleases } from './releases';
import type { FrameChecker } from './schema-check';
import { transcriptOf } from './transcript';
import type { CaseResult, Check, Expectation, RequestStep } from './types';
import { bindFrom, substitute, type Vars } from './vars';
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

/**
 * Something that ends the case early: a failed check of the case itself, or (`setup`) a step that had
 * to succeed for the case to be judged at all.
 */
export class Abort extends Error {
  constructor(
    readonly check: Check,
    readonly setup = false,
    /** No answer came (a timeout, a close): later answers on the connection cannot be paired with requests. */
    readonly noAnswer = false,
  ) {
    super(check.detail ?? check.name);
  }
}

export class CaseContext {
  readonly checks: Check[] = [];
  readonly connections: Connection[] = [];
  /** Per connection, how many leading frames were the runner's own handshake (checked by the handshake cases, not here). */
  private readonly ownFrames = new Map<Connection, number>();
  private readonly ownTraffic = new Map<Connection, number>();
  vars: Vars;
  /** What `measure` steps recorded (ms), by name: what `expectSilence` windows are sized from. */
  readonly measures = new Map<string, number>();
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

  /**
   * Sends the handshake with the target's token and reads the answer: `accepted` is the success frame,
   * undefined when anything else came (`got` says what).
   */
  async sendHandshake(
    conn: Connection,
  ): Promise<{ got: Incoming | undefined; accepted: Record<string, unknown> | undefined }> {
    conn.send(
      this.target.token === undefined ? { type: 'handshake' } : { type: 'handshake', token: this.target.token },
    );
    const got = await conn.next(this.timeoutMs);
    const frame = got?.kind === 'frame' ? safeParse(got.text) : undefined;
    const ok = isObject(frame) && frame.type === 'handshake' && !('error' in frame);
    return { got, accepted: ok ? frame : undefined };
  }

  /** The handshake the case needs before its own frames: anything but success ends it as an error. */
  async handshake(conn: Connection): Promise<Record<string, unknown>> {
    const { got, accepted } = await this.sendHandshake(conn);
    if (!accepted)
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
    return accepted;
  }

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

export function safeParse(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return text;
  }
}

export function describeIncoming(i: { kind: string; text?: string; code?: number } | undefined): string {
  if (!i) return 'nothing arrived before the timeout';
  if (i.kind === 'close') return `the connection closed (code ${i.code})`;
  return `got ${i.text}`;
}

/** The whole expected response frame: topic and requestId echoed, then result or error (or any of several). */
export function expectedFrame(topic: string, requestId: string, e: Expectation): unknown {
  if ('anyOf' in e) return { $oneOf: e.anyOf.map((x) => expectedFrame(topic, requestId, x)) };
  if ('result' in e) return { topic, requestId, result: e.result, error: { $absent: true } };
  return {
    topic,
    requestId,
    error: {
      code: e.error.code,
      message: e.error.message ?? { $type: 'string' },
      ...('candidates' in e.error ? { candidates: e.error.candidates } : {}),
      ...('references' in e.error ? { references: e.error.references } : {}),
    },
    result: { $absent: true },
  };
}

/** Substitution of a setup-only value: an unknown variable is a broken fixture or an unbound value, not the server's fault. */
export function substituteOrAbort<T>(value: T, vars: Vars, step: string): T {
  try {
    return substitute(value, vars);
  } catch (err) {
    throw new Abort({ name: `setup: ${step}`, ok: false, detail: (err as Error).message }, true);
  }
}

export async function openForCase(
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

/** One frame for a failure message: cut to `max` characters. */
export function cut(text: string, max = 300): string {
  return text.length > max ? `${text.slice(0, max)}…` : text;
}
