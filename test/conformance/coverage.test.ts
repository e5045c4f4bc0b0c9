// Clause coverage (issue 32): every clause of every protocol version not yet released is checked by a
// fixture case or named in conformance/clause-tests.json by a test file that exists and carries its
// `// clause <id>` marker, so a rename or a deletion fails here. Then the pieces: lib/coverage.ts, the
// named-test checks, `idea-conformance coverage` (in a clone and as the package), and the reports' section.
import { execFile, spawnSync } from 'node:child_process';
import { cpSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { promisify } from 'node:util';
import { readReleases } from '@idea-kit/spec-lib/releases';
import { specVersions } from '@idea-kit/spec-lib/spec';
import { compareVersions } from '@idea-kit/spec-lib/version';
import { build } from 'esbuild';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SCENARIOS } from '../../conformance/client/scenarios';
import { coverageCli } from '../../conformance/coverage-cli';
import {
  CLAUSE_TESTS,
  hasMarker,
  namedTestChecker,
  namedTestsFor,
  parseClauseTests,
} from '../../conformance/lib/clause-tests';
import { clausesOf } from '../../conformance/lib/clauses';
import {
  type CaseOutcome,
  citingOfLoaded,
  citingOfScenario,
  clauseCoverage,
  coverageCounts,
  outcomesOfReport,
  testProblems,
} from '../../conformance/lib/coverage';
import { fixturesFor, loadCases } from '../../conformance/lib/load';
import type { CaseResult } from '../../conformance/lib/types';
import { summaryToHtml } from '../../conformance/reporters/html';
import { summaryToMarkdown } from '../../conformance/reporters/markdown';
import type { RunSummary } from '../../conformance/reporters/types';
import { CURRENT_VERSION } from '../../generated/current';
import { esbuildOptions, TARGETS } from '../../scripts/build';

const ROOT = resolve(import.meta.dirname, '../..');
const SPEC = join(ROOT, 'spec');

/**
 * Versions whose clauses must all be covered: the served one (released or not: it is what the suite
 * judges servers by) and every unreleased one with clauses (a draft in progress).
 */
function checkedVersions(): string[] {
  const released = new Set(readReleases(SPEC).releases.map((r) => r.version));
  return specVersions(SPEC).filter((v) => (v === CURRENT_VERSION || !released.has(v)) && clausesOf(v, ROOT).length > 0);
}

function coverageOf(version: string) {
  const cases = loadCases(fixturesFor(version)).filter((lc) => compareVersions(lc.case.since, version) <= 0);
  // Client clauses are covered by the client scenarios (conformance/client/scenarios.ts).
  const citing = [...cases.map(citingOfLoaded), ...SCENARIOS.map(citingOfScenario)];
  return clauseCoverage(clausesOf(version, ROOT), citing, namedTestsFor(version), {
    check: namedTestChecker(ROOT),
  });
}

describe('every clause of the served version (and of a draft) is covered', () => {
  it('the served version is among the versions checked', () => {
    expect(checkedVersions()).toContain(CURRENT_VERSION);
  });

  it.each(checkedVersions())('%s: each clause has a case, or named tests that exist and carry its marker', (v) => {
    const cov = coverageOf(v);
    // Fix: write a fixture case citing the clause, or name the test that covers it in
    // conformance/clause-tests.json and put `// clause <id>` where that test checks it.
    expect(
      cov.filter((c) => c.status === 'none').map((c) => `${c.id} ${c.title}`),
      'clauses with neither a case nor a named test',
    ).toEqual([]);
    expect(testProblems(cov), 'named tests missing or without their marker').toEqual([]);
  });

  it('clause-tests.json names only clauses its version has', () => {
    for (const [v, tests] of CLAUSE_TESTS) {
      const ids = new Set(clausesOf(v, ROOT).map((c) => c.id));
      expect(
        Object.keys(tests).filter((id) => !ids.has(id)),
        v,
      ).toEqual([]);
    }
  });
});

const CLAUSES = [
  { id: 'T1', title: 'one', layer: 'text', since: '0.1.0' },
  { id: 'R7', title: 'codes', layer: 'reading', since: '0.1.0' },
  { id: 'H8', title: 'admission', layer: 'hardening', since: '0.1.0' },
  { id: 'H10', title: 'work', layer: 'hardening', since: '0.1.0' },
] as const;

