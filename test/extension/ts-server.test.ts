// tsserver readiness (extension/src/ts-server.ts) with a stand-in `vscode` module: a document's check
// is remembered for its version while nothing says a project may load again (a TS/JS document opening,
// a tsconfig/jsconfig change, a configuration change, diagnostics changing), READY_FOR_MS at most, and
// only while watched; a failed check or one overtaken by an event is not remembered. Why tsserver cannot
// answer (clause T48): VS Code's client saying no server runs, or the server exiting again and again while
// we wait, is `down`, no answer within the bound `loading`; a dropped (cancelled) request is asked again.
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';

const state = vi.hoisted(() => ({
  asked: 0,
  fail: undefined as string | undefined,
  /** What VS Code's TypeScript client answers, one per ask (the last one repeats). */
  answers: [] as unknown[],
  /** The ask never answers. */
  hang: false,
  /** Runs while a check is in flight (an event arriving meanwhile). */
  during: undefined as (() => void) | undefined,
  listeners: new Map<string, ((e: unknown) => void)[]>(),
}));

vi.mock('vscode', () => {
  const on =
    (name: string) =>
    (l: (e: unknown) => void): { dispose(): void } => {
      state.listeners.set(name, [...(state.listeners.get(name) ?? []), l]);
      return {
        dispose: () =>
          state.listeners.set(
            name,
            (state.listeners.get(name) ?? []).filter((x) => x !== l),
          ),
      };
    };
  return {
    commands: {
      executeCommand: async (command: string, request: string) => {
        if (command !== 'typescript.tsserverRequest' || request !== 'semanticDiagnosticsSync') throw new Error(command);
        state.asked++;
        state.during?.();
        if (state.fail) throw new Error(state.fail);
        if (state.hang) return new Promise(() => {});
        return state.answers.length > 1 ? state.answers.shift() : (state.answers[0] ?? { type: 'response', body: [] });
      },
    },
    extensions: {
      all: [
        {
          id: 'vscode.typescript-language-features',
          packageJSON: {
            main: './dist/extension',
            activationEvents: ['onLanguage:typescript', 'onLanguage:javascript'],
          },
        },
      ],
    },
    workspace: {
      onDidOpenTextDocument: on('open'),
      onDidChangeConfiguration: on('configuration'),
      createFileSystemWatcher: (glob: string) => ({
        onDidCreate: on(`create ${glob}`),
        onDidChange: on(`change ${glob}`),
        onDidDelete: on(`delete ${glob}`),
        dispose: () => undefined,
      }),
    },
    languages: { onDidChangeDiagnostics: on('diagnostics') },
  };
});

const { semanticServerReady, watchTsServerState } = await import('../../extension/src/ts-server');

const fire = (name: string, e: unknown = {}) => {
  for (const l of state.listeners.get(name) ?? []) l(e);
};
const CONFIGS = '**/{tsconfig,jsconfig}*.json';
const doc = (languageId = 'typescript') => ({
  languageId,
  version: 1,
  uri: { scheme: 'file', path: '/w/a.ts', fsPath: '/w/a.ts' },
});
type Doc = ReturnType<typeof doc>;
const ready = (d: Doc) => semanticServerReady(d as never);

let watch: { dispose(): void } | undefined;
beforeEach(() => {
  state.asked = 0;
  state.fail = undefined;
  state.during = undefined;
  state.answers = [];
  state.hang = false;
  watch = watchTsServerState();
});
afterEach(() => {
  watch?.dispose();
  vi.useRealTimers();
});

