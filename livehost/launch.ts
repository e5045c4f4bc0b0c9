// launchHost: a real VS Code (code-server + headless Chromium) on a workspace, with one extension loaded,
// handed back once that extension's server accepts connections. See livehost/README.md.
import { realpathSync, statSync } from 'node:fs';
import { resolve } from 'node:path';
import type { Page } from 'playwright-core';
import { poll } from '../runtime/poll';
import { listRegisteredServers } from '../runtime/registry';
import {
  type CodeServerProcess,
  installVsix,
  killCodeServerGroupSync,
  spawnCodeServer,
  stopCodeServer,
  waitForHttp,
} from './code-server';
import { registerExitHook, unregisterExitHook } from './exit-hooks';
import { installedExtension, linkExtension } from './extension-link';
import { type HostBuild, type HostName, hostBuild, selectedHost } from './hosts';
import { describeLogs } from './log-tail';
import { codeServerPath, findChromium, findCodeServer } from './paths';
import { portOwnedByGroup } from './port-owner';
import { freePort, isPortOpen } from './ports';
import { groupPids, type PeakMemory, PeakSampler } from './proc-memory';
import { type ReadySignal, readReadySignal, restoreWorkspaceSettings, snapshotSettings } from './ready-signal';
import { createRunFolder, isolatedEnv, type RunFolder, removeRunFolder, runRegistryDir } from './run-folder';
import { Teardown } from './teardown';
import { writeUserSettings } from './user-settings';
import {
  closeWorkbench,
  killWorkbenchSync,
  launchWorkbench,
  unloadWorkbench,
  type Workbench,
} from './workbench-browser';
import { WorkbenchDriver } from './workbench-driver';

export interface LaunchOptions {
  /** Folder opened in VS Code (must exist). */
  workspace: string;
  /** Unpacked extension folder (its package.json names it; `main` must exist). Give this or `vsix`. */
  extensionDevPath?: string;
  /** A packed extension, installed with `code-server --install-extension` as a user would. Give this or `extensionDevPath`. */
  vsix?: string;
  /**
   * More unpacked extensions to load next to it (e.g. a bench's probe extension); each is linked into
   * the run's extensions folder as `extensionDevPath` is. The launch still waits for the first only.
   */
  extraExtensionDevPaths?: readonly string[];
  /** Extra user settings, merged over the quiet offline defaults and `idea.server.port`. */
  userSettings?: Record<string, unknown>;
  /** Extra environment for code-server (inherited by the extension host). */
  env?: Record<string, string>;
  /** Which VS Code build (livehost/hosts.json): default IDEA_VSCODE, else the oldest. */
  vscode?: HostName;
  /** Bound on the whole launch; default 90 s. */
  timeoutMs?: number;
  /** Keep the run folder after close(); default false unless IDEA_KEEP_RUNS=1. */
  keepRunDir?: boolean;
  /**
   * Put <workspace>/.vscode/settings.json back as it was before launch once the host is down (default true;
   * skipped if the file was edited after the extension wrote its signal).
   */
  restoreWorkspaceSettings?: boolean;
  /**
   * The per-user registry the extension registers in (IDEA_REGISTRY_DIR). Default: one of the run
   * folder's own; give the same folder to several hosts to have several windows, as a user does.
   */
  registryDir?: string;
  /** Sample memory of both process trees every N ms (see host.peakMemory()); off by default. */
  memorySampleMs?: number;
  log?: (line: string) => void;
}

