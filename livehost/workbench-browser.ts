// Headless Chromium showing the VS Code workbench. code-server starts the extension host only when a
// workbench connects, and documents/editors live on the workbench side, so the page stays open for the
// whole session.
import { readFileSync } from 'node:fs';
import { type BrowserContext, chromium, type Page } from 'playwright-core';
import { sleep } from './ports';
import { processTable } from './proc-memory';

const CHROMIUM_ARGS = [
  '--no-sandbox',
  '--disable-gpu',
  '--disable-dev-shm-usage',
  '--disable-quic',
  '--no-first-run',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
  '--disable-features=Translate,MediaRouter',
];

export interface Workbench {
  context: BrowserContext;
  page: Page;
  /** Main Chromium process (leader of its own process group), when found. */
  pid: number | undefined;
  /** Last browser console errors/warnings, for failure reports. */
  consoleTail: string[];
}

/** The Chromium main process using this profile: a child of ours whose command line names the profile. */
function findChromiumPid(profileDir: string): number | undefined {
  for (const p of processTable().values()) {
    if (p.ppid !== process.pid) continue;
    try {
      const cmd = readFileSync(`/proc/${p.pid}/cmdline`, 'utf8');
      if (cmd.includes(`--user-data-dir=${profileDir}`)) return p.pid;
    } catch {
      /* exited */
    }
  }
  return undefined;
}

export async function launchWorkbench(opts: {
  executablePath: string;
  profileDir: string;
  timeoutMs: number;
}): Promise<Workbench> {
  const context = await chromium.launchPersistentContext(opts.profileDir, {
    executablePath: opts.executablePath,
    headless: true,
    args: CHROMIUM_ARGS,
    viewport: { width: 1280, height: 800 },
    timeout: opts.timeoutMs,
    // Our own signal hooks tear down in the right order (page unload first); Playwright's would exit early.
    handleSIGINT: false,
    handleSIGTERM: false,
    handleSIGHUP: false,
  });
  const page = context.pages()[0] ?? (await context.newPage());
  const consoleTail: string[] = [];
  const note = (line: string) => {
    consoleTail.push(line.slice(0, 400));
    if (consoleTail.length > 30) consoleTail.shift();
  };
  page.on('console', (m) => {
    if (m.type() === 'error' || m.type() === 'warning') note(`${m.type()}: ${m.text()}`);
  });
  page.on('pageerror', (e) => note(`pageerror: ${e.message}`));
  return { context, page, pid: findChromiumPid(opts.profileDir), consoleTail };
}

/**
 * Navigating away lets the workbench unload gracefully: the server then disposes the extension host and
 * deactivate() runs. Closing the browser without this leaves the host waiting to reconnect (>10 s).
 */
export async function unloadWorkbench(wb: Workbench): Promise<void> {
  try {
    await wb.page.goto('about:blank', { timeout: 10_000 });
  } catch {
    /* browser already gone */
  }
}

export async function closeWorkbench(wb: Workbench): Promise<void> {
  const closed = await Promise.race([
    wb.context.close().then(
      () => true,
      () => true,
    ),
    sleep(10_000).then(() => false),
  ]);
  if (!closed) killWorkbenchSync(wb);
}

/** Synchronous last resort for process exit hooks (Playwright registers its own too). */
export function killWorkbenchSync(wb: Workbench): void {
  if (wb.pid) {
    try {
      process.kill(-wb.pid, 'SIGKILL');
    } catch {
      /* gone */
    }
  }
}
