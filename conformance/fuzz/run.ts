// One fuzz run against a server that has a fixture workspace open: handshake, the topics it advertises
// (and the caller selected), trials on one connection (reopened when the server closes it), a canary
// after every failure, the workspace reset after every write-topic request, findings shrunk and written
// as fixture cases.
import { existsSync, rmSync } from 'node:fs';
import { basename, dirname, join, resolve } from 'node:path';
import fc from 'fast-check';
import { TOPICS } from '../../generated/current';
import { loadFrameValidators, loadMcpTools, NEWEST_VERSION } from '../../generated/versions';
import type { FrameValidators } from '../../runtime/frames';
import { Connection } from '../lib/connection';
import { spokenVersion } from '../lib/topics';
import { resetFixtureWorkspaceDetailed } from '../workspace';
import { type CaseContext, fixtureCase, writeFixtureCase } from './findings';
import { type FuzzInput, type GenContext, sampleFiles, type TopicModel, topicArb } from './generate';
import { type Answer, judge, type Problem } from './oracles';
import { type Found, searchAndShrink } from './shrink';

export interface FuzzOptions {
  url: string;
  token?: string;
  /** The fixture workspace the server has open: write topics run only when its handshake lists it. */
  workspace: string;
  seed: number;
  runs?: number;
  /** Generation budget in ms (shrinking has its own, shrinkMs per finding). */
  timeMs?: number;
  shrinkMs?: number;
  /** Full topic names; default every topic the server advertises. */
  topics?: readonly string[];
  /** Per request (default 10,000 ms). */
  timeoutMs?: number;
  /** Where shrunk cases go (none written when undefined). */
  outDir?: string;
  log?(line: string): void;
}

export interface FuzzFinding extends Found {
  /** The fixture case, and its file when written. */
  fixture: Record<string, unknown>;
  file?: string;
}

export interface FuzzSummary {
  url: string;
  seed: number;
  version: string;
  topics: string[];
  /** Write topics left out because the server's handshake does not list the workspace. */
  skippedWriteTopics: string[];
  trials: number;
  findings: FuzzFinding[];
  elapsedMs: number;
}

const CANARY_TOPIC = '/app/vscode/fuzz/canary';

interface Handshake {
  version: string;
  capabilities: string[];
  workspaces: string[];
}

async function connect(
  url: string,
  token: string | undefined,
  timeoutMs: number,
): Promise<{ conn: Connection; hello: Handshake }> {
  const conn = await Connection.open(url, { timeoutMs });
  conn.send(token === undefined ? { type: 'handshake' } : { type: 'handshake', token });
  const got = await conn.next(timeoutMs);
  if (!got) throw new Error(`no handshake reply from ${url} within ${timeoutMs} ms`);
  if (got.kind === 'close') throw new Error(`${url} closed the connection during the handshake (code ${got.code})`);
  const frame = JSON.parse(got.text) as Record<string, unknown>;
  if (frame.type !== 'handshake' || 'error' in frame)
    throw new Error(`handshake refused by ${url}: ${got.text.slice(0, 300)}`);
  const strings = (v: unknown) => (Array.isArray(v) ? v.filter((x): x is string => typeof x === 'string') : []);
  return {
    conn,
    hello: {
      version: String(frame.version),
      capabilities: strings(frame.capabilities),
      workspaces: strings(frame.workspaces),
    },
  };
}

/** The answer to `requestId`: other frames (late answers to timed-out requests, events) are passed over. */
async function answerTo(conn: Connection, requestId: string, timeoutMs: number): Promise<Answer> {
  const until = Date.now() + timeoutMs;
  for (;;) {
    const left = until - Date.now();
    const got = left > 0 ? await conn.next(left) : undefined;
    if (!got) return { kind: 'timeout', ms: timeoutMs };
    if (got.kind === 'close') return { kind: 'closed', code: got.code, reason: got.reason };
    try {
      if ((JSON.parse(got.text) as { requestId?: unknown }).requestId === requestId)
        return { kind: 'frame', text: got.text };
    } catch {
      return { kind: 'frame', text: got.text }; // not JSON: the schema oracle says so
    }
  }
}

