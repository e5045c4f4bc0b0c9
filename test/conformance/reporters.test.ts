import { createRequire } from 'node:module';
import { describe, expect, it } from 'vitest';
import { PROTOCOL_MD } from '../../conformance/lib/clauses';
import type { CaseResult } from '../../conformance/lib/types';
import { ConsoleReporter } from '../../conformance/reporters/console';
import { DEFAULT_FIXTURES_SHOWN } from '../../conformance/reporters/context';
import { annotationFor, escapeData } from '../../conformance/reporters/github';
import { summaryToJson } from '../../conformance/reporters/json';
import { summaryToJUnit } from '../../conformance/reporters/junit';
import { summaryToMarkdown } from '../../conformance/reporters/markdown';
import type { RunSummary } from '../../conformance/reporters/types';

// sax (strict mode) is in the tree through @vscode/vsce → xml2js; used only to prove well-formedness.
const sax = createRequire(import.meta.url)('sax') as {
  parser(strict: boolean): {
    onerror: (e: Error) => void;
    onopentag: (t: { name: string; attributes: Record<string, string> }) => void;
    write(s: string): { close(): void };
  };
};

const diff =
  '  • $.error.code: expected "INVALID_REQUEST", got "HANDLER_ERROR"\n--- expected response\n+++ actual response\n@@ -1 +1 @@\n-"code": "INVALID_REQUEST"\n+"code": "HANDLER_ERROR"';
const results: CaseResult[] = [
  {
    id: 'history-list/file-history',
    description: 'What history-list/file-history checks.',
    clause: 'T18',
    profile: 'core',
    level: 'must',
    file: 'history-list/file-history.json',
    topic: '/app/vscode/history/list',
    verdict: 'pass',
    checks: [
      { name: 'response', ok: true },
      { name: 'schema', ok: true },
    ],
    durationMs: 12,
    frames: 2,
  },
  {
    id: 'security/path-escape-history-list',
    description: 'What security/path-escape-history-list checks.',
    clause: 'H5',
    profile: 'security',
    level: 'must',
    file: 'security/path-escape-history-list.json',
    topic: '/app/vscode/history/list',
    verdict: 'fail',
    reason: 'response failed',
    checks: [
      { name: 'response', ok: false, detail: diff },
      { name: 'schema', ok: true },
    ],
    durationMs: 30,
    frames: 2,
  },
  {
    id: 'protocol/second-handshake',
    description: 'What protocol/second-handshake checks.',
    clause: 'R9',
    profile: 'readings',
    level: 'should',
    file: 'protocol/second-handshake.json',
    verdict: 'warn',
    reason: 'step[1] failed <&>',
    checks: [{ name: 'step[1]', ok: false, detail: 'control \u0001 char & "quotes"' }],
    durationMs: 5,
    frames: 3,
  },
  {
    id: 'nav-symbols/relative-path',
    description: 'What nav-symbols/relative-path checks.',
    clause: 'T11',
    profile: 'core',
    level: 'must',
    file: 'nav-symbols/relative-path.json',
    verdict: 'skip',
    reason: 'not applicable: since 0.1.2',
    checks: [],
    durationMs: 0,
    frames: 0,
  },
  {
    id: 'localhistory-list/no-history',
    description: 'What localhistory-list/no-history checks.',
    clause: 'T22',
    profile: 'core',
    level: 'must',
    file: 'localhistory-list/no-history.json',
    verdict: 'unimplemented',
    reason: 'not in capabilities',
    checks: [],
    durationMs: 0,
    frames: 0,
  },
  {
    id: 'edit-find/no-match',
    description: 'What edit-find/no-match checks.',
    clause: 'T12',
    profile: 'core',
    level: 'must',
    file: 'edit-find/no-match.json',
    verdict: 'fail',
    expectedFailure: true,
    reason: 'expected failure (known)',
    checks: [{ name: 'response', ok: false, detail: 'x' }],
    durationMs: 3,
    frames: 2,
  },
];
const summary: RunSummary = {
  url: 'ws://127.0.0.1:7200',
  server: { version: '0.1.6', authRequired: true, capabilities: ['/app/vscode/history/list'], workspaces: ['/w'] },
  results,
  counts: { pass: 1, fail: 2, warn: 1, error: 0, skip: 1, unimplemented: 1 },
  stale: ['x/y: listed as an expected failure but passes'],
  ok: false,
  durationMs: 1234,
  startedAt: '2026-03-02T00:00:00.000Z',
  version: '0.1.6',
  versionSource: 'announced',
  profiles: ['core', 'readings', 'security'],
  byProfile: {},
  warnings: [],
  scope: { served: ['/app/vscode/history/list'], known: 13 },
};

describe('JUnit reporter', () => {
  it('writes well-formed XML with the right counts', () => {
    const xml = summaryToJUnit(summary);
    const suites: Record<string, string>[] = [];
    let testcases = 0;
    const p = sax.parser(true);
    p.onerror = (e) => {
      throw e;
    };
    p.onopentag = (t) => {
      if (t.name === 'testsuite') suites.push(t.attributes);
      if (t.name === 'testcase') testcases++;
    };
    p.write(xml).close();
    expect(testcases).toBe(results.length + summary.stale.length);
    // fail + stale are failures; skip, unimplemented (no topic required) and the expected failure are skipped
    expect(xml).toMatch(/<testsuites name="idea-conformance" tests="7" failures="2" errors="0" skipped="3"/);
    expect(xml).toContain('<skipped message="unimplemented: not in capabilities"/>');
    expect(xml).toContain(`clause H5 (hardening: Path confinement), security profile, must: ${PROTOCOL_MD}#clause-h5`);
    expect(suites.find((s) => s.name === 'security')).toMatchObject({ tests: '1', failures: '1' });
    expect(suites.find((s) => s.name === 'edit-find')).toMatchObject({ failures: '0', skipped: '1' }); // expected failure
    expect(xml).toContain('&lt;&amp;&gt;');
    expect(xml).not.toContain('\u0001');
  });
});

