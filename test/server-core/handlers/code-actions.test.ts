// edit/codeActions through the served version's session and the core's handlers (clause T54), over a
// host whose code actions are scripted: the range asked (a position, a range, a symbol's), the actions
// with ids and their diagnostics on the wire, `only` passed on, every kind (the source ones asked for
// besides, once each) without it, a file no server serves answered empty with why (T48), ids unique per
// connection, and bad ranges refused before any server is asked.
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { ServerSession } from '../../../generated/current';
import { createCoreHandlers } from '../../../server-core/handlers/index';
import type { CodeActionOffer, CoreHost, LanguageFeatures, Range } from '../../../server-core/host';
import { gatedAsClient, RequestGate } from '../../../server-core/limits/requests';
import type { TreeSymbol } from '../../../server-core/symbols';
import { fakeHost } from '../fake-host';

const root = mkdtempSync(join(tmpdir(), 'idea-code-actions-'));
const ws = join(root, 'ws');
mkdirSync(ws, { recursive: true });
const file = join(ws, 'a.ts');
writeFileSync(file, ['export class Shape {', '  area() { return greet(); }', '}', ''].join('\n'));
writeFileSync(join(ws, 'notes.md'), '# notes\n');
afterAll(() => rmSync(root, { recursive: true, force: true }));

const r = (l1: number, c1: number, l2: number, c2: number): Range => ({
  start: { line: l1, character: c1 },
  end: { line: l2, character: c2 },
});
const SYMBOLS: TreeSymbol[] = [
  { name: 'Shape', kind: 4, range: r(0, 0, 2, 1), selectionRange: r(0, 13, 0, 18), children: [] },
];
const missing = { range: r(1, 19, 1, 24), severity: 0, message: "Cannot find name 'greet'.", source: 'ts', code: 2304 };

/** Sessions of one server (one handler set), each its own connection, answers validated against the schemas. */
function server(host: CoreHost) {
  const handlers = createCoreHandlers(host);
  const gate = new RequestGate();
  let connections = 0;
  const connect = () => {
    const id = `connection-${++connections}`;
    const sent: Record<string, unknown>[] = [];
    const session = new ServerSession({
      handlers,
      auth: { required: false },
      workspaces: () => host.folders.paths(),
      send: (f) => sent.push(JSON.parse(f) as Record<string, unknown>),
      close: () => {},
      validateResults: true,
      aroundRequest: (request, call) => gatedAsClient(gate, id, request, call),
    });
    session.onFrame(JSON.stringify({ type: 'handshake' }));
    const capabilities = (sent.shift() as { capabilities: string[] }).capabilities;
    let n = 0;
    const ask = async (topic: string, params: object) => {
      const requestId = `r${++n}`;
      session.onFrame(JSON.stringify({ topic: `/app/vscode/${topic}`, requestId, params }));
      const deadline = Date.now() + 5000;
      while (!sent.some((f) => f.requestId === requestId)) {
        if (Date.now() > deadline) throw new Error(`no answer to ${topic} within 5000 ms`);
        await new Promise((done) => setTimeout(done, 2));
      }
      return sent.find((f) => f.requestId === requestId) as {
        result?: { actions: Record<string, unknown>[]; unavailable?: unknown };
        error?: { code: string; message: string };
      };
    };
    return { ask, capabilities };
  };
  return connect;
}

function scripted() {
  const asked: { path: string; range: Range; only: readonly string[] | undefined }[] = [];
  const codeActions: NonNullable<LanguageFeatures['codeActions']> = async (path, range, only) => {
    asked.push({ path, range, only });
    if (path.endsWith('.md')) return { unavailable: 'no language server is configured for .md files', kind: 'none' };
    const list: CodeActionOffer[] = only?.includes('source')
      ? [
          { title: 'Organize Imports', kind: 'source.organizeImports', diagnostics: [], handle: 1 },
          { title: 'Extract to function', kind: 'refactor.extract.function', diagnostics: [], handle: 2 },
        ]
      : [
          { title: 'Add import from "./b"', kind: 'quickfix', isPreferred: true, diagnostics: [missing], handle: 3 },
          { title: 'Extract to function', kind: 'refactor.extract.function', diagnostics: [], handle: 4 },
          { title: 'Pick one', kind: 'refactor', disabled: 'it asks the user to choose', diagnostics: [], handle: 5 },
        ];
    return list;
  };
  const host = fakeHost(root, { language: { codeActions, documentSymbols: async () => SYMBOLS } });
  return { host, asked };
}

