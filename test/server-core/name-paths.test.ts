// Name paths over document symbols (clauses T43, T44): the tree in source order from a provider's tree or
// flat list, suffix and absolute matching, indices over same-named siblings, substring on the last
// segment, each symbol's own name path matching it alone, and the candidates of T44.
import { describe, expect, it } from 'vitest';
import { parseNamePath } from '../../runtime/name-path';
import type { Range } from '../../server-core/host';
import {
  candidatesFor,
  innermostAround,
  MAX_CANDIDATES,
  matchNamePath,
  namePathOf,
  symbolTree,
  wireSymbolRange,
} from '../../server-core/name-paths';
import type { FlatSymbol, TreeSymbol } from '../../server-core/symbols';

const CLASS = 4;
const METHOD = 5;
const FUNCTION = 11;
const VARIABLE = 12;
const r = (l1: number, c1: number, l2: number, c2: number): Range => ({
  start: { line: l1, character: c1 },
  end: { line: l2, character: c2 },
});
const sym = (name: string, kind: number, range: Range, children: TreeSymbol[] = []): TreeSymbol => ({
  name,
  kind,
  range,
  selectionRange: { start: { line: range.start.line, character: range.start.character + 6 }, end: range.start },
  children,
});

// class Hono { route() {} route(x) {} get() {} }  function route() {}  class Router { add() { route } }
// and a name with "/" and "[" in it (a string-named member), out of order as providers may give them.
const TREE: TreeSymbol[] = [
  sym('Router', CLASS, r(20, 0, 30, 1), [
    sym('add', METHOD, r(21, 2, 29, 3), [sym('route', VARIABLE, r(22, 4, 22, 20))]),
    sym('a/b[0]', METHOD, r(29, 4, 29, 30)),
  ]),
  sym('Hono', CLASS, r(0, 0, 10, 1), [
    sym('get', METHOD, r(7, 2, 9, 3)),
    sym('route', METHOD, r(1, 2, 3, 3)),
    sym('route', METHOD, r(4, 2, 6, 3)),
  ]),
  sym('route', FUNCTION, r(12, 0, 14, 1)),
];
const tree = symbolTree(TREE);
const names = (list: { name: string; range: Range }[]) => list.map((n) => `${n.name}@${n.range.start.line}`);
const match = (text: string, substring = false) => names(matchNamePath(tree, parseNamePath(text), substring));

describe('symbolTree', () => {
  it('lists every symbol depth first in source order, numbering same-named siblings', () => {
    expect(tree.all.map(namePathOf)).toEqual([
      '/Hono',
      '/Hono/route[0]',
      '/Hono/route[1]',
      '/Hono/get',
      '/route',
      '/Router',
      '/Router/add',
      '/Router/add/route',
      '/Router/a\\/b\\[0\\]',
    ]);
    expect(tree.all.map((n) => n.depth)).toEqual([0, 1, 1, 1, 0, 0, 1, 2, 1]);
  });

  it('nests a flat list by containerName (innermost enclosing one of that name, else the last before)', () => {
    const flat = (name: string, range: Range, containerName?: string): FlatSymbol => ({
      name,
      kind: METHOD,
      containerName,
      location: { range },
    });
    const t = symbolTree([
      flat('m', r(2, 2, 3, 3), 'A'),
      flat('A', r(0, 0, 5, 1)),
      flat('A', r(6, 0, 9, 1)),
      flat('m', r(7, 2, 8, 3), 'A'),
      flat('late', r(12, 0, 12, 9), 'A'),
      flat('orphan', r(13, 0, 13, 9), 'Nobody'),
    ]);
    expect(t.all.map(namePathOf)).toEqual(['/A[0]', '/A[0]/m', '/A[1]', '/A[1]/m', '/A[1]/late', '/orphan']);
    // A flat symbol's name is taken to start its range.
    expect(wireSymbolRange(t.all[1]!)).toMatchObject({ selectionLine: 2, selectionCharacter: 2 });
  });

  it('takes a tree thousands of levels deep without recursion', () => {
    let deep: TreeSymbol = sym('leaf', VARIABLE, r(0, 0, 0, 1));
    for (let k = 0; k < 50_000; k++) deep = sym('n', CLASS, r(0, 0, 0, 1), [deep]);
    const t = symbolTree([deep]);
    expect(t.all).toHaveLength(50_001);
    expect(matchNamePath(t, parseNamePath('n/leaf'))).toHaveLength(1);
  });
});

