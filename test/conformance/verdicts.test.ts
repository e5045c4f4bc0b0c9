// Each verdict rule proven against an in-process server built to trip it: applicability from
// capabilities, the version a server actually speaks, either code where the text allows both (R7),
// and setup failures as errors rather than a cascade of failures.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadCases } from '../../conformance/lib/load';
import { selectCases } from '../../conformance/lib/select';
import { type ExistingServerOptions, runAgainstServer } from '../../conformance/lib/session';
import { summaryToJUnit } from '../../conformance/reporters/junit';
import type { RunSummary } from '../../conformance/reporters/types';
import { buildFixtureWorkspace } from '../../conformance/workspace';
import { CURRENT_VERSION } from '../../generated/current';
import {
  type Flaws,
  IN_TEST_SELECTION,
  type InTestServerOptions,
  startInTestServer,
  TEST_TOKEN,
} from './in-test-server';

const all = loadCases();
const allIds = new Set(all.map((c) => c.case.id));
let tmp: string;
let ws: string;
beforeAll(() => {
  tmp = mkdtempSync(join(tmpdir(), 'conformance-verdicts-'));
  ws = buildFixtureWorkspace(join(tmp, 'ws')).dir;
});
afterAll(() => rmSync(tmp, { recursive: true, force: true }));

async function runWith(
  flaws: Flaws,
  opts: InTestServerOptions,
  cases = all,
  extra: Partial<ExistingServerOptions> = {},
): Promise<RunSummary> {
  const server = await startInTestServer(ws, flaws, opts);
  try {
    return await runAgainstServer({ url: server.url, token: TEST_TOKEN, workspace: ws, cases, allIds, ...extra });
  } finally {
    await server.close();
  }
}

const verdictOf = (s: RunSummary, id: string) => s.results.find((r) => r.id === id)?.verdict;
const notOk = (s: RunSummary) =>
  s.results
    .filter((r) => r.verdict === 'fail' || r.verdict === 'error')
    .map(
      (r) =>
        `${r.verdict} ${r.id}: ${r.reason}\n${r.checks
          .filter((c) => !c.ok)
          .map((c) => c.detail)
          .join('\n')}`,
    );

describe('applicability from capabilities', () => {
  it('a server serving 2 of the 13 topics: no failure, the rest unimplemented (skipped in JUnit), conformant on its scope', {
    timeout: 60_000,
  }, async () => {
    const s = await runWith({}, { only: ['historyList', 'fsFindFiles'] });
    expect(notOk(s)).toEqual([]);
    expect(s.ok).toBe(true);
    expect(s.scope).toEqual({ served: ['/app/vscode/history/list', '/app/vscode/fs/findFiles'], known: 13 });
    // envelope, id and ordering cases pick an advertised topic, so they run on any server
    for (const id of [
      'protocol/handshake-success',
      'protocol/many-in-flight',
      'protocol/error-echoes-ids',
      'protocol/missing-request-id',
    ])
      expect(verdictOf(s, id), id).toBe('pass');
    expect(verdictOf(s, 'edit-find/no-match')).toBe('unimplemented');
    expect(s.results.find((r) => r.id === 'localhistory-diff/current-vs-entry')?.missingTopics).toEqual([
      '/app/vscode/localhistory/diff',
      '/app/vscode/edit/replace',
      '/app/vscode/localhistory/list',
    ]);
    expect(s.counts.unimplemented).toBeGreaterThan(100);
    const xml = summaryToJUnit(s);
    expect(xml).toMatch(/<testsuites name="idea-conformance" tests="\d+" failures="0" errors="0"/);
    expect(xml).toContain(
      '<skipped message="unimplemented: /app/vscode/edit/find is not in the server&apos;s capabilities"/>',
    );
  });

  it('--require-topics turns a missing required topic into a failure', { timeout: 30_000 }, async () => {
    const cases = selectCases(all, { ids: ['edit-find/no-match', 'history-list/readme'] });
    const s = await runWith({}, { only: ['historyList'] }, cases, { requireTopics: ['/app/vscode/edit/find'] });
    expect(s.results.find((r) => r.id === 'edit-find/no-match')).toMatchObject({
      verdict: 'unimplemented',
      required: true,
    });
    expect(s.ok).toBe(false);
    expect(summaryToJUnit(s)).toContain('failures="1"');
  });
});

