// idea-conformance fuzz against planted in-test servers: each flaw found within a few seconds with a fixed
// seed and shrunk to a frame of a few fields, written as a fixture case the suite's loader accepts; a
// clean server yields no finding.
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { fuzz } from '../../conformance/fuzz/run';
import { loadCases } from '../../conformance/lib/load';
import { runAgainstServer } from '../../conformance/lib/session';
import { buildFixtureWorkspace } from '../../conformance/workspace';
import { FUZZ_TOKEN, type Plant, startFuzzServer } from './fuzz-servers';

let tmp: string;
let ws: string;

beforeAll(() => {
  tmp = mkdtempSync(join(tmpdir(), 'conformance-fuzz-'));
  ws = buildFixtureWorkspace(join(tmp, 'ws')).dir;
}, 60_000);
afterAll(() => rmSync(tmp, { recursive: true, force: true }));

const SEED = 31;

/** A planted flaw is searched for 4 s; a run compared or counted gets a number of trials instead (load must not change it). */
type Budget = { timeMs: number } | { runs: number };

async function fuzzPlanted(
  plant: Plant | undefined,
  topics: string[],
  out?: string,
  seed = SEED,
  budget: Budget = { timeMs: 4000 },
) {
  const server = await startFuzzServer(ws, plant);
  try {
    return await fuzz({
      url: server.url,
      token: FUZZ_TOKEN,
      workspace: ws,
      seed,
      ...budget,
      shrinkMs: 8000,
      timeoutMs: 400,
      topics: topics.map((t) => `/app/vscode/${t}`),
      ...(out ? { outDir: out } : {}),
    });
  } finally {
    await server.close();
  }
}

const keys = (p: unknown) => Object.keys(p as object);

describe('fuzz finds planted flaws and shrinks them', () => {
  it('a server that closes the connection on a 10,000-character pattern', async () => {
    const out = join(tmp, 'findings-crash');
    const s = await fuzzPlanted('crash-on-long-pattern', ['edit/find'], out);
    const f = s.findings.find((x) => x.signature === '/app/vscode/edit/find closed');
    expect(f, JSON.stringify(s.findings.map((x) => x.signature))).toBeDefined();
    const params = f!.input.params as { pattern: string };
    expect(keys(params)).toEqual(['pattern']);
    // shrunk to the threshold itself
    expect(params.pattern.length).toBe(10_000);
    // the case file is one the suite loads
    expect(f!.file && existsSync(f!.file)).toBe(true);
    const loaded = loadCases(out);
    expect(loaded.map((c) => c.case.id)).toContain(f!.fixture.id);
    expect(readFileSync(f!.file!, 'utf8')).toContain('"kind": "request"');
  }, 30_000);

  it('a server that answers line -1 in nav/definition locations', async () => {
    const s = await fuzzPlanted('negative-line', ['nav/definition']);
    const f = s.findings.find((x) => x.signature === '/app/vscode/nav/definition schema');
    expect(f, JSON.stringify(s.findings.map((x) => x.signature))).toBeDefined();
    expect(f!.problems[0]!.detail).toMatch(/line/);
    expect(f!.input.invalid).toBeUndefined();
    expect(keys(f!.input.params).sort()).toEqual(['character', 'filePath', 'line']);
    expect(f!.fixture.spec).toBe('T14');
  }, 30_000);

  it('a server that hangs on an empty include glob', async () => {
    const s = await fuzzPlanted('hang-on-empty-glob', ['edit/find']);
    const f = s.findings.find((x) => x.signature === '/app/vscode/edit/find timeout');
    expect(f, JSON.stringify(s.findings.map((x) => x.signature))).toBeDefined();
    const params = f!.input.params as Record<string, unknown>;
    expect(params.include).toBe('');
    expect(keys(params).length).toBeLessThanOrEqual(2);
  }, 30_000);

  it('a server whose edit/replace writes on invalid params', async () => {
    const s = await fuzzPlanted('write-on-invalid', ['edit/replace']);
    const f = s.findings.find((x) => x.signature === '/app/vscode/edit/replace wrote');
    expect(f, JSON.stringify(s.findings.map((x) => x.signature))).toBeDefined();
    expect(f!.input.invalid).toBeDefined();
    // at most the two required fields and the broken one
    expect(keys(f!.input.params).length).toBeLessThanOrEqual(3);
    expect(f!.fixture.destructive).toBe(true);
    // the reset after each write put the workspace back
    expect(existsSync(join(ws, 'fuzz-wrote.txt'))).toBe(false);
  }, 30_000);
});

