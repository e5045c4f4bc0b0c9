import { mkdirSync, mkdtempSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildRegExp, matchColumns, relaxForRipgrep, replaceInLine } from '../../../server-core/search/js-regex';
import { anchorGlob, rgListFiles } from '../../../server-core/search/ripgrep';
import { type SearchFolder, searchText } from '../../../server-core/search/text-search';
import { useTestSpawner } from '../spawn/spawner-build';
import { useTestRegexWorker } from './regex-worker-build';

useTestRegexWorker();
useTestSpawner();

const rg = 'rg';
let ws: string, outside: string;
beforeAll(() => {
  ws = mkdtempSync(join(tmpdir(), 'idea-search-'));
  outside = mkdtempSync(join(tmpdir(), 'idea-search-out-'));
  mkdirSync(join(ws, 'src/deep'), { recursive: true });
  mkdirSync(join(ws, 'node_modules/pkg'), { recursive: true });
  mkdirSync(join(ws, 'hidden'));
  writeFileSync(join(ws, '.gitignore'), 'node_modules/\n');
  writeFileSync(join(ws, 'src/a.ts'), 'const alpha = 1;\nALPHA alphabet alpha-numeric\norder-1234 order-5678\n');
  writeFileSync(join(ws, 'src/deep/b.ts'), 'alpha\r\nfoo(bar) a.b.c a+b\r\n');
  writeFileSync(join(ws, 'top.ts'), 'alpha at top\n');
  writeFileSync(join(ws, 'node_modules/pkg/index.js'), 'alpha in node_modules\n');
  writeFileSync(join(ws, 'hidden/x.txt'), 'alpha hidden\n');
  writeFileSync(join(ws, 'bin.dat'), Buffer.from([0, 1, 2, 97, 108, 112, 104, 97]));
  writeFileSync(join(outside, 'secret.txt'), 'alpha outside\n');
  symlinkSync(outside, join(ws, 'link-out'));
});
afterAll(() => {
  rmSync(ws, { recursive: true, force: true });
  rmSync(outside, { recursive: true, force: true });
});

const folder = (over: Partial<SearchFolder['selection']> = {}): SearchFolder[] => [
  { root: ws, selection: { excludes: ['**/hidden'], useIgnoreFiles: true, ...over } },
];
const find = (
  pattern: string,
  o: {
    isRegex?: boolean;
    isCaseSensitive?: boolean;
    dirty?: { path: string; text: string }[];
    sel?: Partial<SearchFolder['selection']>;
    max?: number;
  } = {},
) =>
  searchText({
    rg,
    folders: folder(o.sel),
    match: { pattern, isRegex: o.isRegex ?? false, isCaseSensitive: o.isCaseSensitive ?? false },
    dirty: o.dirty ?? [],
    maxMatches: o.max ?? 1000,
  });
const where = (r: Awaited<ReturnType<typeof find>>) =>
  r.matches.map((m) => `${m.filePath.slice(ws.length + 1)}:${m.line}:${m.character}`);

describe('JS regex helpers', () => {
  it('matches with JS semantics, zero-length matches included', () => {
    expect(
      matchColumns(
        buildRegExp({ pattern: '\\balpha\\b', isRegex: true, isCaseSensitive: false }),
        'ALPHA alphabet alpha-numeric',
      ),
    ).toEqual([0, 15]);
    expect(matchColumns(buildRegExp({ pattern: 'a.b', isRegex: false, isCaseSensitive: true }), 'axb a.b')).toEqual([
      4,
    ]);
    expect(matchColumns(buildRegExp({ pattern: '^', isRegex: true, isCaseSensitive: true }), 'abc')).toEqual([0]);
  });
  it('refuses empty and malformed patterns', () => {
    expect(() => buildRegExp({ pattern: '', isRegex: false, isCaseSensitive: false })).toThrow();
    expect(() => buildRegExp({ pattern: '(', isRegex: true, isCaseSensitive: false })).toThrowError(
      /invalid regular expression/,
    );
  });
  it('replaces with $1, $<name>, $& in regex mode and literally otherwise', () => {
    const re = buildRegExp({ pattern: 'order-(?<n>\\d+)', isRegex: true, isCaseSensitive: true });
    expect(replaceInLine(re, 'order-12 order-3', 'o$1/$<n>/[$&]$$', true)).toEqual({
      text: 'o12/12/[order-12]$ o3/3/[order-3]$',
      count: 2,
    });
    const lit = buildRegExp({ pattern: 'a+b', isRegex: false, isCaseSensitive: true });
    expect(replaceInLine(lit, 'a+b aab', '$1$&', false)).toEqual({ text: '$1$& aab', count: 1 });
  });
  it('relaxes Unicode-sensitive escapes for rg, outside character classes only', () => {
    expect(relaxForRipgrep('\\bfoo\\B\\W\\D[\\b\\W]')).toBe('foo[^A-Za-z0-9_][^0-9][\\b\\W]');
    expect(relaxForRipgrep('a\\\\b')).toBe('a\\\\b');
    // JS's \s takes U+FEFF (PCRE2's does not); a CRLF line reaches PCRE2 with its \r.
    expect(relaxForRipgrep('\\s[^\\s]a$[$]\\$')).toBe('[\\x{FEFF}\\s][^\\x{FEFF}\\s]a\\r?$[$]\\$');
  });
  it('anchors slash-less globs like VS Code does', () => {
    expect(anchorGlob('*.ts')).toBe('/*.ts');
    expect(anchorGlob('**/*.ts')).toBe('**/*.ts');
    expect(anchorGlob('src/**')).toBe('/src/**');
  });
});

