// The fixture format (mirrors conformance/fixture.schema.json) and the runner's result types.

/** Expected values are plain JSON plus match rules (see match.ts); strings may hold `${var}` placeholders. */
export type Expected = unknown;

export interface RequestSpec {
  topic: string;
  params?: unknown;
}

export type Expectation = { result: Expected } | { error: { code: Expected; message?: Expected } };

/** A request whose response binds variables (`bind`: name → path like `$.result.entries[0].id`). */
export interface RequestStep {
  request: RequestSpec;
  expect?: Expectation;
  bind?: Record<string, string>;
}

export type SetupStep =
  | RequestStep
  | { writeFile: { path: string; content: string } }
  | { sleepMs: number };

export type Level = 'must' | 'should';
export type WorkspaceState = 'fresh' | 'any';

export interface CaseBase {
  /** Stable id, `<area>/<name>`. */
  id: string;
  description: string;
  /** Section of the protocol document (or adopted reading) the case checks. */
  spec: string;
  /** Protocol version the case applies from. */
  since: string;
  /** `should`: a mismatch is a warning (allowed but not recommended), not a failure. */
  level?: Level;
  workspace?: WorkspaceState;
  /** The case changes the workspace: the runner resets it afterwards. */
  destructive?: boolean;
  /** Milliseconds allowed for each response (default 15000). */
  timeoutMs?: number;
}

export interface RequestCase extends CaseBase {
  kind: 'request';
  setup?: SetupStep[];
  request: RequestSpec;
  expect: Expectation;
  /** Follow-up requests checking the effect of the main one (e.g. the file content after a rollback). */
  then?: RequestStep[];
}

export type ExchangeStep =
  | { send: unknown }
  | { sendText: string }
  | { expect: Expected; bind?: Record<string, string> }
  /** The next N frames, in any order, each matching one of these (requests in flight). */
  | { expectUnordered: Expected[] }
  | { expectClose: { code?: Expected } }
  /** No frame arrives within ms (and the connection stays open). */
  | { expectSilence: number };

export interface ExchangeCase extends CaseBase {
  kind: 'exchange';
  /** `auto`: the runner does the handshake with the right token first; `none`: the steps start on a bare socket. */
  handshake: 'auto' | 'none';
  /** Topic the case exercises, if any (for selection and capabilities). */
  topic?: string;
  steps: ExchangeStep[];
}

export type TransportAction =
  | { action: 'upgrade-with-headers'; headers: Record<string, string>; expect: 'refused' | 'accepted' }
  | { action: 'loopback-only' }
  | { action: 'oversize-frame'; bytes: number; afterHandshake: boolean; expectCloseCode: number };

export type TransportCase = CaseBase & { kind: 'transport' } & TransportAction;

export type FixtureCase = RequestCase | ExchangeCase | TransportCase;

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
