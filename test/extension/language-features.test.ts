// The extension's LanguageFeatures (extension/src/language-features.ts) with a stand-in `vscode` module.
// documentSymbols: symbols asked 'once' (the core widening a location) are remembered per document object
// and version, non-empty answers only; 'wait' (nav/symbols) always asks. A document already open is not
// opened again. Why an empty answer is empty (clause T48, language-answer.ts): no extension serves the
// language (none), the one that does failed to activate (down) or is still activating (loading), or its
// provider never came back within the bound (loading); an extension that is up and answered nothing gives
// a plain empty answer.
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';

interface StandInExtension {
  id: string;
  packageJSON: { main: string; activationEvents: string[] };
  activate(): Promise<unknown>;
}

/** An answer that never comes (a provider waiting on a server that died). */
const HANG = vi.hoisted(() => [] as unknown[]);

const state = vi.hoisted(() => ({
  asked: 0,
  opened: 0,
  isOpen: false,
  symbols: [] as unknown[],
  answers: {} as Record<string, unknown[]>,
  extensions: [] as StandInExtension[],
  doc: { languageId: 'plaintext', version: 1, uri: { scheme: 'file', fsPath: '/w/a.txt' } },
}));

vi.mock('vscode', () => {
  class Position {
    constructor(
      readonly line: number,
      readonly character: number,
    ) {}
  }
  return {
    Position,
    MarkdownString: class {},
    Uri: { file: (fsPath: string) => ({ scheme: 'file', fsPath }) },
    extensions: {
      get all() {
        return state.extensions;
      },
    },
    workspace: {
      openTextDocument: async () => (state.opened++, state.doc),
      get textDocuments() {
        return state.isOpen ? [state.doc] : [];
      },
    },
    commands: {
      executeCommand: async (command: string) => {
        if (command === 'vscode.executeDocumentSymbolProvider') {
          state.asked++;
          return state.symbols === HANG ? new Promise(() => {}) : state.symbols;
        }
        if (state.answers[command] === HANG) return new Promise(() => {});
        if (command in state.answers) return state.answers[command];
        throw new Error(command);
      },
    },
  };
});

const { vscodeLanguageFeatures } = await import('../../extension/src/language-features');
const features = vscodeLanguageFeatures({} as never);
const signal = new AbortController().signal;
const once = () => features.documentSymbols('/w/a.txt', signal, 'once');
/** A position as VS Code's: line and character behind getters, not own properties. */
class GetterPosition {
  constructor(
    private readonly _line: number,
    private readonly _character: number,
  ) {}
  get line() {
    return this._line;
  }
  get character() {
    return this._character;
  }
}
const rangeAt = (line: number) => ({ start: new GetterPosition(line, 2), end: new GetterPosition(line, 9) });
const plainAt = (line: number) => ({ start: { line, character: 2 }, end: { line, character: 9 } });
/** A DocumentSymbol as VS Code hands it over, and as the core gets it: plain, children listed. */
const sym = (name: string) => ({ name, kind: 4, range: rangeAt(1), selectionRange: rangeAt(1) });
const plainSym = (name: string) => ({ name, kind: 4, range: plainAt(1), selectionRange: plainAt(1), children: [] });
const at = { line: 0, character: 0 };

/** A document of `languageId` served by one extension whose activation does `activate`. */
function servedBy(languageId: string, activate: () => Promise<unknown>) {
  state.doc = { ...state.doc, languageId };
  state.extensions = [
    {
      id: `test.${languageId}`,
      packageJSON: { main: './x.js', activationEvents: [`onLanguage:${languageId}`] },
      activate,
    },
  ];
}

/** The position topics, each asked at `at`; results the core would see. */
const asks = () => ({
  definition: features.definition('/w/a.txt', at, signal),
  typeDefinition: features.typeDefinition!('/w/a.txt', at, signal),
  implementation: features.implementation!('/w/a.txt', at, signal),
  references: features.references('/w/a.txt', at, true, signal),
  hover: features.hover!('/w/a.txt', at, signal),
  symbols: features.documentSymbols('/w/a.txt', signal, 'wait'),
});

beforeEach(() => {
  state.asked = 0;
  state.opened = 0;
  state.isOpen = false;
  state.symbols = [sym('A')];
  state.extensions = [];
  state.answers = {
    'vscode.executeDefinitionProvider': [],
    'vscode.executeTypeDefinitionProvider': [],
    'vscode.executeImplementationProvider': [],
    'vscode.executeReferenceProvider': [],
    'vscode.executeHoverProvider': [],
  };
  state.doc = { languageId: 'plaintext', version: 1, uri: { scheme: 'file', fsPath: '/w/a.txt' } };
});
afterEach(() => {
  vi.useRealTimers();
});

