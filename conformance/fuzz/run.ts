// One fuzz run against a server that has a fixture workspace open: handshake, the topics it advertises
// (and the caller selected), the server's frame bound (given or found), trials on one connection
// (reopened when the server closes it), a canary after every failure and, when the caller started the
// server (--launch), a check that its process is still alive (restarted when it is not, so the finding
// can be shrunk), the workspace reset after every write-topic request, findings shrunk and written as
// fixture cases.
import { existsSync, rmSync } from 'node:fs';
import { basename, dirname, join, resolve } from 'node:path';
import fc from 'fast-check';
import { TOPICS } from '../../generated/current';
import { loadFrameValidators, loadMcpTools, NEWEST_VERSION } from '../../generated/versions';
import type { FrameValidators } from '../../runtime/frames';
import type { Level, Profile } from '../lib/clauses';
import { Connection } from '../lib/connection';
import { spokenVersion } from '../lib/topics';
import { resetFixtureWorkspaceDetailed } from '../workspace';
import { duplicateArb, duplicateTrial, pairOf } from './duplicates';
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
import { type GenContext, sampleFiles, type TopicModel, topicArb } from './generate';
import { type FuzzInput, subjectOf } from './input';
import { collectSymbols, namePathArb, namePathModels } from './name-paths';
import { type Answer, gradeOf, judge, judgeFrame, type Problem, signature } from './oracles';
import { asWritten, type Found, searchAndShrink } from './shrink';
import { type FrameBound, findFrameBound, judgeOver, paddedFrame, sizeArb, targetBytes } from './sizes';

/** The server's process, when the caller started it (--launch). */
export interface ServerProcess {
  /** Whether it still runs. */
  alive(): boolean | Promise<boolean>;
  /** Starts it again; its url and token. Without it a dead server ends the run (and its finding is not shrunk). */
  restart?(): Promise<{ url: string; token?: string }>;
  /** What it is, for the finding (a command, a pid). */
  describe?: string;
}

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
  /** The server's frame bound in bytes (the largest frame it answers); default found at the start; false: no frames near it. */
  frameLimit?: number | false;
  /** The server process, when the caller started it: after every failure it must still be alive. */
  server?: ServerProcess;
  /** The profiles whose findings are reported (default all three: core, readings, security). */
  profiles?: readonly Profile[];
  log?(line: string): void;
}

export interface FuzzFinding extends Found {
  /** The fixture case, or a note saying why none holds the finding; its file when written. */
  fixture: Record<string, unknown>;
  file?: string;
  /** The profile and level of its clause, as the suite has them (a reading is a should: a warning). */
  profile: Profile;
  level: Level;
  /** A padded frame's size. */
  bytes?: number;
}

export interface FuzzSummary {
  url: string;
  seed: number;
  version: string;
  topics: string[];
  /** Write topics left out because the server's handshake does not list the workspace. */
  skippedWriteTopics: string[];
  /** The frame bound the size trials used: the largest frame answered, the smallest closed (bytes). */
  frameBound?: FrameBound & { probes: number; ms: number };
  trials: number;
  /** Times the server process was restarted after it died. */
  restarts: number;
  findings: FuzzFinding[];
  elapsedMs: number;
}

const CANARY_TOPIC = '/app/vscode/fuzz/canary';
/** How many frames sent a died finding quotes. */
const LAST_FRAMES = 6;

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

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
const bytesOf = (b: number) => b.toLocaleString('en-US');

