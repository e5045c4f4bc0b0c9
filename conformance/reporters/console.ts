// Console reporter: one line per non-passing case with its diff, a progress line on a TTY, and a summary.
import type { CaseResult, LoadedCase } from '../lib/types';
import { contextLines, DEFAULT_FIXTURES_SHOWN } from './context';
import { isFinding, type Reporter, type RunStartInfo, type RunSummary, scopeLine } from './types';

const COLORS = { pass: 32, fail: 31, warn: 33, error: 31, skip: 90, unimplemented: 35 } as const;

export interface ConsoleReporterOptions {
  stream?: NodeJS.WritableStream & { isTTY?: boolean; columns?: number };
  color?: boolean;
  /** Print passing, skipped and unimplemented cases too. */
  verbose?: boolean;
  /** Where fixture files are, for the context lines (default conformance/fixtures/<served version>). */
  fixturesDir?: string;
}

export class ConsoleReporter implements Reporter {
  private readonly out: NodeJS.WritableStream & { isTTY?: boolean; columns?: number };
  private readonly color: boolean;
  private progressShown = false;
  constructor(private readonly opts: ConsoleReporterOptions = {}) {
    this.out = opts.stream ?? process.stdout;
    this.color = opts.color ?? (this.out.isTTY === true && !process.env.NO_COLOR);
  }

  private warningsShown = 0;

  private paint(code: number, s: string): string {
    return this.color ? `\u001b[${code}m${s}\u001b[0m` : s;
  }

  private clearProgress(): void {
    if (this.progressShown) this.out.write('\r\u001b[2K');
    this.progressShown = false;
  }

  onRunStart(info: RunStartInfo): void {
    if (info.client) {
      this.out.write(
        `idea-conformance client: ${info.total} scenarios judging \`${info.client.command}\` (each against a scripted server of its own, ${info.client.timeoutMs} ms at most; profiles ${info.profiles.join(', ')})\n`,
      );
      return;
    }
    const applied =
      info.versionSource === 'announced'
        ? ''
        : info.versionSource === 'assumed'
          ? `; applying ${info.version} (--assume-version)`
          : `; applying ${info.version}, the version of the topics it serves`;
    this.out.write(
      `idea-conformance: ${info.total} cases against ${info.url} (server announces protocol ${info.server.version}${applied}; ${info.server.capabilities.length} topics; profiles ${info.profiles.join(', ')})\n`,
    );
    for (const w of info.warnings) this.out.write(`${this.paint(33, 'WARNING')}       ${w}\n`);
    this.warningsShown = info.warnings.length;
  }

  onCaseStart(lc: LoadedCase, index: number, total: number): void {
    if (!this.out.isTTY) return;
    this.clearProgress();
    const line = `[${index + 1}/${total}] ${lc.case.id}`;
    this.out.write(line.slice(0, (this.out.columns ?? 80) - 1));
    this.progressShown = true;
  }

  onCaseEnd(r: CaseResult): void {
    this.clearProgress();
    const tag = this.paint(COLORS[r.verdict], r.verdict.toUpperCase().padEnd(13));
    const xf = r.expectedFailure ? this.paint(90, ' (expected failure)') : '';
    if (!isFinding(r) && !this.opts.verbose) return;
    this.out.write(`${tag} ${r.id} ${this.paint(90, `${r.durationMs} ms`)}${xf}\n`);
    if (isFinding(r))
      for (const l of contextLines(r, this.opts.fixturesDir ?? DEFAULT_FIXTURES_SHOWN))
        this.out.write(`              ${this.paint(90, l)}\n`);
    if (r.reason && r.verdict !== 'pass') this.out.write(`              ${r.reason}\n`);
    for (const c of r.checks.filter((k) => !k.ok)) {
      this.out.write(`              ✗ ${c.name}${c.level === 'should' ? ' (should)' : ''}\n`);
      for (const line of (c.detail ?? '').split('\n')) {
        const colored =
          line.startsWith('+') && !line.startsWith('+++')
            ? this.paint(32, line)
            : line.startsWith('-') && !line.startsWith('---')
              ? this.paint(31, line)
              : line;
        this.out.write(`                ${colored}\n`);
      }
    }
  }

  onRunEnd(s: RunSummary): void {
    this.clearProgress();
    const c = s.counts;
    const expected = s.results.filter((r) => r.expectedFailure).length;
    for (const w of s.warnings.slice(this.warningsShown)) this.out.write(`${this.paint(33, 'WARNING')}       ${w}\n`); // raised during the run
    for (const st of s.stale) this.out.write(`${this.paint(31, 'STALE')}         ${st}\n`);
    const missing = new Map<string, number>();
    for (const r of s.results)
      if (r.verdict === 'unimplemented')
        for (const t of r.missingTopics ?? []) missing.set(t, (missing.get(t) ?? 0) + 1);
    if (missing.size)
      this.out.write(
        `\nnot served (cases unimplemented): ${[...missing].map(([t, n]) => `${t.replace('/app/vscode/', '')} (${n})`).join(', ')}\n`,
      );
    this.out.write('\n');
    for (const [p, pc] of Object.entries(s.byProfile)) {
      if (pc)
        this.out.write(
          `${p.padEnd(9)} ${pc.pass} passed, ${pc.fail} failed, ${pc.warn} warnings, ${pc.error} errors, ${pc.skip} skipped, ${pc.unimplemented} unimplemented\n`,
        );
    }
    this.out.write(
      `${s.results.length} ${s.client ? 'scenarios' : 'cases'} in ${(s.durationMs / 1000).toFixed(1)} s: ` +
        `${this.paint(32, `${c.pass} passed`)}, ${this.paint(31, `${c.fail} failed`)}, ${this.paint(33, `${c.warn} warnings`)}, ${this.paint(31, `${c.error} errors`)}, ` +
        `${c.skip} skipped, ${this.paint(35, `${c.unimplemented} unimplemented`)}` +
        `${expected ? `, ${expected} expected failures` : ''}${s.stale.length ? `, ${s.stale.length} stale expected-failure entries` : ''}\n` +
        `${s.ok ? this.paint(32, 'CONFORMANT') : this.paint(31, 'NOT CONFORMANT')}: ${scopeLine(s)}\n`,
    );
  }
}
