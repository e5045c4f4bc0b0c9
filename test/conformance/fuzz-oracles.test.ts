// The fuzz oracles added for issue 31's remainder, each failing on a planted server and shrunk: two
// requests in flight with one requestId (answered twice: T41; one dropped: T2; refused: the reading R9,
// a should), frames near the size bound (a server process that dies on one just under it: the "server
// alive" oracle, restarted to shrink; a close other than 1009 over it: H4), events after the unsubscribe
// (T42, sent late or queued) and events never subscribed to (T31). Each case written is replayed by the
// suite's own runner: it fails on the planted server and passes on the clean one.
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type FuzzOptions, fuzz } from '../../conformance/fuzz/run';
import { loadCases } from '../../conformance/lib/load';
import { runAgainstServer } from '../../conformance/lib/session';
import { buildFixtureWorkspace } from '../../conformance/workspace';
import { FUZZ_TOKEN, type FuzzServer, type Plant, startFuzzServer } from './fuzz-servers';

let tmp: string;
let ws: string;

beforeAll(() => {
  tmp = mkdtempSync(join(tmpdir(), 'conformance-fuzz-oracles-'));
  ws = buildFixtureWorkspace(join(tmp, 'ws')).dir;
}, 60_000);
afterAll(() => rmSync(tmp, { recursive: true, force: true }));

const SEED = 31;
const MIB = 1024 * 1024;
let outs = 0;

interface Run {
  topics: string[];
  timeMs?: number;
  runs?: number;
  frameLimit?: number | false;
  /** Watch the server as a process (alive), restarting it when it dies unless `restart` is false. */
  watch?: boolean;
  restart?: boolean;
  profiles?: FuzzOptions['profiles'];
  /** How long a trial waits for its answer (default 400 ms). */
  timeoutMs?: number;
}

async function fuzzPlanted(plant: Plant, o: Run) {
  const out = join(tmp, `findings-${++outs}`);
  let server = await startFuzzServer(ws, plant);
  const all: FuzzServer[] = [server];
  try {
    const summary = await fuzz({
      url: server.url,
      token: FUZZ_TOKEN,
      workspace: ws,
      seed: SEED,
      ...(o.runs !== undefined ? { runs: o.runs } : { timeMs: o.timeMs ?? 3000 }),
      shrinkMs: 8000,
      timeoutMs: o.timeoutMs ?? 400,
      topics: o.topics.map((t) => `/app/vscode/${t}`),
      outDir: out,
      ...(o.frameLimit !== undefined ? { frameLimit: o.frameLimit } : {}),
      ...(o.profiles ? { profiles: o.profiles } : {}),
      ...(o.watch
        ? {
            server: {
              describe: 'the planted in-process server',
              alive: () => server.alive(),
              ...(o.restart === false
                ? {}
                : {
                    restart: async () => {
                      server = await startFuzzServer(ws, plant);
                      all.push(server);
                      return { url: server.url, token: FUZZ_TOKEN };
                    },
                  }),
            },
          }
        : {}),
    });
    return { summary, out };
  } finally {
    for (const s of all) if (s.alive()) await s.close();
  }
}

/** The suite's verdict on each case in `dir`, run against a planted server (or the clean one). */
async function replay(dir: string, plant: Plant | undefined): Promise<Record<string, string>> {
  const server = await startFuzzServer(ws, plant);
  try {
    const cases = loadCases(dir);
    const s = await runAgainstServer({
      url: server.url,
      token: FUZZ_TOKEN,
      workspace: ws,
      cases,
      allIds: new Set(cases.map((c) => c.case.id)),
      settleTimeoutMs: 0,
    });
    return Object.fromEntries(s.results.map((r) => [r.id, r.verdict]));
  } finally {
    await server.close();
  }
}

const find = (s: Awaited<ReturnType<typeof fuzzPlanted>>['summary'], signature: string) => {
  const f = s.findings.find((x) => x.signature === signature);
  expect(
    f,
    JSON.stringify(s.findings.map((x) => `${x.signature}: ${x.problems[0]!.detail.slice(0, 200)}`)),
  ).toBeDefined();
  return f!;
};
const keys = (p: unknown) => Object.keys(p as object);

