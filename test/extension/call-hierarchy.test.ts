// The extension's call hierarchy (extension/src/call-hierarchy.ts) over a stand-in `vscode` module that
// keeps prepared hierarchies as VS Code does: the newest 10, window-wide, the calls of an item of an older
// one answering nothing. A walk whose hierarchy other requests pushed out still gets its calls (the item
// is prepared again), concurrent walks included; prepare says why it has no item (clause T48): no language server (none), or a
// server whose symbols name a function there yet has no call hierarchy (unsupported).
import { beforeEach, describe, expect, it, vi } from 'vitest';

const state = vi.hoisted(() => ({
  languageId: 'typescript',
  extensions: [] as unknown[],
  /** VS Code's prepared hierarchies, oldest first (its `_models`). */
  sessions: [] as string[],
  nextSession: 0,
  /** Function name → its callers' names; every function is declared on the line of its index here. */
  functions: ['main', 'route', 'add', 'fetch'],
  callers: {} as Record<string, string[]>,
  /** What prepare answers: the function whose name starts at the position, or none. */
  prepareAnswers: true,
  /** The document's symbols (for the unsupported check). */
  symbols: [] as unknown[],
  prepared: 0,
  /** How long each call hierarchy command takes; its effect (a hierarchy kept or dropped) is at its end. */
  commandMs: 0,
}));

vi.mock('vscode', () => {
  class Position {
    constructor(
      readonly line: number,
      readonly character: number,
    ) {}
    isEqual(o: Position) {
      return o.line === this.line && o.character === this.character;
    }
  }
  class Range {
    constructor(
      readonly start: Position,
      readonly end: Position,
    ) {}
    isEqual(o: Range) {
      return this.start.isEqual(o.start) && this.end.isEqual(o.end);
    }
    contains(p: Position) {
      return p.line === this.start.line && p.character >= this.start.character && p.character <= this.end.character;
    }
  }
  const uri = { scheme: 'file', fsPath: '/w/app.ts' };
  const item = (name: string, session: string) => {
    const line = state.functions.indexOf(name);
    return {
      name,
      kind: 5,
      detail: 'App',
      uri,
      range: new Range(new Position(line, 0), new Position(line, 40)),
      selectionRange: new Range(new Position(line, 2), new Position(line, 2 + name.length)),
      _sessionId: session,
    };
  };
  const live = (i: { _sessionId: string }) => state.sessions.includes(i._sessionId);
  return {
    Position,
    Range,
    Uri: { file: (fsPath: string) => ({ scheme: 'file', fsPath }) },
    extensions: {
      get all() {
        return state.extensions;
      },
    },
    workspace: {
      openTextDocument: async () => ({ languageId: state.languageId, version: 1, uri }),
      textDocuments: [],
    },
    commands: {
      executeCommand: async (command: string, ...args: unknown[]) => {
        if (state.commandMs > 0 && command !== 'typescript.tsserverRequest')
          await new Promise((r) => setTimeout(r, state.commandMs));
        switch (command) {
          case 'typescript.tsserverRequest':
            return { type: 'response', body: [] };
          case 'vscode.executeDocumentSymbolProvider':
            return state.symbols;
          case 'vscode.prepareCallHierarchy': {
            state.prepared++;
            const at = args[1] as Position;
            const name = state.functions[at.line];
            if (!state.prepareAnswers || name === undefined || at.character !== 2) return [];
            const session = `s${state.nextSession++}`;
            state.sessions.push(session);
            while (state.sessions.length > 10) state.sessions.shift();
            return [item(name, session)];
          }
          case 'vscode.provideIncomingCalls': {
            const of = args[0] as ReturnType<typeof item>;
            if (!live(of)) return []; // VS Code: the hierarchy is gone, "no calls"
            return (state.callers[of.name] ?? []).map((c) => ({
              from: item(c, of._sessionId),
              fromRanges: [new Range(new Position(9, 1), new Position(9, 4))],
            }));
          }
          case 'vscode.provideOutgoingCalls': {
            const of = args[0] as ReturnType<typeof item>;
            if (!live(of)) return [];
            const callees = Object.entries(state.callers)
              .filter(([, cs]) => cs.includes(of.name))
              .map(([callee]) => callee);
            return callees.map((c) => ({
              to: item(c, of._sessionId),
              fromRanges: [new Range(new Position(7, 3), new Position(7, 6))],
            }));
          }
        }
        throw new Error(command);
      },
    },
  };
});

const { vscodeCallHierarchy: hierarchy } = await import('../../extension/src/call-hierarchy');
const signal = new AbortController().signal;
const TS_EXTENSION = {
  id: 'vscode.typescript-language-features',
  packageJSON: { main: './x.js', activationEvents: ['onLanguage:typescript'] },
  activate: async () => ({}),
};

beforeEach(() => {
  state.languageId = 'typescript';
  state.extensions = [TS_EXTENSION];
  state.callers = { route: ['main', 'fetch'], add: ['route'] };
  state.prepareAnswers = true;
  state.symbols = [];
  state.prepared = 0;
  state.commandMs = 0;
});

