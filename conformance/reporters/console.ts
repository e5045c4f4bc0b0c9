// Console reporter: one line per non-passing case with its diff, a progress line on a TTY, and a summary.
import type { CaseResult, LoadedCase } from '../lib/types';
import type { Reporter, RunStartInfo, RunSummary } from './types';

const COLORS = { pass: 32, fail: 31, warn: 33, skip: 90, unimplemented: 35 } as const;

export interface ConsoleReporterOptions {
  stream?: NodeJS.WritableStream & { isTTY?: boolean; columns?: number };
  color?: boolean;
  /** Print passing cases too. */
  verbose?: boolean;
}

export class ConsoleReporter implements Reporter {
  private readonly out: NodeJS.WritableStream & { isTTY?: boolean; columns?: number };
  private readonly color: boolean;
  private progressShown = false;
  constructor(private readonly opts: ConsoleReporterOptions = {}) {
    this.out = opts.stream ?? process.stdout;
    this.color = opts.color ?? (this.out.isTTY === true && !process.env.NO_COLOR);
  }

  private paint(code: number, s: string): string {
    return this.color ? `\u001b[${code}m${s}\u001b[0m` : s;
  }

  private clearProgress(): void {
    if (this.progressShown) this.out.write('\r\u001b[2K');
    this.progressShown = false;
  }

  onRunStart(info: RunStartInfo): void {
    this.out.write(`idea-conformance: ${info.total} cases against ${info.url} (server protocol ${info.server.version}, ${info.server.capabilities.length} topics)\n`);
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
    if (r.verdict === 'pass' && !this.opts.verbose) return;
    this.out.write(`${tag} ${r.id} ${this.paint(90, `${r.durationMs} ms`)}${xf}\n`);
    if (r.reason && r.verdict !== 'pass') this.out.write(`              ${r.reason}\n`);
    for (const c of r.checks.filter((k) => !k.ok)) {
      this.out.write(`              ✗ ${c.name}\n`);
      for (const line of (c.detail ?? '').split('\n')) {
        const colored = line.startsWith('+') && !line.startsWith('+++') ? this.paint(32, line) : line.startsWith('-') && !line.startsWith('---') ? this.paint(31, line) : line;
        this.out.write(`                ${colored}\n`);
      }
    }
  }

  onRunEnd(s: RunSummary): void {
    this.clearProgress();
    const c = s.counts;
    const expected = s.results.filter((r) => r.expectedFailure).length;
    for (const st of s.stale) this.out.write(`${this.paint(31, 'STALE')}         ${st}\n`);
    this.out.write(
      `\n${s.results.length} cases in ${(s.durationMs / 1000).toFixed(1)} s: ` +
        `${this.paint(32, `${c.pass} passed`)}, ${this.paint(31, `${c.fail} failed`)}, ${this.paint(33, `${c.warn} warnings`)}, ` +
        `${c.skip} skipped, ${this.paint(35, `${c.unimplemented} unimplemented`)}` +
        `${expected ? `, ${expected} expected failures` : ''}${s.stale.length ? `, ${s.stale.length} stale expected-failure entries` : ''}\n` +
        `${s.ok ? this.paint(32, 'CONFORMANT') : this.paint(31, 'NOT CONFORMANT')}\n`,
    );
  }
}