describe('two requests in flight with one requestId', () => {
  it('a server that answers a requestId two requests share twice: T41, a case that replays', async () => {
    const { summary, out } = await fuzzPlanted('duplicate-answered-twice', { topics: ['edit/find'] });
    const f = find(summary, '/app/vscode/edit/find duplicate-id extra-answer');
    expect(f.problems[0]).toMatchObject({ clause: 'T41' });
    expect(f).toMatchObject({ profile: 'core', level: 'must' });
    // shrunk to the same request twice, of one field
    expect(f.input.duplicate).toEqual({ other: null });
    expect(keys(f.input.params)).toEqual(['pattern']);
    expect(f.fixture).toMatchObject({ kind: 'exchange', spec: 'T41', since: '0.1.7' });
    expect((f.fixture.steps as unknown[]).at(-1)).toEqual({ expectSilence: 500 });
    expect(await replay(out, 'duplicate-answered-twice')).toEqual({ [f.fixture.id as string]: 'fail' });
    expect(await replay(out, undefined)).toEqual({ [f.fixture.id as string]: 'pass' });
  }, 30_000);

  it('a server that drops the second request with a requestId in flight: T2, a case that replays', async () => {
    const { summary, out } = await fuzzPlanted('duplicate-dropped', { topics: ['edit/find'] });
    const f = find(summary, '/app/vscode/edit/find duplicate-id unanswered');
    expect(f.problems[0]!.clause).toBe('T2');
    expect(f.problems[0]!.detail).toMatch(/1 answer\(s\) within 400 ms, 2 expected/);
    expect(f.input.duplicate).toEqual({ other: null });
    expect(keys(f.input.params)).toEqual(['pattern']);
    expect(await replay(out, 'duplicate-dropped')).toEqual({ [f.fixture.id as string]: 'fail' });
    expect(await replay(out, undefined)).toEqual({ [f.fixture.id as string]: 'pass' });
  }, 30_000);

  it('a server that refuses a reused requestId: the reading R9, a should; left out with --profile core,security', async () => {
    const { summary } = await fuzzPlanted('duplicate-refused', { topics: ['edit/find'] });
    const f = find(summary, '/app/vscode/edit/find duplicate-id reuse-refused');
    expect(f).toMatchObject({ profile: 'readings', level: 'should' });
    expect(f.problems[0]!.clause).toBe('R9');
    expect(summary.findings.filter((x) => x.level === 'must')).toEqual([]);
    const strict = await fuzzPlanted('duplicate-refused', {
      topics: ['edit/find'],
      runs: 200,
      frameLimit: false,
      profiles: ['core', 'security'],
    });
    expect(strict.summary.findings.map((x) => x.signature)).toEqual([]);
  }, 30_000);
});