export async function fuzz(o: FuzzOptions): Promise<FuzzSummary> {
  const started = Date.now();
  const log = o.log ?? (() => undefined);
  const workspace = resolve(o.workspace);
  const timeoutMs = o.timeoutMs ?? 10_000;
  const first = await connect(o.url, o.token, timeoutMs);
  let conn = first.conn;
  const { hello } = first;
  const { version } = spokenVersion(hello.version, hello.capabilities);
  const frames: FrameValidators = await (loadFrameValidators(version) ?? loadFrameValidators(NEWEST_VERSION)!);
  const tools = await (loadMcpTools(version) ?? loadMcpTools(NEWEST_VERSION)!);
  const servesWorkspace = hello.workspaces.some((w) => resolve(w) === workspace);
  const wanted = new Set(o.topics ?? hello.capabilities);
  const skippedWriteTopics: string[] = [];
  const models: TopicModel[] = [];
  for (const tool of tools) {
    if (!wanted.has(tool.topic) || !hello.capabilities.includes(tool.topic)) continue;
    const validate = frames.params.get(tool.topic);
    if (!validate) continue;
    // Write topics change the folder the server has open: only ever the fuzz workspace.
    if (tool.annotations.destructiveHint && !servesWorkspace) {
      skippedWriteTopics.push(tool.topic);
      continue;
    }
    models.push({
      topic: tool.topic,
      schema: tool.inputSchema,
      validate,
      destructive: tool.annotations.destructiveHint,
    });
  }
  if (skippedWriteTopics.length)
    log(`write topics left out (the server's handshake does not list ${workspace}): ${skippedWriteTopics.join(', ')}`);
  if (models.length === 0) {
    await conn.close();
    throw new Error(
      `nothing to fuzz: the server advertises none of the selected topics (it advertises ${hello.capabilities.join(', ') || 'none'})`,
    );
  }
  const byTopic = new Map(models.map((m) => [m.topic, m]));
  const info = new Map(TOPICS.map((t) => [t.topic as string, t]));
  const errorsOf = (topic: string) => info.get(topic)?.errors ?? ['INVALID_REQUEST', 'HANDLER_ERROR'];
  const ctx: GenContext = { workspace, files: sampleFiles(workspace) };
  const arb = fc.oneof(...models.map((m) => topicArb(m, ctx)));
  const outside = join(dirname(workspace), `${basename(workspace)}.fuzz-outside`);

  let n = 0;
  let reconnectFailed: string | undefined;
  const trial = async (input: FuzzInput): Promise<Problem[]> => {
    if (conn.closed) {
      try {
        conn = (await connect(o.url, o.token, timeoutMs)).conn;
        reconnectFailed = undefined;
      } catch (e) {
        reconnectFailed = (e as Error).message;
        return [
          { oracle: 'closed', clause: 'T1', detail: `the server no longer accepts connections: ${reconnectFailed}` },
        ];
      }
    }
    const requestId = `fuzz-${++n}`;
    conn.send({ topic: input.topic, requestId, params: input.params });
    const answer = await answerTo(conn, requestId, timeoutMs);
    const problems = judge(input, answer, { frames, errors: errorsOf(input.topic), workspace });
    if (byTopic.get(input.topic)?.destructive) {
      // After every write-topic request, as the suite resets after destructive cases; on invalid params it must find nothing to put back.
      const reset = resetFixtureWorkspaceDetailed(workspace);
      if (input.invalid && reset.changed)
        problems.push({
          oracle: 'wrote',
          clause: 'T10',
          detail: `params break ${input.invalid.rule} of ${input.invalid.field}, yet the workspace changed (${reset.restored.map((r) => r.path).join(', ') || `restored via ${reset.via}`})`,
        });
      if (existsSync(outside)) {
        problems.push({ oracle: 'wrote-outside', clause: 'H5', detail: `${outside} appeared beside the workspace` });
        rmSync(outside, { recursive: true, force: true });
      }
    }
    if (problems.length && answer.kind !== 'closed') {
      const canaryId = `canary-${n}`;
      conn.send({ topic: CANARY_TOPIC, requestId: canaryId, params: {} });
      const canary = await answerTo(conn, canaryId, timeoutMs);
      if (canary.kind !== 'frame')
        problems.push({
          oracle: 'canary',
          clause: 'T1',
          detail: `after that, a request to an unknown topic on the same connection got ${canary.kind === 'timeout' ? `no answer within ${timeoutMs} ms` : `a close (code ${canary.code})`}`,
        });
    }
    return problems;
  };

  const findings: FuzzFinding[] = [];
  const { trials } = await searchAndShrink(arb, trial, {
    seed: o.seed,
    runs: o.runs,
    deadline: o.timeMs === undefined ? Number.POSITIVE_INFINITY : started + o.timeMs,
    shrinkMs: o.shrinkMs ?? 30_000,
    onFinding: (f) => {
      const t = info.get(f.input.topic);
      const c: CaseContext = {
        workspace,
        errors: errorsOf(f.input.topic),
        since: t?.since ?? version,
        destructive: byTopic.get(f.input.topic)?.destructive ?? false,
        timeoutMs,
        runSeed: o.seed,
      };
      const fixture = fixtureCase(f, c);
      const file = o.outDir ? writeFixtureCase(o.outDir, fixture) : undefined;
      findings.push({ ...f, fixture, ...(file ? { file } : {}) });
      log(`finding: ${f.signature} (${f.shrinks} shrinks in ${f.shrinkMs} ms)${file ? ` → ${file}` : ''}`);
    },
  });
  await conn.close();
  if (reconnectFailed) log(`the server stopped accepting connections: ${reconnectFailed}`);
  return {
    url: o.url,
    seed: o.seed,
    version,
    topics: models.map((m) => m.topic),
    skippedWriteTopics,
    trials,
    findings,
    elapsedMs: Date.now() - started,
  };
}
