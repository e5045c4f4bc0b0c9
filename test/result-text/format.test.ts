import { join } from 'node:path';
import { FORMATTED_TOPICS, formatEvent, formatResult } from '@idea-kit/result-text/format';
import { describe, expect, it } from 'vitest';
import { loadSpecDir } from '../../cli/src/spec';
import { NEWEST_VERSION } from '../../generated/versions';
import { REPO } from '../cli/spec';

const T = (a: string) => `/app/vscode/${a}`;
const plain = (topic: string, result: unknown, cwd = '/ws') => formatResult(T(topic), result, { color: false, cwd });
const loc = (filePath: string, line: number, character: number) => ({
  filePath,
  line,
  character,
  endLine: line,
  endCharacter: character + 3,
});

describe('formatResult', () => {
  it('has a formatter for every topic of the newest version (the session answers subscribe/unsubscribe itself)', () => {
    const spec = loadSpecDir(join(REPO, 'spec', `v${NEWEST_VERSION}`));
    expect([...FORMATTED_TOPICS].sort()).toEqual(
      spec.topics
        .filter((t) => t.servedBy !== 'session')
        .map((t) => t.topic)
        .sort(),
    );
  });

  it('find: path:line:col: text, 1-based, relative inside cwd, absolute outside; a cut list says so', () => {
    const r = {
      matches: [
        { filePath: '/ws/src/a.ts', line: 0, character: 4, lineText: 'let needle' },
        { filePath: '/other/b.ts', line: 9, character: 0, lineText: 'needle' },
      ],
      totalCount: 5,
    };
    expect(plain('edit/find', r)).toBe('src/a.ts:1:5: let needle\n/other/b.ts:10:1: needle\n(showing 2 of 5 matches)');
    expect(formatResult(T('edit/find'), r, { color: false })).toMatch(/^\/ws\/src\/a\.ts:1:5: /);
    expect(plain('edit/find', { matches: [], totalCount: 0 })).toBe('');
  });

  it('references, definition with its code, diagnostics like tsc', () => {
    expect(plain('nav/references', { locations: [loc('/ws/a.ts', 2, 3)], totalCount: 1 })).toBe('a.ts:3:4');
    expect(plain('nav/definition', { locations: [{ ...loc('/ws/a.ts', 0, 0), code: 'function f() {\n}\n' }] })).toBe(
      'a.ts:1:1\n    function f() {\n    }',
    );
    expect(plain('nav/definition', { locations: [] })).toBe('no definition found');
    const d = {
      ...loc('/ws/b.ts', 3, 6),
      severity: 'error',
      message: "Type 'string' is not assignable",
      source: 'ts',
      code: '2322',
    };
    expect(
      plain('diag/list', {
        diagnostics: [d, { ...d, severity: 'hint', source: null, code: null, message: 'm' }],
        totalCount: 2,
      }),
    ).toBe("b.ts:4:7: error ts 2322: Type 'string' is not assignable\nb.ts:4:7: hint: m");
  });

  it('symbols as an outline nested by range', () => {
    const s = (name: string, kind: string, line: number, endLine: number, character = 0) => ({
      name,
      kind,
      line,
      character,
      endLine,
      endCharacter: 1,
      selectionLine: line,
      selectionCharacter: character + 6,
      containerName: null,
    });
    const r = {
      symbols: [
        s('Circle', 'class', 2, 10),
        s('area', 'method', 3, 5, 2),
        s('radius', 'property', 4, 4, 4),
        s('scale', 'method', 6, 8, 2),
        s('total', 'function', 12, 14),
      ],
      totalCount: 5,
    };
    expect(plain('nav/symbols', r)).toBe(
      [
        'class Circle  3:7',
        '  method area  4:9',
        '    property radius  5:11',
        '  method scale  7:9',
        'function total  13:7',
      ].join('\n'),
    );
  });

  it('history list as a table; diffs coloured when asked', () => {
    const e = (index: number, message: string, authorName: string | null) => ({
      index,
      hash: 'a'.repeat(40),
      shortHash: 'aaaaaaa',
      message,
      authorName,
      authorEmail: null,
      authorDate: '2026-01-05T09:00:00Z',
    });
    expect(
      plain('history/list', {
        entries: [e(1, 'docs: more\n\nbody', 'Grace Hopper'), e(2, 'initial', null)],
        totalCount: 2,
      }),
    ).toBe(
      [
        'INDEX  COMMIT   DATE        AUTHOR        MESSAGE',
        '1      aaaaaaa  2026-01-05  Grace Hopper  docs: more',
        '2      aaaaaaa  2026-01-05                initial',
      ].join('\n'),
    );
    const diff = { diff: '--- a/x\n+++ b/x\n@@ -1 +1 @@\n-old\n+new\n', fromRef: 'HEAD', toRef: 'working tree' };
    expect(plain('history/diff', diff)).toBe('HEAD → working tree\n--- a/x\n+++ b/x\n@@ -1 +1 @@\n-old\n+new');
    const colored = formatResult(T('history/diff'), diff, { color: true });
    expect(colored).toContain('\x1b[31m-old\x1b[0m');
    expect(colored).toContain('\x1b[32m+new\x1b[0m');
    expect(colored).toContain('\x1b[36m@@ -1 +1 @@\x1b[0m');
    expect(plain('localhistory/diff', { diff: '', fromLabel: '2026-01-01 10:00:00', toLabel: 'current' })).toBe(
      '2026-01-01 10:00:00 → current\n(no differences)',
    );
  });

  it('writing topics say what they changed', () => {
    expect(plain('edit/replace', { replacedCount: 3, affectedFiles: ['/ws/a.ts', '/ws/b.ts'] })).toBe(
      'replaced 3 occurrences in 2 files:\n  a.ts\n  b.ts',
    );
    expect(plain('edit/replace', { replacedCount: 1, affectedFiles: ['/ws/a.ts'] })).toBe(
      'replaced 1 occurrence in 1 file:\n  a.ts',
    );
    expect(plain('edit/replace', { replacedCount: 0, affectedFiles: [] })).toBe('nothing replaced: no match');
    expect(plain('history/rollback', { filePath: '/ws/a.ts', toRef: 'b'.repeat(40), restoredIndex: 2 })).toBe(
      'restored a.ts to commit bbbbbbb (history index 2) and saved it to disk',
    );
    expect(
      plain('localhistory/rollback', {
        filePath: '/ws/a.ts',
        restoredId: 'AbCd.ts',
        restoredLabel: '2026-01-01 10:00:00',
      }),
    ).toBe('restored a.ts to local history entry AbCd.ts (2026-01-01 10:00:00) and saved it to disk');
  });

  it('v0.1.7: hover text, type definitions and implementations with code, rename diffs, editor context', () => {
    expect(
      plain('nav/hover', {
        contents: [
          { kind: 'markdown', value: 'a' },
          { kind: 'markdown', value: 'b' },
        ],
      }),
    ).toBe('a\n---\nb');
    expect(plain('nav/hover', { contents: [] })).toBe('nothing to show');
    const code = { ...loc('/ws/s.ts', 1, 0), code: 'interface S {}' };
    expect(plain('nav/typeDefinition', { locations: [code] })).toBe('s.ts:2:1\n    interface S {}');
    expect(plain('nav/implementation', { locations: [] })).toBe('no implementation found');
    const diff = '--- a/s.ts\n+++ b/s.ts\n@@ -1 +1 @@\n-old\n+new\n';
    const file = { filePath: '/ws/s.ts', edits: [{ ...loc('/ws/s.ts', 0, 0), newText: 'new' }], diff };
    expect(plain('edit/rename', { dryRun: true, files: [file], changedFiles: [], editCount: 1 })).toBe(
      'dry run: would make 1 edit in 1 file (nothing written)\n--- a/s.ts\n+++ b/s.ts\n@@ -1 +1 @@\n-old\n+new',
    );
    expect(plain('edit/rename', { dryRun: false, files: [file], changedFiles: ['/ws/s.ts'], editCount: 1 })).toMatch(
      /^renamed: 1 edit in 1 file\n/,
    );
    const sel = { line: 2, character: 4, endLine: 2, endCharacter: 9, isReversed: false };
    const editor = {
      filePath: '/ws/s.ts',
      languageId: 'typescript',
      isDirty: true,
      selections: [sel],
      visibleRanges: [],
    };
    const tab = (filePath: string, isActive: boolean) => ({
      filePath,
      group: 1,
      isActive,
      isDirty: false,
      isPreview: false,
      isPinned: false,
    });
    expect(
      plain('editor/context', {
        activeEditor: editor,
        visibleEditors: [editor],
        tabs: [tab('/ws/s.ts', true), tab('/ws/t.ts', false)],
      }),
    ).toBe('active: s.ts (unsaved)\n  selection s.ts:3:5-3:10\ntabs (2):\n  * s.ts\n    t.ts');
    expect(plain('editor/context', { activeEditor: null, visibleEditors: [], tabs: [] })).toBe(
      'active: none\ntabs (0):',
    );
    expect(plain('editor/open', { filePath: '/ws/s.ts', line: 2, character: 4, endLine: 2, endCharacter: 4 })).toBe(
      'opened s.ts:3:5',
    );
  });

  it('lists: files one per line, local history as a table', () => {
    expect(
      plain('fs/findFiles', {
        files: [{ fileName: 'a.ts', filePath: '/ws/src/a.ts', relativePath: 'src/a.ts' }],
        totalCount: 1,
      }),
    ).toBe('src/a.ts');
    expect(
      plain('localhistory/list', {
        entries: [
          { id: 'AbCd.ts', timestamp: 1, timestampLabel: '2026-01-01 10:00:00', source: 'Workspace Edit' },
          { id: 'x.ts', timestamp: 0, timestampLabel: '2026-01-01 09:00:00' },
        ],
        totalCount: 2,
      }),
    ).toBe(
      'ID       SAVED                SOURCE\nAbCd.ts  2026-01-01 10:00:00  Workspace Edit\nx.ts     2026-01-01 09:00:00',
    );
  });

  it('a topic without a formatter, or a result of another shape, prints as JSON', () => {
    expect(formatResult('/app/vscode/new/thing', { a: 1 }, { color: false })).toBe('{\n  "a": 1\n}');
    expect(plain('edit/find', { unexpected: true })).toBe('{\n  "unexpected": true\n}');
  });
});

