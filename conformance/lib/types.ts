// The fixture format's types are generated from conformance/fixture.schema.json
// (generated/conformance-fixture.ts); here they are re-exported next to the runner's result types.
export type {
  ExchangeCase,
  Expectation,
  FixtureCase,
  RequestCase,
  RequestStep,
  SetupStep,
  TransportCase,
} from '../../generated/conformance-fixture';

import type { FixtureCase } from '../../generated/conformance-fixture';
import type { Clause, Level, Profile } from './clauses';
import type { TranscriptEntry } from './transcript';

/**
 * pass; fail (a `must` check failed); warn (only `should` checks failed); error (a setup step failed:
 * the case's own checks were not judged); skip (not applicable); unimplemented (a topic it needs is
 * not advertised).
 */
export type Verdict = 'pass' | 'fail' | 'warn' | 'error' | 'skip' | 'unimplemented';
export const VERDICTS: readonly Verdict[] = ['pass', 'fail', 'warn', 'error', 'skip', 'unimplemented'];

export interface Check {
  name: string;
  ok: boolean;
  /** Readable explanation; for match failures a unified diff. */
  detail?: string;
  /** Default: the case's level. A preference (`prefer`) is a `should` check citing its own clause. */
  level?: Level;
  clause?: string;
}

export interface CaseResult {
  id: string;
  file: string;
  topic?: string;
  verdict: Verdict;
  /** Set when the verdict comes from the expected-failures list. */
  expectedFailure?: boolean;
  reason?: string;
  checks: Check[];
  durationMs: number;
  /** Destructive cases: the reset afterwards, and the wait until the server showed the restored files. */
  resetMs?: number;
  settleMs?: number;
  frames: number;
  description: string;
  /** The clause the case checks (its id; the link is clauseLink(id)). */
  clause: string;
  profile: Profile;
  level: Level;
  /** Unimplemented cases: the topics missing from the capabilities. */
  missingTopics?: string[];
  /** Unimplemented although --require-topics asks for a missing topic: counts as a failure. */
  required?: boolean;
  /** Transport cases: what was sent (headers, frame size), for the reports. */
  sent?: string;
  /** The frames the case sent and received, token redacted, bounded (lib/transcript.ts). */
  transcript?: TranscriptEntry[];
  /** Frames left out of the transcript beyond its bound. */
  transcriptOmitted?: number;
}

export interface LoadedCase {
  case: FixtureCase;
  /** Path relative to the fixtures root. */
  file: string;
  /** Topic (full `/app/vscode/...`) or area name for selection. */
  topic?: string;
  area: string;
  clause: Clause;
  profile: Profile;
  /** The case's level: the clause's, or lower when the fixture says `should`. */
  level: Level;
  /** Known topics the case sends requests to (it is unimplemented unless all are advertised). */
  needs: string[];
  /** The case sends to `${advertised.N}`: it needs at least one advertised topic. */
  needsAdvertised: boolean;
  /** Events the case subscribes to (exchange `events`): unimplemented unless the server advertises them. */
  needsEvents: string[];
}
