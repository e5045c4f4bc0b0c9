// The results of one `bench/run.ts` run as text: the table it prints (plain or Markdown) and the page it
// writes to bench/RESULTS.md. Pure: the runner gathers the facts (machine, commit, sections) and writes.
import { basename, dirname } from 'node:path';
import { type BenchResult, type BenchRow, fmt } from './contract';

/** One entry's outcome in a run. */
export interface Section {
  /** The entry script, relative to the repository. */
  entry: string;
  result?: BenchResult;
  error?: string;
  seconds: number;
  /** The 1-minute load average when the entry ended (the machine is shared: it says what the figures met). */
  load?: number;
}

/** What a run's page states besides its table. */
export interface RunRecord {
  /** `bench/lib/machine.ts`'s line for the run's start. */
  machine: string;
  /** How long it took and the load it met (`runLine`). */
  run: string;
  /** The command as typed, environment included. */
  command: string;
  /** The tree measured: a commit, and whether anything was uncommitted. */
  tree: string;
  sections: Section[];
}

const HEAD = ['bench', 'metric', 'value', 'baseline (same run)', 'ratio', 'target', ''];

function cells(section: string, row: BenchRow): string[] {
  const status = row.ok === undefined ? '' : row.ok ? 'ok' : 'MISSED';
  return [
    section,
    row.metric,
    `${fmt(row.value)} ${row.unit}`.trimEnd(),
    row.baseline === undefined ? '' : `${fmt(row.baseline)} ${row.unit}`.trimEnd(),
    row.ratio === undefined ? '' : `${row.ratio.toFixed(2)}×`,
    row.target ?? '',
    status,
  ];
}

function body(sections: Section[]): string[][] {
  const rows: string[][] = [];
  for (const s of sections) {
    if (s.error || !s.result)
      rows.push([
        s.result?.name ?? basename(dirname(s.entry)),
        `FAILED (${s.entry})`,
        s.error ?? 'no result',
        '',
        '',
        '',
        'FAILED',
      ]);
    else for (const row of s.result.rows) rows.push(cells(s.result.name, row));
  }
  return rows;
}

/** A Markdown table cell: pipes escaped, line breaks folded (a metric is one line of the table). */
const mdCell = (x: string) => x.replace(/\\/g, '\\\\').replace(/\|/g, '\\|').replace(/\r?\n/g, ' ');

/** The run's table: aligned columns for a terminal, or Markdown. */
export function renderTable(sections: Section[], format: 'text' | 'markdown'): string {
  const rows = body(sections);
  if (format === 'markdown') {
    // Columns padded as the repository's formatter pads Markdown tables (Biome), so a written page
    // passes `npm run lint` as it is.
    const md = [HEAD, ...rows].map((r) => r.map(mdCell));
    const mw = HEAD.map((_, i) => Math.max(3, ...md.map((r) => r[i]!.length)));
    const line = (c: string[]) => `| ${c.map((x, i) => x.padEnd(mw[i]!)).join(' | ')} |`;
    return [line(md[0]!), line(mw.map((n) => '-'.repeat(n))), ...md.slice(1).map(line)].join('\n');
  }
  const w = HEAD.map((h, i) => Math.max(h.length, ...rows.map((r) => r[i]!.length)));
  const line = (c: string[]) =>
    c
      .map((x, i) => x.padEnd(w[i]!))
      .join('  ')
      .trimEnd();
  return [line(HEAD), line(w.map((n) => '-'.repeat(n))), ...rows.map(line)].join('\n');
}

/** The run's length and the load it met, as the runner prints it above the table. */
export function runLine(minutes: number, cores: number, loadAtStart: number, loads: number[]): string {
  const after = loads.length ? `${Math.min(...loads)}–${Math.max(...loads)} after the entries` : 'no entries';
  return `${minutes.toFixed(1)} min; load average (1 min, ${cores} cores) ${loadAtStart} at the start, ${after}`;
}

/** bench/RESULTS.md: one run, what it ran on, and its table. */
export function resultsMarkdown(r: RunRecord): string {
  const failed = r.sections.filter((s) => s.error || !s.result);
  const entries = `${r.sections.length} entries, ${failed.length ? `${failed.length} failed: ${failed.map((s) => s.entry).join(', ')}` : 'none failed'}`;
  return [
    '# Bench results: one run',
    '',
    'Written by `bench/run.ts` at the end of the run below, never by hand (a whole run writes',
    '`bench/RESULTS.md`; `--results <file>` another file). Every ratio is against a baseline measured in',
    'the same run. What each row measures: [README.md](README.md); what earlier runs found:',
    '[FINDINGS.md](FINDINGS.md).',
    '',
    `- Command: \`${r.command}\``,
    `- Started: ${r.machine}`,
    `- Tree: ${r.tree}`,
    `- Run: ${r.run}`,
    `- Entries: ${entries}`,
    '',
    renderTable(r.sections, 'markdown'),
    '',
  ].join('\n');
}