describe('formatEvent', () => {
  const ev = (name: string, data: unknown, cwd = '/ws') => formatEvent(T(name), data, { color: false, cwd });
  const diag = (line: number, message: string) => ({
    line,
    character: 0,
    endLine: line,
    endCharacter: 1,
    severity: 'error',
    message,
    source: null,
    code: null,
  });

  it('diagnostics: removed (-) then added (+) per file, as tsc lines; a file without a delta says its count', () => {
    expect(
      ev('diagnostics/changed', {
        files: [
          { filePath: '/ws/a.ts', added: [diag(2, 'new')], removed: [diag(0, 'old')], total: 1 },
          { filePath: '/x/b.ts', added: [], removed: [], total: 2 },
        ],
      }),
    ).toBe('- a.ts:1:1: error: old\n+ a.ts:3:1: error: new\n= /x/b.ts: 2 diagnostics');
  });

  it('files: one line per file; editor: one line; an unknown shape or event: one line of JSON', () => {
    expect(
      ev('files/changed', {
        changes: [
          { filePath: '/ws/a.ts', change: 'created' },
          { filePath: '/ws/b.ts', change: 'deleted' },
        ],
      }),
    ).toBe('created a.ts\ndeleted b.ts');
    expect(
      ev('editor/changed', {
        activeFile: '/ws/a.ts',
        selections: [
          { line: 0, character: 0, activeLine: 4, activeCharacter: 2 },
          { line: 1, character: 0, activeLine: 1, activeCharacter: 0 },
        ],
        visibleFiles: ['/ws/a.ts', '/ws/b.ts'],
        dirtyFiles: ['/ws/b.ts'],
      }),
    ).toBe('a.ts:5:3 (+1 selections)  visible: a.ts, b.ts  unsaved: b.ts');
    expect(ev('files/changed', { changes: 'nope' })).toBe('{"changes":"nope"}');
    expect(ev('git/changed', { a: { b: 1 } })).toBe('{"a":{"b":1}}');
  });
});
