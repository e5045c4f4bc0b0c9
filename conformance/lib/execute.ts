// Runs one fixture case against a server and turns what happened into checks and a verdict.
import { randomUUID } from 'node:crypto';
import { mkdirSync, writeFileSync } from 'node:fs';
import { connect as tcpConnect } from 'node:net';
import { networkInterfaces } from 'node:os';
import { dirname, isAbsolute, relative, resolve } from 'node:path';
import { Connection, UpgradeRefusedError } from './connection';
import { match, renderMismatch, unknownRuleKeys } from './match';
import { frameCheckerFor, type FrameChecker } from './schema-check';
import type { CaseResult, Check, ExchangeCase, Expectation, LoadedCase, RequestCase, RequestStep, SetupStep, TransportCase } from './types';
import { bindFrom, substitute, type Vars } from './vars';

export interface Target {
  url: string;
  token?: string;
  /** Fixture variables: `workspace`, `commit.<name>`, `short.<name>`. */
  vars: Vars;
  /** Absolute workspace root, for setup file writes. */
  workspaceDir: string;
}

export interface ServerInfo {
  version: string;
  authRequired: boolean;
  capabilities: string[];
  workspaces: string[];
}

const DEFAULT_TIMEOUT = 15_000;

/** Something that ends the case early with a failed check. */
class Abort extends Error {
  constructor(readonly check: Check) {
    super(check.detail ?? check.name);
  }
}

class CaseContext {
  readonly checks: Check[] = [];
  readonly connections: Connection[] = [];
  vars: Vars;
  constructor(readonly target: Target, readonly timeoutMs: number, private readonly schemas: FrameChecker) {
    this.vars = { ...target.vars };
  }

  async open(headers?: Readonly<Record<string, string | undefined>>): Promise<Connection> {
    const given = headers && Object.fromEntries(Object.entries(headers).filter((e): e is [string, string] => e[1] !== undefined));
    const c = await Connection.open(this.target.url, { headers: given, timeoutMs: this.timeoutMs });
    this.connections.push(c);
    return c;
  }

  async handshake(conn: Connection): Promise<void> {
    conn.send(this.target.token === undefined ? { type: 'handshake' } : { type: 'handshake', token: this.target.token });
    const got = await conn.next(this.timeoutMs);
    const frame = got?.kind === 'frame' ? safeParse(got.text) : undefined;
    const ok = typeof frame === 'object' && frame !== null && (frame as Record<string, unknown>).type === 'handshake' && !('error' in frame);
    if (!ok) throw new Abort({ name: 'handshake', ok: false, detail: `handshake with the valid token failed: ${describeIncoming(got)}` });
  }

  /** Sends one request and waits for the response with the same requestId. */
  async request(conn: Connection, step: RequestStep, label: string, expect: Expectation | undefined, required: boolean): Promise<unknown> {
    const req = substitute(step.request, this.vars);
    const requestId = randomUUID();
    conn.send({ topic: req.topic, requestId, params: req.params ?? {} });
    const got = await conn.next(this.timeoutMs);
    if (got?.kind !== 'frame') throw new Abort({ name: label, ok: false, detail: `no response to ${req.topic}: ${describeIncoming(got)}` });
    const frame = safeParse(got.text);
    if (expect) {
      const expected = substitute(expectedFrame(req.topic, requestId, expect), this.vars);
      const outcome = match(expected, frame);
      const check: Check = { name: label, ok: outcome.ok, detail: outcome.ok ? undefined : renderMismatch(outcome, label) };
      if (!outcome.ok && required) throw new Abort(check);
      this.checks.push(check);
    }
    const bound = bindFrom(frame, step.bind);
    if (bound.problem) throw new Abort({ name: label, ok: false, detail: bound.problem });
    Object.assign(this.vars, bound.vars);
    return frame;
  }

  writeFile(path: string, content: string): void {
    const abs = resolve(this.target.workspaceDir, substitute(path, this.vars));
    const rel = relative(this.target.workspaceDir, abs);
    if (rel.startsWith('..') || isAbsolute(rel)) throw new Abort({ name: 'setup', ok: false, detail: `writeFile outside the workspace: ${path}` });
    mkdirSync(dirname(abs), { recursive: true });
    writeFileSync(abs, substitute(content, this.vars));
  }

  schemaCheck(): Check {
    const problems: string[] = [];
    let n = 0;
    for (const c of this.connections) {
      for (const text of c.received) {
        n++;
        const p = this.schemas.check(text);
        if (p) problems.push(`  • frame ${n}: ${p}\n    ${text.length > 300 ? text.slice(0, 300) + '…' : text}`);
      }
    }
    return { name: 'schema', ok: problems.length === 0, detail: problems.length ? problems.join('\n') : undefined };
  }

