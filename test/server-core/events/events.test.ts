// server-core/events: diagnostics deltas and their merge, the confinement filter, the files/changed
// window and the sources that tie them together (what both servers push in protocol 0.1.7).
import { mkdirSync, mkdtempSync, realpathSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import type { RawDiagnostic } from '../../../server-core/diagnostics';
import { ChangeWindow, MAX_WINDOW_FILES, WINDOW_MS } from '../../../server-core/events/change-window';
import {
  DiagnosticsBaseline,
  type EventDiagnostic,
  mergeDiagnosticsDeltas,
} from '../../../server-core/events/diagnostics-delta';
import { EventScope } from '../../../server-core/events/scope';
import {
  CoreEventSources,
  DIAGNOSTICS_CHANGED,
  EDITOR_CHANGED,
  EDITOR_SETTLE_MS,
  FILES_CHANGED,
} from '../../../server-core/events/sources';
import type { EditorHost, FileChange } from '../../../server-core/host';

const diag = (message: string, line = 0): EventDiagnostic => ({
  line,
  character: 0,
  endLine: line,
  endCharacter: 1,
  severity: 'error',
  message,
  source: 'ts',
  code: null,
});
const raw = (message: string, line = 0): RawDiagnostic => ({
  range: { start: { line, character: 0 }, end: { line, character: 1 } },
  severity: 0,
  message,
  source: 'ts',
});

describe('diagnostics deltas', () => {
  it('reports what was added and removed since the last record, nothing when nothing changed', () => {
    const b = new DiagnosticsBaseline();
    expect(b.update('/w/a.ts', [diag('A'), diag('B')])).toEqual({
      filePath: '/w/a.ts',
      added: [diag('A'), diag('B')],
      removed: [],
      total: 2,
    });
    expect(b.update('/w/a.ts', [diag('B'), diag('A')])).toBeUndefined();
    // A diagnostic that moved is one removed and one added.
    expect(b.update('/w/a.ts', [diag('A'), diag('B', 3)])).toEqual({
      filePath: '/w/a.ts',
      added: [diag('B', 3)],
      removed: [diag('B')],
      total: 2,
    });
    expect(b.snapshot()).toEqual([{ filePath: '/w/a.ts', added: [diag('A'), diag('B', 3)], removed: [], total: 2 }]);
    expect(b.update('/w/a.ts', [])?.removed).toEqual([diag('A'), diag('B', 3)]);
    expect(b.snapshot()).toEqual([]);
  });

  it('counts identical diagnostics as a multiset', () => {
    const b = new DiagnosticsBaseline();
    b.update('/w/a.ts', [diag('A')]);
    expect(b.update('/w/a.ts', [diag('A'), diag('A')])).toMatchObject({ added: [diag('A')], removed: [], total: 2 });
  });

  it('merges two undelivered deltas into the net change (added then removed cancels out)', () => {
    const first = { filePath: '/w/a.ts', added: [diag('A'), diag('B')], removed: [diag('X')], total: 2 };
    const second = { filePath: '/w/a.ts', added: [diag('C'), diag('X')], removed: [diag('A')], total: 3 };
    expect(mergeDiagnosticsDeltas(first, second)).toEqual({
      filePath: '/w/a.ts',
      added: [diag('B'), diag('C')],
      removed: [],
      total: 3,
    });
  });
});

describe('event scope', () => {
  let root: string;
  let ws: string;
  let scope: EventScope;
  beforeEach(() => {
    root = realpathSync(mkdtempSync(join(tmpdir(), 'idea-events-')));
    ws = join(root, 'ws');
    mkdirSync(join(ws, 'src'), { recursive: true });
    mkdirSync(join(root, 'outside'));
    writeFileSync(join(root, 'outside', 'secret.ts'), '');
    symlinkSync(join(root, 'outside'), join(ws, 'link'));
    scope = new EventScope({
      paths: () => [ws],
      searchSettings: () => ({
        filesExclude: { '**/gen': true, '**/maybe': { when: 'x' } },
        searchExclude: { '**/*.min.js': true },
        useIgnoreFiles: true,
      }),
    });
  });

  it('reports workspace files only: not outside, not through a symlink out, not protected, not excluded', () => {
    expect(scope.reportable(join(ws, 'src', 'a.ts'))).toBe(true);
    expect(scope.reportable(join(ws, 'src', 'deleted-long-ago.ts'))).toBe(true);
    expect(scope.reportable(join(ws, 'maybe', 'a.ts'))).toBe(true); // conditional excludes are not applied
    for (const p of [
      join(root, 'outside', 'secret.ts'),
      join(ws, 'link', 'secret.ts'),
      join(ws, '..', 'outside', 'secret.ts'),
      join(ws, '.git', 'config'),
      join(ws, '.vscode', 'settings.json'),
      join(ws, 'x.code-workspace'),
      join(ws, 'gen', 'a.ts'),
      join(ws, 'src', 'lib.min.js'),
      ws,
      '',
      `${ws}/a\0b`,
    ])
      expect(scope.reportable(p), p).toBe(false);
  });

  it('the editor sees excluded files but never protected or outside ones', () => {
    expect(scope.visible(join(ws, 'gen', 'a.ts'))).toBe(true);
    expect(scope.visible(join(ws, '.vscode', 'settings.json'))).toBe(false);
    expect(scope.visible(join(root, 'outside', 'secret.ts'))).toBe(false);
  });
});

describe('files/changed window', () => {
  // The window's timer, faked: what is sent is seen at the window's end, not some time after it.
  beforeEach(() => vi.useFakeTimers());
  afterEach(() => vi.useRealTimers());

  it("sends one entry per file after the window, combining a file's changes", () => {
    const sent: FileChange[][] = [];
    const w = new ChangeWindow((c) => sent.push(c), 20);
    w.add([{ path: '/w/a', kind: 'created' }]);
    w.add([
      { path: '/w/b', kind: 'deleted' },
      { path: '/w/a', kind: 'changed' },
    ]);
    w.add([
      { path: '/w/b', kind: 'created' },
      { path: '/w/c', kind: 'changed' },
      { path: '/w/c', kind: 'deleted' },
    ]);
    vi.advanceTimersByTime(19);
    expect(sent).toEqual([]);
    vi.advanceTimersByTime(1);
    expect(sent).toEqual([
      [
        { path: '/w/a', kind: 'created' },
        { path: '/w/b', kind: 'changed' },
        { path: '/w/c', kind: 'deleted' },
      ],
    ]);
  });

  it('a file changed, then reported created (replaced by a rename) is changed', () => {
    const sent: FileChange[][] = [];
    const w = new ChangeWindow((c) => sent.push(c), 20);
    w.add([{ path: '/w/a', kind: 'changed' }]);
    w.add([{ path: '/w/a', kind: 'created' }]);
    vi.advanceTimersByTime(20);
    expect(sent).toEqual([[{ path: '/w/a', kind: 'changed' }]]);
  });

  it('a burst is sent in bounded windows, never held without bound', () => {
    const sent: FileChange[][] = [];
    const w = new ChangeWindow((c) => sent.push(c), 10_000);
    w.add(Array.from({ length: MAX_WINDOW_FILES * 3 + 5 }, (_, i) => ({ path: `/w/${i}`, kind: 'created' as const })));
    expect(sent.map((s) => s.length)).toEqual([MAX_WINDOW_FILES, MAX_WINDOW_FILES, MAX_WINDOW_FILES]);
    w.dispose();
  });
});

describe('event sources', () => {
  let ws: string;
  const emitted: { event: string; data: unknown }[] = [];
  const emit = (event: string, data: unknown) => emitted.push({ event, data });
  let sources: CoreEventSources;
  const editor = {
    active: undefined as ReturnType<EditorHost['context']>['active'],
    dirty: [] as string[],
  };
  beforeEach(() => {
    emitted.length = 0;
    ws = realpathSync(mkdtempSync(join(tmpdir(), 'idea-sources-')));
    const host: EditorHost = {
      context: () => ({ active: editor.active, visible: editor.active ? [editor.active] : [], tabs: [] }),
      open: () => Promise.reject(new Error('not here')),
    };
    sources = new CoreEventSources(
      new EventScope({
        paths: () => [ws],
        searchSettings: () => ({ filesExclude: undefined, searchExclude: undefined, useIgnoreFiles: true }),
      }),
      emit as never,
      {
        host,
        documents: {
          dirty: () => editor.dirty.map((path) => ({ path, text: () => '' })),
          isDirty: () => false,
          text: () => undefined,
        },
      },
    );
  });
  afterEach(() => {
    sources.dispose();
    vi.useRealTimers();
  });

  it('emits diagnostics deltas of reportable files only; the initial event is the full set', () => {
    sources.diagnosticsChanged([{ filePath: join(ws, 'a.ts'), diagnostics: [raw('A')] }], true);
    expect(emitted).toEqual([]);
    sources.diagnosticsChanged([
      { filePath: join(ws, 'a.ts'), diagnostics: [raw('A'), raw('B', 2)] },
      { filePath: join(ws, '.vscode', 'x.json'), diagnostics: [raw('S')] },
      { filePath: '/elsewhere/b.ts', diagnostics: [raw('S')] },
    ]);
    expect(emitted).toEqual([
      {
        event: DIAGNOSTICS_CHANGED,
        data: { files: [{ filePath: join(ws, 'a.ts'), added: [diag('B', 2)], removed: [], total: 2 }] },
      },
    ]);
    expect(sources.initial(DIAGNOSTICS_CHANGED)).toEqual({
      files: [{ filePath: join(ws, 'a.ts'), added: [diag('A'), diag('B', 2)], removed: [], total: 2 }],
    });
    expect(sources.initial(FILES_CHANGED)).toBeUndefined();
  });

  it('emits file changes confined and coalesced', () => {
    vi.useFakeTimers(); // the files/changed window's timer
    sources.filesChanged([
      { path: join(ws, 'a.ts'), kind: 'created' },
      { path: join(ws, '.git', 'index'), kind: 'changed' },
      { path: '/etc/passwd', kind: 'changed' },
    ]);
    sources.filesChanged([{ path: join(ws, 'a.ts'), kind: 'deleted' }]);
    vi.advanceTimersByTime(WINDOW_MS);
    expect(emitted).toEqual([
      { event: FILES_CHANGED, data: { changes: [{ filePath: join(ws, 'a.ts'), change: 'deleted' }] } },
    ]);
  });

  // clause T39: a file a write replaced by a rename is changed, though the watcher says created.
  it("labels a watcher's report of a file a write just changed as the write says", () => {
    vi.useFakeTimers(); // the files/changed window's timer, and the clock of the write's account
    const [old, made] = [join(ws, 'old.ts'), join(ws, 'new.ts')];
    sources.ownWritesCommitted([
      { path: old, kind: 'changed' },
      { path: made, kind: 'created' },
    ]);
    sources.filesChanged([
      { path: old, kind: 'created' },
      { path: made, kind: 'created' },
      { path: join(ws, 'other.ts'), kind: 'created' },
    ]);
    vi.advanceTimersByTime(WINDOW_MS);
    expect(emitted).toEqual([
      {
        event: FILES_CHANGED,
        data: {
          changes: [
            { filePath: old, change: 'changed' },
            { filePath: made, change: 'created' },
            { filePath: join(ws, 'other.ts'), change: 'created' },
          ],
        },
      },
    ]);
  });

  const at = (line: number, character: number) => ({
    filePath: join(ws, 'a.ts'),
    languageId: 'typescript',
    isDirty: false,
    selections: [{ start: { line, character }, end: { line, character }, isReversed: false }],
    visibleRanges: [],
  });
  const cursors = () => emitted.map((e) => (e.data as { selections: { line: number }[] }).selections[0]?.line);

  it('sends the first editor change at once, inside the notification', () => {
    editor.active = at(1, 0);
    sources.editorChanged();
    expect(cursors()).toEqual([1]); // no timer ran: the settle window is not a delay
    for (let i = 0; i < 10; i++) sources.editorChanged(); // the same turn's other notifications
    expect(cursors()).toEqual([1]);
  });

  it('folds the changes within the settle window into one event at its end, and keeps the rate bounded', () => {
    vi.useFakeTimers(); // the settle window's timer and the clock
    editor.active = at(1, 0);
    sources.editorChanged();
    editor.active = at(2, 0);
    sources.editorChanged();
    editor.active = at(3, 0);
    sources.editorChanged();
    expect(cursors()).toEqual([1]);
    vi.advanceTimersByTime(EDITOR_SETTLE_MS);
    expect(cursors()).toEqual([1, 3]); // 2 was never settled: folded into 3
    // A selection dragged for 150 ms, a notification every millisecond: at most one event per window.
    emitted.length = 0;
    for (let ms = 0; ms < 150; ms++) {
      editor.active = at(10 + ms, 0);
      sources.editorChanged();
      vi.advanceTimersByTime(1);
    }
    vi.advanceTimersByTime(EDITOR_SETTLE_MS);
    expect(emitted.length).toBeGreaterThan(1);
    expect(emitted.length).toBeLessThanOrEqual(Math.ceil(150 / EDITOR_SETTLE_MS) + 2);
    expect(cursors().at(-1)).toBe((editor.active.selections[0] as { start: { line: number } }).start.line); // the last state is sent
  });

  it('sends nothing once disposed, not even a change waiting for the window', () => {
    vi.useFakeTimers(); // the settle window's timer
    editor.active = at(1, 0);
    sources.editorChanged();
    editor.active = at(2, 0);
    sources.editorChanged(); // pending for the window's end
    sources.dispose();
    vi.advanceTimersByTime(2 * EDITOR_SETTLE_MS); // past the window's end, where the change was due
    editor.active = at(3, 0);
    sources.editorChanged(); // a late notification from a platform still tearing down
    expect(cursors()).toEqual([1]);
  });

  it('emits the editor state only when it changed, without protected files', () => {
    vi.useFakeTimers(); // the settle window's timer
    editor.active = {
      filePath: join(ws, 'a.ts'),
      languageId: 'typescript',
      isDirty: true,
      selections: [{ start: { line: 1, character: 2 }, end: { line: 3, character: 4 }, isReversed: true }],
      visibleRanges: [],
    };
    editor.dirty = [join(ws, 'a.ts'), join(ws, '.vscode', 'settings.json')];
    for (let i = 0; i < 10; i++) sources.editorChanged();
    vi.advanceTimersByTime(2 * EDITOR_SETTLE_MS); // the window the nine folded into, and the quiet one after
    sources.editorChanged();
    vi.advanceTimersByTime(2 * EDITOR_SETTLE_MS);
    const state = {
      activeFile: join(ws, 'a.ts'),
      selections: [{ line: 3, character: 4, activeLine: 1, activeCharacter: 2 }],
      visibleFiles: [join(ws, 'a.ts')],
      dirtyFiles: [join(ws, 'a.ts')],
    };
    expect(emitted).toEqual([{ event: EDITOR_CHANGED, data: state }]);
    expect(sources.initial(EDITOR_CHANGED)).toEqual(state);
    editor.active = { ...editor.active, filePath: join(ws, '.vscode', 'settings.json') };
    sources.editorChanged();
    vi.advanceTimersByTime(2 * EDITOR_SETTLE_MS);
    expect(emitted[1]).toEqual({
      event: EDITOR_CHANGED,
      data: { activeFile: null, selections: [], visibleFiles: [], dirtyFiles: [join(ws, 'a.ts')] },
    });
  });
});
