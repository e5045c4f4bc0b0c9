// `idea-conformance run --launch`: our extension in a live VS Code (livehost/) on a fresh fixture
// workspace, the suite run against it, everything torn down. The CLI, the live CI gate and the
// conformance bench use this; the runner library (lib/) works with any server and never launches one.
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { type BackendRequest, type HostName, launchAnyHost, REPO_ROOT } from '@idea-kit/livehost';
import { type ExistingServerOptions, runAgainstServer } from './lib/session';
import type { Implementation, RunSummary } from './reporters/types';
import { buildFixtureWorkspace, plantTraps, trapMarkerDir } from './workspace';

/** Local history entries of two saves within this window are merged by VS Code; the cases need separate entries. */
export const HOST_USER_SETTINGS: Record<string, unknown> = { 'workbench.localHistory.mergeWindow': 1 };

export interface LaunchRunOptions extends Omit<ExistingServerOptions, 'url' | 'token' | 'workspace'> {
  /** Extension folder (default <repo>/extension). */
  extensionDevPath?: string;
  /** Where to build the workspace (default a fresh temp folder, removed afterwards). */
  workspace?: string;
  /** Which VS Code build (livehost/hosts.json; default IDEA_VSCODE, else the oldest). */
  vscode?: HostName;
  /** code-server, electron (desktop VS Code, downloaded) or auto; default IDEA_HOST, else code-server. */
  backend?: BackendRequest;
  /**
   * Plant the full trap set (workspace/traps.ts: a tsconfig plugin, .gitattributes on every file) over the
   * fixture's own. They change tracked files, which other cases read: for runs of the H19 case alone.
   */
  fullTraps?: boolean;
  log?: (line: string) => void;
}

export interface LaunchRunResult {
  summary: RunSummary;
  launchMs: number;
  suiteMs: number;
  teardownMs: number;
}

/** "idea-vscode 0.1.6" in "VS Code 1.100.3 (code-server 4.100.3)": what the reports and the matrix call this run. */
function ourImplementation(extensionDir: string, host: Awaited<ReturnType<typeof launchAnyHost>>): Implementation {
  const pkg = JSON.parse(readFileSync(join(extensionDir, 'package.json'), 'utf8')) as {
    name?: string;
    version?: string;
  };
  const via = host.backend === 'code-server' ? `code-server ${host.build.codeServer}` : host.backend;
  return {
    name: `${pkg.name ?? 'extension'} ${pkg.version ?? ''}`.trim(),
    build: `VS Code ${host.build.vscode} (${via})`,
  };
}

export async function runWithLaunch(o: LaunchRunOptions): Promise<LaunchRunResult> {
  const own = o.workspace === undefined;
  const dir = own ? join(mkdtempSync(join(tmpdir(), 'idea-conformance-')), 'workspace') : resolve(o.workspace!);
  try {
    buildFixtureWorkspace(dir);
    if (o.fullTraps) plantTraps(dir, { markerDir: trapMarkerDir(dir), full: true });
    const t0 = performance.now();
    const host = await launchAnyHost({
      workspace: dir,
      extensionDevPath: o.extensionDevPath ?? join(REPO_ROOT, 'extension'),
      userSettings: HOST_USER_SETTINGS,
      log: o.log,
      ...(o.vscode ? { vscode: o.vscode } : {}),
      ...(o.backend ? { backend: o.backend } : {}),
    });
    const t1 = performance.now();
    try {
      const summary = await runAgainstServer({
        ...o,
        implementation: o.implementation ?? ourImplementation(o.extensionDevPath ?? join(REPO_ROOT, 'extension'), host),
        url: host.url,
        token: host.token,
        workspace: dir,
      });
      const t2 = performance.now();
      await host.close();
      return {
        summary,
        launchMs: Math.round(t1 - t0),
        suiteMs: Math.round(t2 - t1),
        teardownMs: Math.round(performance.now() - t2),
      };
    } finally {
      await host.close();
    }
  } finally {
    if (own) rmSync(resolve(dir, '..'), { recursive: true, force: true });
  }
}