describe('edit/codeActions', () => {
  it('every kind: the source actions asked for besides; ids, diagnostics and disabled on the wire', async () => {
    const { host, asked } = scripted();
    const { ask, capabilities } = server(host)();
    expect(capabilities).toContain('/app/vscode/edit/codeActions');
    const answer = await ask('edit/codeActions', { filePath: 'a.ts', line: 1, character: 21 });
    expect(asked).toEqual([
      { path: file, range: r(1, 21, 1, 21), only: undefined },
      { path: file, range: r(1, 21, 1, 21), only: ['source'] },
    ]);
    const actions = answer.result!.actions;
    expect(actions.map((a) => [a.title, a.kind])).toEqual([
      ['Add import from "./b"', 'quickfix'],
      ['Extract to function', 'refactor.extract.function'],
      ['Pick one', 'refactor'],
      ['Organize Imports', 'source.organizeImports'],
    ]);
    expect(actions[0]).toMatchObject({
      isPreferred: true,
      diagnostics: [
        {
          filePath: file,
          line: 1,
          character: 19,
          endLine: 1,
          endCharacter: 24,
          severity: 'error',
          message: "Cannot find name 'greet'.",
          source: 'ts',
          code: '2304',
        },
      ],
    });
    expect(actions[2]!.disabled).toBe('it asks the user to choose');
    expect(new Set(actions.map((a) => a.id)).size).toBe(4);
    for (const a of actions) expect(a.id).toMatch(/^ca-\d+-[0-9a-f]{12}$/);
  });

  it('only is passed on, once; a range and a symbol are asked as given', async () => {
    const { host, asked } = scripted();
    const { ask } = server(host)();
    await ask('edit/codeActions', {
      filePath: file,
      line: 0,
      character: 0,
      endLine: 2,
      endCharacter: 1,
      only: ['quickfix'],
    });
    await ask('edit/codeActions', { filePath: file, namePath: 'Shape', only: ['refactor'] });
    expect(asked).toEqual([
      { path: file, range: r(0, 0, 2, 1), only: ['quickfix'] },
      { path: file, range: r(0, 0, 2, 1), only: ['refactor'] },
    ]);
  });

  it('ids are unique on each connection and across them', async () => {
    const { host } = scripted();
    const connect = server(host);
    const one = connect();
    const two = connect();
    const ids = new Set<unknown>();
    for (const c of [one, two, one])
      for (const a of (await c.ask('edit/codeActions', { filePath: file, line: 1, character: 21 })).result!.actions)
        ids.add(a.id);
    expect(ids.size).toBe(12);
  });

  it('a file no language server serves: no actions, and why (T48)', async () => {
    const { host } = scripted();
    const { ask } = server(host)();
    const answer = await ask('edit/codeActions', { filePath: 'notes.md', line: 0, character: 0 });
    expect(answer.result).toEqual({
      actions: [],
      unavailable: { kind: 'none', reason: 'no language server is configured for .md files' },
    });
  });

  it('a range that ends before it starts, or past the file or its line, is refused before any server is asked', async () => {
    const { host, asked } = scripted();
    const { ask } = server(host)();
    const before = await ask('edit/codeActions', {
      filePath: file,
      line: 1,
      character: 5,
      endLine: 0,
      endCharacter: 0,
    });
    expect(before.error).toMatchObject({ code: 'INVALID_REQUEST', message: 'the range ends before it starts' });
    const past = await ask('edit/codeActions', { filePath: file, line: 0, character: 0, endLine: 9, endCharacter: 0 });
    expect(past.error).toMatchObject({
      code: 'INVALID_REQUEST',
      message: 'endLine 9 is beyond the end of the file (4 lines)',
    });
    const wide = await ask('edit/codeActions', { filePath: file, line: 0, character: 99 });
    expect(wide.error).toMatchObject({
      code: 'INVALID_REQUEST',
      message: expect.stringMatching(/^character 99 is past the end of line 0 \(\d+ characters\)$/),
    });
    const half = await ask('edit/codeActions', { filePath: file, line: 0, character: 0, endLine: 1 });
    expect(half.error).toMatchObject({ code: 'INVALID_REQUEST' });
    const outside = await ask('edit/codeActions', { filePath: '/etc/passwd', line: 0, character: 0 });
    expect(outside.error).toMatchObject({ code: 'INVALID_REQUEST' });
    expect(asked).toEqual([]);
  });
});
