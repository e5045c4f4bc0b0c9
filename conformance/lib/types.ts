// The fixture format's types are generated from conformance/fixture.schema.json
// (generated/conformance-fixture.ts); here they are re-exported next to the runner's result types.
export type {
  ExchangeCase,
  ExchangeStep,
  Expectation,
  FixtureCase,
  RequestCase,
  RequestSpec,
  RequestStep,
  SetupStep,
  TransportCase,
} from '../../generated/conformance-fixture';
import type { FixtureCase } from '../../generated/conformance-fixture';

export type Verdict = 'pass' | 'fail' | 'warn' | 'skip' | 'unimplemented';

export interface Check {
  name: string;
  ok: boolean;
  /** Readable explanation; for match failures a unified diff. */
  detail?: string;
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
  frames: number;
}

export interface LoadedCase {
  case: FixtureCase;
  /** Path relative to the fixtures root. */
  file: string;
  /** Topic (full `/app/vscode/...`) or area name for selection. */
  topic?: string;
  area: string;
}
