// The extension's project loader (extension/src/projects.ts) over a stand-in `vscode` module: each file is
// opened as a document and counts as loaded once tsserver's semantic server answers for it; what could
// not be loaded comes back with why (a file that does not open, no TypeScript extension, tsserver not
// running, not loaded within the load's one time budget), in the order asked; at most LOADS_AT_ONCE files
// are in flight; a request that ended loads nothing more.
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';

const state = vi.hoisted(() => ({
  opened: [] as string[],
  asked: [] as string[],
  inFlight: 0,
  mostInFlight: 0,
  /** tsserver's answer per file (default: a response). */
  answers: {} as Record<string, unknown>,
  extensions: [] as unknown[],
  /** How long tsserver takes per request, and the requests before the next one (it answers in turn). */
  delayMs: 5,
  queue: Promise.resolve() as Promise<unknown>,
  /** Aborts this controller when the file named is asked. */
  abortAt: undefined as { path: string; controller: AbortController } | undefined,
}));

vi.mock('vscode', () => ({
  Uri: { file: (fsPath: string) => ({ scheme: 'file', fsPath }) },
  extensions: {
    get all() {
      return state.extensions;
    },
  },
  workspace: {
    textDocuments: [],
    openTextDocument: async (uri: { fsPath: string }) => {
      if (uri.fsPath.endsWith('gone.ts')) throw new Error(`cannot open ${uri.fsPath}: file not found`);
      state.opened.push(uri.fsPath);
      const languageId = uri.fsPath.endsWith('.py') ? 'python' : 'typescript';
      return { languageId, version: 1, uri: { scheme: 'file', fsPath: uri.fsPath } };
    },
  },
  commands: {
    executeCommand: async (command: string, _request: string, args: { file: { fsPath: string } }) => {
      if (command !== 'typescript.tsserverRequest') throw new Error(command);
      const path = args.file.fsPath;
      state.asked.push(path);
      state.inFlight++;
      state.mostInFlight = Math.max(state.mostInFlight, state.inFlight);
      // tsserver answers one request at a time.
      const turn = state.queue.then(() => new Promise((r) => setTimeout(r, state.delayMs)));
      state.queue = turn;
      await turn;
      state.inFlight--;
      if (state.abortAt?.path === path) state.abortAt.controller.abort();
      return state.answers[path] ?? { type: 'response', body: [] };
    },
  },
}));

const { vscodeProjects } = await import('../../extension/src/projects');
const TS_EXTENSION = {
  id: 'vscode.typescript-language-features',
  isActive: true,
  packageJSON: { main: './x.js', activationEvents: ['onLanguage:typescript'] },
};

beforeEach(() => {
  state.opened = [];
  state.asked = [];
  state.inFlight = 0;
  state.mostInFlight = 0;
  state.answers = {};
  state.extensions = [TS_EXTENSION];
  state.abortAt = undefined;
  state.delayMs = 5;
  state.queue = Promise.resolve();
});
afterEach(() => {
  vi.useRealTimers();
});

describe('projects.load', () => {
  it("opens one file of each project and waits until tsserver's semantic server answers for it", async () => {
    const files = Array.from({ length: 10 }, (_, i) => `/w/p${i}/src/index.ts`);
    expect(await vscodeProjects.load(files, new AbortController().signal)).toEqual([]);
    expect(state.opened.sort()).toEqual([...files].sort());
    expect(state.asked.sort()).toEqual([...files].sort());
    expect(state.mostInFlight).toBeGreaterThan(1);
    expect(state.mostInFlight).toBeLessThanOrEqual(4);
  });

  it('says why a file could not be loaded, in the order asked', async () => {
    state.answers['/w/b/src/b.ts'] = { type: 'noServer' };
    const got = await vscodeProjects.load(
      ['/w/a/src/a.ts', '/w/b/src/b.ts', '/w/c/gone.ts', '/w/d/main.py'],
      new AbortController().signal,
    );
    expect(got).toEqual([
      { path: '/w/b/src/b.ts', reason: expect.stringMatching(/^VS Code's TypeScript server is not running/) },
      { path: '/w/c/gone.ts', reason: 'could not be opened: cannot open /w/c/gone.ts: file not found' },
      {
        path: '/w/d/main.py',
        reason: 'no language server for python files: no installed extension serves the language',
      },
    ]);
  });

  it('shares one time budget between the files: what tsserver has not loaded by then is said so', async () => {
    vi.useFakeTimers();
    state.delayMs = 7000; // each project: 7 s, one after the other
    const files = Array.from({ length: 5 }, (_, i) => `/w/p${i}/index.ts`);
    const pending = vscodeProjects.load(files, new AbortController().signal);
    await vi.advanceTimersByTimeAsync(40_000);
    const late = expect.stringMatching(/^not loaded within the 20 s a request gives loading projects/);
    // Answers at 7, 14, 21, 28 and 35 s: the first two within the 20 s.
    expect(await pending).toEqual([
      { path: files[2], reason: late },
      { path: files[3], reason: late },
      { path: files[4], reason: late },
    ]);
  });

  it('loads nothing more once the request ended, and says so for each file left', async () => {
    const controller = new AbortController();
    const files = Array.from({ length: 12 }, (_, i) => `/w/p${i}/index.ts`);
    state.abortAt = { path: files[0]!, controller };
    const got = await vscodeProjects.load(files, controller.signal);
    expect(state.asked.length).toBeLessThanOrEqual(4);
    expect(got.length).toBeGreaterThanOrEqual(files.length - 3);
    for (const f of got) expect(f.reason).toBe('not loaded: the request ended first');
    expect(got.map((f) => f.path)).toEqual(files.filter((f) => got.some((g) => g.path === f)));
  });
});