describe('searchText with ripgrep', () => {
  it('finds literal text case-insensitively, honouring .gitignore and excludes, not following symlinks out', async () => {
    const r = await find('alpha');
    expect(where(r)).toEqual([
      'src/a.ts:0:6',
      'src/a.ts:1:0',
      'src/a.ts:1:6',
      'src/a.ts:1:15',
      'src/deep/b.ts:0:0',
      'top.ts:0:0',
    ]);
    expect(r.totalCount).toBe(6);
    expect(r.matches[4]!.lineText).toBe('alpha'); // CRLF stripped
  });
  it('is case-sensitive on request and literal for metacharacters', async () => {
    expect(where(await find('ALPHA', { isCaseSensitive: true }))).toEqual(['src/a.ts:1:0']);
    expect(where(await find('a+b'))).toEqual(['src/deep/b.ts:1:15']);
    expect(where(await find('foo(bar)'))).toEqual(['src/deep/b.ts:1:0']);
  });
  it('uses JS regex semantics: \\b, named groups, look-behind', async () => {
    expect(where(await find('\\balpha\\b', { isRegex: true, sel: { include: 'src/a.ts' } }))).toEqual([
      'src/a.ts:0:6',
      'src/a.ts:1:0',
      'src/a.ts:1:15',
    ]);
    expect(where(await find('(?<=order-)(?<n>\\d{4})', { isRegex: true }))).toEqual(['src/a.ts:2:6', 'src/a.ts:2:17']);
  });
  it('falls back to JS over every file when rg cannot compile the pattern', async () => {
    const r = await find('\\u0061lpha at', { isRegex: true });
    expect(r.usedFallback).toBe(true);
    expect(where(r)).toEqual(['top.ts:0:0']);
  });
  it('applies include globs the VS Code way', async () => {
    expect(where(await find('alpha', { sel: { include: '*.ts' } }))).toEqual(['top.ts:0:0']);
    expect(where(await find('alpha', { sel: { include: 'src/**/*.ts', excludes: ['**/deep/**'] } }))).toEqual([
      'src/a.ts:0:6',
      'src/a.ts:1:0',
      'src/a.ts:1:6',
      'src/a.ts:1:15',
    ]);
  });
  it('searches unsaved document text instead of the disk copy, only where rg would look', async () => {
    const dirty = [
      { path: join(ws, 'top.ts'), text: 'nothing here\nbut alpha now on line 1' },
      { path: join(ws, 'node_modules/pkg/index.js'), text: 'alpha' },
    ];
    const r = await find('alpha', { dirty, sel: { include: '*.ts' } });
    expect(where(r)).toEqual(['top.ts:1:4']);
  });
  // clause H10: lists are capped while totalCount counts them all.
  it('caps matches but counts them all', async () => {
    const r = await find('a', { max: 2 });
    expect(r.matches.length).toBe(2);
    expect(r.totalCount).toBeGreaterThan(10);
  });
  it('lists files with the same selection', async () => {
    const files: string[] = [];
    await rgListFiles(rg, ws, { excludes: ['**/hidden'], useIgnoreFiles: false }, (f) => {
      files.push(f);
    });
    expect(files.sort()).toEqual([
      '.gitignore',
      'bin.dat',
      'node_modules/pkg/index.js',
      'src/a.ts',
      'src/deep/b.ts',
      'top.ts',
    ]);
  });
});
