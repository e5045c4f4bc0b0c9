// JUnit XML reporter: one <testsuite> per area, one <testcase> per case; fail → <failure>, skip and
// unimplemented → <skipped>, warn → passes with the warning in <system-out>.
import { mkdirSync, writeFileSync } from 'node:fs';
import { dirname } from 'node:path';
import type { CaseResult } from '../lib/types';
import type { Reporter, RunSummary } from './types';

export function xmlEscape(s: string): string {
  // Characters XML 1.0 cannot carry at all are dropped; the five specials are escaped.
  // eslint-disable-next-line no-control-regex
  return s.replace(/[^\u0009\u000A\u000D\u0020-\uD7FF\uE000-\uFFFD\u{10000}-\u{10FFFF}]/gu, '').replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;').replace(/'/g, '&apos;');
}

function caseXml(r: CaseResult): string {
  const area = r.id.split('/')[0]!;
  const open = `    <testcase classname="${xmlEscape(`idea-conformance.${area}`)}" name="${xmlEscape(r.id)}" file="${xmlEscape(r.file)}" time="${(r.durationMs / 1000).toFixed(3)}"`;
  const details = r.checks.filter((c) => !c.ok).map((c) => `${c.name}:\n${c.detail ?? ''}`).join('\n\n');
  if (r.verdict === 'fail' && !r.expectedFailure) return `${open}>\n      <failure message="${xmlEscape(r.reason ?? 'failed')}" type="${r.verdict}">${xmlEscape(details)}</failure>\n    </testcase>`;
  if (r.verdict === 'unimplemented' && !r.expectedFailure) return `${open}>\n      <failure message="${xmlEscape(r.reason ?? 'unimplemented')}" type="unimplemented"/>\n    </testcase>`;
  if (r.verdict === 'skip' || r.expectedFailure) return `${open}>\n      <skipped message="${xmlEscape(r.reason ?? r.verdict)}"/>\n    </testcase>`;
  if (r.verdict === 'warn') return `${open}>\n      <system-out>${xmlEscape(`WARNING (allowed but not recommended): ${r.reason ?? ''}\n${details}`)}</system-out>\n    </testcase>`;
  return `${open}/>`;
}

export function summaryToJUnit(s: RunSummary): string {
  const byArea = new Map<string, CaseResult[]>();
  for (const r of s.results) {
    const a = r.id.split('/')[0]!;
    byArea.set(a, [...(byArea.get(a) ?? []), r]);
  }
  const suites = [...byArea.entries()].map(([area, rs]) => {
    const failures = rs.filter((r) => (r.verdict === 'fail' || r.verdict === 'unimplemented') && !r.expectedFailure).length;
    const skipped = rs.filter((r) => r.verdict === 'skip' || r.expectedFailure).length;
    const time = rs.reduce((t, r) => t + r.durationMs, 0) / 1000;
    return `  <testsuite name="${xmlEscape(area)}" tests="${rs.length}" failures="${failures}" errors="0" skipped="${skipped}" time="${time.toFixed(3)}">\n${rs.map(caseXml).join('\n')}\n  </testsuite>`;
  });
  const failures = s.results.filter((r) => (r.verdict === 'fail' || r.verdict === 'unimplemented') && !r.expectedFailure).length;
  const stale = s.stale.length
    ? `\n  <testsuite name="expected-failures" tests="${s.stale.length}" failures="${s.stale.length}" errors="0" skipped="0">\n${s.stale.map((st) => `    <testcase classname="idea-conformance.expected-failures" name="${xmlEscape(st.split(':')[0]!)}">\n      <failure message="${xmlEscape(st)}" type="stale"/>\n    </testcase>`).join('\n')}\n  </testsuite>`
    : '';
  return `<?xml version="1.0" encoding="UTF-8"?>\n<testsuites name="idea-conformance" tests="${s.results.length + s.stale.length}" failures="${failures + s.stale.length}" errors="0" time="${(s.durationMs / 1000).toFixed(3)}">\n${suites.join('\n')}${stale}\n</testsuites>\n`;
}

export class JUnitReporter implements Reporter {
  constructor(private readonly path: string) {}
  onRunEnd(s: RunSummary): void {
    mkdirSync(dirname(this.path), { recursive: true });
    writeFileSync(this.path, summaryToJUnit(s));
  }
}
