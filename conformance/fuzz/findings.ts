// A shrunk finding as a fixture case (conformance/fixture.schema.json), ready to commit under
// conformance/fixtures/<v>/<area>/: the workspace path becomes ${workspace}, a literal "${" is escaped.
// A request is a `request` case; a malformed frame, two requests with one requestId and a late event
// are `exchange` cases; a frame over the size bound is a `transport` oversize-frame case. Some have no
// form: a frame padded to just under the bound (the case would hold megabytes), an event that does not
// validate or was never subscribed to (no match rule says "every event frame"), and a late event whose
// unsubscribe left other names subscribed: the JSON report only.
import { createHash } from 'node:crypto';
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { laterVersion } from '@idea-kit/spec-lib/version';
import { clauseSince } from '../lib/clauses';
import { pairOf } from './duplicates';
import { lateEventSteps, SUBSCRIBE } from './events';
import { buildFrame, frameStep } from './frames';
import type { Carried } from './input';
import { namePathExpect } from './name-paths';
import { invalidClause } from './oracles';
import type { Found } from './shrink';

export interface CaseContext {
  workspace: string;
  /** The topic's listed error codes. */
  errors: readonly string[];
  /** The version that introduced the topic. */
  since: string;
  destructive: boolean;
  timeoutMs: number;
  /** The run's seed (said in the description). */
  runSeed: number;
  /** The error codes another topic lists (the second request of a duplicate-id pair). */
  errorsOf?(topic: string): readonly string[];
  /** Whether another topic writes. */
  destructiveOf?(topic: string): boolean;
  /** A size finding: the size of the frame sent. */
  frameBytes?: number;
}

const hashOf = (v: unknown) => createHash('sha256').update(JSON.stringify(v)).digest('hex').slice(0, 8);

function placeholders(v: unknown, workspace: string): unknown {
  if (typeof v === 'string')
    return v
      .replace(/\$\{(?=[A-Za-z0-9_.:-]+\})/g, '$${')
      .split(workspace)
      .join('${workspace}');
  if (Array.isArray(v)) return v.map((x) => placeholders(x, workspace));
  if (v && typeof v === 'object')
    return Object.fromEntries(Object.entries(v).map(([k, x]) => [k, placeholders(x, workspace)]));
  return v;
}

/** `edit/find` → `edit-find`: the fixture folder of the topic. */
export function areaOf(topic: string): string {
  return topic.replace('/app/vscode/', '').replace('/', '-').toLowerCase();
}

/** A malformed-frame finding as an exchange case: the frame sent (as an object or text), the answer it must get. */
function frameCase(f: Found, c: CaseContext, base: Record<string, unknown>): Record<string, unknown> {
  const { input } = f;
  const requestId = 'fuzz-frame-1';
  const { expect } = buildFrame(input, requestId);
  const step = placeholders(frameStep(input, requestId), c.workspace);
  const one = (xs: string[]) => (xs.length === 1 ? xs[0] : { $oneOf: xs });
  const answer =
    'request' in expect
      ? {
          $oneOf: [
            { topic: expect.topic, requestId: expect.requestId, result: { $type: 'object' } },
            {
              topic: expect.topic,
              requestId: expect.requestId,
              error: {
                code: { $oneOf: [...new Set([...c.errors, ...(expect.alsoInvalid ? ['INVALID_REQUEST'] : [])])] },
              },
            },
          ],
        }
      : { topic: one(expect.topic), requestId: one(expect.requestId), error: { code: expect.code } };
  const spec =
    'request' in expect ? 'R5' : { PARSE_ERROR: 'T7', INVALID_REQUEST: 'T8', UNKNOWN_TOPIC: 'T9' }[expect.code];
  return {
    ...base,
    spec,
    kind: 'exchange',
    handshake: 'auto',
    topic: input.topic,
    steps: [step, { expect: answer }],
  };
}

/** Two requests with one requestId as an exchange case: both sent, two answers in either order (and, for an extra answer, nothing after them). */
function duplicateCase(f: Found, c: CaseContext): Record<string, unknown> {
  const first = f.problems[0]!;
  const pair = pairOf(f.input);
  const since = laterVersion(c.since, clauseSince(first.clause));
  const destructive = pair.some((r) => c.destructiveOf?.(r.topic) ?? c.destructive);
  const pattern = (r: Carried) => {
    const head = { topic: r.topic, requestId: 'dup' };
    if (first.oracle === 'reuse-refused') return { ...head, result: { $type: 'object' } };
    const codes = [...new Set([...(c.errorsOf?.(r.topic) ?? c.errors), ...(r.invalid ? ['INVALID_REQUEST'] : [])])];
    return {
      $oneOf: [
        { ...head, result: { $type: 'object' } },
        { ...head, error: { code: { $oneOf: codes } } },
      ],
    };
  };
  return {
    $schema: '../../../fixture.schema.json',
    id: `protocol/fuzz-duplicate-id-${first.oracle}-${hashOf(f.input)}`,
    description: `Two requests in flight with one requestId (${f.input.duplicate?.other ? 'two different ones' : 'the same one twice'}): found by idea-conformance fuzz (seed ${c.runSeed}; ${first.oracle}: ${first.detail.slice(0, 160)}).`,
    spec: first.clause,
    since,
    workspace: destructive ? 'fresh' : 'any',
    ...(destructive ? { destructive: true } : {}),
    timeoutMs: Math.max(100, c.timeoutMs),
    kind: 'exchange',
    handshake: 'auto',
    topic: pair[0].topic,
    steps: [
      ...pair.map((r) => ({
        send: { topic: r.topic, requestId: 'dup', params: placeholders(r.params, c.workspace) },
      })),
      { expectUnordered: pair.map(pattern) },
      ...(first.oracle === 'extra-answer' ? [{ expectSilence: 500 }] : []),
    ],
  };
}

