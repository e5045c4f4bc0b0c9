// Renders a diff report as text (terminal), Markdown (pull requests, the changelog), JSON or JUnit XML (CI).
// A change of a `$ref` target is one entry, with the places it reaches (its uses) listed under it.
import { type Change, countByLevel, type DiffReport, type Level, levelRank, type Use } from './types';

export type Format = 'text' | 'markdown' | 'json' | 'junit';
const FORMATS: readonly Format[] = ['text', 'markdown', 'json', 'junit'];

export function isFormat(x: string): x is Format {
  return (FORMATS as readonly string[]).includes(x);
}

export function formatReport(report: DiffReport, format: Format, failOn: Level = 'ERR'): string {
  switch (format) {
    case 'text':
      return formatText(report);
    case 'markdown':
      return formatMarkdown(report);
    case 'json':
      return `${JSON.stringify({ ...report, summary: countByLevel(report.changes) }, null, 2)}\n`;
    case 'junit':
      return formatJunit(report, failOn);
  }
}

function where(c: Change | Use): string {
  return c.path ? `${c.location} › ${c.path}` : c.location;
}

function summary(report: DiffReport): string {
  const n = countByLevel(report.changes);
  return `${n.ERR} ERR, ${n.WARN} WARN, ${n.INFO} INFO`;
}

function formatText(report: DiffReport): string {
  const lines = [`idea-spec diff ${report.from} → ${report.to}: ${summary(report)}`];
  for (const c of sortChanges(report.changes)) {
    lines.push(`${c.level.padEnd(4)} ${where(c)}: ${c.message}`);
    for (const u of c.uses ?? []) lines.push(`       ${u.level.padEnd(4)} ${where(u)}`);
  }
  if (report.changes.length === 0) lines.push('no changes');
  return `${lines.join('\n')}\n`;
}

const HEADINGS: Record<Level, string> = {
  ERR: 'Breaking (ERR)',
  WARN: 'Needs attention (WARN)',
  INFO: 'Additions (INFO)',
};

/** Markdown body: one list per level, most severe first. `heading` prefixes section titles (e.g. "###"). */
export function formatMarkdownBody(changes: readonly Change[], heading = '###'): string {
  if (changes.length === 0) return 'No wire changes.\n';
  const out: string[] = [];
  for (const level of ['ERR', 'WARN', 'INFO'] as const) {
    const of = sortChanges(changes).filter((c) => c.level === level);
    if (of.length === 0) continue;
    out.push(`${heading} ${HEADINGS[level]}`, '');
    for (const c of of) {
      out.push(`- **${md(c.location)}**${c.path ? ` \`${c.path}\`` : ''}: ${md(c.message)}`);
      for (const u of c.uses ?? []) out.push(`  - ${u.level} ${md(u.location)}${u.path ? ` \`${u.path}\`` : ''}`);
    }
    out.push('');
  }
  return out.join('\n');
}

function formatMarkdown(report: DiffReport): string {
  return `## Protocol changes ${report.from} → ${report.to}\n\n${summary(report)}\n\n${formatMarkdownBody(report.changes)}`;
}

/** Escapes Markdown outside code spans; code spans (from the diff's messages) are kept verbatim. */
function md(s: string): string {
  return s
    .split(/(`[^`]*`)/)
    .map((part, i) => (i % 2 === 1 ? part : part.replace(/([\\*_<>|[\]])/g, '\\$1')))
    .join('');
}

function xml(s: string): string {
  return s.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;');
}

/** One test case per change; changes at `failOn` or more severe are failures. */
function formatJunit(report: DiffReport, failOn: Level = 'ERR'): string {
  const failing = (l: Level) => levelRank(l) >= levelRank(failOn);
  const cases = sortChanges(report.changes);
  const failures = cases.filter((c) => failing(c.level)).length;
  const name = `idea-spec diff ${report.from} → ${report.to}`;
  const lines = [
    '<?xml version="1.0" encoding="UTF-8"?>',
    `<testsuites name="${xml(name)}" tests="${cases.length}" failures="${failures}">`,
    `  <testsuite name="${xml(name)}" tests="${cases.length}" failures="${failures}">`,
  ];
  for (const c of cases) {
    const open = `    <testcase classname="${xml(c.location)}" name="${xml(`${c.level} ${c.kind}${c.path ? ` ${c.path}` : ''}`)}"`;
    const uses = (c.uses ?? []).map((u) => `${u.level} ${where(u)}: ${u.message}`).join('\n');
    if (failing(c.level)) {
      const failure = `      <failure type="${c.level}" message="${xml(c.message)}"`;
      lines.push(`${open}>`, uses ? `${failure}>${xml(uses)}</failure>` : `${failure}/>`, '    </testcase>');
    } else
      lines.push(
        `${open}>`,
        `      <system-out>${xml(uses ? `${c.message}\n${uses}` : c.message)}</system-out>`,
        '    </testcase>',
      );
  }
  lines.push('  </testsuite>', '</testsuites>');
  return `${lines.join('\n')}\n`;
}

const RANK: Record<Level, number> = { ERR: 0, WARN: 1, INFO: 2 };

/** Most severe first, then by location and path, so output is stable across runs. */
function sortChanges(changes: readonly Change[]): Change[] {
  return [...changes].sort(
    (a, b) =>
      RANK[a.level] - RANK[b.level] ||
      a.location.localeCompare(b.location) ||
      a.path.localeCompare(b.path) ||
      a.kind.localeCompare(b.kind),
  );
}