describe('version claims', () => {
  const cases = () => selectCases(all, { ids: IN_TEST_SELECTION });

  it('a server announcing 0.1.3 but serving all 13 topics: exactly the version-claim check fails, once, and every case runs', {
    timeout: 60_000,
  }, async () => {
    const s = await runWith({}, { version: '0.1.3' }, cases());
    expect(s.version).toBe('0.1.6');
    expect(s.versionSource).toBe('topics');
    // Every case of the spoken version runs (cases of newer versions are not applicable to it).
    const newer = (r: { reason?: string }) => /^not applicable: since /.test(r.reason ?? '');
    expect(s.results.filter((r) => r.verdict === 'skip' && r.id !== 'security/loopback-only' && !newer(r))).toEqual([]);
    expect(notOk(s).map((l) => l.split(':')[0])).toEqual(['fail protocol/handshake-version-claim']);
    const claim = s.results.find((r) => r.id === 'protocol/handshake-version-claim')!;
    expect(claim.checks.filter((c) => !c.ok).map((c) => c.detail)).toEqual([
      expect.stringMatching(
        /^the handshake announces 0\.1\.3, but the server serves .*\/app\/vscode\/history\/list \(since 0\.1\.4\).*it speaks at least 0\.1\.6/,
      ),
    ]);
    // frames of topics newer than the announced version are held to the version spoken: no schema noise
    expect(s.results.flatMap((r) => r.checks).filter((c) => c.name === 'schema' && !c.ok)).toEqual([]);
  });

  it('--assume-version applies cases by the version given', { timeout: 30_000 }, async () => {
    const s = await runWith(
      {},
      { version: '0.1.3' },
      selectCases(all, { ids: ['history-list/readme', 'protocol/unknown-topic'] }),
      { assumeVersion: '0.1.3' },
    );
    expect(s.versionSource).toBe('assumed');
    expect(verdictOf(s, 'history-list/readme')).toBe('skip');
    expect(verdictOf(s, 'protocol/unknown-topic')).toBe('pass');
  });
});

describe('levels', () => {
  it('HANDLER_ERROR where the text allows either code (R7) passes at must with a should warning; where the text says INVALID_REQUEST it fails', {
    timeout: 30_000,
  }, async () => {
    const ids = [
      'history-list/max-count-zero',
      'fs-findfiles/max-results-zero',
      'fs-findfiles/empty-query',
      'history-list/missing-filepath',
    ];
    const s = await runWith({ invalidRequestAsHandlerError: true }, {}, selectCases(all, { ids }));
    for (const id of ids.slice(0, 3)) {
      const r = s.results.find((x) => x.id === id)!;
      expect(r.verdict, id).toBe('warn');
      expect(r.checks.filter((c) => !c.ok)).toEqual([
        expect.objectContaining({ name: 'preference (R7)', level: 'should', clause: 'R7' }),
      ]);
    }
    expect(verdictOf(s, 'history-list/missing-filepath')).toBe('fail');
  });

  it('without the readings profile the preference is not judged', { timeout: 30_000 }, async () => {
    const s = await runWith(
      { invalidRequestAsHandlerError: true },
      {},
      selectCases(all, { ids: ['history-list/max-count-zero'] }),
      { profiles: ['core'] },
    );
    expect(verdictOf(s, 'history-list/max-count-zero')).toBe('pass');
    expect(Object.keys(s.byProfile)).toEqual(['core']);
  });
});

describe('errors are not failures', () => {
  it('a broken setup step makes the case an error naming the step, its own checks unjudged; the broken topic fails its own cases only', {
    timeout: 90_000,
  }, async () => {
    // every topic advertised, but edit/replace (the local-history cases' setup) fails
    const ids = [
      'edit-replace/literal',
      'localhistory-diff/current-vs-entry',
      'localhistory-rollback/to-older-entry',
      'localhistory-list/entry-after-save',
    ];
    const s = await runWith({}, {}, selectCases(all, { ids }));
    expect(verdictOf(s, 'edit-replace/literal')).toBe('fail');
    for (const id of ids.slice(1)) {
      const r = s.results.find((x) => x.id === id)!;
      expect(r.verdict, id).toBe('error');
      expect(r.reason).toMatch(/^setup\[0\] \(\/app\/vscode\/edit\/replace\) failed: /);
      expect(r.checks).toHaveLength(1);
    }
    expect(summaryToJUnit(s)).toMatch(/<testsuites [^>]* failures="1" errors="3"/);
    expect(s.ok).toBe(false);
  });
});

describe('the version spoken', () => {
  it("is the newest of the announced version and its topics' versions; an announcement that is no version says nothing", async () => {
    const { spokenVersion } = await import('../../conformance/lib/topics');
    expect(spokenVersion('0.1.3', ['/app/vscode/edit/find', '/app/vscode/history/list'])).toEqual({
      version: '0.1.4',
      newestTopic: { topic: '/app/vscode/history/list', since: '0.1.4' },
    });
    expect(spokenVersion('0.1.6', ['/app/vscode/edit/find'])).toEqual({ version: '0.1.6' });
    expect(spokenVersion('9.9.9', [])).toEqual({ version: '9.9.9' });
    expect(spokenVersion('banana', []).version).toBe(CURRENT_VERSION);
  });
});
