// The floor of "one more process in the chain", a side of bench/idea-server/run.ts and of
// bench/profiling/idea-server-nav.mts: a minimal Node proxy, ws in → LSP out, nothing else. It serves the IDEA handshake and nav/definition on a
// loopback ws (the `ws` package, as idea-server) by forwarding textDocument/definition to its own
// typescript-language-server (idea-server's command and initializationOptions) over stdio, framing
// each LSP message itself in one write, and answering with the first target's range and text; nav/hover
// and nav/references the same way (bench/scale, issue 33: the answer's shape mapped, nothing more);
// nav/findSymbol on the opened file (documentSymbol, the symbols named as the name path's last segment),
// nav/workspaceSymbols (workspace/symbol) and edit/codeActions (textDocument/codeAction, no diagnostics;
// without `only` asked twice as idea-server asks: every kind, then `source`)
// for bench/scale/symbols.bench.ts; and events/unsubscribe at once (the floor of the no-op round trip).
// idea-server's client capabilities (lib/lsp-direct.ts). No validation, no path checks, no document
// sync, no bounds: what any proxy between a client and a language server pays at least.
//   argv: <workspace> <file relative to it> [more files] (the files it opens); parent: IPC (sends { url } when
//   ready; "cpu" → { cpu: process.cpuUsage() }, "stop")
import { spawn } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { WebSocketServer } from 'ws';
import { SERVER_PROTOCOL } from '../../generated/current';
import { defaultTypeScriptServer } from '../../idea-server/src/lsp/config';
import { CLIENT_CAPABILITIES, killGroup } from './lsp-direct';

const [workspace, file, ...more] = process.argv.slice(2) as [string, string, ...string[]];
const NAV = '/app/vscode/nav/definition';
// Since issue 33 (bench/scale/date-fns.bench.ts): hover and references forwarded the same way, each
// answer mapped to the protocol's shape and nothing else.
const HOVER = '/app/vscode/nav/hover';
const REFERENCES = '/app/vscode/nav/references';
const UNSUBSCRIBE = '/app/vscode/events/unsubscribe';
const FIND_SYMBOL = '/app/vscode/nav/findSymbol';
const WORKSPACE_SYMBOLS = '/app/vscode/nav/workspaceSymbols';
const CODE_ACTIONS = '/app/vscode/edit/codeActions';

const command = defaultTypeScriptServer();
// Its own process group, killed whole on stop: its tsserver goes with it.
const tsls = spawn(command.command, command.args, {
  cwd: workspace,
  stdio: ['pipe', 'pipe', 'ignore'],
  detached: true,
});
let nextId = 1;
const pending = new Map<number, (result: unknown) => void>();
const send = (message: object) => {
  const body = JSON.stringify({ jsonrpc: '2.0', ...message });
  tsls.stdin!.write(`Content-Length: ${Buffer.byteLength(body)}\r\n\r\n${body}`);
};
const request = (method: string, params: unknown) =>
  new Promise<unknown>((resolve) => {
    const id = nextId++;
    pending.set(id, resolve);
    send({ id, method, params });
  });
// LSP framing of tsls's answers: Content-Length header, blank line, body.
let buffered: Buffer = Buffer.alloc(0);
tsls.stdout!.on('data', (chunk: Buffer) => {
  buffered = buffered.length === 0 ? chunk : Buffer.concat([buffered, chunk]);
  for (;;) {
    const end = buffered.indexOf('\r\n\r\n');
    if (end < 0) return;
    const length = Number(/Content-Length: (\d+)/i.exec(buffered.subarray(0, end).toString('ascii'))?.[1]);
    if (buffered.length < end + 4 + length) return;
    const message = JSON.parse(buffered.subarray(end + 4, end + 4 + length).toString('utf8'));
    buffered = buffered.subarray(end + 4 + length);
    if (message.id !== undefined && message.method !== undefined) send({ id: message.id, result: null });
    else if (message.id !== undefined) pending.get(message.id)?.(message.result);
    pending.delete(message.id);
  }
});

