// launchHost: a real VS Code (code-server + headless Chromium) on a workspace, with one extension loaded,
// handed back once that extension's server accepts connections. See livehost/README.md.
import { realpathSync, statSync } from 'node:fs';
import { resolve } from 'node:path';
import { linkExtension } from './extension-link';
import { registerExitHook, unregisterExitHook } from './exit-hooks';
import { describeLogs } from './log-tail';
import { findChromium, findCodeServer } from './paths';
import { poll } from '../runtime/poll';
import { freePort, isPortOpen } from './ports';
import { PeakSampler, groupPids, type PeakMemory } from './proc-memory';
import { portOwnedByGroup } from './port-owner';
import { readReadySignal, restoreWorkspaceSettings, snapshotSettings, type ReadySignal, type SettingsSnapshot } from './ready-signal';
import { createRunFolder, isolatedEnv, removeRunFolder, type RunFolder } from './run-folder';
import { killCodeServerGroupSync, spawnCodeServer, stopCodeServer, waitForHttp, type CodeServerProcess } from './code-server';
import { writeUserSettings } from './user-settings';
import { closeWorkbench, killWorkbenchSync, launchWorkbench, unloadWorkbench, type Workbench } from './workbench-browser';
import { WorkbenchDriver } from './workbench-driver';
import type { Page } from 'playwright-core';

export interface LaunchOptions {
  /** Folder opened in VS Code (must exist). */
  workspace: string;
  /** Unpacked extension folder (its package.json names it; `main` must exist). */
  extensionDevPath: string;
  /** Extra user settings, merged over the quiet offline defaults and `idea.server.port`. */
  userSettings?: Record<string, unknown>;
  /** Extra environment for code-server (inherited by the extension host). */
  env?: Record<string, string>;
  /** Bound on the whole launch; default 90 s. */
  timeoutMs?: number;
  /** Keep the run folder after close(); default false unless IDEA_KEEP_RUNS=1. */
  keepRunDir?: boolean;
  /**
   * Put <workspace>/.vscode/settings.json back as it was before launch once the host is down (default true;
   * skipped if the file was edited after the extension wrote its signal).
   */
  restoreWorkspaceSettings?: boolean;
  /** Sample memory of both process trees every N ms (see host.peakMemory()); off by default. */
  memorySampleMs?: number;
  log?: (line: string) => void;
}

export interface LaunchTimings {
  /** code-server spawn → GET /healthz answers. */
  spawnToHttpMs: number;
  chromiumLaunchMs: number;
  /** Page navigation → DOMContentLoaded of the workbench. */
  navigateToDomMs: number;
  /** Page navigation → extension ready (signal written and port accepting). */
  navigateToReadyMs: number;
  /** code-server spawn → extension ready. */
  spawnToReadyMs: number;
  /** launchHost() call → resolved. */
  totalMs: number;
  /** Filled in by close(): total, page unload → extension port closed, Chromium close, code-server group stop. */
  teardownMs?: number;
  unloadToPortClosedMs?: number;
  browserCloseMs?: number;
  codeServerStopMs?: number;
}

export interface LiveHost {
  /** WebSocket URL of the extension's server. */
  url: string;
  token: string;
  /** Extension server port (as written in the ready signal). */
  port: number;
  workspace: string;
  extensionId: string;
  runDir: string;
  userDataDir: string;
  codeServerPort: number;
  codeServerUrl: string;
  codeServerLog: string;
  /** code-server pid; also its process group id (the extension host and language servers are in it). */
  codeServerPid: number;
  chromiumPid: number | undefined;
  /** The headless workbench page (open for the whole session; closing or navigating it stops the host). */
  page: Page;
  /** User-level helpers on that page: command palette, Quick Open, typing, status bar, clipboard. */
  workbench: WorkbenchDriver;
  timings: LaunchTimings;
  /** Peak memory per tree (`codeServer`, `chromium`, `total`) when memorySampleMs was given. */
  peakMemory(): PeakMemory | undefined;
  /** Graceful, idempotent teardown (see README). */
  close(): Promise<void>;
}

const DEFAULT_TIMEOUT_MS = 90_000;

class LaunchError extends Error {
  override name = 'LiveHostLaunchError';
}

