// High-level entry points: run the suite against a server that has a fixture workspace open, or
// launch our extension in a live VS Code on a fresh fixture workspace and run against that.
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { buildFixtureWorkspace, readFixtureWorkspace, resetFixtureWorkspace } from '../workspace';
import { parseJsonc } from '../../runtime/jsonc';
import type { Target } from './execute';
import { runSuite } from './run';
import type { LoadedCase } from './types';
import type { Reporter, RunSummary } from '../reporters/types';

/** Local history entries of two saves within this window are merged by VS Code; the cases need separate entries. */
export const HOST_USER_SETTINGS: Record<string, unknown> = { 'workbench.localHistory.mergeWindow': 1 };

export interface Discovered {
  url?: string;
  token?: string;
}

/** What the workspace's .vscode/settings.json says (the protocol's discovery mechanism). */
export function discoverServer(workspace: string): Discovered {
  const file = join(workspace, '.vscode', 'settings.json');
  if (!existsSync(file)) return {};
  try {
    const s = parseJsonc(readFileSync(file, 'utf8')) as Record<string, unknown>;
    const port = s['idea.server.port'];
    const token = s['idea.server.authToken'];
    return { url: typeof port === 'number' ? `ws://127.0.0.1:${port}` : undefined, token: typeof token === 'string' ? token : undefined };
  } catch {
    return {};
  }
}

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
}

export async function runAgainstServer(o: ExistingServerOptions): Promise<RunSummary> {
  const dir = resolve(o.workspace);
  return runSuite({
    target: targetFor(o.url, o.token, dir),
    cases: o.cases,
    reporters: o.reporters,
    expectedFailures: o.expectedFailures,
    allIds: o.allIds,
    concurrency: o.concurrency,
    settleMs: o.settleMs,
    reset: o.reset === false ? undefined : () => resetFixtureWorkspace(dir),
  });
}

export interface LaunchRunOptions extends Omit<ExistingServerOptions, 'url' | 'token' | 'workspace'> {
  /** Extension folder (default <repo>/extension). */
  extensionDevPath?: string;
  /** Where to build the workspace (default a fresh temp folder, removed afterwards). */
  workspace?: string;
  log?: (line: string) => void;
}

export interface LaunchRunResult {
  summary: RunSummary;
  launchMs: number;
  suiteMs: number;
  teardownMs: number;
}

export async function runWithLaunch(o: LaunchRunOptions): Promise<LaunchRunResult> {
  const { launchHost, REPO_ROOT } = await import('../../livehost');
  const own = o.workspace === undefined;
  const dir = own ? join(mkdtempSync(join(tmpdir(), 'idea-conformance-')), 'workspace') : resolve(o.workspace!);
  try {
    buildFixtureWorkspace(dir);
    const t0 = performance.now();
    const host = await launchHost({ workspace: dir, extensionDevPath: o.extensionDevPath ?? join(REPO_ROOT, 'extension'), userSettings: HOST_USER_SETTINGS, log: o.log });
    const t1 = performance.now();
    try {
      const summary = await runAgainstServer({ ...o, url: host.url, token: host.token, workspace: dir });
      const t2 = performance.now();
      await host.close();
      return { summary, launchMs: Math.round(t1 - t0), suiteMs: Math.round(t2 - t1), teardownMs: Math.round(performance.now() - t2) };
    } finally {
      await host.close();
    }
  } finally {
    if (own) rmSync(resolve(dir, '..'), { recursive: true, force: true });
  }
}