describe('JSON reporter', () => {
  it('has the documented shape', () => {
    const j = JSON.parse(JSON.stringify(summaryToJson(summary))) as Record<string, unknown>;
    expect(Object.keys(j)).toEqual([
      'tool',
      'startedAt',
      'durationMs',
      'url',
      'server',
      'version',
      'versionSource',
      'profiles',
      'scope',
      'ok',
      'counts',
      'byProfile',
      'warnings',
      'stale',
      'cases',
    ]);
    const cases = j.cases as Record<string, unknown>[];
    expect(cases).toHaveLength(results.length);
    expect(cases[1]).toMatchObject({
      id: 'security/path-escape-history-list',
      clause: 'H5',
      clauseLink: `${PROTOCOL_MD}#clause-h5`,
      profile: 'security',
      verdict: 'fail',
      checks: [
        { name: 'response', ok: false },
        { name: 'schema', ok: true },
      ],
    });
    expect(cases[5]).toMatchObject({ expectedFailure: true });
    expect(j.counts).toEqual(summary.counts);
  });
});

describe('GitHub annotations', () => {
  it('annotates failures on the fixture file, escapes newlines, and skips passes and expected failures', () => {
    const a = annotationFor(results[1]!, 'conformance/fixtures/v0.1.6')!;
    expect(
      a.startsWith(
        '::error file=conformance/fixtures/v0.1.6/security/path-escape-history-list.json,title=fail%3A security/path-escape-history-list::',
      ),
    ).toBe(true);
    expect(a).not.toContain('\n');
    expect(a).toContain(escapeData('\n+"code": "HANDLER_ERROR"'));
    expect(annotationFor(results[2]!, 'f')!.startsWith('::warning ')).toBe(true);
    expect(annotationFor(results[0]!, 'f')).toBeNull();
    expect(annotationFor(results[5]!, 'f')).toBeNull();
  });
});

describe('Markdown and console reporters', () => {
  it('summarise verdicts and show diffs', () => {
    const md = summaryToMarkdown(summary);
    expect(md).toContain('## IDEA conformance: not conformant ❌');
    expect(md).toContain('| **all** | 1 | 2 | 1 | 0 | 1 | 1 |');
    expect(md).toContain('not conformant on 1 of 13 topics (core, readings, security)');
    expect(md).toContain(`[${PROTOCOL_MD}#clause-h5](${PROTOCOL_MD}#clause-h5)`);
    expect(md).toContain('+"code": "HANDLER_ERROR"');
    let out = '';
    const stream = {
      write: (s: string) => {
        out += s;
        return true;
      },
      isTTY: false,
    } as unknown as NodeJS.WritableStream;
    const c = new ConsoleReporter({ stream, color: false });
    c.onRunStart({
      url: summary.url,
      server: summary.server,
      total: results.length,
      version: '0.1.6',
      versionSource: 'announced',
      profiles: summary.profiles,
      warnings: [],
    });
    for (const r of results) c.onCaseEnd(r);
    c.onRunEnd(summary);
    expect(out).toContain('FAIL          security/path-escape-history-list');
    expect(out).toContain('+"code": "HANDLER_ERROR"');
    expect(out).not.toContain('history-list/file-history'); // passes are quiet
    expect(out).toContain('STALE');
    expect(out).toContain('NOT CONFORMANT: not conformant on 1 of 13 topics (core, readings, security)');
    expect(out).toContain(`fixture: ${DEFAULT_FIXTURES_SHOWN}/security/path-escape-history-list.json`);
    expect(out).not.toContain('localhistory-list/no-history'); // unimplemented, no topic required: scope, not a finding
  });
});

describe('reporter registry (--reporter name[:path])', () => {
  it('builds each known reporter by name (file reporters default to the current directory) and refuses unknown names', async () => {
    const {
      createReporter,
      REPORTER_NAMES,
      ConsoleReporter: C,
      JUnitReporter,
    } = await import('../../conformance/reporters');
    expect(REPORTER_NAMES).toEqual(['console', 'json', 'junit', 'github', 'html', 'markdown']);
    expect(createReporter('console')).toBeInstanceOf(C);
    expect(createReporter('junit:out.xml')).toBeInstanceOf(JUnitReporter);
    expect(createReporter('junit')).toMatchObject({ path: 'conformance.xml' });
    expect(() => createReporter('tap')).toThrow(
      /unknown reporter "tap" \(known: console, json, junit, github, html, markdown\)/,
    );
    expect(createReporter('html')).toMatchObject({ path: 'conformance.html' });
    expect(() => createReporter('__proto__')).toThrow(/unknown reporter/);
    expect(() => createReporter('toString:x')).toThrow(/unknown reporter/);
  });
});
