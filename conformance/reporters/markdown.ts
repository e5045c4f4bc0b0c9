// Markdown summary (e.g. for $GITHUB_STEP_SUMMARY): totals, a table per area, and the diffs of failures.
import { appendFileSync, mkdirSync, writeFileSync } from 'node:fs';
import { dirname } from 'node:path';
import type { Reporter, RunSummary } from './types';

const ICON = { pass: '✅', fail: '❌', warn: '⚠️', skip: '⏭️', unimplemented: '🚧' } as const;

export function summaryToMarkdown(s: RunSummary): string {
  const c = s.counts;
  const lines = [
    `## IDEA conformance: ${s.ok ? 'conformant ✅' : 'not conformant ❌'}`,
    '',
    `Server protocol **${s.server.version}**, ${s.results.length} cases in ${(s.durationMs / 1000).toFixed(1)} s.`,
    '',
    '| pass | fail | warn | skip | unimplemented | expected failures | stale entries |',
    '|---:|---:|---:|---:|---:|---:|---:|',
    `| ${c.pass} | ${c.fail} | ${c.warn} | ${c.skip} | ${c.unimplemented} | ${s.results.filter((r) => r.expectedFailure).length} | ${s.stale.length} |`,
    '',
    '| area | cases | pass | not passing |',
    '|---|---:|---:|---|',
  ];
  const areas = new Map<string, typeof s.results>();
  for (const r of s.results) areas.set(r.id.split('/')[0]!, [...(areas.get(r.id.split('/')[0]!) ?? []), r]);
  for (const [area, rs] of areas) {
    const bad = rs.filter((r) => r.verdict !== 'pass').map((r) => `${r.expectedFailure ? '☑️' : ICON[r.verdict]} \`${r.id.slice(area.length + 1)}\`${r.expectedFailure ? ' (expected)' : ''}`).join(' ');
    lines.push(`| ${area} | ${rs.length} | ${rs.filter((r) => r.verdict === 'pass').length} | ${bad} |`);
  }
  const failing = s.results.filter((r) => r.verdict === 'fail' || r.verdict === 'warn' || r.verdict === 'unimplemented');
  if (failing.length || s.stale.length) lines.push('', '### Details');
  for (const st of s.stale) lines.push('', `- ❌ stale expected failure: ${st}`);
  for (const r of failing) {
    lines.push('', `<details><summary>${ICON[r.verdict]} <code>${r.id}</code>${r.expectedFailure ? ' (expected)' : ''}: ${r.reason ?? ''}</summary>`, '');
    for (const k of r.checks.filter((x) => !x.ok)) lines.push('```diff', `# ${k.name}`, k.detail ?? '', '```');
    lines.push('</details>');
  }
  return lines.join('\n') + '\n';
}

export class MarkdownReporter implements Reporter {
  /** `append`: add to the file (GitHub's step summary is shared by steps). */
  constructor(private readonly path: string, private readonly append = false) {}
  onRunEnd(s: RunSummary): void {
    mkdirSync(dirname(this.path), { recursive: true });
    (this.append ? appendFileSync : writeFileSync)(this.path, summaryToMarkdown(s));
  }
}
