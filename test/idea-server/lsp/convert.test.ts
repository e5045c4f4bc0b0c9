// LSP answers → IDEA v0.1.6 result shapes (pure): file URIs to absolute paths (other schemes dropped),
// LSP's 1-based SymbolKind / DiagnosticSeverity to the wire names, LocationLink vs Location for
// definitions, text of a range (clamped, any line ending), sorting and caps, malformed entries dropped.

import { describe, expect, it } from 'vitest';
import type { DocumentSymbol } from 'vscode-languageserver-protocol';
import {
  definitionLocation,
  definitionTargets,
  diagnosticsResult,
  MAX_REFERENCES,
  pathOfUri,
  referencesResult,
  symbolsResult,
  textInRange,
  widenToSymbol,
} from '../../../idea-server/src/lsp/convert';

const r = (line: number, character: number, endLine: number, endCharacter: number) => ({
  start: { line, character },
  end: { line: endLine, character: endCharacter },
});

describe('pathOfUri', () => {
  it('decodes file URIs and refuses other schemes and garbage', () => {
    expect(pathOfUri('file:///tmp/a%20b/c.ts')).toBe('/tmp/a b/c.ts');
    expect(pathOfUri('untitled:Untitled-1')).toBeUndefined();
    expect(pathOfUri('https://example.invalid/x.ts')).toBeUndefined();
    expect(pathOfUri('file://remote-host/x.ts')).toBeUndefined();
    expect(pathOfUri(42)).toBeUndefined();
  });
});

describe('definitions', () => {
  it('a LocationLink gives its targetRange (the whole declaration); a Location is bare', () => {
    expect(
      definitionTargets([
        { targetUri: 'file:///p/b.ts', targetRange: r(0, 0, 2, 1), targetSelectionRange: r(0, 16, 0, 21) },
      ]),
    ).toEqual([{ filePath: '/p/b.ts', range: r(0, 0, 2, 1), bare: false }]);
    expect(definitionTargets({ uri: 'file:///p/b.ts', range: r(0, 16, 0, 21) })).toEqual([
      { filePath: '/p/b.ts', range: r(0, 16, 0, 21), bare: true },
    ]);
    expect(definitionTargets(null)).toEqual([]);
    expect(
      definitionTargets([
        { uri: 'untitled:x', range: r(0, 0, 0, 1) },
        { uri: 'file:///p/x.ts', range: { start: { line: -1, character: 0 } } },
        7,
      ] as never),
    ).toEqual([]);
  });

  it('a bare location widens to the innermost symbol around it', () => {
    const symbols: DocumentSymbol[] = [
      {
        name: 'C',
        kind: 5,
        range: r(0, 0, 9, 1),
        selectionRange: r(0, 6, 0, 7),
        children: [{ name: 'm', kind: 6, range: r(1, 2, 3, 3), selectionRange: r(1, 2, 1, 3) }],
      },
    ];
    expect(widenToSymbol(r(1, 2, 1, 3), symbols)).toEqual(r(1, 2, 3, 3));
    expect(widenToSymbol(r(20, 0, 20, 1), symbols)).toEqual(r(20, 0, 20, 1));
    expect(widenToSymbol(r(1, 2, 1, 3), null)).toEqual(r(1, 2, 1, 3));
  });

  it('the code is the text of the range, whatever the line endings', () => {
    const target = { filePath: '/p/b.ts', range: r(1, 2, 2, 3), bare: false };
    expect(definitionLocation(target, 'zero\r\n  one\r\ntwo\r\n')).toEqual({
      filePath: '/p/b.ts',
      line: 1,
      character: 2,
      endLine: 2,
      endCharacter: 3,
      code: 'one\r\ntwo',
    });
    expect(textInRange('a\nbc\rdef', r(1, 0, 2, 2))).toBe('bc\rde');
  });

  it('positions past a line or past the text are clamped', () => {
    expect(textInRange('ab\ncd\n', r(0, 1, 0, 99))).toBe('b');
    expect(textInRange('ab\ncd', r(1, 0, 50, 0))).toBe('cd');
    expect(textInRange('ab', r(3, 0, 1, 0))).toBe('');
    // UTF-16 characters, as LSP counts them by default: the emoji is two
    expect(textInRange('x😀y', r(0, 1, 0, 3))).toBe('😀');
  });
});

describe('referencesResult', () => {
  it('file locations sorted by path then position; non-file and malformed dropped', () => {
    const res = referencesResult([
      { uri: 'file:///p/b.ts', range: r(4, 1, 4, 6) },
      { uri: 'file:///p/a.ts', range: r(9, 0, 9, 5) },
      { uri: 'file:///p/b.ts', range: r(1, 7, 1, 12) },
      { uri: 'file:///p/b.ts', range: r(1, 2, 1, 7) },
      { uri: 'git:/p/b.ts', range: r(0, 0, 0, 1) },
      { uri: 'file:///p/c.ts' } as never,
    ]);
    expect(res).toEqual({
      totalCount: 4,
      locations: [
        { filePath: '/p/a.ts', line: 9, character: 0, endLine: 9, endCharacter: 5 },
        { filePath: '/p/b.ts', line: 1, character: 2, endLine: 1, endCharacter: 7 },
        { filePath: '/p/b.ts', line: 1, character: 7, endLine: 1, endCharacter: 12 },
        { filePath: '/p/b.ts', line: 4, character: 1, endLine: 4, endCharacter: 6 },
      ],
    });
    expect(referencesResult(null)).toEqual({ locations: [], totalCount: 0 });
  });

  it('caps the locations but counts them all', () => {
    const many = Array.from({ length: MAX_REFERENCES + 5 }, (_, i) => ({
      uri: 'file:///p/a.ts',
      range: r(i, 0, i, 1),
    }));
    const res = referencesResult(many);
    expect(res.locations).toHaveLength(MAX_REFERENCES);
    expect(res.totalCount).toBe(MAX_REFERENCES + 5);
  });
});

