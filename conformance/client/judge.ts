// Judges one scenario run: the command's exit and output (the contract, contract.ts), each printed line
// against what the server sent for that request, every frame the client sent (replay.ts), the requests
// it was asked for, and the scenario's own checks. Pure.
import { isDeepStrictEqual } from 'node:util';
import type { Check } from '../lib/types';
import type { CommandRun } from './command';
import { NO_ANSWER, type PrintedLine, parseOutput, type RequestEntry } from './contract';
import type { Answer, Replay } from './replay';
import type { ClientScenario } from './scenario';

export interface JudgeInput {
  scenario: Pick<ClientScenario, 'requests' | 'unreachable' | 'unknownFields' | 'checks'>;
  replay: Replay;
  run: CommandRun;
  timeoutMs: number;
  /** The version the scripted server announced (check names say it). */
  version: string;
}

const cut = (s: string, n = 300) => (s.length > n ? `${s.slice(0, n)}… (${s.length} characters)` : s);
const json = (v: unknown) => cut(JSON.stringify(v) ?? 'undefined');

/** "request 2 (edit/find {"pattern":"b"})". */
export function describeEntry(i: number, e: RequestEntry): string {
  return `request ${i + 1} (${e.topic.replace(/^\/app\/vscode\//, '')} ${cut(JSON.stringify(e.params), 120)})`;
}

/** `value` without the keys named, at any depth (fields a client may leave out: C2). */
function without(value: unknown, keys: ReadonlySet<string>): unknown {
  if (keys.size === 0) return value;
  if (Array.isArray(value)) return value.map((v) => without(v, keys));
  if (typeof value !== 'object' || value === null) return value;
  return Object.fromEntries(
    Object.entries(value)
      .filter(([k]) => !keys.has(k))
      .map(([k, v]) => [k, without(v, keys)]),
  );
}

/** The first place two JSON values differ, as a path ("$.matches[0].line: 3 ≠ 4"). */
export function firstDifference(a: unknown, b: unknown, path = '$'): string | undefined {
  if (isDeepStrictEqual(a, b)) return undefined;
  if (Array.isArray(a) && Array.isArray(b)) {
    for (let i = 0; i < Math.max(a.length, b.length); i++) {
      const d = firstDifference(a[i], b[i], `${path}[${i}]`);
      if (d) return d;
    }
  } else if (a && b && typeof a === 'object' && typeof b === 'object' && !Array.isArray(a) && !Array.isArray(b)) {
    const keys = [...new Set([...Object.keys(a), ...Object.keys(b)])];
    for (const k of keys) {
      const d = firstDifference((a as Record<string, unknown>)[k], (b as Record<string, unknown>)[k], `${path}.${k}`);
      if (d) return d;
    }
  }
  return `${path}: the server sent ${json(a)}, the client printed ${json(b)}`;
}

/** Whether a printed line is that answer (a result equal but for the fields a client may leave out; an error by code and message). */
function isAnswer(line: PrintedLine, a: Answer, ignore: ReadonlySet<string>): boolean {
  if (line.kind === 'result')
    return a.kind === 'result' && isDeepStrictEqual(without(a.result, ignore), without(line.result, ignore));
  return a.kind === 'error' && line.code === a.code && line.message === a.message;
}

const asText = (a: Answer) =>
  a.kind === 'result' ? json({ result: a.result }) : json({ error: { code: a.code, message: a.message } });
const lineText = (l: PrintedLine) => (l.kind === 'result' ? json({ result: l.result }) : json({ error: l.error }));