describe('lib/coverage', () => {
  const cases = [
    { id: 'a/own', clause: 'T1' },
    { id: 'a/prefers', clause: 'T1', prefers: 'R7' },
    { id: 'a/unjudged', clause: 'T1', prefers: 'R7' },
  ];
  const tests = { H8: ['test/a.test.ts'], H10: ['test/gone.test.ts'] };

  it('a clause is covered by its cases (own or preferred), else by named tests that pass their check, else by neither', () => {
    const check = (file: string) => (file === 'test/gone.test.ts' ? 'no such file' : undefined);
    const cov = clauseCoverage(CLAUSES, cases, tests, { check });
    expect(cov.map((c) => [c.id, c.status])).toEqual([
      ['T1', 'cases'],
      ['R7', 'cases'],
      ['H8', 'tests'],
      ['H10', 'none'],
    ]);
    expect(cov[1]!.cases).toEqual([
      { id: 'a/prefers', prefers: true },
      { id: 'a/unjudged', prefers: true },
    ]);
    expect(testProblems(cov)).toEqual(['H10: test/gone.test.ts: no such file']);
    expect(coverageCounts(cov)).toEqual({ clauses: 4, cases: 2, tests: 1, none: 1 });
    // Without a check (the package, a report) a named test counts by its name.
    expect(clauseCoverage(CLAUSES, cases, tests)[3]!.status).toBe('tests');
  });

  it('marks each case by its verdict; a preference by its own check, and says when there is none', () => {
    const outcomes = new Map<string, CaseOutcome>([
      ['a/own', { verdict: 'fail', expectedFailure: true, checks: [{ ok: false }] }],
      ['a/prefers', { verdict: 'warn', checks: [{ ok: true }, { ok: false, clause: 'R7' }] }],
      ['a/unjudged', { verdict: 'fail', checks: [{ ok: false }] }],
    ]);
    const [t1, r7] = clauseCoverage(CLAUSES, [...cases, { id: 'a/absent', clause: 'T1' }], {}, { outcomes });
    expect(t1!.cases).toEqual([
      { id: 'a/own', mark: 'fail', expectedFailure: true },
      { id: 'a/prefers', mark: 'warn' },
      { id: 'a/unjudged', mark: 'fail' },
      { id: 'a/absent', mark: 'not run' },
    ]);
    expect(r7!.cases).toEqual([
      { id: 'a/prefers', prefers: true, mark: 'warn' },
      { id: 'a/unjudged', prefers: true, mark: 'not judged' },
    ]);
  });

  it('reads the outcomes of a JSON report, refusing what is not one', () => {
    const o = outcomesOfReport(
      {
        cases: [{ id: 'a/own', verdict: 'pass', expectedFailure: true, checks: [{ ok: false, clause: 'R7' }, 'junk'] }],
      },
      'r.json',
    );
    expect(o.get('a/own')).toEqual({ verdict: 'pass', expectedFailure: true, checks: [{ ok: false, clause: 'R7' }] });
    expect(() => outcomesOfReport({ results: [] }, 'r.json')).toThrow('r.json: not an idea-conformance JSON report');
    expect(() => outcomesOfReport({ cases: [{ id: 'x', verdict: 'great' }] }, 'r.json')).toThrow(
      'r.json: cases[0] has no id or no known verdict',
    );
  });
});

