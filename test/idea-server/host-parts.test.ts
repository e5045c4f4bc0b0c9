// The host's smaller parts: which ripgrep, where local history goes, and the LSP → core conversions.
import { chmodSync, mkdirSync, mkdtempSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { defaultHistoryDir, ensurePrivateDir, historyStore } from '../../idea-server/src/history';
import { NO_DOCUMENTS } from '../../idea-server/src/host';
import { asVsCodeDiagnostics, asVsCodeSymbols } from '../../idea-server/src/lsp/vscode-typescript';
import { toDefinitionTargets, toLocations } from '../../idea-server/src/lsp-features';
import { chooseRipgrep } from '../../idea-server/src/ripgrep';

const tmp = mkdtempSync(join(tmpdir(), 'idea-server-host-'));
afterAll(() => rmSync(tmp, { recursive: true, force: true }));

function executable(path: string): string {
  mkdirSync(join(path, '..'), { recursive: true });
  writeFileSync(path, '#!/bin/sh\n');
  chmodSync(path, 0o755);
  return path;
}

describe('ripgrep choice', () => {
  const emptyHome = join(tmp, 'empty-home');
  mkdirSync(emptyHome, { recursive: true });

  it('PATH first, then a VS Code install under HOME, else the JavaScript search', () => {
    const bin = executable(join(tmp, 'bin', 'rg'));
    const home = join(tmp, 'home');
    const vscodeRg = executable(
      join(home, '.vscode-server', 'bin', 'abc123', 'node_modules', '@vscode', 'ripgrep', 'bin', 'rg'),
    );
    expect(chooseRipgrep({ PATH: join(tmp, 'bin') }, home, 'linux')).toEqual({ path: bin, source: 'PATH' });
    expect(chooseRipgrep({ PATH: join(tmp, 'nothing') }, home, 'linux')).toEqual({
      path: vscodeRg,
      source: `VS Code at ${join(home, '.vscode-server', 'bin', 'abc123')}`,
    });
    expect(chooseRipgrep({ PATH: '' }, emptyHome, 'freebsd')).toEqual({
      path: null,
      source: 'none: the JavaScript search',
    });
  });

  it('ignores relative PATH entries and files that are not executable', () => {
    const notExec = join(tmp, 'noexec', 'rg');
    mkdirSync(join(tmp, 'noexec'), { recursive: true });
    writeFileSync(notExec, '');
    chmodSync(notExec, 0o644);
    expect(chooseRipgrep({ PATH: `bin:${join(tmp, 'noexec')}` }, emptyHome, 'freebsd').path).toBeNull();
  });
});

describe('local history home', () => {
  it('is ~/.idea-protocol/history by default, created 0700 (it holds copies of files)', () => {
    expect(defaultHistoryDir('/home/u')).toBe('/home/u/.idea-protocol/history');
    const dir = ensurePrivateDir(join(tmp, 'h', 'History'));
    expect(statSync(dir).mode & 0o777).toBe(0o700);
    chmodSync(dir, 0o755);
    ensurePrivateDir(dir);
    expect(statSync(dir).mode & 0o777).toBe(0o700);
    writeFileSync(join(tmp, 'afile'), '');
    expect(() => ensurePrivateDir(join(tmp, 'afile'))).toThrow();
  });

  it('records saves as VS Code does: enabled, and at most maxFileSize KB', () => {
    let settings = { enabled: true, maxFileSizeKb: 1 };
    const store = historyStore('/h', () => settings);
    expect(store.home).toBe('/h');
    expect(store.recordsSave('/w/a', 1024)).toBe(true);
    expect(store.recordsSave('/w/a', 1025)).toBe(false);
    settings = { enabled: false, maxFileSizeKb: 1 };
    expect(store.recordsSave('/w/a', 1)).toBe(false);
  });

  it('no editor: no document is open or dirty', () => {
    expect(NO_DOCUMENTS.dirty()).toEqual([]);
    expect(NO_DOCUMENTS.isDirty('/w/a')).toBe(false);
    expect(NO_DOCUMENTS.text('/w/a')).toBeUndefined();
  });
});

describe('LSP answers as the core wants them', () => {
  const r = (l: number, c: number, el: number, ec: number) => ({
    start: { line: l, character: c },
    end: { line: el, character: ec },
  });

  it('definition: a link keeps its declaration range, a location is bare; other schemes and junk dropped', () => {
    expect(
      toDefinitionTargets([
        { targetUri: 'file:///w/a.ts', targetRange: r(1, 0, 3, 1), targetSelectionRange: r(1, 9, 1, 12) },
        { targetUri: 'untitled:x', targetRange: r(0, 0, 0, 1) },
        null,
        { targetUri: 'file:///w/b.ts', targetRange: { start: 1 } },
      ]),
    ).toEqual([{ filePath: '/w/a.ts', range: r(1, 9, 1, 12), targetRange: r(1, 0, 3, 1) }]);
    expect(toDefinitionTargets({ uri: 'file:///w/c.ts', range: r(2, 0, 2, 5) })).toEqual([
      { filePath: '/w/c.ts', range: r(2, 0, 2, 5) },
    ]);
    expect(toDefinitionTargets(null)).toEqual([]);
    expect(
      toLocations([{ uri: 'file:///w/%C3%A9.ts', range: r(0, 0, 0, 1) }, { uri: 'http://x', range: r(0, 0, 0, 1) }, 7]),
    ).toEqual([{ filePath: '/w/é.ts', range: r(0, 0, 0, 1) }]);
    expect(toLocations('nope')).toEqual([]);
  });

  it("TypeScript's answers as VS Code's TypeScript extension shows them", () => {
    const d = asVsCodeDiagnostics({
      uri: 'file:///w/a.ts',
      diagnostics: [
        { range: r(0, 0, 0, 1), message: 'unused', severity: 1, code: 6133, source: 'typescript' },
        { range: r(0, 0, 0, 1), message: 'type', severity: 1, code: 2322, source: 'typescript' },
        { range: r(0, 0, 0, 1), message: 'other', severity: 1, code: 6133, source: 'eslint' },
      ],
    });
    expect(d.diagnostics.map((x) => [x.severity, x.source])).toEqual([
      [2, 'ts'],
      [1, 'ts'],
      [2, 'eslint'],
    ]);
    const s = asVsCodeSymbols([
      {
        name: 'E',
        kind: 10,
        range: r(0, 0, 3, 1),
        selectionRange: r(0, 5, 0, 6),
        children: [{ name: 'A', kind: 22, range: r(1, 2, 1, 3), selectionRange: r(1, 2, 1, 3) }],
      },
      { name: 'c', kind: 14, range: r(4, 0, 4, 9), selectionRange: r(4, 6, 4, 7) },
      { name: 'f', kind: 12, range: r(5, 0, 5, 9), selectionRange: r(5, 9, 5, 10) },
    ]);
    expect(s!.map((x) => [x.name, x.kind, x.children?.map((c) => c.kind)])).toEqual([
      ['E', 10, [13]],
      ['c', 13, undefined],
      ['f', 12, undefined],
    ]);
  });
});