describe('frames near the size bound', () => {
  it('a server process that dies on a frame just under its bound: found, restarted, shrunk to the bound itself', async () => {
    const { summary, out } = await fuzzPlanted('dies-near-limit', {
      topics: ['edit/find', 'nav/definition'],
      timeMs: 4000,
      watch: true,
      // megabyte frames parsed by a server in this busy worker's own event loop: 400 ms is too tight
      timeoutMs: 1500,
    });
    expect(summary.frameBound).toMatchObject({ under: MIB, over: MIB + 1, given: false });
    const f = find(summary, 'frame size:under died');
    expect(f.problems).toHaveLength(1); // the close and the canary it caused are not findings of their own
    expect(f.input).toEqual({
      topic: '/app/vscode/edit/find',
      params: { pattern: 'x' },
      size: { over: false, offset: 0 },
    });
    expect(f.bytes).toBe(MIB);
    // the last frames sent: the one that killed it last
    expect(f.problems[0]!.lastFrames!.at(-1)).toMatch(/^1,048,576 bytes: \{"topic":"\/app\/vscode\/edit\/find"/);
    expect(summary.restarts).toBeGreaterThan(0);
    // megabytes of padding are no case: the JSON report says why, nothing is written
    expect(f.fixture.note).toMatch(/JSON whitespace up to 1048576 bytes/);
    expect(existsSync(out)).toBe(false);
  }, 30_000);

  it('without a way to restart it, the run ends at the death, the finding as first seen', async () => {
    const t0 = Date.now();
    const { summary } = await fuzzPlanted('dies-near-limit', {
      topics: ['edit/find'],
      timeMs: 20_000,
      watch: true,
      restart: false,
    });
    const f = find(summary, 'frame size:under died');
    expect(f.shrinks).toBe(0);
    expect(summary.findings).toHaveLength(1);
    expect(Date.now() - t0).toBeLessThan(15_000);
  }, 30_000);

  it('a server process that dies while the bound is found: a died finding quoting the probe, relaunched, no frames near it', async () => {
    const { summary } = await fuzzPlanted('dies-on-big-frame', { topics: ['edit/find'], runs: 50, watch: true });
    const f = find(summary, 'frame size:over died');
    expect(f.path).toBe(''); // found before the trials
    // the last probe sent: the one over 512 KiB that killed it (bigger ones never reach it: ws closes them 1009)
    const last = f.problems[0]!.lastFrames!.at(-1)!;
    expect(last).toMatch(/^[\d,]+ bytes: \{"topic":"\/app\/vscode\/fuzz\/canary"/);
    const size = Number(last.split(' ')[0]!.replace(/,/g, ''));
    expect(size).toBeGreaterThan(512 * 1024);
    expect(size).toBeLessThanOrEqual(MIB);
    expect(summary.restarts).toBe(1);
    expect(summary.frameBound).toBeUndefined();
    expect(summary.trials).toBe(50); // the relaunched server was fuzzed on
    expect(summary.findings).toHaveLength(1);
  }, 30_000);

  it('a server that closes frames over its bound with 1011: H4, shrunk to one byte over, an oversize case that replays', async () => {
    const { summary, out } = await fuzzPlanted('oversize-wrong-close', { topics: ['edit/find'], frameLimit: MIB });
    const f = find(summary, 'frame size:over frame-limit');
    expect(f).toMatchObject({ profile: 'security', level: 'must', bytes: MIB + 1 });
    expect(f.problems[0]!.detail).toMatch(/closed with 1011, not 1009/);
    expect(f.input.size).toEqual({ over: true, offset: 0 });
    expect(f.fixture).toMatchObject({
      kind: 'transport',
      action: 'oversize-frame',
      bytes: MIB + 1,
      expectCloseCode: 1009,
    });
    expect(await replay(out, 'oversize-wrong-close')).toEqual({ [f.fixture.id as string]: 'fail' });
    expect(await replay(out, undefined)).toEqual({ [f.fixture.id as string]: 'pass' });
    // Not given the bound, the fuzzer finds it, and the 16 MiB probe already says what is wrong.
    const found = await fuzzPlanted('oversize-wrong-close', { topics: ['edit/find'], runs: 1 });
    expect(found.summary.frameBound).toMatchObject({ under: MIB, over: MIB + 1 });
    const g = find(found.summary, 'frame size:over frame-limit');
    expect(g.problems[0]!.detail).toMatch(/16,777,216 bytes \(16 MiB\) closed the connection with 1011/);
    expect(g.fixture).toMatchObject({ bytes: 16 * MIB });
  }, 30_000);
});

describe('events after the unsubscribe', () => {
  it('a server that sends an event after the unsubscribe is answered: T42, a plain exchange case that replays', async () => {
    const { summary, out } = await fuzzPlanted('events-after-unsubscribe', {
      topics: ['events/subscribe', 'edit/find'],
      timeMs: 4000,
      frameLimit: false,
    });
    const f = find(summary, '/app/vscode/events/subscribe late-event');
    expect(f.problems[0]!.clause).toBe('T42');
    expect(f.input.params).toEqual({ events: ['/app/vscode/files/changed'] });
    expect(f.input.subscription).toEqual({ editBefore: false, unsubscribe: {}, editAfter: false });
    expect(f.fixture).toMatchObject({ kind: 'exchange', spec: 'T42', workspace: 'any' });
    expect(JSON.stringify(f.fixture.steps)).not.toContain('"await"');
    expect(await replay(out, 'events-after-unsubscribe')).toEqual({ [f.fixture.id as string]: 'fail' });
    expect(await replay(out, undefined)).toEqual({ [f.fixture.id as string]: 'pass' });
  }, 30_000);

  it('a server that delivers events queued before the unsubscribe after it: T42, a case awaiting past the events', async () => {
    const { summary, out } = await fuzzPlanted('queued-events-after-unsubscribe', {
      topics: ['events/subscribe', 'edit/find'],
      timeMs: 4000,
      frameLimit: false,
    });
    const f = find(summary, '/app/vscode/events/subscribe late-event');
    // the edit before the unsubscribe is what it needs; the rest shrank away
    expect(f.input.subscription).toEqual({ editBefore: true, unsubscribe: {}, editAfter: false });
    expect(f.input.params).toEqual({ events: ['/app/vscode/files/changed'] });
    expect(f.fixture).toMatchObject({ kind: 'exchange', spec: 'T42', destructive: true, workspace: 'fresh' });
    expect(JSON.stringify(f.fixture.steps)).toContain('"await"');
    expect(await replay(out, 'queued-events-after-unsubscribe')).toEqual({ [f.fixture.id as string]: 'fail' });
    expect(await replay(out, undefined)).toEqual({ [f.fixture.id as string]: 'pass' });
  }, 30_000);

  it('a server that pushes an event to a connection subscribed to another: T31', async () => {
    const { summary } = await fuzzPlanted('events-ignore-names', {
      topics: ['events/subscribe', 'edit/find'],
      timeMs: 4000,
      frameLimit: false,
    });
    const f = find(summary, '/app/vscode/events/subscribe stray-event');
    expect(f.problems[0]!.clause).toBe('T31');
    expect(f.input.params).toEqual({ events: ['/app/vscode/diagnostics/changed'] });
  }, 30_000);
});
