// Makes sure a crashed or interrupted run never leaves a VS Code host behind. While at least one host is
// alive: the first SIGINT/SIGTERM/SIGHUP closes every host gracefully (bounded), a second one kills them at
// once; then the signal is re-raised so the process ends as it would have. On process exit (synchronous,
// last chance) whatever is left is killed.

export interface ExitHookTarget {
  close(): Promise<void>;
  killSync(): void;
}

const SIGNALS = ['SIGINT', 'SIGTERM', 'SIGHUP'] as const;
const targets = new Set<ExitHookTarget>();
let installed = false;
let shuttingDown = false;

function onExit(): void {
  for (const t of targets) t.killSync();
}

function finish(sig: NodeJS.Signals, all: ExitHookTarget[]): void {
  for (const t of all) t.killSync();
  uninstall();
  // Nobody else handles this signal: re-raise it so the default action (terminate) happens.
  if (process.listenerCount(sig) === 0) process.kill(process.pid, sig);
}

function onSignal(sig: NodeJS.Signals): void {
  const all = [...targets];
  if (shuttingDown) return finish(sig, all); // second signal: no more waiting
  shuttingDown = true;
  void Promise.race([
    Promise.allSettled(all.map((t) => t.close())),
    new Promise((r) => setTimeout(r, 20_000).unref()),
  ]).then(() => finish(sig, all));
}

const handlers = Object.fromEntries(SIGNALS.map((s) => [s, () => onSignal(s)])) as Record<
  (typeof SIGNALS)[number],
  () => void
>;

function install(): void {
  if (installed) return;
  installed = true;
  shuttingDown = false;
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

/** Called by a host's close(); while a signal-driven shutdown runs, the handlers stay until it ends. */
export function unregisterExitHook(t: ExitHookTarget): void {
  targets.delete(t);
  if (targets.size === 0 && !shuttingDown) uninstall();
}
