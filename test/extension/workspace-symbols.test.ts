// The extension's workspace symbols (extension/src/workspace-symbols.ts) over a stand-in `vscode` module:
// the query goes to every provider in lowercase (tsserver then matches it anywhere in a name), TS/JS
// functions and methods lose the `()` VS Code's TypeScript provider adds, only file:// symbols with a
// range are kept, a list of TS_PROVIDER_LIMIT symbols from TS/JS files says it may be cut, and an empty
// answer with no language server running says so (clause T48).
import { beforeEach, describe, expect, it, vi } from 'vitest';

const state = vi.hoisted(() => ({
  queries: [] as string[],
  symbols: [] as unknown[],
  extensions: [] as unknown[],
}));

vi.mock('vscode', () => ({
  SymbolKind: { Method: 5, Function: 11 },
  extensions: {
    get all() {
      return state.extensions;
    },
  },
  commands: {
    executeCommand: async (command: string, query: string) => {
      if (command !== 'vscode.executeWorkspaceSymbolProvider') throw new Error(command);
      state.queries.push(query);
      return state.symbols;
    },
  },
}));

const { vscodeWorkspaceSymbols, TS_PROVIDER_LIMIT } = await import('../../extension/src/workspace-symbols');
const signal = new AbortController().signal;

const range = (line: number) => ({
  start: { line, character: 2 },
  end: { line, character: 9 },
});
const symbol = (name: string, kind: number, fsPath: string, containerName = '', scheme = 'file') => ({
  name,
  kind,
  containerName,
  location: { uri: { scheme, fsPath }, range: range(3) },
});
const running = (isActive: boolean) => [
  { id: 'vscode.typescript-language-features', isActive, packageJSON: { activationEvents: ['onLanguage:typescript'] } },
  { id: 'vscode.git', isActive: true, packageJSON: { activationEvents: ['*'] } },
];

beforeEach(() => {
  state.queries = [];
  state.symbols = [];
  state.extensions = running(true);
});

describe('workspaceSymbols', () => {
  it('asks every provider in lowercase and keeps file symbols with their names, kinds and containers', async () => {
    state.symbols = [
      symbol('route()', 5, '/w/src/hono.ts', 'Hono'),
      symbol('createApp()', 11, '/w/src/app.mjs'),
      symbol('Shape', 4, '/w/src/shapes.tsx'),
      symbol('operator()', 5, '/w/src/op.cpp', 'Functor'), // not VS Code's TypeScript label: kept as named
      symbol('Remote', 4, '/w/x.ts', '', 'vscode-remote'),
      { name: 'NoRange', kind: 4, containerName: '', location: { uri: { scheme: 'file', fsPath: '/w/y.ts' } } },
    ];
    const got = await vscodeWorkspaceSymbols('ShApe', signal);
    expect(state.queries).toEqual(['shape']);
    expect(got).toEqual([
      { name: 'route', kind: 5, containerName: 'Hono', filePath: '/w/src/hono.ts', range: range(3) },
      { name: 'createApp', kind: 11, filePath: '/w/src/app.mjs', range: range(3) },
      { name: 'Shape', kind: 4, filePath: '/w/src/shapes.tsx', range: range(3) },
      { name: 'operator()', kind: 5, containerName: 'Functor', filePath: '/w/src/op.cpp', range: range(3) },
    ]);
    expect((got as { limitedBy?: string }).limitedBy).toBeUndefined();
  });

  it("says the list may be cut when VS Code's TypeScript provider gave as many as it lists", async () => {
    const many = (n: number, ext: string) =>
      Array.from({ length: n }, (_, i) => symbol(`s${i}`, 12, `/w/f${i}.${ext}`));
    state.symbols = [...many(TS_PROVIDER_LIMIT - 1, 'ts'), ...many(40, 'md')];
    expect((await vscodeWorkspaceSymbols('s', signal)) as { limitedBy?: string }).not.toHaveProperty('limitedBy');
    state.symbols = many(TS_PROVIDER_LIMIT, 'js');
    const cut = (await vscodeWorkspaceSymbols('s', signal)) as unknown[] & { limitedBy?: string };
    expect(cut).toHaveLength(TS_PROVIDER_LIMIT);
    expect(cut.limitedBy).toMatch(
      /^VS Code's TypeScript provider lists at most 256 symbols of a project, and listed 256/,
    );
  });

  it('an empty answer says why only when no language server runs', async () => {
    expect(await vscodeWorkspaceSymbols('nothing', signal)).toEqual([]);
    state.extensions = running(false);
    expect(await vscodeWorkspaceSymbols('nothing', signal)).toMatchObject({
      kind: 'none',
      unavailable: expect.stringMatching(/^no language server runs in this window/),
    });
    state.symbols = [symbol('Shape', 4, '/w/a.md')];
    expect(await vscodeWorkspaceSymbols('shape', signal)).toHaveLength(1);
  });
});