describe('named tests', () => {
  let tmp: string;
  beforeAll(() => {
    tmp = mkdtempSync(join(tmpdir(), 'clause-tests-'));
    mkdirSync(join(tmp, 'test'));
    writeFileSync(join(tmp, 'test/h1.test.ts'), "// clause H1: the one\ndescribe('x', () => {});\n");
  });
  afterAll(() => rmSync(tmp, { recursive: true, force: true }));

  it('a named test must exist and carry its own marker (H1 is not H10)', () => {
    const check = namedTestChecker(tmp);
    expect(check('test/h1.test.ts', 'H1')).toBeUndefined();
    expect(check('test/h1.test.ts', 'H10')).toBe('no "// clause H10" marker in it');
    expect(check('test/renamed.test.ts', 'H1')).toBe('no such file');
    expect(hasMarker('// clause H10, bounded work', 'H1')).toBe(false);
    expect(hasMarker('  // clause H10: bounded work', 'H10')).toBe(true);
  });

  it('the data file is checked: versions, clause ids, test/….test.ts paths only', () => {
    const parse = (versions: unknown) => () => parseClauseTests({ versions }, 'x.json');
    expect(parse({ '0.1.7': { H8: ['test/runtime/admission.test.ts'] } })()).toEqual(
      new Map([['0.1.7', { H8: ['test/runtime/admission.test.ts'] }]]),
    );
    for (const bad of [
      { latest: {} },
      { '0.1.7': { Admission: ['test/a.test.ts'] } },
      { '0.1.7': { H8: [] } },
      { '0.1.7': { H8: ['runtime/admission.ts'] } },
      { '0.1.7': { H8: ['test/../../etc/passwd.test.ts'] } },
    ])
      expect(parse(bad), JSON.stringify(bad)).toThrow(/^x\.json: /);
    expect(() => parseClauseTests({}, 'x.json')).toThrow('x.json: expected {"versions"');
  });

  it("a version without an entry takes the newest older one's, as fixtures do", () => {
    const table = new Map([
      ['0.1.5', { H8: ['test/a.test.ts'] }],
      ['0.1.7', { H8: ['test/b.test.ts'] }],
    ]);
    expect(namedTestsFor('0.1.6', table)).toEqual({ H8: ['test/a.test.ts'] });
    expect(namedTestsFor('0.1.9', table)).toEqual({ H8: ['test/b.test.ts'] });
    expect(namedTestsFor('0.1.4', table)).toEqual({});
  });
});

function runCli(argv: string[], root?: string | null) {
  let stdout = '';
  let stderr = '';
  const code = coverageCli(argv, {
    ...(root !== undefined ? { root } : {}),
    out: (t) => {
      stdout += t;
    },
    err: (t) => {
      stderr += t;
    },
  });
  return { code, stdout, stderr };
}

interface CoverageJson {
  version: string;
  ok: boolean;
  namedTests: { checked: boolean };
  counts: Record<string, number>;
  clauses: { id: string; status: string; cases: { id: string; mark?: string; prefers?: true }[]; tests: unknown[] }[];
}