describe('matchNamePath (T43)', () => {
  it('a bare name matches every symbol so named, at any depth', () => {
    expect(match('route')).toEqual(['route@1', 'route@4', 'route@12', 'route@22']);
  });
  it('segments match a suffix of the chain of parents', () => {
    expect(match('Hono/route')).toEqual(['route@1', 'route@4']);
    expect(match('add/route')).toEqual(['route@22']);
    expect(match('Router/route')).toEqual([]); // not a direct child
  });
  it('a leading "/" anchors the first segment at the top of the file', () => {
    expect(match('/route')).toEqual(['route@12']);
    expect(match('/Router/add/route')).toEqual(['route@22']);
    expect(match('/add/route')).toEqual([]);
  });
  it('[i] keeps the i-th same-named sibling in source order, on any segment', () => {
    expect(match('Hono/route[1]')).toEqual(['route@4']);
    expect(match('route[0]')).toEqual(['route@1', 'route@12', 'route@22']);
    expect(match('Hono[0]/get')).toEqual(['get@7']);
    expect(match('Hono[1]/get')).toEqual([]);
    expect(match('route[2]')).toEqual([]);
  });
  it('escaped names match names holding "/" and "["', () => {
    expect(match('a\\/b\\[0\\]')).toEqual(['a/b[0]@29']);
    expect(match('Router/a\\/b\\[0\\]')).toEqual(['a/b[0]@29']);
  });
  it('substring matches the last segment as a case-sensitive substring only', () => {
    expect(match('out', true)).toEqual(['route@1', 'route@4', 'route@12', 'Router@20', 'route@22']);
    expect(match('OUT', true)).toEqual([]);
    expect(match('Ho/get', true)).toEqual([]); // earlier segments are exact
    expect(match('Hono/e', true)).toEqual(['route@1', 'route@4', 'get@7']);
  });
  it("every symbol's own name path matches it alone", () => {
    for (const n of tree.all) expect(matchNamePath(tree, parseNamePath(namePathOf(n)))).toEqual([n]);
  });
  it('is linear: the longest name path over a large file', () => {
    const wide = symbolTree(
      Array.from({ length: 20_000 }, (_, i) => sym('a', CLASS, r(i, 0, i, 5), [sym('a', METHOD, r(i, 1, i, 4))])),
    );
    const longest = parseNamePath(Array(512).fill('a').join('/'));
    const started = performance.now();
    expect(matchNamePath(wide, longest)).toEqual([]);
    expect(performance.now() - started).toBeLessThan(2000);
  });
});

describe('candidatesFor (T44)', () => {
  const cands = (text: string) => {
    const p = parseNamePath(text);
    return candidatesFor(tree, p, matchNamePath(tree, p));
  };
  it('several matches: the matches, in source order, with kind and the line of the name', () => {
    expect(cands('Hono/route')).toEqual([
      { namePath: '/Hono/route[0]', kind: 'method', line: 1 },
      { namePath: '/Hono/route[1]', kind: 'method', line: 4 },
    ]);
  });
  it('none: the symbols named as the last segment', () => {
    expect(cands('Nope/get').map((c) => c.namePath)).toEqual(['/Hono/get']);
  });
  it('none so named: those whose name contains it, case-insensitively', () => {
    expect(cands('ROU').map((c) => c.namePath)).toEqual([
      '/Hono/route[0]',
      '/Hono/route[1]',
      '/route',
      '/Router',
      '/Router/add/route',
    ]);
  });
  it('nothing like it: the top-level symbols', () => {
    expect(cands('zzz').map((c) => c.namePath)).toEqual(['/Hono', '/route', '/Router']);
  });
  it(`at most ${MAX_CANDIDATES}`, () => {
    const many = symbolTree(Array.from({ length: 50 }, (_, i) => sym('x', FUNCTION, r(i, 0, i, 3))));
    const p = parseNamePath('x');
    expect(candidatesFor(many, p, matchNamePath(many, p))).toHaveLength(MAX_CANDIDATES);
  });
});

describe('innermostAround', () => {
  it('is the innermost symbol containing a range, or none outside every symbol', () => {
    expect(namePathOf(innermostAround(tree, r(22, 10, 22, 15))!)).toBe('/Router/add/route');
    expect(namePathOf(innermostAround(tree, r(25, 4, 25, 9))!)).toBe('/Router/add');
    expect(innermostAround(tree, r(11, 0, 11, 1))).toBeUndefined();
  });
});
