// typescript-language-server spoken to directly over stdio (the baseline of idea-server's language
// topics): started in a workspace as idea-server starts it (its command, its own tsserver and its
// initializationOptions: idea-server/src/lsp/config.ts defaultTypeScriptServer), one file opened, then
// textDocument/definition requests as idea-server would send them. The tsserver path matters: given
// none, typescript-language-server runs the workspace's node_modules/typescript, and the conformance
// fixture workspace holds a trap there (conformance/workspace/traps.ts) that exits at once.
import { spawn } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { createMessageConnection, StreamMessageReader, StreamMessageWriter } from 'vscode-jsonrpc/node';
import { defaultTypeScriptServer } from '../../idea-server/src/lsp/config';

export interface Position {
  /** Relative to the workspace. */
  file: string;
  line: number;
  character: number;
}

export interface TslsDirect {
  /** One textDocument/definition at the position; resolves with the server's answer. */
  definition(): Promise<unknown[] | null>;
  close(): Promise<void>;
}

/** Starts the server in `ws`, opens `at.file` and waits until a definition at `at` answers something. */
export async function startTslsDirect(ws: string, at: Position): Promise<TslsDirect> {
  const command = defaultTypeScriptServer();
  const child = spawn(command.command, command.args, { cwd: ws, stdio: ['pipe', 'pipe', 'ignore'] });
  const conn = createMessageConnection(new StreamMessageReader(child.stdout!), new StreamMessageWriter(child.stdin!));
  conn.listen();
  // A request to a server that has exited is never answered: every request races the exit.
  const exited = new Promise<never>((_, reject) => {
    child.once('error', reject);
    child.once('exit', (code, signal) =>
      reject(new Error(`typescript-language-server exited (${code ?? signal}) in ${ws}`)),
    );
  });
  exited.catch(() => {});
  const alive = () => child.exitCode === null && child.signalCode === null;
  const send = <R>(method: string, params?: unknown) =>
    Promise.race([conn.sendRequest(method, params) as Promise<R>, exited]);
  const close = async () => {
    try {
      if (alive()) {
        await send('shutdown');
        await conn.sendNotification('exit');
      }
    } finally {
      conn.dispose();
      child.kill();
    }
  };
  try {
    const rootUri = pathToFileURL(ws).href;
    await send('initialize', {
      processId: process.pid,
      rootUri,
      workspaceFolders: [{ uri: rootUri, name: 'ws' }],
      capabilities: { textDocument: { definition: { linkSupport: true } } },
      initializationOptions: command.initializationOptions,
    });
    await conn.sendNotification('initialized', {});
    const uri = pathToFileURL(join(ws, at.file)).href;
    await conn.sendNotification('textDocument/didOpen', {
      textDocument: { uri, languageId: 'typescript', version: 1, text: readFileSync(join(ws, at.file), 'utf8') },
    });
    const params = { textDocument: { uri }, position: { line: at.line, character: at.character } };
    const definition = () => send<unknown[] | null>('textDocument/definition', params);
    // Until the project has loaded and the answer is there (at most 20 s).
    for (let i = 0; i < 200; i++) {
      const r = await definition();
      if (r && r.length > 0) return { definition, close };
      await new Promise((res) => setTimeout(res, 100));
    }
    throw new Error(`typescript-language-server found no definition at ${JSON.stringify(at)}`);
  } catch (e) {
    await close().catch(() => {});
    throw e;
  }
}