/** Why line `i` is not what the client received for entry `i`, or undefined when it is. */
function wrongLine(i: number, line: PrintedLine, input: JudgeInput, ignore: ReadonlySet<string>): string | undefined {
  const { replay } = input;
  const sent = replay.requests.filter((r) => r.entry === i);
  const answers = sent.flatMap((r) => r.answers);
  const unanswered = sent.length === 0 || sent.some((r) => r.answers.length === 0);
  if (answers.some((a) => isAnswer(line, a, ignore))) return undefined;
  // Nothing came for it: the handshake's refusal is its answer (C5), else no answer at all.
  if (unanswered && replay.refusal) {
    if (line.kind === 'error' && line.code === replay.refusal.code && line.message === replay.refusal.message)
      return undefined;
  } else if (unanswered && line.kind === 'error' && line.code === NO_ANSWER) return undefined;
  const expected = [
    ...answers.map(asText),
    ...(unanswered
      ? [replay.refusal ? json({ error: replay.refusal }) : `{"error": {"code": "${NO_ANSWER}", …}} (no answer came)`]
      : []),
  ];
  const lead = `${describeEntry(i, input.scenario.requests[i]!)}:`;
  const printed = `  + printed: ${lineText(line)}`;
  const wanted = expected.map((e) => `  - the server sent: ${e}`);
  const where =
    answers.length === 1 && line.kind === 'result' && answers[0]!.kind === 'result'
      ? [`  ${firstDifference(without(answers[0]!.result, ignore), without(line.result, ignore))}`]
      : [];
  return [lead, ...wanted, printed, ...where].join('\n');
}

export function judge(input: JudgeInput): Check[] {
  const { run, replay, scenario } = input;
  const n = scenario.requests.length;
  const stderr = run.stderr.trim() ? `\nstderr (its end):\n${cut(run.stderr.trim(), 4000)}` : '';
  const checks: Check[] = [];
  const exitOk = !run.timedOut && run.code === 0 && !run.spawnError;
  checks.push({
    name: `exit: the client exits 0 within ${input.timeoutMs} ms`,
    ok: exitOk,
    ...(exitOk
      ? {}
      : {
          detail: run.spawnError
            ? `the command could not be started: ${run.spawnError}`
            : run.timedOut
              ? `still running after ${input.timeoutMs} ms: killed${stderr}`
              : `exited ${run.code ?? `on ${run.signal}`}${stderr}`,
        }),
  });
  const parsed = parseOutput(run.stdout, n);
  const outputOk = 'lines' in parsed && !run.stdoutCut;
  checks.push({
    name: 'output: one JSON line per request, in order, {"result": …} or {"error": …}',
    ok: outputOk,
    ...(outputOk
      ? {}
      : {
          detail: [
            ...('problems' in parsed ? parsed.problems : []),
            ...(run.stdoutCut ? ['stdout went past its 64 MiB bound'] : []),
          ].join('\n'),
        }),
  });
  if ('lines' in parsed) {
    const ignore = new Set(scenario.unknownFields ?? []);
    const wrong = parsed.lines.flatMap((l, i) => wrongLine(i, l, input, ignore) ?? []);
    checks.push({
      name: 'answers: each line is what the server sent for that request (paired by requestId)',
      ok: wrong.length === 0,
      ...(wrong.length ? { detail: wrong.join('\n') } : {}),
    });
  }
  checks.push({
    name: `frames: every frame the client sent is valid for protocol ${input.version} (handshake first, with its token; then requests)`,
    ok: replay.problems.length === 0,
    ...(replay.problems.length ? { detail: replay.problems.join('\n') } : {}),
  });
  const problems: string[] = [];
  const reached = replay.connections > 0 && !replay.refusal;
  if (!scenario.unreachable && reached)
    scenario.requests.forEach((e, i) => {
      if (!replay.requests.some((r) => r.entry === i)) problems.push(`${describeEntry(i, e)} was never sent`);
    });
  for (const r of replay.requests)
    if (r.entry < 0) problems.push(`sent a request it was not asked for: ${r.topic} ${json(r.params)}`);
  checks.push({
    name: 'requests: each request asked for is sent, and no other',
    ok: problems.length === 0,
    ...(problems.length ? { detail: problems.join('\n') } : {}),
  });
  checks.push(...(scenario.checks?.(replay) ?? []));
  return checks;
}