describe('idea-conformance coverage', () => {
  it('lists every clause of the served version with its cases or named tests (checked in a clone)', () => {
    const r = runCli(['--json']);
    expect(r.code, r.stderr).toBe(0);
    const j = JSON.parse(r.stdout) as CoverageJson;
    expect(j).toMatchObject({ version: CURRENT_VERSION, ok: true, namedTests: { checked: true } });
    expect(j.clauses.map((c) => c.id)).toEqual(clausesOf(CURRENT_VERSION, ROOT).map((c) => c.id));
    expect(j.counts.clauses).toBe(j.counts.cases! + j.counts.tests!);
    expect(j.clauses.find((c) => c.id === 'H8')).toMatchObject({
      status: 'tests',
      cases: [],
      tests: expect.arrayContaining([{ file: 'test/runtime/admission.test.ts' }]),
    });
    const text = runCli([]);
    expect(text.stdout).toContain(
      `protocol ${CURRENT_VERSION} (spec/v${CURRENT_VERSION}/clauses.json): ${j.counts.clauses} clauses: ${j.counts.cases} checked by cases, ${j.counts.tests} by named tests only, 0 by neither`,
    );
    expect(text.stdout).toMatch(/\nH8 +hardening +Admission limits\n +test +test\/runtime\/admission\.test\.ts\n/);
  });

  it("joins a run's JSON report: each case's verdict, a preference's own, 'not run' for the rest", () => {
    const tmp = mkdtempSync(join(tmpdir(), 'coverage-report-'));
    try {
      const report = join(tmp, 'run.json');
      writeFileSync(
        report,
        JSON.stringify({
          version: '0.1.6',
          cases: [
            { id: 'protocol/handshake-success', verdict: 'fail', checks: [{ ok: false }] },
            { id: 'edit-find/invalid-regex', verdict: 'warn', checks: [{ ok: true }, { ok: false, clause: 'R7' }] },
            { id: 'gone/case', verdict: 'pass', checks: [] },
          ],
        }),
      );
      const r = runCli(['--json', '--report', report]);
      expect(r.code, r.stderr).toBe(0);
      expect(r.stderr).toContain("note: the report's cases were applied by 0.1.6");
      expect(r.stderr).toContain('note: 1 cases of the report are not cases of');
      const j = JSON.parse(r.stdout) as CoverageJson;
      const of = (id: string) => j.clauses.find((c) => c.id === id)!.cases;
      expect(of('T3')).toContainEqual({ id: 'protocol/handshake-success', mark: 'fail' });
      expect(of('R7')).toContainEqual({ id: 'edit-find/invalid-regex', prefers: true, mark: 'warn' });
      expect(of('T10')).toContainEqual({ id: 'edit-find/invalid-regex', mark: 'warn' });
      expect(of('T1').every((c) => c.mark === 'not run')).toBe(true);
      expect(runCli(['--report', join(tmp, 'missing.json')]).code).toBe(2);
      writeFileSync(report, '{"cases": 3}');
      expect(runCli(['--report', report]).stderr).toContain('not an idea-conformance JSON report');
    } finally {
      rmSync(tmp, { recursive: true, force: true });
    }
  });

  it('exits 1 when a clause has neither (v0.1.6: clause-tests.json starts at 0.1.7), 2 on usage errors', () => {
    const old = runCli(['--version', '0.1.6']);
    expect(old.code).toBe(1);
    expect(old.stdout).toMatch(/\nH8 +hardening +Admission limits\n +✗ neither a case nor a named test\n/);
    expect(old.stderr).toMatch(/idea-conformance coverage: \d+ clauses with neither a case nor a named test/);
    expect(runCli(['--version', 'latest']).code).toBe(2);
    expect(runCli(['--version', '9.9.9']).stderr).toContain('protocol 9.9.9 has no clauses');
    expect(runCli(['--frobnicate']).code).toBe(2);
  });

  it('outside a clone (the package) lists named tests by name, unchecked, and has the served clauses only', () => {
    const r = runCli(['--json'], null);
    expect(r.code, r.stderr).toBe(0);
    const j = JSON.parse(r.stdout) as CoverageJson;
    expect(j.namedTests.checked).toBe(false);
    expect(j.clauses.find((c) => c.id === 'H8')!.tests).toContainEqual({ file: 'test/runtime/admission.test.ts' });
    expect(runCli([], null).stdout).toContain('names only (no clone of idea-kit here to check them in)');
    const old = runCli(['--version', '0.1.6'], null);
    expect(old.code).toBe(2);
    expect(old.stderr).toContain(`this package carries the clauses of ${CURRENT_VERSION} only`);
  });

  it('is a subcommand of idea-conformance, in the clone and in the built package', { timeout: 120_000 }, async () => {
    const tsx = join(ROOT, 'node_modules/.bin/tsx');
    const viaCli = await promisify(execFile)(tsx, [join(ROOT, 'conformance/cli.ts'), 'coverage', '--json'], {
      cwd: ROOT,
      timeout: 60_000,
    });
    expect((JSON.parse(viaCli.stdout) as CoverageJson).namedTests.checked).toBe(true);
    // The package's layout: the bundled bin in dist/, the fixtures beside it, no spec/ and no test/.
    const pkg = mkdtempSync(join(tmpdir(), 'coverage-pkg-'));
    try {
      cpSync(join(ROOT, 'conformance/fixtures'), join(pkg, 'fixtures'), { recursive: true });
      const bin = join(pkg, 'dist/idea-conformance.mjs');
      await build({ ...(await esbuildOptions(TARGETS.conformance.bundles[0]!)), outfile: bin });
      const run = (...args: string[]) =>
        spawnSync(process.execPath, [bin, 'coverage', ...args], { cwd: pkg, encoding: 'utf8', timeout: 30_000 });
      const r = run('--json');
      expect(r.status, r.stderr).toBe(0);
      const j = JSON.parse(r.stdout) as CoverageJson;
      expect(j).toMatchObject({ version: CURRENT_VERSION, ok: true, namedTests: { checked: false } });
      expect(j.counts.none).toBe(0);
      expect(run('--version', '0.1.6').status).toBe(2);
    } finally {
      rmSync(pkg, { recursive: true, force: true });
    }
  });
});