describe('documentSymbols', () => {
  it("asks once per document version for 'once'", async () => {
    expect(await once()).toEqual([plainSym('A')]);
    expect(await once()).toEqual([plainSym('A')]);
    expect(state.asked).toBe(1);
    state.doc.version = 2;
    state.symbols = [sym('B')];
    expect(await once()).toEqual([plainSym('B')]);
    state.doc = { ...state.doc }; // the file reopened: a new document, same version number
    state.symbols = [sym('C')];
    expect(await once()).toEqual([plainSym('C')]);
    expect(state.asked).toBe(3);
  });

  it('hands the core plain symbols: positions that survive a spread or JSON, children and containers kept', async () => {
    state.symbols = [
      { ...sym('Outer'), children: [sym('inner')] },
      { name: 'flat', kind: 11, containerName: 'Outer', location: { uri: {}, range: rangeAt(4) } },
      null,
    ];
    const got = await features.documentSymbols('/w/a.txt', signal, 'wait');
    expect(got).toEqual([
      { ...plainSym('Outer'), children: [plainSym('inner')] },
      { name: 'flat', kind: 11, containerName: 'Outer', location: { range: plainAt(4) } },
    ]);
    expect(JSON.parse(JSON.stringify(got))).toEqual(got);
    expect({ ...(got as { selectionRange: { start: object } }[])[0]!.selectionRange.start }).toEqual({
      line: 1,
      character: 2,
    });
  });

  it("remembers no empty answer, and 'wait' always asks", async () => {
    state.symbols = [];
    await once();
    await once();
    expect(state.asked).toBe(2);
    state.symbols = [sym('A')];
    await features.documentSymbols('/w/a.txt', signal, 'wait');
    await features.documentSymbols('/w/a.txt', signal, 'wait');
    expect(state.asked).toBe(4);
    expect(state.opened).toBe(4);
    state.isOpen = true;
    await once();
    expect(state.opened).toBe(4);
  });
});

// clause T48: an empty answer says why when no language server could give one.
describe('why an answer is empty', () => {
  it('none: no installed extension serves the language, for every position topic and the symbols', async () => {
    state.symbols = [];
    const none = {
      kind: 'none',
      unavailable: 'no language server for plaintext files: no installed extension serves the language',
    };
    for (const [topic, answer] of Object.entries(asks())) expect(await answer, topic).toEqual(none);
    expect(await once()).toEqual(none);
    // Something answered after all (a provider registered without a language activation): the answer stands.
    state.answers['vscode.executeDefinitionProvider'] = [
      { uri: { scheme: 'file', fsPath: '/w/b.txt' }, range: range() },
    ];
    state.symbols = [sym('A')];
    expect(await features.definition('/w/a.txt', at, signal)).toEqual([
      { filePath: '/w/b.txt', range: { start: { line: 1, character: 2 }, end: { line: 1, character: 5 } } },
    ]);
    expect(await once()).toEqual([plainSym('A')]);
  });

  it('nothing: the language server is up (its symbols answer) and found nothing there', async () => {
    servedBy('lua', async () => ({}));
    for (const [topic, answer] of Object.entries(asks())) {
      const got = await answer;
      expect(got, topic).toEqual(topic === 'hover' ? { contents: [] } : topic === 'symbols' ? [plainSym('A')] : []);
    }
  });

  it('down: the extension serving the language failed to activate; loading: it is still activating', async () => {
    vi.useFakeTimers();
    state.symbols = [];
    servedBy('toml', () => Promise.reject(new Error('spawn toml-ls ENOENT')));
    const down = features.definition('/w/a.txt', at, signal);
    await vi.advanceTimersByTimeAsync(25_000);
    expect(await down).toEqual({
      kind: 'down',
      unavailable: 'the toml language server failed to start (test.toml: spawn toml-ls ENOENT)',
    });
    servedBy('yaml', () => new Promise(() => {}));
    const loading = features.references('/w/a.txt', at, false, signal);
    await vi.advanceTimersByTimeAsync(25_000);
    expect(await loading).toEqual({
      kind: 'loading',
      unavailable: 'the yaml language server (test.yaml) is still starting',
    });
  });

  it('loading: a provider that never answers ends the wait at the bound', async () => {
    vi.useFakeTimers();
    servedBy('ini', async () => ({}));
    state.answers['vscode.executeImplementationProvider'] = HANG;
    const silent = features.implementation!('/w/a.txt', at, signal);
    await vi.advanceTimersByTimeAsync(20_000);
    expect(await silent).toEqual({
      kind: 'loading',
      unavailable: 'the ini language server did not answer within 20 s',
    });
    state.symbols = HANG;
    const symbols = features.documentSymbols('/w/a.txt', signal, 'wait');
    await vi.advanceTimersByTimeAsync(20_000);
    expect(await symbols).toEqual({
      kind: 'loading',
      unavailable: 'the ini language server did not answer within 20 s',
    });
  });
});

function range() {
  const p = (line: number, character: number) => ({ line, character });
  return { start: p(1, 2), end: p(1, 5) };
}
