// A save through VS Code records a local-history entry, but the workbench writes it asynchronously
// (measured: well under a second on code-server). Handlers that save wait for those entries, bounded,
// so a client can list them as soon as the save's answer arrives.
import * as vscode from 'vscode';
import type { Services } from './services';

export const HISTORY_WAIT_MS = 3000;

/** Newest local-history timestamp per file (0 = none), to compare against after saving. */
export function newestEntries(svc: Services, paths: readonly string[]): Map<string, number> {
  return new Map(paths.map((p) => [p, svc.localHistory.list(p)[0]?.timestamp ?? 0]));
}

export async function awaitNewEntries(svc: Services, before: Map<string, number>, signal?: AbortSignal): Promise<void> {
  const pending = [...before.entries()].filter(([p]) =>
    vscode.workspace.getConfiguration('workbench.localHistory', vscode.Uri.file(p)).get<boolean>('enabled', true));
  const end = Date.now() + HISTORY_WAIT_MS;
  let wait = 25;
  while (pending.length > 0 && Date.now() < end && !signal?.aborted) {
    for (let i = pending.length - 1; i >= 0; i--) {
      const [p, t] = pending[i]!;
      if ((svc.localHistory.list(p)[0]?.timestamp ?? 0) > t) pending.splice(i, 1);
    }
    if (pending.length > 0) await new Promise((r) => setTimeout(r, wait));
    wait = Math.min(wait * 2, 200);
  }
  if (pending.length > 0) svc.log(`no local-history entry appeared for ${pending.map(([p]) => p).join(', ')} (excluded or too large?)`);
}
