// The extension's documentSymbols (extension/src/language-features.ts) with a stand-in `vscode` module:
// symbols asked 'once' (the core widening a location) are remembered per document object and version,
// non-empty answers only; 'wait' (nav/symbols) always asks. A document already open is not opened again.
import { beforeEach, describe, expect, it, vi } from 'vitest';

const state = vi.hoisted(() => ({
  asked: 0,
  opened: 0,
  isOpen: false,
  symbols: [] as unknown[],
  doc: { languageId: 'plaintext', version: 1, uri: { scheme: 'file', fsPath: '/w/a.txt' } },
}));

vi.mock('vscode', () => ({
  Uri: { file: (fsPath: string) => ({ scheme: 'file', fsPath }) },
  extensions: { all: [] },
  workspace: {
    openTextDocument: async () => (state.opened++, state.doc),
    get textDocuments() {
      return state.isOpen ? [state.doc] : [];
    },
  },
  commands: {
    executeCommand: async (command: string) => {
      if (command !== 'vscode.executeDocumentSymbolProvider') throw new Error(command);
      state.asked++;
      return state.symbols;
    },
  },
}));

const { vscodeLanguageFeatures } = await import('../../extension/src/language-features');
const features = vscodeLanguageFeatures({} as never);
const signal = new AbortController().signal;
const once = () => features.documentSymbols('/w/a.txt', signal, 'once');
const sym = (name: string) => ({ name, kind: 4, range: {}, selectionRange: {} });

beforeEach(() => {
  state.asked = 0;
  state.opened = 0;
  state.isOpen = false;
  state.symbols = [sym('A')];
  state.doc = { ...state.doc, version: 1 };
});

describe('documentSymbols', () => {
  it("asks once per document version for 'once'", async () => {
    expect(await once()).toEqual([sym('A')]);
    expect(await once()).toEqual([sym('A')]);
    expect(state.asked).toBe(1);
    state.doc.version = 2;
    state.symbols = [sym('B')];
    expect(await once()).toEqual([sym('B')]);
    state.doc = { ...state.doc }; // the file reopened: a new document, same version number
    state.symbols = [sym('C')];
    expect(await once()).toEqual([sym('C')]);
    expect(state.asked).toBe(3);
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
