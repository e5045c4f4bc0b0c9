// The bench runner's output of one run: the table it prints and the page it writes to bench/RESULTS.md
// (bench/README.md: how the page is written). Pure functions, checked row by row.
import { describe, expect, it } from 'vitest';
import { renderTable, resultsMarkdown, runLine, type Section } from '../../bench/lib/results';

const sections: Section[] = [
  {
    entry: 'bench/core/roundtrip.bench.ts',
    seconds: 12,
    result: {
      name: 'round trip vs raw ws echo',
      rows: [
        {
          metric: 'p50 round trip',
          value: 119,
          unit: 'µs',
          baseline: 21.7,
          ratio: 119 / 21.7,
          target: '≤ 1.15×',
          ok: false,
        },
        { metric: 'samples per side', value: 20_000, unit: 'round trips' },
      ],
    },
  },
  {
    entry: 'bench/cli/startup.bench.ts',
    seconds: 30,
    result: {
      name: 'cli',
      rows: [{ metric: 'overhead | over bare node', value: 45.5, unit: 'ms', target: '≤ 150 ms', ok: true }],
    },
  },
  { entry: 'bench/extension/huge-line.bench.ts', seconds: 3, error: 'exit 1' },
  {
    entry: 'bench/scale/find.bench.ts',
    seconds: 60,
    result: { name: 'scale: find', rows: [{ metric: 'regex /\\bx\\(/, load', value: 2.11, unit: '' }] },
  },
];

describe('the table of a run', () => {
  it('Markdown: one row per bench row, a FAILED row per failed entry, pipes and backslashes escaped', () => {
    const lines = renderTable(sections, 'markdown').split('\n');
    const cellsOf = (l: string) =>
      l
        .slice(2, -2)
        .split(/ (?<!\\)\| /)
        .map((c) => c.trim());
    expect(lines.map(cellsOf)).toEqual([
      ['bench', 'metric', 'value', 'baseline (same run)', 'ratio', 'target', ''],
      [
        '-------------------------',
        '-------------------------------------------',
        '------------------',
        '-------------------',
        '-----',
        '--------',
        '------',
      ],
      ['round trip vs raw ws echo', 'p50 round trip', '119 µs', '21.7 µs', '5.48×', '≤ 1.15×', 'MISSED'],
      ['round trip vs raw ws echo', 'samples per side', '20,000 round trips', '', '', '', ''],
      ['cli', 'overhead \\| over bare node', '45.5 ms', '', '', '≤ 150 ms', 'ok'],
      ['extension', 'FAILED (bench/extension/huge-line.bench.ts)', 'exit 1', '', '', '', 'FAILED'],
      ['scale: find', 'regex /\\\\bx\\\\(/, load', '2.11', '', '', '', ''],
    ]);
  });

  it('Markdown: columns padded as the formatter pads them (the page passes the lint as written)', () => {
    const lines = renderTable(sections, 'markdown').split('\n');
    const bars = (l: string) => [...l.matchAll(/(?<!\\)\|/g)].map((m) => m.index);
    for (const l of lines) expect(bars(l), l).toEqual(bars(lines[0]!));
    expect(lines[1]).toMatch(/^\| -{25} \| -{43} \| -{18} \| -{19} \| -{5} \| -{8} \| -{6} \|$/);
  });

  it('text: columns aligned under their heads, no trailing blanks', () => {
    const [head, rule, first, second, third] = renderTable(sections.slice(0, 2), 'text').split('\n');
    const at = (line: string, text: string) => line.indexOf(text);
    for (const [col, cell] of [
      ['metric', 'p50 round trip'],
      ['value', '119 µs'],
      ['baseline (same run)', '21.7 µs'],
      ['ratio', '5.48×'],
      ['target', '≤ 1.15×'],
    ] as const)
      expect(at(first!, cell), col).toBe(at(head!, col));
    expect(at(second!, '20,000 round trips')).toBe(at(head!, 'value'));
    expect(at(third!, 'overhead | over bare node')).toBe(at(head!, 'metric'));
    expect(rule).toMatch(/^-{25} {2}-{25} {2}/);
    expect([head, rule, first, second, third].every((l) => l === l!.trimEnd())).toBe(true);
    expect(first!.endsWith('MISSED')).toBe(true);
  });
});

describe("a run's page (bench/RESULTS.md)", () => {
  const page = resultsMarkdown({
    machine: '2026-11-29 06:58 UTC · 2× cpu · 24 GiB · Linux 6 · Node v20.20.2',
    run: runLine(14.73, 2, 1.74, [0.11, 2.43, 1]),
    command: 'BENCH_SCALE_SIZES=1k,10k npx tsx bench/run.ts --markdown',
    tree: '9accbf6, nothing uncommitted',
    sections,
  });

  it('says what ran where, at which commit, how long, and which entries failed', () => {
    expect(page).toContain('- Command: `BENCH_SCALE_SIZES=1k,10k npx tsx bench/run.ts --markdown`\n');
    expect(page).toContain('- Started: 2026-11-29 06:58 UTC · 2× cpu · 24 GiB · Linux 6 · Node v20.20.2\n');
    expect(page).toContain('- Tree: 9accbf6, nothing uncommitted\n');
    expect(page).toContain(
      '- Run: 14.7 min; load average (1 min, 2 cores) 1.74 at the start, 0.11–2.43 after the entries\n',
    );
    expect(page).toContain('- Entries: 4 entries, 1 failed: bench/extension/huge-line.bench.ts\n');
  });

  it('ends with the Markdown table of the run, whole', () => {
    expect(page.endsWith(`\n\n${renderTable(sections, 'markdown')}\n`)).toBe(true);
    expect(page.startsWith('# ')).toBe(true);
  });

  it('a run with no failure says so; one with no entries too', () => {
    const ok = resultsMarkdown({ machine: 'm', run: 'r', command: 'c', tree: 't', sections: sections.slice(0, 2) });
    expect(ok).toContain('- Entries: 2 entries, none failed\n');
    expect(runLine(0.04, 2, 0.5, [])).toBe('0.0 min; load average (1 min, 2 cores) 0.5 at the start, no entries');
  });
});