interface LaunchTimings {
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
  /** The VS Code build this host runs (livehost/hosts.json). */
  build: HostBuild;
  /** The isolated per-user registry the extension registers its server in (runtime/registry.ts). */
  registryDir: string;
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
/** How long a server that wrote its settings keys may take to appear in the registry too. */
const REGISTRY_GRACE_MS = 2_000;

class LaunchError extends Error {
  override name = 'LiveHostLaunchError';
}

const abortedError = () => new LaunchError('launch aborted: close() was called (signal?) during launch');

function usableFolder(path: string): string {
  try {
    const real = realpathSync(resolve(path));
    if (!statSync(real).isDirectory()) throw new Error('not a directory');
    return real;
  } catch (e) {
    throw new LaunchError(`workspace ${path} is not a usable folder: ${(e as Error).message}`);
  }
}

/**
 * The workspace's settings file: snapshot before launch, the extension's ready signal read against it,
 * and, at teardown (registered before any process, so it runs after they are gone), the file put back.
 */
function workspaceSettingsStage(workspace: string, restore: boolean, teardown: Teardown, log: (l: string) => void) {
  const before = snapshotSettings(workspace);
  let signal: ReadySignal | undefined;
  teardown.add({
    name: 'workspace settings',
    close: () => {
      if (!signal || !restore) return;
      try {
        const r = restoreWorkspaceSettings(workspace, before, signal);
        if (r === 'changed-since') log('livehost: .vscode/settings.json was edited during the session; left as is');
      } catch (e) {
        log(`livehost: could not restore .vscode/settings.json: ${(e as Error).message}`);
      }
    },
  });
  return {
    read: () => readReadySignal(workspace, before),
    accept: (s: ReadySignal) => void (signal = s),
  };
}

export async function launchHost(opts: LaunchOptions): Promise<LiveHost> {
  const t0 = Date.now();
  const timeoutMs = opts.timeoutMs ?? DEFAULT_TIMEOUT_MS;
  const deadline = t0 + timeoutMs;
  const log = opts.log ?? (() => {});
  const keepRunDir = opts.keepRunDir ?? process.env.IDEA_KEEP_RUNS === '1';
  const workspace = usableFolder(opts.workspace);
  if ((opts.extensionDevPath === undefined) === (opts.vsix === undefined))
    throw new LaunchError('launchHost needs exactly one of extensionDevPath and vsix');
  const build = opts.vscode ? hostBuild(opts.vscode) : selectedHost();
  const codeServerBin = findCodeServer(process.env, build);
  const codeServerPATH = codeServerPath(build);
  const chromiumBin = findChromium();
  const timings: LaunchTimings = {
    spawnToHttpMs: 0,
    chromiumLaunchMs: 0,
    navigateToDomMs: 0,
    navigateToReadyMs: 0,
    spawnToReadyMs: 0,
    totalMs: 0,
  };

  // Every stage below registers its own cleanup right after starting something; close() unwinds them.
  const teardown = new Teardown(log);
  let closing: Promise<void> | undefined;
  const close = (): Promise<void> => {
    closing ??= (async () => {
      const tc = Date.now();
      await teardown.close();
      timings.teardownMs = Date.now() - tc;
      log(`livehost: closed in ${timings.teardownMs} ms${keepRunDir ? `, run folder kept: ${run.dir}` : ''}`);
    })();
    return closing;
  };

  // Stage 1: the run folder (deleted last) and the exit hooks (released once the processes are gone).
  const run: RunFolder = createRunFolder();
  const registry = opts.registryDir ?? runRegistryDir(run);
  const removeRun = (quiet: boolean) => {
    if (keepRunDir) return;
    try {
      removeRunFolder(run);
    } catch (e) {
      if (!quiet) log(`livehost: could not delete ${run.dir}: ${(e as Error).message}`);
    }
  };
  teardown.add({ name: 'run folder', close: () => removeRun(false), killSync: () => removeRun(true) });
  const hook = { close, killSync: () => teardown.killSync() };
  registerExitHook(hook);
  teardown.add({ name: 'exit hooks', close: () => unregisterExitHook(hook) });

  let extensionId: string | undefined;
  let wb: Workbench | undefined;
  const fail = async (what: string): Promise<never> => {
    if (closing) {
      await closing;
      throw abortedError();
    }
    const details = [
      `livehost: ${what} (after ${Date.now() - t0} ms; run folder ${run.dir})`,
      describeLogs(run.codeServerLog, run.userDataDir, extensionId),
      wb?.consoleTail.length ? `--- browser console ---\n${wb.consoleTail.slice(-10).join('\n')}` : '',
    ]
      .filter(Boolean)
      .join('\n');
    await close().catch(() => {});
    throw new LaunchError(keepRunDir ? details : `${details}\n(run folder deleted; set IDEA_KEEP_RUNS=1 to keep it)`);
  };

  try {
    // Stage 2: user settings and the extension, inside the run folder.
    const [codeServerPort, wantedExtPort] = await Promise.all([freePort(), freePort()]);
    writeUserSettings(run.userDataDir, wantedExtPort, opts.userSettings);
    if (opts.vsix) {
      const env = { ...isolatedEnv(run), ...(codeServerPATH ? { PATH: codeServerPATH } : {}) };
      installVsix({ bin: codeServerBin, run, vsix: resolve(opts.vsix), env });
    }
    const ext = opts.vsix
      ? installedExtension(run.extensionsDir)
      : linkExtension(opts.extensionDevPath!, run.extensionsDir);
    extensionId = ext.id;
    for (const extra of opts.extraExtensionDevPaths ?? []) linkExtension(extra, run.extensionsDir);
    // Stage 3: the workspace settings file, restored after every process below is gone.
    const settings = workspaceSettingsStage(workspace, opts.restoreWorkspaceSettings !== false, teardown, log);
    log(
      `livehost: run folder ${run.dir}; extension ${ext.id}@${ext.version}; code-server ${build.codeServer} (VS Code ${build.vscode}) on 127.0.0.1:${codeServerPort}`,
    );

    // Stage 4: code-server in its own process group.
    if (closing) throw abortedError();
    const tSpawn = Date.now();
    const cs: CodeServerProcess = spawnCodeServer({
      bin: codeServerBin,
      run,
      port: codeServerPort,
      workspace,
      env: {
        ...isolatedEnv(run),
        IDEA_REGISTRY_DIR: registry,
        ...(codeServerPATH ? { PATH: codeServerPATH } : {}),
        ...opts.env,
      },
    });
    teardown.add({
      name: 'code-server',
      close: async () => {
        const ts = Date.now();
        const { survivors } = await stopCodeServer(cs);
        timings.codeServerStopMs = Date.now() - ts;
        if (survivors.length) log(`livehost: processes survived teardown: ${survivors.join(' ')}`);
      },
      killSync: () => killCodeServerGroupSync(cs),
    });
    let sampler: PeakSampler | undefined;
    if (opts.memorySampleMs) {
      sampler = new PeakSampler(() => ({ codeServer: cs.pid, chromium: wb?.pid }), opts.memorySampleMs).start();
      teardown.add({ name: 'memory sampler', close: () => void sampler!.stop() });
    }
    if (!(await waitForHttp(cs, deadline))) {
      return await fail(
        cs.hasExited()
          ? 'code-server exited before serving HTTP'
          : `code-server did not answer /healthz within ${timeoutMs} ms`,
      );
    }
    timings.spawnToHttpMs = Date.now() - tSpawn;

    // Stage 5: the workbench page, unloaded first at teardown so the extension host shuts down cleanly.
    const tBrowser = Date.now();
    let browser: Workbench;
    try {
      browser = await launchWorkbench({
        executablePath: chromiumBin,
        profileDir: run.chromeProfile,
        timeoutMs: Math.max(1000, deadline - Date.now()),
      });
    } catch (e) {
      return await fail(`Chromium did not start: ${(e as Error).message}`);
    }
    wb = browser;
    let extPort: number | undefined; // known at stage 7; the page's teardown waits for it to close
    teardown.add({
      name: 'workbench',
      close: async () => {
        const tc = Date.now();
        await unloadWorkbench(browser);
        if (extPort)
          await poll(async () => ((await isPortOpen(extPort!, 300)) ? undefined : true), {
            timeoutMs: 10_000,
            intervalMs: 50,
            backoff: 1,
          });
        timings.unloadToPortClosedMs = Date.now() - tc;
        const tb = Date.now();
        await closeWorkbench(browser);
        timings.browserCloseMs = Date.now() - tb;
      },
      killSync: () => killWorkbenchSync(browser),
    });
    timings.chromiumLaunchMs = Date.now() - tBrowser;
    if (closing) {
      // close() ran while Chromium was starting and could not see it
      await teardown.close();
      throw abortedError();
    }

    // Stage 6: open the workspace in the workbench.
    const codeServerUrl = `http://127.0.0.1:${codeServerPort}/`;
    const tNav = Date.now();
    try {
      await browser.page.goto(`${codeServerUrl}?folder=${encodeURIComponent(workspace)}`, {
        waitUntil: 'domcontentloaded',
        timeout: Math.max(1000, deadline - Date.now()),
      });
      timings.navigateToDomMs = Date.now() - tNav;
    } catch (e) {
      return await fail(`the workbench page did not load: ${(e as Error).message}`);
    }

    // Stage 7: ready = the extension wrote a fresh signal and its port accepts TCP, held by a process of
    // our host (another host on the same workspace could have written the file). Stop early if
    // code-server dies.
    let foreign: number | undefined;
    let entryGrace: number | undefined;
    const signal = await poll(
      async () => {
        if (cs.hasExited() || closing) return null;
        const written = settings.read();
        if (!written) return undefined;
        // Our extension writes its registry entry right after the keys; the entry always has the token
        // (the settings file only with exposeToken). An extension that does not register (the livehost
        // fixture) is ready with the settings token once a short grace for the entry has passed.
        const entry = (await listRegisteredServers({ dir: registry, clean: false, probePorts: false })).servers.find(
          (e) => e.port === written.port,
        );
        const token = entry?.token ?? written.token;
        if (token === undefined || !(await isPortOpen(written.port, 500))) return undefined;
        if (!entry && Date.now() < (entryGrace ??= Date.now() + REGISTRY_GRACE_MS)) return undefined;
        const s = { ...written, token };
        if (portOwnedByGroup(s.port, cs.pid) === false) {
          if (foreign !== s.port)
            log(`livehost: the ready signal names port ${s.port}, which is not held by this host; waiting`);
          foreign = s.port;
          return undefined;
        }
        return s;
      },
      { deadline, intervalMs: 100, backoff: 1 },
    );
    if (!signal) {
      if (closing) throw abortedError();
      return await fail(
        signal === null
          ? 'code-server exited while the workbench was starting'
          : `extension ${ext.id} did not signal readiness (idea.server.port in ${workspace}/.vscode/settings.json, ` +
              `the token there or in its entry in ${registry}, port accepting) within ${timeoutMs} ms` +
              (foreign
                ? `; the signal found names port ${foreign}, held by another process (one host per workspace)`
                : ''),
      );
    }
    extPort = signal.port;
    settings.accept(signal);
    const tReady = Date.now();
    timings.navigateToReadyMs = tReady - tNav;
    timings.spawnToReadyMs = tReady - tSpawn;
    timings.totalMs = tReady - t0;
    log(`livehost: ready in ${timings.spawnToReadyMs} ms: ws://127.0.0.1:${signal.port}`);

    return {
      url: `ws://127.0.0.1:${signal.port}`,
      token: signal.token,
      port: signal.port,
      workspace,
      extensionId: ext.id,
      runDir: run.dir,
      build,
      registryDir: registry,
      userDataDir: run.userDataDir,
      codeServerPort,
      codeServerUrl,
      codeServerLog: run.codeServerLog,
      codeServerPid: cs.pid,
      chromiumPid: browser.pid,
      page: browser.page,
      workbench: new WorkbenchDriver(browser.page),
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