export async function fuzz(o: FuzzOptions): Promise<FuzzSummary> {
  const started = Date.now();
  const log = o.log ?? (() => undefined);
  const workspace = resolve(o.workspace);
  const timeoutMs = o.timeoutMs ?? 10_000;
  let { url, token } = o;
  const first = await connect(url, token, timeoutMs);
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
  const destructive = (topic: string) => byTopic.get(topic)?.destructive ?? false;
  const info = new Map(TOPICS.map((t) => [t.topic as string, t]));
  const errorsOf = (topic: string) => info.get(topic)?.errors ?? ['INVALID_REQUEST', 'HANDLER_ERROR'];
  const profiles = new Set<Profile>(o.profiles ?? ['core', 'readings', 'security']);
  const findings: FuzzFinding[] = [];
  const known: string[] = [];
  let restarts = 0;
  /** Set when the server can no longer be reached and cannot be restarted: the run ends. */
  let gone: string | undefined;

  // The last frames sent, summarised (a connection keeps every frame it sent: moved here and dropped after each trial).
  const lastSent: string[] = [];
  const remember = (line: string) => {
    lastSent.push(line);
    lastSent.splice(0, Math.max(0, lastSent.length - LAST_FRAMES));
  };
  const collect = (c: Connection) => {
    for (const t of c.traffic)
      if (t.direction === 'sent') {
        const bytes = Buffer.byteLength(t.text);
        const head = t.text.length > 240 ? `${t.text.slice(0, 240).trimEnd()}…` : t.text;
        remember(`${bytesOf(bytes)} bytes: ${head}`);
      }
    c.traffic.length = 0;
    c.received.length = 0;
  };
  const reopen = async (): Promise<string | undefined> => {
    let why = '';
    for (let attempt = 0; attempt < 3; attempt++) {
      try {
        conn = (await connect(url, token, timeoutMs)).conn;
        return undefined;
      } catch (e) {
        why = (e as Error).message;
        await sleep(200 * (attempt + 1));
      }
    }
    return why;
  };
  /** After a failure: the server process (when the caller started it) must still run; a dead one is restarted. */
  const checkAlive = async (problems: Problem[]): Promise<void> => {
    if (!o.server || (await o.server.alive())) return;
    // The death explains whatever else the trial saw (a close, a canary unanswered): one finding, not several.
    const seen = problems.splice(0, problems.length);
    problems.push({
      oracle: 'died',
      clause: 'T1',
      detail: `the server process${o.server.describe ? ` (${o.server.describe})` : ''} is gone${seen[0] ? ` (the trial saw: ${seen[0].detail.slice(0, 300)})` : ''}; the last frames sent, oldest first: ${lastSent.map((f) => f.slice(0, 160)).join(' | ')}`,
      lastFrames: [...lastSent],
    });
    await conn.close();
    if (!o.server.restart) {
      gone = 'the server process is gone';
      return;
    }
    try {
      ({ url, token } = await o.server.restart());
      restarts++;
      const why = await reopen();
      if (why) gone = `the restarted server does not accept connections: ${why}`;
    } catch (e) {
      gone = `the server could not be restarted: ${(e as Error).message}`;
    }
  };

  // Name paths from the symbols the server lists (0.1.8 on): asked on the run's connection while the frame
  // bound is looked for on others (a cold language server answers its first request slowly), for half the
  // run at most (8 s); what is asked by then is what trials name, so it depends on the server's speed.
  const files = sampleFiles(workspace);
  let asked = 0;
  const collectingSince = Date.now();
  const collecting = collectSymbols(
    async (topic, params, within) => {
      const requestId = `symbols-${++asked}`;
      conn.send({ topic, requestId, params });
      const a = await answerTo(conn, requestId, Math.max(0, Math.min(timeoutMs, within)));
      return a.kind === 'frame' ? (JSON.parse(a.text) as { result?: unknown }).result : undefined;
    },
    files,
    hello.capabilities,
    collectingSince + Math.min(8_000, (o.timeMs ?? Number.POSITIVE_INFINITY) / 2),
  );

  // The frame bound: given, or found with padded canaries (its problems are findings of their own).
  let bound: (FrameBound & { probes: number; ms: number }) | undefined;
  const boundFindings: { found: Found; bytes?: number }[] = [];
  if (typeof o.frameLimit === 'number')
    bound = { under: o.frameLimit, over: o.frameLimit + 1, given: true, probes: 0, ms: 0 };
  else if (o.frameLimit !== false) {
    const t0 = Date.now();
    let problems: Problem[] = [];
    let bytes: number | undefined;
    try {
      const search = await findFrameBound(
        async () => (await connect(url, token, timeoutMs)).conn,
        CANARY_TOPIC,
        timeoutMs,
        remember,
      );
      ({ problems, bytes } = search);
      if (search.bound) bound = { ...search.bound, probes: search.probes, ms: Date.now() - t0 };
      log(
        bound
          ? `frame bound: ${bytesOf(bound.under)} bytes answered, ${bytesOf(bound.over)} closed (${search.probes} probes, ${bound.ms} ms)`
          : 'frame bound: none found (no frames near it)',
      );
    } catch (e) {
      problems = [{ oracle: 'closed', clause: 'T1', detail: `while finding the frame bound: ${(e as Error).message}` }];
    }
    if (problems.length) await checkAlive(problems);
    const input: FuzzInput = { topic: CANARY_TOPIC, params: {}, size: { over: true, offset: 0 } };
    for (const p of problems) {
      const sig = signature(subjectOf(input), p);
      if (known.includes(sig)) continue;
      known.push(sig);
      boundFindings.push({
        found: {
          input,
          problems: [p],
          original: input,
          originalProblems: [p],
          signature: sig,
          seed: o.seed,
          path: '',
          shrinks: 0,
          shrinkMs: 0,
        },
        ...(bytes !== undefined && p.oracle !== 'died' ? { bytes } : {}),
      });
    }
  }

  const ctx: GenContext = { workspace, files };
  const requests = fc.oneof(...models.map((m) => topicArb(m, ctx)));
  const samples = await collecting;
  collect(conn);
  const naming = namePathModels(models);
  if (naming.length)
    log(`name paths: ${samples.length} symbols of the workspace to name (${Date.now() - collectingSince} ms to ask)`);
  // Malformed frames, two requests with one requestId and frames near the size bound around the generated requests.
  const mixed: fc.WeightedArbitrary<FuzzInput>[] = [
    { arbitrary: requests, weight: 4 },
    { arbitrary: malformedArb(requests), weight: 1 },
    { arbitrary: duplicateArb(requests), weight: 1 },
  ];
  if (bound) mixed.push({ arbitrary: sizeArb(requests), weight: 1 });
  if (naming.length && samples.length) mixed.push({ arbitrary: namePathArb(naming, samples, ctx), weight: 2 });
  // Event subscriptions with edits around them: when the server pushes events an edit causes and the edit may run here.
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
  const canaryFails = async (id: string): Promise<Answer | undefined> => {
    conn.send({ topic: CANARY_TOPIC, requestId: id, params: {} });
    const canary = await answerTo(conn, id, timeoutMs);
    return canary.kind === 'frame' ? undefined : canary;
  };
  const canaryDetail = (a: Answer) =>
    a.kind === 'timeout' ? `no answer within ${timeoutMs} ms` : `a close (code ${a.kind === 'closed' ? a.code : '?'})`;

  let unreachable: string | undefined;
  const attempt = async (input: FuzzInput): Promise<Problem[]> => {
    if (conn.closed) {
      collect(conn);
      unreachable = await reopen();
      if (unreachable)
        return [{ oracle: 'closed', clause: 'T1', detail: `the server no longer accepts connections: ${unreachable}` }];
    }
    const requestId = `fuzz-${++n}`;
    const judged = { frames, errors: errorsOf(input.topic), workspace };
    let answer: Answer | undefined;
    let problems: Problem[];
    // Whether the request must change nothing: invalid params, or an envelope the server must refuse.
    let refused =
      input.invalid !== undefined || (input.namePath !== undefined && !/^(own|suffix)$/.test(input.namePath.kind));
    let writes = destructive(input.topic);
    if (input.subscription) {
      problems = await subscriptionTrial(conn, input, n, frames, timeoutMs);
      resetFixtureWorkspaceDetailed(workspace);
      if (problems.length && !conn.closed) {
        const canary = await canaryFails(`canary-${n}`);
        if (canary)
          problems.push({
            oracle: 'canary',
            clause: 'T1',
            detail: `after that, a canary request got ${canaryDetail(canary)}`,
          });
      }
      return problems;
    }
    if (input.size?.over) {
      // Over the bound: closed with 1009, then a new connection's canary is answered.
      const bytes = targetBytes(input, bound!);
      await conn.sendTextFlushed(
        paddedFrame({ topic: input.topic, requestId, params: input.params }, bytes).text,
        timeoutMs,
      );
      problems = await judgeOver(conn, requestId, bytes, bound!, timeoutMs);
      if (writes) resetFixtureWorkspaceDetailed(workspace);
      await conn.close();
      collect(conn);
      const why = await reopen();
      const after = `after a frame of ${bytesOf(bytes)} bytes, over the bound`;
      if (why)
        problems.push({ oracle: 'canary', clause: 'H4', detail: `${after}, a new connection was refused: ${why}` });
      else {
        const canary = await canaryFails(`canary-${n}`);
        if (canary)
          problems.push({
            oracle: 'canary',
            clause: 'H4',
            detail: `${after}, a canary on a new connection got ${canaryDetail(canary)}`,
          });
      }
      return problems;
    }
    if (input.duplicate) {
      const pair = pairOf(input);
      writes = pair.some((r) => destructive(r.topic));
      refused = pair.every((r) => !destructive(r.topic) || r.invalid !== undefined);
      const out = await duplicateTrial(
        conn,
        input,
        requestId,
        { topic: CANARY_TOPIC, requestId: `canary-${n}` },
        { ...judged, version, errorsOf, destructive },
        timeoutMs,
      );
      problems = out.problems;
    } else if (input.size) {
      // Just under the bound: the request is answered as it would be without its padding.
      const bytes = targetBytes(input, bound!);
      await conn.sendTextFlushed(
        paddedFrame({ topic: input.topic, requestId, params: input.params }, bytes).text,
        timeoutMs,
      );
      answer = await answerTo(conn, requestId, timeoutMs);
      problems =
        answer.kind === 'closed' && answer.code === 1009
          ? [
              {
                oracle: 'frame-limit',
                clause: 'H4',
                detail: `a frame of ${bytesOf(bytes)} bytes, under the bound (${bound!.given ? `--frame-limit ${bytesOf(bound!.under)}` : `${bytesOf(bound!.under)} bytes were answered`}), closed the connection with 1009`,
              },
            ]
          : judge(input, answer, judged).map((p) => ({
              ...p,
              detail: `a frame of ${bytesOf(bytes)} bytes, just under the bound: ${p.detail}`,
            }));
    } else if (input.frame) {
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
    if (writes) {
      // After every write-topic request, as the suite resets after destructive cases; on invalid params it must find nothing to put back.
      const reset = resetFixtureWorkspaceDetailed(workspace);
      if (refused && reset.changed)
        problems.push({
          oracle: 'wrote',
          clause: 'T10',
          detail: `${input.invalid ? `params break ${input.invalid.rule} of ${input.invalid.field}` : input.frame ? `a frame with ${input.frame.rule}` : 'invalid params'}, yet the workspace changed (${reset.restored.map((r) => r.path).join(', ') || `restored via ${reset.via}`})`,
        });
      if (existsSync(outside)) {
        problems.push({ oracle: 'wrote-outside', clause: 'H5', detail: `${outside} appeared beside the workspace` });
        rmSync(outside, { recursive: true, force: true });
      }
    }
    // (a duplicate-id trial sent its canary already)
    if (problems.length && answer && answer.kind !== 'closed' && !conn.closed) {
      const canary = await canaryFails(`canary-${n}`);
      if (canary)
        problems.push({
          oracle: 'canary',
          clause: 'T1',
          detail: `after that, a request to an unknown topic on the same connection got ${canaryDetail(canary)}`,
        });
    }
    return problems;
  };

  const trial = async (input: FuzzInput): Promise<Problem[]> => {
    if (gone) return [];
    const problems = await attempt(input);
    collect(conn);
    if (problems.length) await checkAlive(problems);
    // A server that no longer takes connections (and was not restarted): the run ends after this finding.
    if (!gone && unreachable && conn.closed) gone = `the server no longer accepts connections: ${unreachable}`;
    unreachable = undefined;
    return problems.filter((p) => profiles.has(gradeOf(p).profile));
  };

  const record = (found: Found, bytes?: number) => {
    // The case says what its input is: the shrunk one, or the one first found when the shrunk one's labels do not hold.
    const written = asWritten(found, (topic) => frames.params.get(topic));
    const f = written ?? found;
    const t = info.get(f.input.topic);
    const c: CaseContext = {
      workspace,
      errors: errorsOf(f.input.topic),
      since: t?.since ?? version,
      destructive: destructive(f.input.topic),
      timeoutMs,
      runSeed: o.seed,
      errorsOf,
      destructiveOf: destructive,
      ...(bytes !== undefined ? { frameBytes: bytes } : {}),
    };
    const fixture = written && fixtureCase(written, c);
    const file = o.outDir && fixture ? writeFixtureCase(o.outDir, fixture) : undefined;
    const grade = gradeOf(f.problems[0]!);
    findings.push({
      ...f,
      fixture: fixture ?? (written ? noCase(f, bytes) : mislabelled(f)),
      ...(file ? { file } : {}),
      ...grade,
      ...(bytes !== undefined ? { bytes } : {}),
    });
    log(`finding: ${f.signature} (${f.shrinks} shrinks in ${f.shrinkMs} ms)${file ? ` → ${file}` : ''}`);
  };
  for (const b of boundFindings) if (profiles.has(gradeOf(b.found.problems[0]!).profile)) record(b.found, b.bytes);

  const { trials } = await searchAndShrink(arb, trial, {
    seed: o.seed,
    runs: o.runs,
    deadline: o.timeMs === undefined ? Number.POSITIVE_INFINITY : started + o.timeMs,
    shrinkMs: o.shrinkMs ?? 30_000,
    known,
    stopped: () => gone !== undefined,
    onFinding: (f) => record(f, f.input.size && bound ? targetBytes(f.input, bound) : undefined),
  });
  await conn.close();
  if (gone) log(`the run ended early: ${gone}`);
  return {
    url,
    seed: o.seed,
    version,
    topics: models.map((m) => m.topic),
    skippedWriteTopics,
    ...(bound ? { frameBound: bound } : {}),
    trials,
    restarts,
    findings,
    elapsedMs: Date.now() - started,
  };
}

/** What the JSON report holds instead of a case whose labels (valid or invalid params) would not be true. */
function mislabelled(f: Found): Record<string, unknown> {
  return {
    note: 'not a fixture case: the params, shrunk or as first found, are not what the generator labelled them (valid or invalid by the params schema), so no case would say what they are; the input is above',
    request: { topic: f.input.topic, params: f.input.params, ...(f.input.invalid ? { invalid: f.input.invalid } : {}) },
  };
}

/** What the JSON report holds instead of a case, for a finding no fixture form holds. */
function noCase(f: Found, bytes: number | undefined): Record<string, unknown> {
  const { input } = f;
  if (input.subscription)
    return {
      note: 'not a fixture case (no match rule holds "every event frame", nor silence while names stay subscribed); replay: subscribe, edit/replace, unsubscribe, edit/replace as planned',
      subscribe: input.params,
      plan: input.subscription,
      edit: { topic: REPLACE, params: EDIT_PARAMS },
    };
  if (f.problems[0]?.oracle === 'budget')
    return {
      note: 'not a fixture case: no match rule holds the length of a result; replay the request and measure its result as JSON',
      request: { topic: input.topic, params: input.params },
    };
  if (f.path === '')
    return {
      note: 'not a fixture case: found while the frame bound was looked for (canary requests padded with JSON whitespace); the last frames sent say which',
    };
  return {
    note: `not a fixture case: the frame is this request followed by JSON whitespace up to ${bytes ?? '?'} bytes, which a case would have to hold; rerun with the same --seed`,
    request: { topic: input.topic, params: input.params },
    ...(bytes !== undefined ? { bytes } : {}),
  };
}