const rootUri = pathToFileURL(workspace).href;
await request('initialize', {
  processId: process.pid,
  rootUri,
  workspaceFolders: [{ uri: rootUri, name: 'ws' }],
  capabilities: CLIENT_CAPABILITIES, // idea-server's: a server offers some actions only to clients that say so
  initializationOptions: command.initializationOptions,
});
send({ method: 'initialized', params: {} });
const didOpen = (p: string, text: string) =>
  send({
    method: 'textDocument/didOpen',
    params: { textDocument: { uri: pathToFileURL(p).href, languageId: 'typescript', version: 1, text } },
  });
const path = join(workspace, file);
const text = readFileSync(path, 'utf8');
const uri = pathToFileURL(path).href;
didOpen(path, text);
const lines = text.split('\n');
for (const f of more) didOpen(join(workspace, f), readFileSync(join(workspace, f), 'utf8'));

interface LspRange {
  start: { line: number; character: number };
  end: { line: number; character: number };
}
interface HoverAnswer {
  contents:
    | string
    | { kind?: string; language?: string; value: string }
    | (string | { language?: string; value: string; kind?: string })[];
  range?: LspRange;
}
const wire = (r: LspRange) => ({
  line: r.start.line,
  character: r.start.character,
  endLine: r.end.line,
  endCharacter: r.end.character,
});

interface Link {
  targetUri: string;
  targetRange: { start: { line: number; character: number }; end: { line: number; character: number } };
}
/**
 * The declaration's text, lines split at '\n': from the one file opened, or (since issue 33: the answer
 * needs it, idea-server reads it too) read from disk for a target in another file.
 */
const codeOf = async (l: Link) => {
  const from = l.targetUri === uri ? lines : (await readFile(fileURLToPath(l.targetUri), 'utf8')).split('\n');
  const { start, end } = l.targetRange;
  const span = from.slice(start.line, end.line + 1);
  span[span.length - 1] = span[span.length - 1]!.slice(0, end.character);
  span[0] = span[0]!.slice(start.character);
  return span.join('\n');
};

interface DocumentSymbol {
  name: string;
  kind: number;
  range: LspRange;
  selectionRange: LspRange;
  children?: DocumentSymbol[];
}
/** The symbols of a documentSymbol answer named `name`, depth first, as the answer's entries. */
const symbolsNamed = (list: readonly DocumentSymbol[], name: string, filePath: string, out: object[] = []) => {
  for (const s of list) {
    if (s.name === name)
      out.push({
        filePath,
        namePath: s.name,
        name: s.name,
        kind: 'function',
        ...wire(s.range),
        selectionLine: s.selectionRange.start.line,
        selectionCharacter: s.selectionRange.start.character,
        signature: '',
      });
    symbolsNamed(s.children ?? [], name, filePath, out);
  }
  return out;
};