describe('semanticServerReady', () => {
  it('asks tsserver once per document version while nothing moved', async () => {
    const a = doc();
    await ready(a);
    await ready(a);
    expect(state.asked).toBe(1);
    await ready(doc()); // another document (a reopened file is a new object)
    expect(state.asked).toBe(2);
    a.version = 2;
    await ready(a);
    await ready(a);
    expect(state.asked).toBe(3);
    await ready(doc('plaintext'));
    expect(state.asked).toBe(3);
  });

  it('asks again after each event that can make tsserver load a project', async () => {
    const a = doc();
    await ready(a);
    const events: [string, unknown?][] = [
      ['open', { languageId: 'javascript' }],
      ['configuration'],
      ['diagnostics'],
      [`create ${CONFIGS}`],
      [`change ${CONFIGS}`],
      [`delete ${CONFIGS}`],
    ];
    for (const [i, [name, e]] of events.entries()) {
      fire(name, e);
      await ready(a);
      await ready(a);
      expect(state.asked, name).toBe(i + 2);
    }
    fire('open', { languageId: 'markdown' }); // not a file tsserver opens
    await ready(a);
    expect(state.asked).toBe(events.length + 1);
  });

  it('asks again once READY_FOR_MS (2 s) passed: what no event announces (a restart) is bounded', async () => {
    vi.useFakeTimers({ toFake: ['Date'] });
    const a = doc();
    await ready(a);
    vi.setSystemTime(Date.now() + 1900);
    await ready(a);
    expect(state.asked).toBe(1);
    vi.setSystemTime(Date.now() + 200);
    await ready(a);
    expect(state.asked).toBe(2);
  });

  it('remembers nothing from a failed check, one overtaken by an event, or while not watching', async () => {
    const a = doc();
    state.fail = 'TypeScript Server Error: No Project';
    await ready(a); // not retried: the error is an answer
    await ready(a);
    expect(state.asked).toBe(2);
    state.fail = undefined;
    state.during = () => fire('diagnostics');
    await ready(a);
    state.during = undefined;
    await ready(a);
    expect(state.asked).toBe(4);
    await ready(a);
    expect(state.asked).toBe(4);
    watch?.dispose();
    watch = undefined;
    await ready(a);
    await ready(a);
    expect(state.asked).toBe(6);
  });

  it('says down when no tsserver runs, loading when none answers within the bound, and remembers neither', async () => {
    const a = doc();
    state.answers = [{ type: 'noServer' }];
    expect(await ready(a)).toMatchObject({
      kind: 'down',
      unavailable: expect.stringMatching(/TypeScript server is not running/),
    });
    expect(await ready(a)).toMatchObject({ kind: 'down' });
    expect(state.asked).toBe(2);
    vi.useFakeTimers();
    state.hang = true;
    const pending = ready(a);
    await vi.advanceTimersByTimeAsync(20_000);
    expect(await pending).toMatchObject({ kind: 'loading', unavailable: expect.stringMatching(/within 20 s$/) });
    vi.useRealTimers();
    state.hang = false;
    state.answers = [];
    expect(await ready(a)).toBeUndefined();
    expect(await ready(a)).toBeUndefined();
    expect(state.asked).toBe(4);
  });

  it('says down when the server keeps exiting while it waits, and takes one exit for a restart', async () => {
    const exited = { type: 'cancelled', reason: 'server exited' };
    state.answers = [exited, { type: 'response', body: [] }];
    expect(await ready(doc())).toBeUndefined();
    expect(state.asked).toBe(2);
    state.answers = [exited, { type: 'cancelled', reason: 'server errored' }, exited, { type: 'response', body: [] }];
    expect(await ready(doc())).toEqual({
      kind: 'down',
      unavailable:
        "VS Code's TypeScript server keeps exiting (3 times while this request waited): it crashes at start or on this project (its output channel, TypeScript, says why)",
    });
    expect(state.asked).toBe(5);
  });

  it('asks again after a dropped request, and says nothing for a document that is not TS/JS', async () => {
    const a = doc();
    state.answers = [{ type: 'cancelled' }, { type: 'cancelled' }, { type: 'response', body: [] }];
    expect(await ready(a)).toBeUndefined();
    expect(state.asked).toBe(3);
    expect(await ready(doc('plaintext'))).toBeUndefined();
    expect(state.asked).toBe(3);
  });
});
