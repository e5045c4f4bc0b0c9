// JUnit XML reporter: one <testsuite> per area, one <testcase> per case; fail (and an unimplemented topic
// --require-topics asks for) → <failure>, error → <error>, skip and unimplemented → <skipped message>,
// warn → passes with the warning in <system-out>. Every non-passing case carries its context.
import { mkdirSync, writeFileSync } from 'node:fs';
import { dirname } from 'node:path';
import type { CaseResult } from '../lib/types';
import { contextLines, DEFAULT_FIXTURES_SHOWN } from './context';
import type { Reporter, RunSummary } from './types';

function xmlEscape(s: string): string {
  // Characters XML 1.0 cannot carry at all are dropped; the five specials are escaped.
  // eslint-disable-next-line no-control-regex
  return s
    .replace(/[^\u0009\u000A\u000D\u0020-\uD7FF\uE000-\uFFFD\u{10000}-\u{10FFFF}]/gu, '')
    .replace(/&/g, '&amp;')
    .replace(/</g, '&lt;')
    .replace(/>/g, '&gt;')
    .replace(/"/g, '&quot;')
    .replace(/'/g, '&apos;');
}

/** How a case counts in JUnit: the same classification the console's verdict and exit code use. */
function junitKind(r: CaseResult): 'failure' | 'error' | 'skipped' | 'passed' {
  if (r.expectedFailure) return 'skipped';
  if (r.verdict === 'fail' || (r.verdict === 'unimplemented' && r.required)) return 'failure';
  if (r.verdict === 'error') return 'error';
  if (r.verdict === 'skip' || r.verdict === 'unimplemented') return 'skipped';
  return 'passed'; // pass, warn
}

function caseXml(r: CaseResult, fixturesDir: string): string {
  const area = r.id.split('/')[0]!;
  const open = `    <testcase classname="${xmlEscape(`idea-conformance.${area}`)}" name="${xmlEscape(r.id)}" file="${xmlEscape(r.file)}" time="${(r.durationMs / 1000).toFixed(3)}"`;
  const checks = r.checks
    .filter((c) => !c.ok)
    .map((c) => `${c.name}${c.level === 'should' ? ' (should)' : ''}:\n${c.detail ?? ''}`)
    .join('\n\n');
  const details = `${contextLines(r, fixturesDir).join('\n')}\n\n${checks}`.trim();
  const kind = junitKind(r);
  if (kind === 'failure')
    return `${open}>\n      <failure message="${xmlEscape(r.reason ?? 'failed')}" type="${r.verdict}">${xmlEscape(details)}</failure>\n    </testcase>`;
  if (kind === 'error')
    return `${open}>\n      <error message="${xmlEscape(r.reason ?? 'error')}" type="setup">${xmlEscape(details)}</error>\n    </testcase>`;
  if (kind === 'skipped')
    return `${open}>\n      <skipped message="${xmlEscape(`${r.verdict}: ${r.reason ?? ''}`)}"/>\n    </testcase>`;
  if (r.verdict === 'warn')
    return `${open}>\n      <system-out>${xmlEscape(`WARNING (should: allowed but not recommended): ${r.reason ?? ''}\n${details}`)}</system-out>\n    </testcase>`;
  return `${open}/>`;
}

function countsOf(rs: CaseResult[]) {
  const k = rs.map(junitKind);
  return {
    tests: rs.length,
    failures: k.filter((x) => x === 'failure').length,
    errors: k.filter((x) => x === 'error').length,
    skipped: k.filter((x) => x === 'skipped').length,
  };
}

export function summaryToJUnit(s: RunSummary, fixturesDir = DEFAULT_FIXTURES_SHOWN): string {
  const byArea = new Map<string, CaseResult[]>();
  for (const r of s.results) {
    const a = r.id.split('/')[0]!;
    byArea.set(a, [...(byArea.get(a) ?? []), r]);
  }
  const suites = [...byArea.entries()].map(([area, rs]) => {
    const c = countsOf(rs);
    const time = rs.reduce((t, r) => t + r.durationMs, 0) / 1000;
    return `  <testsuite name="${xmlEscape(area)}" tests="${c.tests}" failures="${c.failures}" errors="${c.errors}" skipped="${c.skipped}" time="${time.toFixed(3)}">\n${rs.map((r) => caseXml(r, fixturesDir)).join('\n')}\n  </testsuite>`;
  });
  const c = countsOf(s.results);
  const stale = s.stale.length
    ? `\n  <testsuite name="expected-failures" tests="${s.stale.length}" failures="${s.stale.length}" errors="0" skipped="0">\n${s.stale.map((st) => `    <testcase classname="idea-conformance.expected-failures" name="${xmlEscape(st.split(':')[0]!)}">\n      <failure message="${xmlEscape(st)}" type="stale"/>\n    </testcase>`).join('\n')}\n  </testsuite>`
    : '';
  return `<?xml version="1.0" encoding="UTF-8"?>\n<testsuites name="idea-conformance" tests="${c.tests + s.stale.length}" failures="${c.failures + s.stale.length}" errors="${c.errors}" skipped="${c.skipped}" time="${(s.durationMs / 1000).toFixed(3)}">\n${suites.join('\n')}${stale}\n</testsuites>\n`;
}

export class JUnitReporter implements Reporter {
  constructor(
    private readonly path: string,
    private readonly fixturesDir?: string,
  ) {}
  onRunEnd(s: RunSummary): void {
    mkdirSync(dirname(this.path), { recursive: true });
    writeFileSync(this.path, summaryToJUnit(s, this.fixturesDir));
  }
}
