// The reporter lifecycle (like vitest's): one file per reporter, all optional hooks.
import type { ServerInfo } from '../lib/execute';
import type { CaseResult, LoadedCase, Verdict } from '../lib/types';

export interface RunStartInfo {
  url: string;
  server: ServerInfo;
  total: number;
}

export interface RunSummary {
  url: string;
  server: ServerInfo;
  results: CaseResult[];
  counts: Record<Verdict, number>;
  /** Expected-failure entries that passed or name no case. */
  stale: string[];
  /** Every non-expected case passed (or warned, or was skipped) and no entry is stale. */
  ok: boolean;
  durationMs: number;
  startedAt: string;
}

export interface Reporter {
  onRunStart?(info: RunStartInfo): void | Promise<void>;
  onCaseStart?(lc: LoadedCase, index: number, total: number): void | Promise<void>;
  onCaseEnd?(result: CaseResult, index: number, total: number): void | Promise<void>;
  onRunEnd?(summary: RunSummary): void | Promise<void>;
}

/** Verdicts that do not fail the run. */
export function isOkVerdict(r: CaseResult): boolean {
  return r.verdict === 'pass' || r.verdict === 'warn' || r.verdict === 'skip' || r.expectedFailure === true;
}