const wss = new WebSocketServer({ host: '127.0.0.1', port: 0 });
wss.on('connection', (ws) => {
  let open = false;
  ws.on('message', async (data) => {
    const frame = JSON.parse(data.toString());
    if (!open) {
      open = true;
      ws.send(
        JSON.stringify({
          type: 'handshake',
          version: SERVER_PROTOCOL.version,
          ...(SERVER_PROTOCOL.spec.draft ? { draft: true } : {}),
          authRequired: false,
          capabilities: [NAV, HOVER, REFERENCES, UNSUBSCRIBE, FIND_SYMBOL, WORKSPACE_SYMBOLS, CODE_ACTIONS],
          events: [],
          workspaces: [workspace],
        }),
      );
      return;
    }
    const { topic, requestId, params } = frame;
    if (topic === UNSUBSCRIBE) return ws.send(JSON.stringify({ topic, requestId, result: { subscribed: [] } }));
    if (topic === WORKSPACE_SYMBOLS) {
      const found = ((await request('workspace/symbol', { query: params.query })) ?? []) as {
        name: string;
        location: { uri: string; range: LspRange };
      }[];
      const symbols = found.slice(0, params.maxResults ?? 200).map((x) => ({
        filePath: fileURLToPath(x.location.uri),
        ...wire(x.location.range),
        name: x.name,
        kind: 'function',
        containerName: null,
      }));
      const coverage = { complete: true, searched: [], notSearched: [] };
      const result = { symbols, totalCount: found.length, truncated: found.length > symbols.length, coverage };
      return ws.send(JSON.stringify({ topic, requestId, result }));
    }
    const textDocument = { uri: pathToFileURL(params.filePath).href };
    if (topic === FIND_SYMBOL) {
      const tree = ((await request('textDocument/documentSymbol', { textDocument })) ?? []) as DocumentSymbol[];
      const symbols = symbolsNamed(tree, String(params.namePath).split('/').pop()!, params.filePath);
      return ws.send(
        JSON.stringify({
          topic,
          requestId,
          result: { symbols, totalCount: symbols.length, truncated: false, form: 'symbols' },
        }),
      );
    }
    if (topic === CODE_ACTIONS) {
      const start = { line: params.line, character: params.character };
      const end = { line: params.endLine ?? params.line, character: params.endCharacter ?? params.character };
      // Without `only`, as idea-server: every kind, then the source actions a server gives only when asked.
      const ask = async (only?: string[]) =>
        ((await request('textDocument/codeAction', {
          textDocument,
          range: { start, end },
          context: { diagnostics: [], triggerKind: 1, ...(only && { only }) },
        })) ?? []) as { title: string; kind?: string }[];
      const list = params.only ? await ask(params.only) : [...(await ask()), ...(await ask(['source']))];
      const actions = list.map((a, i) => ({ id: String(i), title: a.title, kind: a.kind ?? '' }));
      return ws.send(JSON.stringify({ topic, requestId, result: { actions } }));
    }
    const position = { line: params.line, character: params.character };
    if (topic === HOVER) {
      const h = (await request('textDocument/hover', { textDocument, position })) as HoverAnswer | null;
      const list = h === null ? [] : Array.isArray(h.contents) ? h.contents : [h.contents];
      const contents = list.flatMap((c) =>
        typeof c === 'string'
          ? c
            ? [{ kind: 'markdown', value: c }]
            : []
          : c.value
            ? [
                {
                  kind: c.kind === 'plaintext' ? 'plaintext' : 'markdown',
                  value: c.language ? `\`\`\`${c.language}\n${c.value}\n\`\`\`` : c.value,
                },
              ]
            : [],
      );
      const range = h?.range ? wire(h.range) : undefined;
      return ws.send(JSON.stringify({ topic, requestId, result: range ? { contents, range } : { contents } }));
    }
    if (topic === REFERENCES) {
      const refs = (await request('textDocument/references', {
        textDocument,
        position,
        context: { includeDeclaration: params.includeDeclaration ?? true },
      })) as { uri: string; range: LspRange }[] | null;
      const locations = (refs ?? []).map((l) => ({ filePath: fileURLToPath(l.uri), ...wire(l.range) }));
      return ws.send(JSON.stringify({ topic, requestId, result: { locations, totalCount: locations.length } }));
    }
    const answer = (await request('textDocument/definition', {
      textDocument: { uri: pathToFileURL(params.filePath).href },
      position: { line: params.line, character: params.character },
    })) as Link[] | null;
    const locations = [];
    for (const l of answer ?? [])
      locations.push({
        filePath: fileURLToPath(l.targetUri),
        line: l.targetRange.start.line,
        character: l.targetRange.start.character,
        endLine: l.targetRange.end.line,
        endCharacter: l.targetRange.end.character,
        code: await codeOf(l),
      });
    ws.send(JSON.stringify({ topic, requestId, result: { locations } }));
  });
});
await new Promise((resolve) => wss.once('listening', resolve));
const { port } = wss.address() as { port: number };
process.on('message', (m) => {
  if (m === 'cpu') process.send!({ cpu: process.cpuUsage() });
  if (m === 'stop') {
    killGroup(tsls.pid!);
    wss.close();
    process.exit(0);
  }
});
process.send!({ url: `ws://127.0.0.1:${port}` });
