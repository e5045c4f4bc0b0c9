// typescript-language-server spoken to directly over stdio (the baseline of idea-server's language
// topics): started in a workspace with idea-server's initializationOptions, one file opened, then
// textDocument/definition requests as idea-server would send them.
import { spawn } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { createMessageConnection, StreamMessageReader, StreamMessageWriter } from 'vscode-jsonrpc/node';
import { TYPESCRIPT_INITIALIZATION_OPTIONS } from '../../idea-server/src/lsp/config';

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
  const require = createRequire(import.meta.url);
  const pkgPath = require.resolve('typescript-language-server/package.json');
  const pkg = JSON.parse(readFileSync(pkgPath, 'utf8')) as { bin: Record<string, string> };
  const cli = join(dirname(pkgPath), pkg.bin['typescript-language-server']!);
  const child = spawn(process.execPath, [cli, '--stdio'], { cwd: ws, stdio: ['pipe', 'pipe', 'ignore'] });
  const conn = createMessageConnection(new StreamMessageReader(child.stdout!), new StreamMessageWriter(child.stdin!));
  conn.listen();
  const close = async () => {
    try {
      await conn.sendRequest('shutdown');
      await conn.sendNotification('exit');
    } finally {
      conn.dispose();
      child.kill();
    }
  };
  try {
    const rootUri = pathToFileURL(ws).href;
    await conn.sendRequest('initialize', {
      processId: process.pid,
      rootUri,
      workspaceFolders: [{ uri: rootUri, name: 'ws' }],
      capabilities: { textDocument: { definition: { linkSupport: true } } },
      initializationOptions: TYPESCRIPT_INITIALIZATION_OPTIONS,
    });
    await conn.sendNotification('initialized', {});
    const uri = pathToFileURL(join(ws, at.file)).href;
    await conn.sendNotification('textDocument/didOpen', {
      textDocument: { uri, languageId: 'typescript', version: 1, text: readFileSync(join(ws, at.file), 'utf8') },
    });
    const params = { textDocument: { uri }, position: { line: at.line, character: at.character } };
    const definition = () => conn.sendRequest('textDocument/definition', params) as Promise<unknown[] | null>;
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
