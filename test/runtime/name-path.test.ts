// Name paths (clause T43): the grammar's examples parse to what they say, every malformed form is refused
// with what is wrong and at which character, formatting inverts parsing, and the parse is one pass.
import { describe, expect, it } from 'vitest';
import {
  escapeName,
  formatNamePath,
  MAX_NAME_PATH_LENGTH,
  type NamePath,
  NamePathError,
  parseNamePath,
} from '../../runtime/name-path';

function problem(text: string): { problem: string; at: number } {
  try {
    parseNamePath(text);
  } catch (e) {
    if (e instanceof NamePathError) return { problem: e.problem, at: e.at };
    throw e;
  }
  throw new Error(`${JSON.stringify(text)} parsed`);
}

describe('parseNamePath', () => {
  it.each<[string, NamePath]>([
    ['route', { absolute: false, segments: [{ name: 'route' }] }],
    ['Hono/route', { absolute: false, segments: [{ name: 'Hono' }, { name: 'route' }] }],
    ['/Hono/route', { absolute: true, segments: [{ name: 'Hono' }, { name: 'route' }] }],
    ['parse[1]', { absolute: false, segments: [{ name: 'parse', index: 1 }] }],
    [
      'A[0]/b[123456789]',
      {
        absolute: false,
        segments: [
          { name: 'A', index: 0 },
          { name: 'b', index: 123456789 },
        ],
      },
    ],
    ['a\\/b', { absolute: false, segments: [{ name: 'a/b' }] }],
    ['x\\[0\\]/\\\\', { absolute: false, segments: [{ name: 'x[0]' }, { name: '\\' }] }],
    ['"quoted name"/ spaced ', { absolute: false, segments: [{ name: '"quoted name"' }, { name: ' spaced ' }] }],
    ['Ünïcödé/名前/😀', { absolute: false, segments: [{ name: 'Ünïcödé' }, { name: '名前' }, { name: '😀' }] }],
    ["describe('x') callback", { absolute: false, segments: [{ name: "describe('x') callback" }] }],
  ])('%s', (text, expected) => {
    expect(parseNamePath(text)).toEqual(expected);
  });

  it.each<[string, string, number]>([
    ['', 'empty name path', 0],
    ['/', 'empty segment', 1],
    ['a//b', 'empty segment', 2],
    ['//a', 'empty segment', 1],
    ['a/', 'empty segment (a trailing "/")', 2],
    ['a[', '"[" without "]" (escape it as "\\[")', 1],
    ['a[1', '"[" without "]" (escape it as "\\[")', 1],
    ['a[]', 'an empty index "[]"', 1],
    ['a[x]', '"x" in an index (an index is digits: [0], [1], …)', 2],
    ['a[-1]', '"-" in an index (an index is digits: [0], [1], …)', 2],
    ['a[01]', 'an index with a leading zero', 2],
    ['a[1234567890]', 'an index of more than 9 digits', 2],
    ['a]', '"]" without "[" (escape it as "\\]")', 1],
    ['a[1]b', '"b" after an index (an index ends its segment)', 4],
    ['a[1][2]', '"[" after an index (an index ends its segment)', 4],
    ['[0]', 'an index without a name before it', 0],
    ['a/[0]', 'an index without a name before it', 2],
    ['a\\', '"\\" at the end (escape "\\" as "\\\\")', 1],
    ['a\\n', '"\\n" is not an escape (only \\/, \\[, \\] and \\\\ are)', 1],
  ])('refuses %j: %s at %i', (text, what, at) => {
    expect(problem(text)).toEqual({ problem: what, at });
    expect(() => parseNamePath(text)).toThrow(`malformed name path: ${what} at character ${at}`);
  });

  it(`refuses more than ${MAX_NAME_PATH_LENGTH} characters, and takes exactly that many`, () => {
    expect(parseNamePath('a'.repeat(MAX_NAME_PATH_LENGTH)).segments[0]!.name).toHaveLength(MAX_NAME_PATH_LENGTH);
    expect(problem('a'.repeat(MAX_NAME_PATH_LENGTH + 1))).toEqual({
      problem: `longer than ${MAX_NAME_PATH_LENGTH} characters`,
      at: MAX_NAME_PATH_LENGTH,
    });
  });

  it('parses the longest hostile inputs in one pass (no backtracking)', () => {
    const hostile = ['[', '\\/', 'a[1', '/'.repeat(2), 'a/'].map((u) =>
      u.repeat(Math.floor(MAX_NAME_PATH_LENGTH / u.length)),
    );
    const started = performance.now();
    for (let k = 0; k < 200; k++) for (const h of hostile) expect(() => parseNamePath(h)).not.toThrow(TypeError);
    expect(performance.now() - started).toBeLessThan(2000);
  });
});

describe('formatNamePath and escapeName', () => {
  it('escape exactly /, [, ] and \\', () => {
    expect(escapeName('a/b[c]\\d.e(f)')).toBe('a\\/b\\[c\\]\\\\d.e(f)');
  });

  it('format inverts parse over every escapable name and index', () => {
    const names = ['a', 'a/b', '[x]', '\\', '\\/', 'x]y[', '😀 ü', ' '];
    for (const absolute of [false, true])
      for (const n of names)
        for (const index of [undefined, 0, 7, 999999999]) {
          const path: NamePath = {
            absolute,
            segments: [{ name: 'Outer' }, index === undefined ? { name: n } : { name: n, index }],
          };
          expect(parseNamePath(formatNamePath(path))).toEqual(path);
        }
  });
});