const names = (calls: { item: { name: string } }[]) => calls.map((c) => c.item.name);

describe('call hierarchy', () => {
  it('prepares the function at a position, and asks its callers and callees with their call sites', async () => {
    const items = await hierarchy.prepare('/w/app.ts', { line: 1, character: 2 }, signal);
    expect(Array.isArray(items)).toBe(true);
    const [route] = items as Exclude<typeof items, { unavailable: string }>;
    expect(route).toMatchObject({
      name: 'route',
      kind: 5,
      detail: 'App',
      filePath: '/w/app.ts',
      range: { start: { line: 1, character: 0 }, end: { line: 1, character: 40 } },
      selectionRange: { start: { line: 1, character: 2 }, end: { line: 1, character: 7 } },
    });
    const incoming = await hierarchy.incoming(route!, signal);
    expect(names(incoming)).toEqual(['main', 'fetch']);
    expect(incoming[0]!.ranges).toEqual([{ start: { line: 9, character: 1 }, end: { line: 9, character: 4 } }]);
    expect(names(await hierarchy.outgoing(route!, signal))).toEqual(['add']);
    // A caller's own callers: the walk goes on with the items the answer gave.
    expect(names(await hierarchy.incoming(incoming[0]!.item, signal))).toEqual([]);
    expect(names(await hierarchy.incoming((await hierarchy.outgoing(route!, signal))[0]!.item, signal))).toEqual([
      'route',
    ]);
  });

  it("still gets the calls of an item whose hierarchy other requests pushed out of VS Code's ten", async () => {
    const [route] = (await hierarchy.prepare('/w/app.ts', { line: 1, character: 2 }, signal)) as { name: string }[];
    const [callerOfRoute] = await hierarchy.incoming(route as never, signal);
    for (let i = 0; i < 12; i++) await hierarchy.prepare('/w/app.ts', { line: 2, character: 2 }, signal);
    const before = state.prepared;
    expect(names(await hierarchy.incoming(route as never, signal))).toEqual(['main', 'fetch']);
    expect(names(await hierarchy.outgoing(callerOfRoute!.item, signal))).toEqual(['route']);
    expect(state.prepared).toBe(before + 2); // prepared again, once each
    // Alive again: asked without preparing.
    expect(names(await hierarchy.incoming(route as never, signal))).toEqual(['main', 'fetch']);
    expect(state.prepared).toBe(before + 2);
  });

  it('gives concurrent walks the same calls as one alone, whatever prepares run meanwhile', async () => {
    state.commandMs = 2;
    state.symbols = [{ name: 'App', kind: 4, selectionRange: { contains: () => false }, children: [] }];
    const walk = async () => {
      const [add] = (await hierarchy.prepare('/w/app.ts', { line: 2, character: 2 }, signal)) as never[];
      const callers = await hierarchy.incoming(add!, signal);
      const theirs = await Promise.all(callers.map((c) => hierarchy.incoming(c.item, signal)));
      return [names(callers), theirs.map(names)];
    };
    const alone = await walk();
    expect(alone).toEqual([['route'], [['main', 'fetch']]]);
    const together = await Promise.all(Array.from({ length: 16 }, walk));
    for (const w of together) expect(w).toEqual(alone);
  });

  it('answers no item where there is no function, and says why when there can be none', async () => {
    state.symbols = [{ name: 'App', kind: 4, selectionRange: { contains: () => false }, children: [] }]; // the server is up
    expect(await hierarchy.prepare('/w/app.ts', { line: 1, character: 0 }, signal)).toEqual([]);
    // A language server whose symbols name a method there, and no call hierarchy: unsupported.
    state.languageId = 'lua';
    state.extensions = [
      {
        id: 'test.lua',
        packageJSON: { main: './x.js', activationEvents: ['onLanguage:lua'] },
        activate: async () => ({}),
      },
    ];
    state.prepareAnswers = false;
    const p = (line: number, character: number) => ({ line, character, isEqual: () => false });
    const contains = (at: { line: number; character: number }) =>
      at.line === 1 && at.character >= 2 && at.character <= 7;
    state.symbols = [
      {
        name: 'App',
        kind: 4,
        selectionRange: { contains: () => false },
        children: [{ name: 'route', kind: 5, selectionRange: { contains }, children: [] }],
      },
      { name: 'x', kind: 12, selectionRange: { contains: () => true }, children: [], range: { start: p(0, 0) } },
    ];
    expect(await hierarchy.prepare('/w/app.lua', { line: 1, character: 2 }, signal)).toEqual({
      kind: 'unsupported',
      unavailable: 'the lua language server offers no call hierarchy',
    });
    expect(await hierarchy.prepare('/w/app.lua', { line: 3, character: 2 }, signal)).toEqual([]);
    // No language server at all: none.
    state.languageId = 'plaintext';
    expect(await hierarchy.prepare('/w/app.txt', { line: 1, character: 2 }, signal)).toMatchObject({ kind: 'none' });
  });
});
