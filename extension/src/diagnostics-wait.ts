// Knowing when a file's diagnostics are complete: VS Code has no "analysis done" event, so we track
// when each file's diagnostics last changed and call them settled once they have been quiet for a
// moment after the language server answered. A clean file may never get an event (an empty set that
// replaces nothing is not announced), hence the bounded wait for a first event.
import * as vscode from 'vscode';
import { LANGUAGE_TIMEOUT_MS } from './language-server';

/** Quiet time after the last change (syntax, semantic and suggestion diagnostics arrive in bursts). */
export const QUIET_MS = 600;
/** After the server answers, how long a file without any diagnostics event is given before "clean". */
export const FIRST_EVENT_MS = 2500;

export class DiagnosticsTracker implements vscode.Disposable {
  private readonly lastChange = new Map<string, number>();
  private readonly waiters = new Set<() => void>();
  private readonly sub: vscode.Disposable;

  constructor() {
    this.sub = vscode.languages.onDidChangeDiagnostics((e) => {
      const now = Date.now();
      for (const u of e.uris) this.lastChange.set(u.toString(), now);
      for (const w of [...this.waiters]) w();
    });
  }

  dispose(): void {
    this.sub.dispose();
    for (const w of [...this.waiters]) w();
  }

  private nextEventOr(ms: number): Promise<void> {
    return new Promise((resolve) => {
      const done = () => {
        clearTimeout(t);
        this.waiters.delete(done);
        resolve();
      };
      const t = setTimeout(done, ms);
      this.waiters.add(done);
    });
  }

  /**
   * Resolves when the diagnostics of `uri` are settled. `since`: only changes at or after this time
   * count (the moment the document was opened; 0 when it was already open before the request).
   * `serverReady` resolves when the language server has answered for the document.
   */
  async settled(uri: vscode.Uri, since: number, serverReady: Promise<unknown>, signal?: AbortSignal): Promise<void> {
    const key = uri.toString();
    const end = Date.now() + LANGUAGE_TIMEOUT_MS;
    await Promise.race([serverReady, this.nextEventOr(LANGUAGE_TIMEOUT_MS)]);
    const readyAt = Date.now();
    while (!signal?.aborted && Date.now() < end) {
      const last = this.lastChange.get(key);
      const now = Date.now();
      if (last !== undefined && last >= since) {
        if (now - last >= QUIET_MS) return;
        await this.nextEventOr(QUIET_MS - (now - last));
      } else {
        if (now - readyAt >= FIRST_EVENT_MS) return;
        await this.nextEventOr(FIRST_EVENT_MS - (now - readyAt));
      }
    }
  }
}
