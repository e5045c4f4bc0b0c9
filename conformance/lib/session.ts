// The runner's entry point for a server that has a fixture workspace open (any IDEA server: the
// library knows nothing about launching one; conformance/launch.ts does that for ours).
import { resolve } from 'node:path';
import type { Implementation, Reporter, RunSummary } from '../reporters/types';
import { readFixtureWorkspace, resetFixtureWorkspaceDetailed } from '../workspace';
import type { Target } from './case-context';
import type { Profile } from './clauses';
import type { KnownReleases } from './releases';
import { runSuite } from './run';
import type { LoadedCase } from './types';

export function targetFor(url: string, token: string | undefined, workspace: string): Target {
  const info = readFixtureWorkspace(workspace);
  const vars: Record<string, string> = { ...info.vars };
  // Protocol cases send the token (and a strict prefix of it) themselves; reports never print variables.
  if (token !== undefined) {
    vars.token = token;
    vars.tokenPrefix = token.slice(0, Math.max(0, token.length - 1));
  }
  return { url, token, vars, workspaceDir: info.dir };
}

export interface ExistingServerOptions {
  url: string;
  token?: string;
  workspace: string;
  cases: LoadedCase[];
  reporters?: Reporter[];
  expectedFailures?: Map<string, string>;
  allIds?: Set<string>;
  /** Reset the workspace after destructive cases (default true). */
  reset?: boolean;
  concurrency?: number;
  settleMs?: number;
  settleTimeoutMs?: number;
  profiles?: readonly Profile[];
  requireTopics?: readonly string[];
  assumeVersion?: string;
  implementation?: Implementation;
  /** Which versions count as released for the draft claim (T34); default what this runner was built with. */
  releases?: KnownReleases;
}

export async function runAgainstServer(o: ExistingServerOptions): Promise<RunSummary> {
  const dir = resolve(o.workspace);
  return runSuite({
    target: { ...targetFor(o.url, o.token, dir), ...(o.releases && { releases: o.releases }) },
    cases: o.cases,
    reporters: o.reporters,
    expectedFailures: o.expectedFailures,
    allIds: o.allIds,
    concurrency: o.concurrency,
    settleMs: o.settleMs,
    settleTimeoutMs: o.settleTimeoutMs,
    profiles: o.profiles,
    requireTopics: o.requireTopics,
    assumeVersion: o.assumeVersion,
    implementation: o.implementation,
    reset: o.reset === false ? undefined : () => resetFixtureWorkspaceDetailed(dir),
  });
}