describe('symbolsResult', () => {
  it('LSP kinds (1-based) become the wire names; the tree is flattened parent-first in source order', () => {
    const res = symbolsResult([
      { name: 'later', kind: 12, range: r(10, 0, 12, 1), selectionRange: r(10, 9, 10, 14) },
      {
        name: 'Box',
        kind: 5,
        range: r(0, 0, 8, 1),
        selectionRange: r(0, 6, 0, 9),
        children: [
          { name: 'size', kind: 7, range: r(1, 2, 1, 15), selectionRange: r(1, 2, 1, 6) },
          { name: 'constructor', kind: 9, range: r(0, 12, 0, 30), selectionRange: r(0, 12, 0, 23) },
        ],
      },
    ]);
    expect(res.symbols.map((s) => [s.name, s.kind, s.containerName])).toEqual([
      ['Box', 'class', null],
      ['constructor', 'constructor', 'Box'],
      ['size', 'property', 'Box'],
      ['later', 'function', null],
    ]);
    expect(res.symbols[0]).toEqual({
      name: 'Box',
      kind: 'class',
      line: 0,
      character: 0,
      endLine: 8,
      endCharacter: 1,
      selectionLine: 0,
      selectionCharacter: 6,
      containerName: null,
    });
    expect(res.totalCount).toBe(4);
  });

  it('flat SymbolInformation keeps its container; query filters case-insensitively; junk is dropped', () => {
    const res = symbolsResult(
      [
        { name: 'go', kind: 6, containerName: 'Runner', location: { uri: 'file:///p/a.ts', range: r(3, 2, 5, 3) } },
        { name: 'Runner', kind: 5, location: { uri: 'file:///p/a.ts', range: r(2, 0, 6, 1) } },
        { name: 'broken', kind: 5 } as never,
        null as never,
      ],
      'GO',
    );
    expect(res).toEqual({
      totalCount: 1,
      symbols: [
        {
          name: 'go',
          kind: 'method',
          line: 3,
          character: 2,
          endLine: 5,
          endCharacter: 3,
          selectionLine: 3,
          selectionCharacter: 2,
          containerName: 'Runner',
        },
      ],
    });
  });
});

describe('diagnosticsResult', () => {
  const d = (line: number, severity: number | undefined, message: unknown, extra: object = {}) =>
    ({ range: r(line, 1, line, 4), severity, message, ...extra }) as never;

  it('LSP severities (1-based) to names, missing = error, codes as strings, sorted, filtered', () => {
    const res = diagnosticsResult([
      ['/p/b.ts', [d(2, 2, 'warn', { source: 'ts', code: 6133 }), d(0, undefined, 'no severity')]],
      ['/p/a.ts', [d(5, 1, 'bad', { code: 'E1' }), d(1, 4, 'hint'), d(3, 3, { kind: 'markdown', value: '**info**' })]],
    ]);
    expect(res.diagnostics.map((x) => [x.filePath, x.line, x.severity, x.message, x.source, x.code])).toEqual([
      ['/p/a.ts', 1, 'hint', 'hint', null, null],
      ['/p/a.ts', 3, 'information', '**info**', null, null],
      ['/p/a.ts', 5, 'error', 'bad', null, 'E1'],
      ['/p/b.ts', 0, 'error', 'no severity', null, null],
      ['/p/b.ts', 2, 'warning', 'warn', 'ts', '6133'],
    ]);
    expect(res.diagnostics[0]).toEqual({
      filePath: '/p/a.ts',
      line: 1,
      character: 1,
      endLine: 1,
      endCharacter: 4,
      severity: 'hint',
      message: 'hint',
      source: null,
      code: null,
    });
    expect(diagnosticsResult([['/p/a.ts', [d(5, 1, 'bad'), d(1, 4, 'hint')]]], 'error')).toMatchObject({
      totalCount: 1,
      diagnostics: [{ message: 'bad' }],
    });
  });

  it('drops malformed diagnostics', () => {
    const res = diagnosticsResult([
      [
        '/p/a.ts',
        [
          null as never,
          { severity: 1, message: 'no range' } as never,
          d(0, 1, 42),
          d(1, 1, 'ok', { code: { evil: true } }),
        ],
      ],
    ]);
    expect(res).toEqual({
      totalCount: 1,
      diagnostics: [
        {
          filePath: '/p/a.ts',
          line: 1,
          character: 1,
          endLine: 1,
          endCharacter: 4,
          severity: 'error',
          message: 'ok',
          source: null,
          code: null,
        },
      ],
    });
  });
});
