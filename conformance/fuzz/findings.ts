// A shrunk finding as a fixture case (conformance/fixture.schema.json, kind "request"), ready to commit
// under conformance/fixtures/<v>/<area>/: the workspace path becomes ${workspace}, a literal "${" is escaped.
import { createHash } from 'node:crypto';
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { buildFrame, frameStep } from './frames';
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
}

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

export function fixtureCase(f: Found, c: CaseContext): Record<string, unknown> {
  const { input } = f;
  if (input.frame) {
    const first = f.problems[0]!;
    const hash = createHash('sha256').update(JSON.stringify(input)).digest('hex').slice(0, 8);
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
  const hash = createHash('sha256').update(JSON.stringify(input)).digest('hex').slice(0, 8);
  let spec = first.clause;
  let expect: unknown;
  let prefer: unknown;
  if (input.invalid) {
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
  const what = input.invalid ? `Params breaking ${input.invalid.rule} of ${input.invalid.field}` : 'Valid params';
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
