// How test/ is laid out (docs/ARCHITECTURE.md): a test that starts a real VS Code is named
// *.live.test.ts (vitest.config.ts runs those two at a time, or alone where they measure time or ports);
// test/<folder> mirrors a source folder of the repository; bench/ imports no test file.
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join, relative } from 'node:path';
import { describe, expect, it } from 'vitest';
import { ROOT } from '../scripts/build';

function files(dir: string, pick: (f: string) => boolean): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((e) => {
    const p = join(dir, e.name);
    if (e.isDirectory()) return e.name === 'node_modules' ? [] : files(p, pick);
    return pick(p) ? [p] : [];
  });
}

/** Calls that start a VS Code host: the launcher, the live fixture over it, conformance's --launch. */
const STARTS_A_HOST = /\b(launchHost|startLiveFixture|runWithLaunch)\(/;
/** Folders of cross-cutting tests with no source folder of their own, and the harnesses' shared helpers. */
const NOT_A_SOURCE_FOLDER = new Set(['robustness', 'support']);

describe('test layout', () => {
  it('every test that starts a VS Code host is a *.live.test.ts, and every *.live.test.ts starts one', () => {
    const wrong = files(join(ROOT, 'test'), (f) => f.endsWith('.test.ts'))
      .filter((f) => STARTS_A_HOST.test(readFileSync(f, 'utf8')) !== f.endsWith('.live.test.ts'))
      .map((f) => relative(ROOT, f));
    expect(wrong).toEqual([]);
  });

  it('test/<folder> mirrors a source folder', () => {
    const folders = readdirSync(join(ROOT, 'test')).filter(
      (n) => statSync(join(ROOT, 'test', n)).isDirectory() && !NOT_A_SOURCE_FOLDER.has(n),
    );
    expect(folders.filter((n) => !statSync(join(ROOT, n), { throwIfNoEntry: false })?.isDirectory())).toEqual([]);
  });

  it('test/server-core/<folder> mirrors a folder of server-core/ (the moved modules keep their tests beside them)', () => {
    const dir = join(ROOT, 'test', 'server-core');
    const folders = readdirSync(dir).filter((n) => statSync(join(dir, n)).isDirectory());
    expect(folders.length).toBeGreaterThan(0);
    expect(
      folders.filter((n) => !statSync(join(ROOT, 'server-core', n), { throwIfNoEntry: false })?.isDirectory()),
    ).toEqual([]);
  });

  it('bench/ imports no test file', () => {
    const importsTest = /(?:from\s+|import\()\s*['"][./]*\/test\//;
    const wrong = files(join(ROOT, 'bench'), (f) => /\.[cm]?[tj]s$/.test(f))
      .filter((f) => importsTest.test(readFileSync(f, 'utf8')))
      .map((f) => relative(ROOT, f));
    expect(wrong).toEqual([]);
  });
});

/**
 * `toMatchObject` arguments (the text between its parentheses) that hold a regular-expression literal as
 * a value. vitest's toMatchObject passes whatever the string is when the expected value is a RegExp
 * (`{ message: /x/ }` matches `{ message: 'y' }`), so such a check can never fail: write
 * `expect.stringMatching(/x/)` instead.
 */
function vacuousMatchers(text: string): number[] {
  const lines: number[] = [];
  for (const m of text.matchAll(/\btoMatchObject\(/g)) {
    let i = m.index + m[0].length;
    for (let depth = 1; i < text.length && depth > 0; i++) {
      if (text[i] === '(') depth++;
      else if (text[i] === ')') depth--;
    }
    if (/[:[,]\s*\/(?![/*\s])(?:\\.|[^/\n\\])+\/[dgimsuvy]*\s*[,}\]]/.test(text.slice(m.index, i)))
      lines.push(text.slice(0, m.index).split('\n').length);
  }
  return lines;
}

describe('test hygiene', () => {
  it('no toMatchObject holds a RegExp as a value (vitest passes it whatever the text)', () => {
    expect(vacuousMatchers("expect(e).toMatchObject({ code: 'X', message: /nope/ });")).toEqual([1]);
    expect(vacuousMatchers('expect(e).toMatchObject({\n  message: expect.stringMatching(/nope/),\n});')).toEqual([]);
    // This file's own examples above are strings, not checks.
    const wrong = files(join(ROOT, 'test'), (f) => f.endsWith('.ts') && f !== import.meta.filename).flatMap((f) =>
      vacuousMatchers(readFileSync(f, 'utf8')).map((line) => `${relative(ROOT, f)}:${line}`),
    );
    expect(wrong).toEqual([]);
  });
});
