// The reporter lifecycle (like vitest's): one file per reporter, all optional hooks.

import type { ServerInfo } from '../lib/case-context';
import type { Profile } from '../lib/clauses';
import type { CaseResult, LoadedCase, Verdict } from '../lib/types';

export interface RunStartInfo {
  url: string;
  server: ServerInfo;
  total: number;
  /** The version cases and schemas are applied by, and where it came from. */
  version: string;
  versionSource: 'assumed' | 'announced' | 'topics';
  profiles: readonly Profile[];
  /** Preflight findings that do not stop the run (e.g. the workspace is not open in the server). */
  warnings: string[];
  /** Set for a client run (`idea-conformance client`): the command judged; `url` is that command then. */
  client?: ClientRunInfo;
}

/** What a client run judges: a command, each scenario against a scripted server of its own. */
export interface ClientRunInfo {
  command: string;
  /** The bound on each scenario's run of the command (ms). */
  timeoutMs: number;
}

/** Which server (or build of it) the run was against: the handshake names no implementation, so the caller does. */
export interface Implementation {
  name: string;
  /** E.g. the VS Code build our extension ran in. */
  build?: string;
}

export interface RunSummary {
  url: string;
  server: ServerInfo;
  /** Set by --launch (our extension and its VS Code build) or --name/--build. */
  implementation?: Implementation;
  /** Set for a client run: then `url` is the command, `server` what most scripted servers announce, `scope` the scenarios. */
  client?: ClientRunInfo;
  version: string;
  versionSource: RunStartInfo['versionSource'];
  profiles: readonly Profile[];
  results: CaseResult[];
  counts: Record<Verdict, number>;
  byProfile: Partial<Record<Profile, Record<Verdict, number>>>;
  /** The topics of the protocol the server serves, of how many. */
  scope: { served: string[]; known: number };
  warnings: string[];
  /** Expected-failure entries that passed or name no case. */
  stale: string[];
  /** No case failed or errored (expected failures aside), no required topic is unimplemented, no entry is stale. */
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

/** Verdicts that do not fail the run: a warning, a skip, an unimplemented topic nobody required, an expected failure. */
export function isOkVerdict(r: CaseResult): boolean {
  if (r.expectedFailure) return true;
  return (
    r.verdict === 'pass' ||
    r.verdict === 'warn' ||
    r.verdict === 'skip' ||
    (r.verdict === 'unimplemented' && !r.required)
  );
}

/** "conformant on 2 of 13 topics (core, security)" (a client: "… as a client in 15 scenarios …") — the scope a verdict holds for. */
export function scopeLine(s: RunSummary): string {
  if (s.client)
    return `${s.ok ? 'conformant' : 'not conformant'} as a client in ${s.results.length} scenarios (${s.profiles.join(', ')})`;
  return `${s.ok ? 'conformant' : 'not conformant'} on ${s.scope.served.length} of ${s.scope.known} topics (${s.profiles.join(', ')})`;
}

/** Cases that are not a pass and say something (skips and unrequired unimplemented topics are scope, not findings). */
export function isFinding(r: CaseResult): boolean {
  return r.verdict === 'fail' || r.verdict === 'warn' || r.verdict === 'error' || r.required === true;
}