  get frames(): number {
    return this.connections.reduce((s, c) => s + c.received.length, 0);
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

/** The whole expected response frame: topic and requestId echoed, then result or error. */
function expectedFrame(topic: string, requestId: string, e: Expectation): unknown {
  if ('result' in e) return { topic, requestId, result: e.result, error: { $absent: true } };
  return { topic, requestId, error: { code: e.error.code, message: e.error.message ?? { $type: 'string' } }, result: { $absent: true } };
}

async function runSetup(ctx: CaseContext, conn: Connection, steps: SetupStep[]): Promise<void> {
  for (const [i, s] of steps.entries()) {
    if ('writeFile' in s) ctx.writeFile(s.writeFile.path, s.writeFile.content);
    else if ('sleepMs' in s) await new Promise((r) => setTimeout(r, s.sleepMs));
    else await ctx.request(conn, s, `setup[${i}]`, s.expect, true);
  }
}

async function runRequestCase(ctx: CaseContext, c: RequestCase): Promise<void> {
  const conn = await ctx.open();
  await ctx.handshake(conn);
  await runSetup(ctx, conn, c.setup ?? []);
  await ctx.request(conn, { request: c.request }, 'response', c.expect, false);
  for (const [i, s] of (c.then ?? []).entries()) await ctx.request(conn, s, `then[${i}]`, s.expect, false);
}

async function runExchangeCase(ctx: CaseContext, c: ExchangeCase): Promise<void> {
  const conn = await ctx.open();
  if (c.handshake === 'auto') await ctx.handshake(conn);
  for (const [i, step] of c.steps.entries()) {
    const label = `step[${i}]`;
    if ('send' in step) conn.send(substitute(step.send, ctx.vars));
    else if ('sendText' in step) conn.sendText(substitute(step.sendText, ctx.vars));
    else if ('expect' in step) {
      const got = await conn.next(ctx.timeoutMs);
      if (got?.kind !== 'frame') throw new Abort({ name: label, ok: false, detail: `expected a frame, ${describeIncoming(got)}` });
      const frame = safeParse(got.text);
      const outcome = match(substitute(step.expect, ctx.vars), frame);
      ctx.checks.push({ name: label, ok: outcome.ok, detail: outcome.ok ? undefined : renderMismatch(outcome, 'frame') });
      const bound = bindFrom(frame, step.bind);
      Object.assign(ctx.vars, bound.vars);
    } else if ('expectUnordered' in step) {
      const frames: unknown[] = [];
      for (let k = 0; k < step.expectUnordered.length; k++) {
        const got = await conn.next(ctx.timeoutMs);
        if (got?.kind !== 'frame') throw new Abort({ name: label, ok: false, detail: `expected ${step.expectUnordered.length} frames, got ${k}; then ${describeIncoming(got)}` });
        frames.push(safeParse(got.text));
      }
      const outcome = match(substitute({ $unordered: step.expectUnordered }, ctx.vars), frames);
      ctx.checks.push({ name: label, ok: outcome.ok, detail: outcome.ok ? undefined : renderMismatch(outcome, 'frames') });
    } else if ('expectClose' in step) {
      const got = await conn.next(ctx.timeoutMs);
      if (got?.kind !== 'close') {
        ctx.checks.push({ name: label, ok: false, detail: `expected the server to close the connection, ${describeIncoming(got)}` });
        continue;
      }
      const outcome = match(step.expectClose.code ?? { $type: 'integer' }, got.code);
      ctx.checks.push({ name: label, ok: outcome.ok, detail: outcome.ok ? undefined : `close code: ${outcome.problems.join('; ')}` });
    } else if ('expectSilence' in step) {
      const got = await conn.next(step.expectSilence);
      ctx.checks.push({ name: label, ok: got === undefined, detail: got ? `expected no frame for ${step.expectSilence} ms, ${describeIncoming(got)}` : undefined });
    }
  }
}

function externalAddresses(): string[] {
  return Object.values(networkInterfaces())
    .flat()
    .filter((a): a is NonNullable<typeof a> => !!a && !a.internal && !a.address.startsWith('fe80'))
    .map((a) => a.address);
}

function tcpReachable(host: string, port: number, timeoutMs: number): Promise<boolean> {
  return new Promise((res) => {
    const s = tcpConnect({ host, port });
    const done = (v: boolean) => { clearTimeout(t); s.destroy(); res(v); };
    const t = setTimeout(() => done(false), timeoutMs);
    s.once('connect', () => done(true));
    s.once('error', () => done(false));
  });
}

/** Returns a skip reason, or undefined when the case ran. */
async function runTransportCase(ctx: CaseContext, c: TransportCase): Promise<string | undefined> {
  if (c.action === 'upgrade-with-headers') {
    let outcome: string;
    try {
      const conn = await ctx.open(substitute(c.headers, ctx.vars));
      conn.send(ctx.target.token === undefined ? { type: 'handshake' } : { type: 'handshake', token: ctx.target.token });
      const got = await conn.next(ctx.timeoutMs);
      const frame = got?.kind === 'frame' ? (safeParse(got.text) as Record<string, unknown>) : undefined;
      outcome = frame && frame.type === 'handshake' && !('error' in frame) ? 'accepted' : `refused (${describeIncoming(got)})`;
    } catch (err) {
      outcome = err instanceof UpgradeRefusedError ? `refused (HTTP ${err.status})` : `refused (${(err as Error).message})`;
    }
    const ok = outcome.startsWith(c.expect);
    ctx.checks.push({ name: 'transport', ok, detail: ok ? undefined : `expected the connection to be ${c.expect}, it was ${outcome}` });
    return undefined;
  }
  if (c.action === 'loopback-only') {
    const port = Number(new URL(ctx.target.url).port);
    const addrs = externalAddresses();
    if (addrs.length === 0) return 'this machine has no non-loopback address to probe';
    const open: string[] = [];
    for (const a of addrs) if (await tcpReachable(a, port, 1000)) open.push(a);
    ctx.checks.push({ name: 'transport', ok: open.length === 0, detail: open.length ? `port ${port} accepts connections on non-loopback addresses: ${open.join(', ')}` : undefined });
    return undefined;
  }
  // oversize-frame
  const conn = await ctx.open();
  if (c.afterHandshake) await ctx.handshake(conn);
  const head = '{"topic":"/app/vscode/edit/find","requestId":"oversize","params":{"pattern":"';
  const tail = '"}}';
  conn.sendText(head + 'x'.repeat(Math.max(0, c.bytes - head.length - tail.length)) + tail);
  let got = await conn.next(ctx.timeoutMs);
  while (got?.kind === 'frame') got = await conn.next(ctx.timeoutMs); // a reply before the close is tolerated
  const ok = got?.kind === 'close' && got.code === c.expectCloseCode;
  ctx.checks.push({ name: 'transport', ok, detail: ok ? undefined : `expected close ${c.expectCloseCode} after a ${c.bytes}-byte frame, ${describeIncoming(got)}` });
  return undefined;
}

export function caseTopic(c: LoadedCase['case']): string | undefined {
  if (c.kind === 'request') return c.request.topic;
  if (c.kind === 'exchange') return c.topic;
  return undefined;
}

export async function executeCase(lc: LoadedCase, target: Target, server: ServerInfo): Promise<CaseResult> {
  const c = lc.case;
  const started = performance.now();
  const base = { id: c.id, file: lc.file, topic: lc.topic };
  const topic = caseTopic(c);
  const schemas = await frameCheckerFor(server.version);
  // Only topics the spec defines can be unimplemented; an invented topic is what an UNKNOWN_TOPIC case sends.
  if (topic && schemas.defines(topic) && !server.capabilities.includes(topic)) {
    return { ...base, verdict: 'unimplemented', reason: `${topic} is not in the server's capabilities`, checks: [], durationMs: 0, frames: 0 };
  }
  const badRules = unknownRuleKeys(c);
  if (badRules.length) return { ...base, verdict: 'fail', reason: `fixture uses unknown match rules: ${badRules.join(', ')}`, checks: [], durationMs: 0, frames: 0 };
  const ctx = new CaseContext(target, c.timeoutMs ?? DEFAULT_TIMEOUT, schemas);
  let skipReason: string | undefined;
  try {
    if (c.kind === 'request') await runRequestCase(ctx, c);
    else if (c.kind === 'exchange') await runExchangeCase(ctx, c);
    else skipReason = await runTransportCase(ctx, c);
  } catch (err) {
    ctx.checks.push(err instanceof Abort ? err.check : { name: 'error', ok: false, detail: err instanceof Error ? err.message : String(err) });
  } finally {
    await Promise.all(ctx.connections.map((conn) => conn.close()));
  }
  const durationMs = Math.round(performance.now() - started);
  if (skipReason) return { ...base, verdict: 'skip', reason: skipReason, checks: ctx.checks, durationMs, frames: ctx.frames };
  ctx.checks.push(ctx.schemaCheck());
  const failed = ctx.checks.filter((k) => !k.ok);
  const verdict = failed.length === 0 ? 'pass' : c.level === 'should' ? 'warn' : 'fail';
  return { ...base, verdict, reason: failed.length ? failed.map((f) => f.name).join(', ') + ' failed' : undefined, checks: ctx.checks, durationMs, frames: ctx.frames };
}
