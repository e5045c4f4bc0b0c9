// GitHub Actions annotations: `::error file=…,title=…::message` per failing case (warning for warn),
// pointing at the fixture file so the annotation lands on the case in the PR diff.
import type { CaseResult } from '../lib/types';
import { contextLines, DEFAULT_FIXTURES_SHOWN } from './context';
import { isFinding, type Reporter, type RunSummary } from './types';

/** Escapes per the workflow-command rules (data: %, CR, LF; properties also : and ,). */
export function escapeData(s: string): string {
  return s.replace(/%/g, '%25').replace(/\r/g, '%0D').replace(/\n/g, '%0A');
}
function escapeProperty(s: string): string {
  return escapeData(s).replace(/:/g, '%3A').replace(/,/g, '%2C');
}

export function annotationFor(r: CaseResult, fixturesDir: string): string | null {
  if (r.expectedFailure || !isFinding(r)) return null;
  const level = r.verdict === 'warn' ? 'warning' : 'error';
  const detail = r.checks
    .filter((c) => !c.ok)
    .map((c) => `${c.name}:\n${c.detail ?? ''}`)
    .join('\n');
  const file = `${fixturesDir.replace(/\/$/, '')}/${r.file}`;
  const context = contextLines(r, fixturesDir).join('\n');
  return `::${level} file=${escapeProperty(file)},title=${escapeProperty(`${r.verdict}: ${r.id}`)}::${escapeData(`${r.reason ?? r.verdict}\n${context}\n${detail}`.trim())}`;
}

export class GitHubReporter implements Reporter {
  constructor(
    private readonly fixturesDir = DEFAULT_FIXTURES_SHOWN,
    private readonly write: (line: string) => void = (l) => process.stdout.write(`${l}\n`),
  ) {}
  onCaseEnd(r: CaseResult): void {
    const a = annotationFor(r, this.fixturesDir);
    if (a) this.write(a);
  }
  onRunEnd(s: RunSummary): void {
    for (const st of s.stale)
      this.write(`::error title=${escapeProperty('stale expected failure')}::${escapeData(st)}`);
  }
}