const result = (id: string, clause: string, verdict: CaseResult['verdict'], extra: Partial<CaseResult> = {}) =>
  ({
    id,
    clause,
    verdict,
    file: `${id}.json`,
    description: `what ${id} checks`,
    profile: clause.startsWith('H') ? 'security' : clause.startsWith('R') ? 'readings' : 'core',
    level: 'must',
    checks: [],
    durationMs: 1,
    frames: 1,
    ...extra,
  }) as CaseResult;

const summary = (over: Partial<RunSummary> = {}): RunSummary => ({
  url: 'ws://127.0.0.1:7200',
  server: { version: '0.1.7', authRequired: true, capabilities: [], workspaces: ['/w'] },
  results: [
    result('protocol/handshake-success', 'T3', 'pass'),
    result('edit-find/invalid-regex', 'T10', 'warn', {
      checks: [
        { name: 'response', ok: true },
        { name: 'preference (R7)', ok: false, level: 'should', clause: 'R7' },
      ],
    }),
    result('security/<b>hostile</b>', 'H2', 'fail'),
  ],
  counts: { pass: 1, fail: 1, warn: 1, error: 0, skip: 0, unimplemented: 0 },
  byProfile: {},
  stale: [],
  ok: false,
  durationMs: 10,
  startedAt: '2026-03-02T00:00:00.000Z',
  version: '0.1.7',
  versionSource: 'announced',
  profiles: ['core', 'readings', 'security'],
  warnings: [],
  scope: { served: [], known: 21 },
  ...over,
});

describe("the reports' clause coverage section", () => {
  it('Markdown: each clause of the run with its cases and verdicts, else the named tests, else neither', () => {
    const run = summary();
    const md = summaryToMarkdown(run);
    // The clauses shown: the served version's, as far as the run's version has them.
    const shown = clausesOf(CURRENT_VERSION, ROOT).filter((c) => compareVersions(c.since, run.version) <= 0);
    const n = shown.length;
    const named = Object.keys(namedTestsFor(CURRENT_VERSION)).filter((id) => shown.some((c) => c.id === id)).length;
    expect(md).toContain(
      `<summary>Clause coverage: ${n} clauses: 4 checked by cases of this run, ${named} by idea-kit's own tests only, ${n - 4 - named} by neither</summary>`,
    );
    const row = (id: string) => md.split('\n').find((l) => l.startsWith(`| [${id}](`));
    expect(row('T3')).toMatch(/\| Handshake success \(text\) \| ✅ `protocol\/handshake-success` \| {2}\|$/);
    expect(row('R7')).toContain('| ⚠️ `edit-find/invalid-regex` (preference) |');
    expect(row('H8')).toContain('`test/runtime/admission.test.ts`');
    expect(row('T1')).toMatch(/\| — \| ❌ neither \|$/);
    // The run's profiles and version bound the clauses shown.
    const core06 = summaryToMarkdown(summary({ profiles: ['core'], version: '0.1.6' }));
    expect(core06).toContain('| [T3](');
    expect(core06).not.toContain('| [H8](');
    expect(core06).not.toContain('| [T34](');
  });

  it('HTML: the same rows, verdicts linked to their case blocks, text escaped', () => {
    const html = summaryToHtml(summary(), { clauseHref: (id) => `p.md#${id}` });
    expect(html).toContain('<h2 id="coverage" style="display:inline">Clause coverage</h2>');
    const row = (id: string) =>
      html.split('\n').find((l) => l.startsWith(`<tr data-coverage=`) && l.includes(`>${id}</a></th>`));
    expect(row('T3')).toContain(
      '<a href="#case-protocol-handshake-success"><code>protocol/handshake-success</code></a> <span class="v v-pass">',
    );
    expect(html).toContain('<details class="case" id="case-protocol-handshake-success"');
    expect(row('R7')).toMatch(/v-warn.*\(its preference\)/);
    expect(row('H2')).toContain('<code>security/&lt;b&gt;hostile&lt;/b&gt;</code>');
    expect(row('H8')).toMatch(/^<tr data-coverage="tests">.*<code>test\/runtime\/admission\.test\.ts<\/code>/);
    expect(row('T1')).toMatch(/^<tr data-coverage="none">.*neither a case nor a named test/);
  });
});
