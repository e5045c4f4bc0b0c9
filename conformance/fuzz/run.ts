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
import {
  EDIT_EVENTS,
  EDIT_PARAMS,
  REPLACE,
  SUBSCRIBE,
  subscriptionArb,
  subscriptionTrial,
  UNSUBSCRIBE,
} from './events';
import { type CaseContext, fixtureCase, writeFixtureCase } from './findings';
import { answerIds, buildFrame, malformedArb } from './frames';
import { type FuzzInput, type GenContext, sampleFiles, type TopicModel, topicArb } from './generate';
import { type Answer, judge, judgeFrame, type Problem } from './oracles';
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
  /** The events the server can push (0.1.7 on). */
  events: string[];
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
      events: strings(frame.events),
    },
  };
}

/** The answer to `requestId` (or the first carrying one of several ids): other frames (late answers to timed-out requests, events) are passed over. */
async function answerTo(conn: Connection, requestId: string | readonly string[], timeoutMs: number): Promise<Answer> {
  const ids: readonly unknown[] = typeof requestId === 'string' ? [requestId] : requestId;
  const until = Date.now() + timeoutMs;
  for (;;) {
    const left = until - Date.now();
    const got = left > 0 ? await conn.next(left) : undefined;
    if (!got) return { kind: 'timeout', ms: timeoutMs };
    if (got.kind === 'close') return { kind: 'closed', code: got.code, reason: got.reason };
    try {
      if (ids.includes((JSON.parse(got.text) as { requestId?: unknown }).requestId))
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
  const requests = fc.oneof(...models.map((m) => topicArb(m, ctx)));
  // Malformed frames around the generated requests: one trial in five.
  const mixed: fc.WeightedArbitrary<FuzzInput>[] = [
    { arbitrary: requests, weight: 4 },
    { arbitrary: malformedArb(requests), weight: 1 },
  ];
  // Event subscriptions with an edit between them: when the server pushes events an edit causes and the edit may run here.
  const editEvents = EDIT_EVENTS.filter((e) => hello.events.includes(e) && frames.events?.has(e));
  const subscriptions =
    editEvents.length > 0 &&
    wanted.has(SUBSCRIBE) &&
    [SUBSCRIBE, UNSUBSCRIBE, REPLACE].every((t) => hello.capabilities.includes(t)) &&
    servesWorkspace;
  if (subscriptions) mixed.push({ arbitrary: subscriptionArb(editEvents), weight: 1 });
  const arb = fc.oneof(...mixed);
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
    const judged = { frames, errors: errorsOf(input.topic), workspace };
    let answer: Answer;
    let problems: Problem[];
    // Whether the request must change nothing: invalid params, or an envelope the server must refuse.
    let refused = input.invalid !== undefined;
    if (input.subscription) {
      problems = await subscriptionTrial(conn, input, n, frames, timeoutMs);
      resetFixtureWorkspaceDetailed(workspace);
      if (problems.length && !conn.closed) {
        const canaryId = `canary-${n}`;
        conn.send({ topic: CANARY_TOPIC, requestId: canaryId, params: {} });
        const canary = await answerTo(conn, canaryId, timeoutMs);
        if (canary.kind !== 'frame')
          problems.push({ oracle: 'canary', clause: 'T1', detail: `after that, a canary request got ${canary.kind}` });
      }
      return problems;
    }
    if (input.frame) {
      const { text, expect } = buildFrame(input, requestId);
      if (!('request' in expect)) refused = true;
      conn.sendText(text);
      answer = await answerTo(conn, answerIds(expect), timeoutMs);
      problems = judgeFrame(input, expect, answer, judged);
    } else {
      conn.send({ topic: input.topic, requestId, params: input.params });
      answer = await answerTo(conn, requestId, timeoutMs);
      problems = judge(input, answer, judged);
    }
    if (byTopic.get(input.topic)?.destructive) {
      // After every write-topic request, as the suite resets after destructive cases; on invalid params it must find nothing to put back.
      const reset = resetFixtureWorkspaceDetailed(workspace);
      if (refused && reset.changed)
        problems.push({
          oracle: 'wrote',
          clause: 'T10',
          detail: `${input.invalid ? `params break ${input.invalid.rule} of ${input.invalid.field}` : `a frame with ${input.frame?.rule}`}, yet the workspace changed (${reset.restored.map((r) => r.path).join(', ') || `restored via ${reset.via}`})`,
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
      // A subscription finding has no fixture kind that holds "nothing after the unsubscribe": the JSON report only.
      const fixture = f.input.subscription
        ? {
            note: 'not a fixture case: subscribe with these params, edit/replace, unsubscribe',
            subscribe: f.input.params,
            edit: { topic: REPLACE, params: EDIT_PARAMS },
          }
        : fixtureCase(f, c);
      const file = o.outDir && !f.input.subscription ? writeFixtureCase(o.outDir, fixture) : undefined;
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