export async function launchHost(opts: LaunchOptions): Promise<LiveHost> {
  const t0 = Date.now();
  const timeoutMs = opts.timeoutMs ?? DEFAULT_TIMEOUT_MS;
  const deadline = t0 + timeoutMs;
  const log = opts.log ?? (() => {});
  const keepRunDir = opts.keepRunDir ?? process.env.IDEA_KEEP_RUNS === '1';

  let workspace: string;
  try {
    workspace = realpathSync(resolve(opts.workspace));
    if (!statSync(workspace).isDirectory()) throw new Error('not a directory');
  } catch (e) {
    throw new LaunchError(`workspace ${opts.workspace} is not a usable folder: ${(e as Error).message}`);
  }
  const codeServerBin = findCodeServer();
  const chromiumBin = findChromium();

  const run: RunFolder = createRunFolder();
  let cs: CodeServerProcess | undefined;
  let wb: Workbench | undefined;
  let sampler: PeakSampler | undefined;
  let extPort: number | undefined;
  let extensionId: string | undefined;
  let settingsBefore: SettingsSnapshot | undefined;
  let ready: ReadySignal | undefined;
  let closing: Promise<void> | undefined;
  let closed = false;

  const timings: LaunchTimings = { spawnToHttpMs: 0, chromiumLaunchMs: 0, navigateToDomMs: 0, navigateToReadyMs: 0, spawnToReadyMs: 0, totalMs: 0 };

  const close = (): Promise<void> => {
    closing ??= (async () => {
      const tc = Date.now();
      if (wb) {
        await unloadWorkbench(wb);
        if (extPort) await poll(async () => ((await isPortOpen(extPort!, 300)) ? undefined : true), { timeoutMs: 10_000, intervalMs: 50, backoff: 1 });
        timings.unloadToPortClosedMs = Date.now() - tc;
        const tb = Date.now();
        await closeWorkbench(wb);
        timings.browserCloseMs = Date.now() - tb;
      }
      if (cs) {
        const ts = Date.now();
        const { survivors } = await stopCodeServer(cs);
        timings.codeServerStopMs = Date.now() - ts;
        if (survivors.length) log(`livehost: processes survived teardown: ${survivors.join(' ')}`);
      }
      if (ready && opts.restoreWorkspaceSettings !== false) {
        try {
          const r = restoreWorkspaceSettings(workspace, settingsBefore, ready);
          if (r === 'changed-since') log('livehost: .vscode/settings.json was edited during the session; left as is');
        } catch (e) {
          log(`livehost: could not restore .vscode/settings.json: ${(e as Error).message}`);
        }
      }
      sampler?.stop();
      timings.teardownMs = Date.now() - tc;
      closed = true; // the processes are gone: exit hooks must not signal (possibly reused) pids any more
      unregisterExitHook(hook);
      if (!keepRunDir) { try { removeRunFolder(run); } catch (e) { log(`livehost: could not delete ${run.dir}: ${(e as Error).message}`); } }
      log(`livehost: closed in ${timings.teardownMs} ms${keepRunDir ? `, run folder kept: ${run.dir}` : ''}`);
    })();
    return closing;
  };
  const hook = {
    close,
    killSync: () => {
      if (closed) return;
      if (wb) killWorkbenchSync(wb);
      if (cs) killCodeServerGroupSync(cs);
      if (!keepRunDir) { try { removeRunFolder(run); } catch { /* best effort at exit */ } }
    },
  };
  registerExitHook(hook);

  const fail = async (what: string): Promise<never> => {
    if (closing) { await closing; throw new LaunchError('launch aborted: close() was called (signal?) during launch'); }
    const details = [
      `livehost: ${what} (after ${Date.now() - t0} ms; run folder ${run.dir})`,
      describeLogs(run.codeServerLog, run.userDataDir, extensionId),
      wb?.consoleTail.length ? `--- browser console ---\n${wb.consoleTail.slice(-10).join('\n')}` : '',
    ].filter(Boolean).join('\n');
    const keep = keepRunDir;
    await close().catch(() => {});
    throw new LaunchError(keep ? details : `${details}\n(run folder deleted; set IDEA_KEEP_RUNS=1 to keep it)`);
  };

  try {
    const [codeServerPort, wantedExtPort] = await Promise.all([freePort(), freePort()]);
    writeUserSettings(run.userDataDir, wantedExtPort, opts.userSettings);
    const ext = linkExtension(opts.extensionDevPath, run.extensionsDir);
    extensionId = ext.id;
    const before = (settingsBefore = snapshotSettings(workspace));
    log(`livehost: run folder ${run.dir}; extension ${ext.id}@${ext.version}; code-server on 127.0.0.1:${codeServerPort}`);

    if (closing) throw new LaunchError('launch aborted: close() was called (signal?) during launch');
    const tSpawn = Date.now();
    cs = spawnCodeServer({ bin: codeServerBin, run, port: codeServerPort, workspace, env: { ...isolatedEnv(run), ...opts.env } });
    if (opts.memorySampleMs) {
      sampler = new PeakSampler(() => ({ codeServer: cs?.pid, chromium: wb?.pid }), opts.memorySampleMs).start();
    }
    if (!(await waitForHttp(cs, deadline))) {
      return await fail(cs.hasExited() ? 'code-server exited before serving HTTP' : `code-server did not answer /healthz within ${timeoutMs} ms`);
    }
    timings.spawnToHttpMs = Date.now() - tSpawn;

    const tBrowser = Date.now();
    try {
      wb = await launchWorkbench({ executablePath: chromiumBin, profileDir: run.chromeProfile, timeoutMs: Math.max(1000, deadline - Date.now()) });
    } catch (e) {
      return await fail(`Chromium did not start: ${(e as Error).message}`);
    }
    timings.chromiumLaunchMs = Date.now() - tBrowser;
    if (closing) { // close() ran while Chromium was starting and could not see it
      await closeWorkbench(wb);
      throw new LaunchError('launch aborted: close() was called (signal?) during launch');
    }

    const codeServerUrl = `http://127.0.0.1:${codeServerPort}/`;
    const tNav = Date.now();
    try {
      await wb.page.goto(`${codeServerUrl}?folder=${encodeURIComponent(workspace)}`,
        { waitUntil: 'domcontentloaded', timeout: Math.max(1000, deadline - Date.now()) });
      timings.navigateToDomMs = Date.now() - tNav;
    } catch (e) {
      return await fail(`the workbench page did not load: ${(e as Error).message}`);
    }

    // Ready = the extension wrote a fresh signal and its port accepts TCP, held by a process of our host
    // (another host on the same workspace could have written the file). Stop early if code-server dies.
    let foreign: number | undefined;
    const signal = await poll(async () => {
      if (cs!.hasExited() || closing) return null;
      const s = readReadySignal(workspace, before);
      if (!s || !(await isPortOpen(s.port, 500))) return undefined;
      if (portOwnedByGroup(s.port, cs!.pid) === false) {
        if (foreign !== s.port) log(`livehost: the ready signal names port ${s.port}, which is not held by this host; waiting`);
        foreign = s.port;
        return undefined;
      }
      return s;
    }, { deadline, intervalMs: 100, backoff: 1 });
    if (!signal) {
      if (closing) throw new LaunchError('launch aborted: close() was called (signal?) during launch');
      return await fail(signal === null ? 'code-server exited while the workbench was starting'
        : `extension ${ext.id} did not signal readiness (idea.server.port + idea.server.authToken in `
          + `${workspace}/.vscode/settings.json, port accepting) within ${timeoutMs} ms`
          + (foreign ? `; the signal found names port ${foreign}, held by another process (one host per workspace)` : ''));
    }
    extPort = signal.port;
    ready = signal;
    const tReady = Date.now();
    timings.navigateToReadyMs = tReady - tNav;
    timings.spawnToReadyMs = tReady - tSpawn;
    timings.totalMs = tReady - t0;
    log(`livehost: ready in ${timings.spawnToReadyMs} ms: ws://127.0.0.1:${signal.port}`);

    const codeServerPid = cs.pid;
    return {
      url: `ws://127.0.0.1:${signal.port}`,
      token: signal.token,
      port: signal.port,
      workspace,
      extensionId: ext.id,
      runDir: run.dir,
      userDataDir: run.userDataDir,
      codeServerPort,
      codeServerUrl,
      codeServerLog: run.codeServerLog,
      codeServerPid,
      chromiumPid: wb.pid,
      page: wb.page,
      workbench: new WorkbenchDriver(wb.page),
      timings,
      peakMemory: () => sampler?.peak(),
      close,
    };
  } catch (e) {
    if (e instanceof LaunchError) throw e;
    return await fail((e as Error).message);
  }
}

/** For tests: living members of a host's code-server process group. */
export function hostGroupPids(host: Pick<LiveHost, 'codeServerPid'>): number[] {
  return groupPids(host.codeServerPid);
}
