import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadCases } from '../../conformance/lib/load';
import { selectCases } from '../../conformance/lib/select';
import { runAgainstServer } from '../../conformance/lib/session';
import type { RunSummary } from '../../conformance/reporters/types';
import { buildFixtureWorkspace } from '../../conformance/workspace';
import { type Flaws, IN_TEST_SELECTION, startInTestServer, TEST_TOKEN } from './in-test-server';

const all = loadCases();
const cases = selectCases(all, { ids: IN_TEST_SELECTION });
let tmp: string;
let ws: string;

beforeAll(() => {
  tmp = mkdtempSync(join(tmpdir(), 'conformance-runner-'));
  ws = buildFixtureWorkspace(join(tmp, 'ws')).dir;
});
afterAll(() => rmSync(tmp, { recursive: true, force: true }));

async function runWith(flaws: Flaws, expectedFailures?: Map<string, string>): Promise<RunSummary> {
  const server = await startInTestServer(ws, flaws);
  try {
    return await runAgainstServer({
      url: server.url,
      token: TEST_TOKEN,
      workspace: ws,
      cases,
      expectedFailures,
      allIds: new Set(all.map((c) => c.case.id)),
    });
  } finally {
    await server.close();
  }
}

const byId = (s: RunSummary, id: string) => {
  const r = s.results.find((x) => x.id === id);
  if (!r) throw new Error(`no result for ${id}`);
  return r;
};
const detail = (s: RunSummary, id: string) =>
  byId(s, id)
    .checks.filter((c) => !c.ok)
    .map((c) => c.detail ?? '')
    .join('\n');

describe('runner against a correct in-test server', () => {
  it('passes every selected case', async () => {
    expect(cases.length).toBeGreaterThan(40);
    const s = await runWith({});
    // The in-test server speaks v0.1.6: cases of newer versions are not applicable to it.
    const newer = (r: { verdict: string; reason?: string }) =>
      r.verdict === 'skip' && /^not applicable: since /.test(r.reason ?? '');
    const bad = s.results.filter(
      (r) => r.verdict !== 'pass' && !(r.id === 'security/loopback-only' && r.verdict === 'skip') && !newer(r),
    );
    expect(
      bad.map(
        (r) =>
          `${r.id}: ${r.reason}\n${r.checks
            .filter((c) => !c.ok)
            .map((c) => c.detail)
            .join('\n')}`,
      ),
    ).toEqual([]);
    expect(s.ok).toBe(true);
    // every case validated the frames it received against the spec schemas
    expect(
      s.results.filter((r) => r.verdict === 'pass').every((r) => r.checks.some((c) => c.name === 'schema' && c.ok)),
    ).toBe(true);
  });
});

describe('runner against deliberately wrong in-test servers', () => {
  it('an off-by-one history index fails exactly the cases that look at indices, with a readable diff', async () => {
    const s = await runWith({ historyIndexOffByOne: true });
    expect(s.ok).toBe(false);
    const failed = s.results
      .filter((r) => r.verdict === 'fail')
      .map((r) => r.id)
      .sort();
    // many-in-flight sends history/list too: its schema check sees index 0 (minimum 1)
    expect(failed).toEqual(
      [
        'history-list/absolute-path',
        'history-list/file-history',
        'history-list/max-count',
        'history-list/name-with-space',
        'history-list/readme',
        'history-list/uncommitted-file',
        'protocol/many-in-flight',
      ].sort(),
    );
    const d = detail(s, 'history-list/file-history');
    expect(d).toContain('$.result.entries[0].index: expected 1, got 0');
    expect(d).toContain('-        "index": 1,');
    expect(d).toContain('+        "index": 0,');
    expect(d).not.toMatch(/^[-+].*"hash"/m); // hashes matched: not part of the diff
    // the flaw also makes the index schema-invalid (minimum 1): reported as its own check
    expect(byId(s, 'history-list/file-history').checks.find((c) => c.name === 'schema')?.ok).toBe(false);
    expect(byId(s, 'history-list/missing-filepath').verdict).toBe('pass');
  });

  it('a missing result field is caught by the schema check even where the match rules do not look', async () => {
    const s = await runWith({ findFilesWithoutRelativePath: true });
    // many-in-flight only matches topic and requestId; one of its requests goes to fs/findFiles
    const r = byId(s, 'protocol/many-in-flight');
    expect(r.checks.find((c) => c.name.startsWith('step['))?.ok).toBe(true);
    expect(r.checks.find((c) => c.name === 'schema')?.detail).toContain('relativePath');
    expect(r.verdict).toBe('fail');
    expect(detail(s, 'fs-findfiles/by-name')).toContain('$.result.files: no element matches expected[0]');
    expect(byId(s, 'fs-findfiles/no-match').verdict).toBe('pass');
  });

  it('a wrong error code fails the security cases with the expected and actual codes in the diff', async () => {
    const s = await runWith({ escapeIsHandlerError: true });
    const d = detail(s, 'security/path-escape-history-list');
    expect(d).toContain('$.error.code: expected "INVALID_REQUEST", got "HANDLER_ERROR"');
    expect(d).toContain('-    "code": "INVALID_REQUEST",');
    expect(d).toContain('+    "code": "HANDLER_ERROR",');
    expect(byId(s, 'security/path-escape-dotdot-inside').verdict).toBe('fail');
  });

  it('a server without a bound on requests in flight fails the in-flight case, saying none was refused', async () => {
    const s = await runWith({ noInFlightBound: true });
    expect(byId(s, 'security/in-flight-bound').verdict).toBe('fail');
    expect(detail(s, 'security/in-flight-bound')).toContain(
      'none of 1500, then 3000, then 6000 requests sent at once was refused as over a bound on requests in flight',
    );
  });

  it('a server that keeps up with the first flood is flooded again, harder, until some requests are over its bound', async () => {
    // A bound of 2,000: the case's 1,500 never exceed it, as with a server answering as fast as they arrive.
    const s = await runWith({ maxInFlight: 2000 });
    const r = byId(s, 'security/in-flight-bound');
    expect(r.verdict).toBe('pass');
    expect(r.sent).toContain('1500, then 3000 /app/vscode/nav/definition requests at once');
  });

  it('expected failures turn failures into non-failing verdicts, and a listed case that passes is stale', async () => {
    const listed = new Map([
      ['security/path-escape-history-list', 'known'],
      ['security/path-escape-dotdot-inside', 'known'],
    ]);
    const s1 = await runWith({ escapeIsHandlerError: true }, listed);
    expect(byId(s1, 'security/path-escape-history-list').expectedFailure).toBe(true);
    expect(s1.stale).toEqual([]);
    expect(s1.ok).toBe(true);
    const s2 = await runWith({}, new Map([...listed, ['no-such/case', 'typo']]));
    expect(s2.stale).toEqual([
      'security/path-escape-history-list: listed as an expected failure but passes',
      'security/path-escape-dotdot-inside: listed as an expected failure but passes',
      'no-such/case: listed as an expected failure but no such case exists',
    ]);
    expect(s2.ok).toBe(false);
  });
});