/** A frame over the size bound (or the bound found at the start) as the suite's oversize-frame case: closed with 1009. */
function oversizeCase(f: Found, c: CaseContext, bytes: number): Record<string, unknown> {
  const first = f.problems[0]!;
  return {
    $schema: '../../../fixture.schema.json',
    id: `security/fuzz-frame-limit-${first.oracle}-${hashOf([f.input, bytes])}`,
    description: `A frame of ${bytes} bytes after the handshake, over the server's bound, closes the connection with 1009: found by idea-conformance fuzz (seed ${c.runSeed}; ${first.oracle}: ${first.detail.slice(0, 160)}).`,
    spec: 'H4',
    since: clauseSince('H4'),
    workspace: 'any',
    timeoutMs: Math.max(100, c.timeoutMs),
    kind: 'transport',
    action: 'oversize-frame',
    bytes,
    afterHandshake: true,
    expectCloseCode: 1009,
  };
}

/** A late event as an exchange case (events.ts says when one can replay it). */
function lateEventCase(f: Found, c: CaseContext): Record<string, unknown> | undefined {
  const replay = lateEventSteps(f.input);
  if (!replay) return undefined;
  const first = f.problems[0]!;
  return {
    $schema: '../../../fixture.schema.json',
    id: `events/fuzz-late-event-${hashOf(f.input)}`,
    description: `Once events/unsubscribe is answered, no event of what it unsubscribed from comes, queued ones included${f.input.subscription?.editAfter ? ', nor for an edit right after' : ''}: found by idea-conformance fuzz (seed ${c.runSeed}; ${first.detail.slice(0, 160)}).`,
    spec: 'T42',
    since: laterVersion(c.since, clauseSince('T42')),
    workspace: replay.edits ? 'fresh' : 'any',
    ...(replay.edits ? { destructive: true } : {}),
    timeoutMs: Math.max(100, c.timeoutMs),
    kind: 'exchange',
    handshake: 'auto',
    topic: SUBSCRIBE,
    events: replay.events,
    steps: replay.steps.map((s) => placeholders(s, c.workspace)),
  };
}

/** The finding as a fixture case, or undefined when no fixture form holds it (see the top of this file). */
export function fixtureCase(f: Found, c: CaseContext): Record<string, unknown> | undefined {
  const { input } = f;
  if (input.subscription) return f.problems[0]!.oracle === 'late-event' ? lateEventCase(f, c) : undefined;
  if (input.duplicate) return duplicateCase(f, c);
  if (input.size) return input.size.over && c.frameBytes !== undefined ? oversizeCase(f, c, c.frameBytes) : undefined;
  if (input.frame) {
    const first = f.problems[0]!;
    const hash = hashOf(input);
    return frameCase(f, c, {
      $schema: '../../../fixture.schema.json',
      id: `protocol/fuzz-${input.frame.rule.toLowerCase()}-${first.oracle}-${hash}`,
      description: `A frame with ${input.frame.rule} around a ${input.topic} request: found by idea-conformance fuzz (seed ${c.runSeed}; ${first.oracle}: ${first.detail.slice(0, 160)}).`,
      spec: '',
      since: c.since,
      workspace: c.destructive ? 'fresh' : 'any',
      ...(c.destructive ? { destructive: true } : {}),
      timeoutMs: Math.max(100, c.timeoutMs),
    });
  }
  const first = f.problems[0]!;
  const oneOf = { error: { code: { $oneOf: [...c.errors] } } };
  const hash = hashOf(input);
  let spec = first.clause;
  let expect: unknown;
  let prefer: unknown;
  if (first.oracle === 'budget') return undefined;
  if (first.oracle === 'name-path') expect = namePathExpect(input, first, c.errors);
  else if (input.invalid) {
    spec = invalidClause(input);
    if (spec === 'T8') expect = { error: { code: 'INVALID_REQUEST' } };
    else {
      expect = oneOf;
      prefer = { spec: 'R7', expect: { error: { code: 'INVALID_REQUEST' } } };
    }
  } else if (first.oracle === 'escape') {
    expect = oneOf;
    prefer = { spec: 'R6', expect: { error: { code: 'INVALID_REQUEST' } } };
  } else expect = { anyOf: [{ result: { $type: 'object' } }, oneOf] };
  const what = input.invalid
    ? `Params breaking ${input.invalid.rule} of ${input.invalid.field}`
    : input.namePath
      ? `A name path (${input.namePath.kind})`
      : 'Valid params';
  return {
    $schema: '../../../fixture.schema.json',
    id: `${areaOf(input.topic)}/fuzz-${first.oracle}-${hash}`,
    description: `${what}: found by idea-conformance fuzz (seed ${c.runSeed}; ${first.oracle}: ${first.detail.slice(0, 160)}).`,
    spec,
    since: c.since,
    workspace: c.destructive ? 'fresh' : 'any',
    ...(c.destructive ? { destructive: true } : {}),
    timeoutMs: Math.max(100, c.timeoutMs),
    kind: 'request',
    request: { topic: input.topic, params: placeholders(input.params, c.workspace) },
    expect,
    ...(prefer ? { prefer } : {}),
  };
}

/** Writes the case as <dir>/<area>/<name>.json; returns the file. */
export function writeFixtureCase(dir: string, fixture: Record<string, unknown>): string {
  const [area, name] = String(fixture.id).split('/') as [string, string];
  mkdirSync(join(dir, area), { recursive: true });
  const file = join(dir, area, `${name}.json`);
  writeFileSync(file, `${JSON.stringify(fixture, null, 2)}\n`);
  return file;
}
