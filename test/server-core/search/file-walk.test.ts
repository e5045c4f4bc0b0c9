// The JavaScript file walk and search (no ripgrep) against rg itself on the same trees and selections:
// the same files listed, the same matches found. rg is on PATH in the test command (scripts/test.sh).
import { chmodSync, mkdirSync, mkdtempSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { jsListFiles } from '../../../server-core/search/file-walk';
import { compileGlob, MAX_GLOB_ALTERNATIVES } from '../../../server-core/search/glob';
import { type FileSelection, rgListFiles } from '../../../server-core/search/ripgrep';
import { searchText } from '../../../server-core/search/text-search';
import { useTestSpawner } from '../spawn/spawner-build';
import { useTestRegexWorker } from './regex-worker-build';

useTestRegexWorker();
useTestSpawner();

let root: string;
let ws: string;
const files: Record<string, string> = {
  '.gitignore': 'node_modules/\n*.log\n/build\n',
  '.ignore': '!src/t.log\n', // .ignore files outrank .gitignore files
  'src/a.ts': 'const alpha = 1;\nALPHA alphabet\n',
  'src/deep/b.ts': 'alpha\r\nbeta\r\n',
  'src/deep/c.tsx': 'alpha in tsx\n',
  'src/t.log': 'alpha log\n',
  'top.ts': 'alpha at top\n',
  'README.md': 'alpha readme\n',
  'node_modules/p/i.js': 'alpha module\n',
  'node_modules/p/x.ts': 'alpha module ts\n',
  'build/out.js': 'alpha build\n',
  'sub/.gitignore': '!keep.log\nd.ts\n',
  'sub/.ignore': 'inner\n',
  'sub/keep.log': 'alpha keep\n',
  'sub/drop.log': 'alpha drop\n',
  'sub/d.ts': 'alpha d\n',
  'sub/e.ts': 'alpha e\n',
  'sub/inner/c.js': 'alpha inner\n',
  'sub/build/kept.js': 'alpha sub build\n',
  '.hid/e.ts': 'alpha hidden\n',
  '.git/info/exclude': 'README.md\n',
  'weird [x]{y}.ts': 'alpha weird\n',
  'bin.dat': '\0\x01alpha',
};

beforeAll(() => {
  root = mkdtempSync(join(tmpdir(), 'idea-walk-'));
  ws = join(root, 'ws');
  for (const [rel, text] of Object.entries(files)) {
    mkdirSync(dirname(join(ws, rel)), { recursive: true });
    writeFileSync(join(ws, rel), text);
  }
  mkdirSync(join(root, 'outside'));
  writeFileSync(join(root, 'outside', 'secret.ts'), 'alpha outside\n');
  symlinkSync(join(root, 'outside'), join(ws, 'link-dir'));
  symlinkSync(join(ws, 'top.ts'), join(ws, 'link-file.ts'));
});
afterAll(() => rmSync(root, { recursive: true, force: true }));

const selections: [string, FileSelection][] = [
  ['everything, ignore files on', { excludes: [], useIgnoreFiles: true }],
  ['everything, ignore files off', { excludes: [], useIgnoreFiles: false }],
  ['include **/*.ts (overrides the ignore files)', { include: '**/*.ts', excludes: [], useIgnoreFiles: true }],
  ['include *.ts (top level only)', { include: '*.ts', excludes: [], useIgnoreFiles: true }],
  ['include src/**', { include: 'src/**', excludes: [], useIgnoreFiles: true }],
  ['include a folder name', { include: 'src', excludes: [], useIgnoreFiles: true }],
  ['braces', { include: '**/*.{ts,tsx}', excludes: ['**/deep/b.*'], useIgnoreFiles: true }],
  ['exclude a folder anywhere', { excludes: ['**/deep', '**/.hid'], useIgnoreFiles: true }],
  ['exclude folders only', { excludes: ['**/deep/', 'sub/'], useIgnoreFiles: false }],
  ['exclude by class and ?', { excludes: ['**/[a-c].t?', '**/*.[!t]*'], useIgnoreFiles: true }],
  ['exclude beats include', { include: '**/*.ts', excludes: ['sub/**'], useIgnoreFiles: true }],
  ['escaped metacharacters', { include: '**/weird \\[x\\]\\{y\\}.ts', excludes: [], useIgnoreFiles: true }],
  ['anchored exclude', { excludes: ['/build', 'src/*.ts'], useIgnoreFiles: false }],
];

async function listBoth(sel: FileSelection): Promise<{ js: string[]; rg: string[] }> {
  const js: string[] = [];
  const rg: string[] = [];
  expect(await jsListFiles(ws, sel, (f) => void js.push(f))).toEqual([]);
  expect(await rgListFiles('rg', ws, sel, (f) => void rg.push(f))).toEqual([]);
  return { js: js.sort(), rg: rg.sort() };
}

describe('the JavaScript file walk lists what rg lists', () => {
  for (const [name, sel] of selections) {
    it(name, async () => {
      const { js, rg } = await listBoth(sel);
      expect(js).toEqual(rg);
    });
  }

  it('never follows a symbolic link out of the folder', async () => {
    const { js } = await listBoth({ excludes: [], useIgnoreFiles: false });
    expect(js.some((f) => f.startsWith('link-'))).toBe(false);
  });

  it('names a folder it cannot read and lists the rest', async () => {
    if (process.getuid?.() === 0) return; // root reads everything: nothing to refuse
    const locked = join(ws, 'locked');
    mkdirSync(locked);
    writeFileSync(join(locked, 'f.ts'), 'x');
    chmodSync(locked, 0);
    try {
      const got: string[] = [];
      const problems = await jsListFiles(ws, { excludes: [], useIgnoreFiles: true }, (f) => void got.push(f));
      expect(problems.map((p) => p.relPath)).toEqual(['locked']);
      expect(got).toContain('top.ts');
    } finally {
      chmodSync(locked, 0o755);
      rmSync(locked, { recursive: true });
    }
  });
});

describe('searchText without rg finds what it finds with rg', () => {
  const cases: [string, { pattern: string; isRegex: boolean; isCaseSensitive: boolean }, FileSelection][] = [
    ['literal, case-insensitive', { pattern: 'alpha', isRegex: false, isCaseSensitive: false }, selections[0]![1]],
    [
      'regex with JS-only syntax',
      { pattern: '(?<=al)pha\\b', isRegex: true, isCaseSensitive: true },
      selections[2]![1],
    ],
    ['literal with excludes', { pattern: 'ALPHA', isRegex: false, isCaseSensitive: true }, selections[7]![1]],
  ];
  for (const [name, match, selection] of cases) {
    it(name, async () => {
      const run = (rg: string | null) =>
        searchText({ rg, folders: [{ root: ws, selection }], match, dirty: [], maxMatches: 1000 });
      const [js, rg] = await Promise.all([run(null), run('rg')]);
      expect(js.matches.length).toBeGreaterThan(0);
      expect(js.matches).toEqual(rg.matches);
      expect(js.totalCount).toBe(rg.totalCount);
      expect(js.usedFallback).toBe(false);
    });
  }
});

describe('globs', () => {
  it('match as rg reads them', () => {
    expect(compileGlob('**/*.ts').matches('a/b/c.ts')).toBe(true);
    expect(compileGlob('**/*.ts').matches('c.ts')).toBe(true);
    expect(compileGlob('/*.ts').matches('a/c.ts')).toBe(false);
    expect(compileGlob('a/**/b').matches('a/b')).toBe(true);
    expect(compileGlob('a/**/b').matches('a/x/y/b')).toBe(true);
    expect(compileGlob('a/**').matches('a/x/y')).toBe(true);
    expect(compileGlob('a/**').matches('a')).toBe(false);
    expect(compileGlob('name').matches('x/y/name')).toBe(true);
    expect(compileGlob('x{a,b{c,d}}').matches('z/xbd')).toBe(true);
    expect(compileGlob('[!a]?').matches('ba')).toBe(true);
    expect(compileGlob('[!a]?').matches('ab')).toBe(false);
    expect(compileGlob('dir/').dirOnly).toBe(true);
    // "**/" ends at a folder boundary, never inside a name.
    expect(compileGlob('**/a').matches('xa')).toBe(false);
    expect(compileGlob('**/node_modules').matches('src/mynode_modules')).toBe(false);
    expect(compileGlob('**/node_modules').matches('src/node_modules')).toBe(true);
    expect(compileGlob('src/**/a.ts').matches('src/xa.ts')).toBe(false);
    expect(compileGlob('src/**/a.ts').matches('src/x/a.ts')).toBe(true);
  });

  it('refuse what rg refuses, and brace bombs', () => {
    expect(() => compileGlob('a{b')).toThrow(/invalid glob/);
    expect(() => compileGlob('a[b')).toThrow(/invalid glob/);
    expect(() => compileGlob('{a,b}'.repeat(9))).toThrow(new RegExp(`over ${MAX_GLOB_ALTERNATIVES}`));
  });

  it('stay linear on a hostile pattern', () => {
    const started = performance.now();
    expect(compileGlob(`${'*a'.repeat(40)}b`).matches('a'.repeat(4000))).toBe(false);
    expect(performance.now() - started).toBeLessThan(1000);
  });
});
