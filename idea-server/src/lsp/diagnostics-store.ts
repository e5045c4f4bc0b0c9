// Diagnostics as the server publishes them (textDocument/publishDiagnostics), per file path, and the
// bounded wait for a file's diagnostics after it was opened or changed. Servers publish in bursts
// (typescript-language-server: syntactic, then semantic, then suggestion diagnostics), so a file
// counts as settled once a publish arrived after our last didOpen/didChange and none followed for
// `quietMs`. A server may stay silent when an empty set would replace an empty set (typescript-
// language-server does), so a file published before that gets no fresh publish within `silentMs`
// keeps what it had, unless the server can be asked directly that the file is still clean
// (diagnostics-pull.ts).
import { fileURLToPath } from 'node:url';
import type { Diagnostic, PublishDiagnosticsParams } from 'vscode-languageserver-protocol';
import type { Bounds } from './bounded';
import { LspAbortError } from './errors';

interface Entry {
  diagnostics: Diagnostic[];
  seq: number;
  at: number;
}

export interface SettleTimes {
  /** Quiet time after the last publish before a file's diagnostics count as complete. */
  quietMs: number;
  /** How long a file that has diagnostics from before is given to publish again. */
  silentMs: number;
}

export const SETTLE_TIMES: SettleTimes = { quietMs: 500, silentMs: 2500 };

export class DiagnosticsStore {
  private seq = 0;
  private readonly published = new Map<string, Entry>();
  /** seq and time of our last didOpen/didChange/didClose of a path: only publishes after it count. */
  private readonly sentAt = new Map<string, { seq: number; at: number }>();
  private readonly listeners = new Set<() => void>();

  constructor(
    private readonly times: SettleTimes = SETTLE_TIMES,
    private readonly now: () => number = Date.now,
  ) {}

  /** The publishDiagnostics handler; returns the file's path. Non-file URIs and malformed params are ignored (undefined). */
  publish(p: PublishDiagnosticsParams): string | undefined {
    if (typeof p?.uri !== 'string' || !Array.isArray(p.diagnostics)) return undefined;
    let path: string;
    try {
      path = fileURLToPath(p.uri);
    } catch {
      return undefined;
    }
    this.published.set(path, { diagnostics: p.diagnostics, seq: ++this.seq, at: this.now() });
    for (const l of [...this.listeners]) l();
    return path;
  }

  /** Records that the server was just told about `path`; what it published before is now stale. */
  sent(path: string): void {
    this.sentAt.set(path, { seq: this.seq, at: this.now() });
  }

  get(path: string): Diagnostic[] {
    return this.published.get(path)?.diagnostics ?? [];
  }

  /** Every file's last published diagnostics (files whose last publish was empty are left out). */
  all(): [string, Diagnostic[]][] {
    return [...this.published].filter(([, e]) => e.diagnostics.length > 0).map(([p, e]) => [p, e.diagnostics]);
  }

  /**
   * Waits until `path`'s diagnostics are settled. Resolves true when they are, false when the timeout
   * passed first (the caller gets what has arrived); an abort rejects. `findsNothing` (diagnostics-
   * pull.ts) may end the silent wait of a file that was clean: asked once per change, and believed only
   * if no publish and no other change came while it was asked.
   */
  async settled(path: string, bounds: Bounds, findsNothing?: (b: Bounds) => Promise<boolean>): Promise<boolean> {
    const end = this.now() + bounds.timeoutMs;
    let asked: { seq: number; at: number } | undefined;
    for (;;) {
      if (bounds.signal?.aborted) throw new LspAbortError('waiting for diagnostics');
      const e = this.published.get(path);
      const sent = this.sentAt.get(path) ?? { seq: 0, at: 0 };
      const now = this.now();
      let due: number; // when to look again without a publish
      if (e !== undefined && e.seq > sent.seq) {
        due = e.at + this.times.quietMs;
      } else if (e !== undefined) {
        due = sent.at + this.times.silentMs;
        if (findsNothing && e.diagnostics.length === 0 && asked !== sent && due > now && now < end) {
          asked = sent;
          const nothing = await findsNothing({ signal: bounds.signal, timeoutMs: Math.min(due, end) - now });
          if (nothing && this.published.get(path) === e && this.sentAt.get(path) === sent) return true;
          continue;
        }
      } else {
        due = end;
      }
      if (due <= now && e !== undefined) return true;
      if (now >= end) return false;
      await this.nextPublishOr(Math.max(1, Math.min(due, end) - now), bounds.signal);
    }
  }

  private nextPublishOr(ms: number, signal?: AbortSignal): Promise<void> {
    return new Promise((resolve) => {
      const done = () => {
        clearTimeout(timer);
        this.listeners.delete(done);
        signal?.removeEventListener('abort', done);
        resolve();
      };
      const timer = setTimeout(done, ms);
      this.listeners.add(done);
      signal?.addEventListener('abort', done, { once: true });
    });
  }
}
