// Makes sure a crashed or interrupted test run never leaves a VS Code host behind. While at least one host
// is alive: on SIGINT/SIGTERM/SIGHUP, close every host gracefully (bounded), then re-raise the signal; on
// process exit (synchronous, last chance), kill what is left.

export interface ExitHookTarget {
  close(): Promise<void>;
  killSync(): void;
}

const SIGNALS = ['SIGINT', 'SIGTERM', 'SIGHUP'] as const;
const targets = new Set<ExitHookTarget>();
let installed = false;

function onExit(): void {
  for (const t of targets) t.killSync();
}

async function onSignal(sig: NodeJS.Signals): Promise<void> {
  const all = [...targets];
  uninstall();
  await Promise.race([
    Promise.allSettled(all.map((t) => t.close())),
    new Promise((r) => setTimeout(r, 20_000).unref()),
  ]);
  for (const t of all) t.killSync();
  // Nobody else handles this signal: restore the default action (terminate) by re-raising it.
  if (process.listenerCount(sig) === 0) process.kill(process.pid, sig);
}

const handlers = Object.fromEntries(SIGNALS.map((s) => [s, () => void onSignal(s)])) as Record<(typeof SIGNALS)[number], () => void>;

function install(): void {
  if (installed) return;
  installed = true;
  process.on('exit', onExit);
  for (const s of SIGNALS) process.on(s, handlers[s]);
}

function uninstall(): void {
  if (!installed) return;
  installed = false;
  process.off('exit', onExit);
  for (const s of SIGNALS) process.off(s, handlers[s]);
}

export function registerExitHook(t: ExitHookTarget): void {
  targets.add(t);
  install();
}

export function unregisterExitHook(t: ExitHookTarget): void {
  targets.delete(t);
  if (targets.size === 0) uninstall();
}