describe('fuzz findings say what their shrunk input is', () => {
  it('a server that never answers edit/find with an exclude: invalid params that time out stay invalid', async () => {
    const out = join(tmp, 'findings-kind');
    // Seed 6 first fails with `exclude: null` (type broken): once shrunk to valid params, which time out as
    // well, the case read "Valid params", expecting a result or any listed error, of what was found invalid.
    const s = await fuzzPlanted('hang-on-exclude', ['edit/find'], out, 6);
    const f = s.findings.find((x) => x.signature === '/app/vscode/edit/find timeout');
    expect(f, JSON.stringify(s.findings.map((x) => x.signature))).toBeDefined();
    expect(f!.original.invalid).toEqual({ field: 'exclude', rule: 'type' });
    expect(f!.shrinks).toBeGreaterThan(0);
    expect(f!.input.invalid).toEqual({ field: 'exclude', rule: 'type' });
    expect(f!.problems[0]!.oracle).toBe('timeout');
    expect(keys(f!.input.params).sort()).toEqual(['exclude', 'pattern']);
    expect(f!.fixture).toMatchObject({
      description: expect.stringMatching(
        /^Params breaking type of exclude: found by idea-conformance fuzz \(seed 6; timeout: /,
      ),
      spec: 'T8',
      request: { topic: '/app/vscode/edit/find', params: f!.input.params },
      expect: { error: { code: 'INVALID_REQUEST' } },
    });
    // The case holds the finding: it fails on the planted server (no answer) and passes on a clean one.
    const cases = loadCases(out).filter((c) => c.case.id === f!.fixture.id);
    expect(cases).toHaveLength(1);
    const replay = async (plant?: Plant) => {
      const server = await startFuzzServer(ws, plant);
      try {
        const r = await runAgainstServer({
          url: server.url,
          token: FUZZ_TOKEN,
          workspace: ws,
          cases,
          settleTimeoutMs: 0,
        });
        return r.results.map((x) => `${x.verdict}${x.reason ? `: ${x.reason}` : ''}`);
      } finally {
        await server.close();
      }
    };
    expect(await replay('hang-on-exclude')).toEqual([expect.stringMatching(/^fail: response failed/)]);
    expect(await replay()).toEqual(['pass']);
  }, 60_000);
});

describe('fuzz finds malformed-frame flaws', () => {
  it('a server that answers a request without requestId with a result', async () => {
    const out = join(tmp, 'findings-frame');
    const s = await fuzzPlanted('result-on-missing-request-id', ['edit/find'], out);
    const f = s.findings.find((x) => x.input.frame?.rule === 'requestId-missing');
    expect(f, JSON.stringify(s.findings.map((x) => x.signature))).toBeDefined();
    expect(['schema', 'accepted-invalid']).toContain(f!.problems[0]!.oracle);
    expect(keys(f!.input.params).length).toBeLessThanOrEqual(1);
    // written as an exchange case the suite loads: the frame without requestId, INVALID_REQUEST expected
    expect(f!.fixture.kind).toBe('exchange');
    expect(f!.fixture.spec).toBe('T8');
    const steps = f!.fixture.steps as [{ send: Record<string, unknown> }, { expect: { error: { code: string } } }];
    expect('requestId' in steps[0].send).toBe(false);
    expect(steps[1].expect.error.code).toBe('INVALID_REQUEST');
    expect(loadCases(out).map((c) => c.case.id)).toContain(f!.fixture.id);
  }, 30_000);

  it('a server that closes the connection on params: null', async () => {
    const s = await fuzzPlanted('close-on-null-params', ['edit/find']);
    const f = s.findings.find((x) => x.problems[0]!.oracle === 'closed');
    expect(f, JSON.stringify(s.findings.map((x) => x.signature))).toBeDefined();
    expect(f!.input.params).toBeNull();
  }, 30_000);
});

describe('fuzz finds event-subscription flaws', () => {
  it('a server whose files/changed event data misses a required field', async () => {
    const s = await fuzzPlanted('event-missing-field', ['events/subscribe', 'edit/replace']);
    const f = s.findings.find((x) => x.signature === '/app/vscode/events/subscribe event-schema');
    expect(f, JSON.stringify(s.findings.map((x) => x.signature))).toBeDefined();
    expect(f!.problems[0]!.detail).toMatch(/change/);
    expect(f!.input.params).toEqual({ events: ['/app/vscode/files/changed'] });
    expect(f!.file).toBeUndefined();
  }, 30_000);

  it('a server that keeps sending events after unsubscribe', async () => {
    const s = await fuzzPlanted('events-after-unsubscribe', ['events/subscribe', 'edit/find']);
    const f = s.findings.find((x) => x.signature === '/app/vscode/events/subscribe late-event');
    expect(f, JSON.stringify(s.findings.map((x) => x.signature))).toBeDefined();
    expect(f!.input.params).toEqual({ events: ['/app/vscode/files/changed'] });
  }, 30_000);
});

describe('fuzz against a clean server', () => {
  it('finds nothing, on every topic it serves, and writes no case', async () => {
    const out = join(tmp, 'findings-clean');
    const s = await fuzzPlanted(
      undefined,
      ['edit/find', 'edit/replace', 'nav/definition', 'fs/findFiles', 'events/subscribe'],
      out,
      SEED,
      { runs: 30 },
    );
    expect(s.findings.map((f) => `${f.signature}: ${f.problems[0]!.detail} ${JSON.stringify(f.input)}`)).toEqual([]);
    expect(s.trials).toBe(30);
    expect(s.topics).toHaveLength(4);
    // the frame bound found to the byte (ws's default maxPayload), so frames near it were sent too
    expect(s.frameBound).toMatchObject({ under: 1024 * 1024, over: 1024 * 1024 + 1, given: false });
    expect(existsSync(out) ? readdirSync(out) : []).toEqual([]);
  }, 30_000);

  it('is reproducible: the same seed gives the same shrunk finding', async () => {
    const a = await fuzzPlanted('negative-line', ['nav/definition'], undefined, 7, { runs: 100 });
    const b = await fuzzPlanted('negative-line', ['nav/definition'], undefined, 7, { runs: 100 });
    expect(a.findings.length).toBeGreaterThan(0);
    expect(a.findings.map((f) => f.input)).toEqual(b.findings.map((f) => f.input));
  }, 30_000);
});
