// Markdown summary (e.g. for $GITHUB_STEP_SUMMARY): totals, a table per area, the diffs of failures and,
// folded, the clause coverage of the run.
import { appendFileSync, mkdirSync, writeFileSync } from 'node:fs';
import { dirname } from 'node:path';
import { clauseLink } from '../lib/clauses';
import { type ClauseCoverage, type CoveringCase, countsLine, coverageCounts, coverageOfRun } from '../lib/coverage';
import { contextLines, DEFAULT_FIXTURES_SHOWN } from './context';
import { isFinding, type Reporter, type RunSummary, scopeLine } from './types';

const ICON = { pass: '✅', fail: '❌', warn: '⚠️', error: '💥', skip: '⏭️', unimplemented: '🚧' } as const;

export function summaryToMarkdown(s: RunSummary, fixturesDir = DEFAULT_FIXTURES_SHOWN): string {
  const c = s.counts;
  const row = (name: string, k: Record<string, number>) =>
    `| ${name} | ${k.pass} | ${k.fail} | ${k.warn} | ${k.error} | ${k.skip} | ${k.unimplemented} |`;
  const lines = [
    `## IDEA ${s.client ? 'client ' : ''}conformance: ${s.ok ? 'conformant ✅' : 'not conformant ❌'}`,
    '',
    s.client
      ? `${scopeLine(s)}. Client \`${s.client.command.replace(/`/g, "'")}\`, a scripted server per scenario; ${s.results.length} scenarios in ${(s.durationMs / 1000).toFixed(1)} s.`
      : `${scopeLine(s)}. Server announces protocol **${s.server.version}**${s.version !== s.server.version ? `, cases and schemas applied by **${s.version}** (${s.versionSource === 'assumed' ? '--assume-version' : 'the version of its topics'})` : ''}; ${s.results.length} cases in ${(s.durationMs / 1000).toFixed(1)} s.`,
    ...s.warnings.map((w) => `\n> ⚠️ ${w}`),
    '',
    '| profile | pass | fail | warn | error | skip | unimplemented |',
    '|---|---:|---:|---:|---:|---:|---:|',
    ...Object.entries(s.byProfile).flatMap(([p, k]) => (k ? [row(p, k)] : [])),
    row('**all**', c),
    '',
    `Expected failures: ${s.results.filter((r) => r.expectedFailure).length}; stale entries: ${s.stale.length}.`,
    '',
    '| area | cases | pass | not passing |',
    '|---|---:|---:|---|',
  ];
  const areas = new Map<string, typeof s.results>();
  for (const r of s.results) areas.set(r.id.split('/')[0]!, [...(areas.get(r.id.split('/')[0]!) ?? []), r]);
  for (const [area, rs] of areas) {
    const bad = rs
      .filter(isFinding)
      .map(
        (r) =>
          `${r.expectedFailure ? '☑️' : ICON[r.verdict]} \`${r.id.slice(area.length + 1)}\`${r.expectedFailure ? ' (expected)' : ''}`,
      )
      .join(' ');
    const notRun = rs.filter((r) => !isFinding(r) && r.verdict !== 'pass').length;
    lines.push(
      `| ${area} | ${rs.length} | ${rs.filter((r) => r.verdict === 'pass').length} | ${bad}${notRun ? `${bad ? ' ' : ''}(${notRun} not run)` : ''} |`,
    );
  }
  const failing = s.results.filter(isFinding);
  if (failing.length || s.stale.length) lines.push('', '### Details');
  for (const st of s.stale) lines.push('', `- ❌ stale expected failure: ${st}`);
  for (const r of failing) {
    lines.push(
      '',
      `<details><summary>${ICON[r.verdict]} <code>${r.id}</code>${r.expectedFailure ? ' (expected)' : ''}: ${r.reason ?? ''}</summary>`,
      '',
    );
    const [desc, clause, fixture, sent] = contextLines(r, fixturesDir);
    lines.push(`${desc}  `, `${clause!.replace(/: (\S+)$/, ': [$1]($1)')}  `, `${fixture}${sent ? '  ' : ''}`);
    if (sent) lines.push(sent);
    lines.push('');
    for (const k of r.checks.filter((x) => !x.ok))
      lines.push('```diff', `# ${k.name}${k.level === 'should' ? ' (should)' : ''}`, k.detail ?? '', '```');
    lines.push('</details>');
  }
  lines.push(...coverageMarkdown(coverageOfRun(s)));
  return `${lines.join('\n')}\n`;
}

const cell = (text: string) => text.replace(/\|/g, '\\|');
/** A verdict's icon; a case without one (not run, a preference not judged) says so in words. */
const markText = (k: CoveringCase) =>
  k.expectedFailure ? '☑️' : k.mark && Object.hasOwn(ICON, k.mark) ? ICON[k.mark as keyof typeof ICON] : `(${k.mark})`;

/** Each clause of the run's profiles and version: the run's cases with their verdicts, else idea-kit's own tests. */
function coverageMarkdown(cov: readonly ClauseCoverage[]): string[] {
  const cases = (c: ClauseCoverage) =>
    c.cases.length
      ? c.cases.map((k) => `${markText(k)} \`${k.id}\`${k.prefers ? ' (preference)' : ''}`).join(' ')
      : '—';
  const tests = (c: ClauseCoverage) =>
    c.tests.length ? c.tests.map((t) => `\`${t.file}\``).join(' ') : c.cases.length ? '' : '❌ neither';
  return [
    '',
    `<details><summary>Clause coverage: ${countsLine(coverageCounts(cov), 'cases of this run', "idea-kit's own tests")}</summary>`,
    '',
    "| clause | title | cases of this run | idea-kit's own tests (of its servers, not this one) |",
    '|---|---|---|---|',
    ...cov.map((c) => `| [${c.id}](${clauseLink(c.id)}) | ${cell(c.title)} (${c.layer}) | ${cases(c)} | ${tests(c)} |`),
    '',
    '</details>',
  ];
}

export class MarkdownReporter implements Reporter {
  /** `append`: add to the file (GitHub's step summary is shared by steps). */
  constructor(
    private readonly path: string,
    private readonly append = false,
    private readonly fixturesDir?: string,
  ) {}
  onRunEnd(s: RunSummary): void {
    mkdirSync(dirname(this.path), { recursive: true });
    (this.append ? appendFileSync : writeFileSync)(this.path, summaryToMarkdown(s, this.fixturesDir));
  }
}
