// typescript-language-server driven directly over stdio, as idea-server drives it (the floor of the scale
// benches): the same command, tsserver and initializationOptions (idea-server/src/lsp/config.ts
// defaultTypeScriptServer), the same client capabilities as idea-server's initialize, and the client's
// side of document sync and diagnostics done by the caller. Requests are timed by the caller.
import { spawn } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { basename, join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { createMessageConnection, StreamMessageReader, StreamMessageWriter } from 'vscode-jsonrpc/node';
import { defaultTypeScriptServer } from '../../idea-server/src/lsp/config';
import { CLIENT_CAPABILITIES } from '../../idea-server/src/lsp/server-process';

/** idea-server's client capabilities, as the floors send them (one object: a baseline never drifts from it). */
export { CLIENT_CAPABILITIES };

/** SIGKILL to a process group (a language server and its tsserver); gone already is fine. */
export function killGroup(pid: number): void {
  try {
    process.kill(-pid, 'SIGKILL');
  } catch {
    // gone
  }
}

export interface Published {
  path: string;
  version?: number;
  diagnostics: { message: string; range: unknown; severity?: number }[];
  /** performance.now() when it arrived. */
  at: number;
}

export interface LspDirect {
  readonly pid: number;
  /** ms from spawn to the initialize answer. */
  readonly initializedMs: number;
  request<R = unknown>(method: string, params: unknown): Promise<R>;
  /** didOpen of a file (its text from disk, or `text`); version 1. */
  open(path: string, text?: string): void;
  /** didClose of a file opened before (a file moved away is closed at its old path). */
  closeFile(path: string): void;
  /** didChange with the full text; the version goes up by one. */
  change(path: string, text: string): void;
  /** Position params for a file (absolute or relative to the workspace). */
  at(
    path: string,
    line: number,
    character: number,
  ): { textDocument: { uri: string }; position: { line: number; character: number } };
  /** Called with every publishDiagnostics; returns the unsubscribe. */
  onDiagnostics(listener: (p: Published) => void): () => void;
  close(): Promise<void>;
}

export async function startLspDirect(workspace: string): Promise<LspDirect> {
  const t0 = performance.now();
  const command = defaultTypeScriptServer();
  // Its own process group: closing it ends its tsserver too, even one too busy to answer shutdown.
  const child = spawn(command.command, command.args, {
    cwd: workspace,
    stdio: ['pipe', 'pipe', 'ignore'],
    detached: true,
  });
  const conn = createMessageConnection(new StreamMessageReader(child.stdout!), new StreamMessageWriter(child.stdin!));
  const listeners = new Set<(p: Published) => void>();
  conn.onNotification(
    'textDocument/publishDiagnostics',
    (p: { uri: string; version?: number; diagnostics: Published['diagnostics'] }) => {
      const at = performance.now();
      let path: string;
      try {
        path = fileURLToPath(p.uri);
      } catch {
        return;
      }
      for (const l of listeners) l({ path, version: p.version, diagnostics: p.diagnostics, at });
    },
  );
  // Server → client requests (workspace/configuration, window/workDoneProgress/create …): answered empty.
  conn.onRequest(() => null);
  conn.listen();
  const abs = (p: string) => (p.startsWith('/') ? p : join(workspace, p));
  const versions = new Map<string, number>();
  const rootUri = pathToFileURL(workspace).href;
  await conn.sendRequest('initialize', {
    processId: process.pid,
    clientInfo: { name: 'bench-direct' },
    initializationOptions: command.initializationOptions,
    rootUri,
    workspaceFolders: [{ uri: rootUri, name: basename(workspace) }],
    capabilities: CLIENT_CAPABILITIES,
  });
  const initializedMs = performance.now() - t0;
  await conn.sendNotification('initialized', {});
  return {
    pid: child.pid!,
    initializedMs,
    request: (method, params) => conn.sendRequest(method, params),
    open(path, text) {
      const p = abs(path);
      versions.set(p, 1);
      void conn.sendNotification('textDocument/didOpen', {
        textDocument: {
          uri: pathToFileURL(p).href,
          languageId: 'typescript',
          version: 1,
          text: text ?? readFileSync(p, 'utf8'),
        },
      });
    },
    closeFile(path) {
      const p = abs(path);
      versions.delete(p);
      void conn.sendNotification('textDocument/didClose', { textDocument: { uri: pathToFileURL(p).href } });
    },
    change(path, text) {
      const p = abs(path);
      const version = (versions.get(p) ?? 1) + 1;
      versions.set(p, version);
      void conn.sendNotification('textDocument/didChange', {
        textDocument: { uri: pathToFileURL(p).href, version },
        contentChanges: [{ text }],
      });
    },
    at: (path, line, character) => ({
      textDocument: { uri: pathToFileURL(abs(path)).href },
      position: { line, character },
    }),
    onDiagnostics(listener) {
      listeners.add(listener);
      return () => listeners.delete(listener);
    },
    async close() {
      try {
        await Promise.race([conn.sendRequest('shutdown'), new Promise((r) => setTimeout(r, 3000))]);
        await conn.sendNotification('exit');
      } catch {
        // gone already
      } finally {
        conn.dispose();
        killGroup(child.pid!);
      }
    },
  };
}
