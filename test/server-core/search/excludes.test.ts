// Exclude settings as matchers (server-core/search/excludes.ts): what the event scope leaves out of
// files/changed and diagnostics/changed, compiled by the search's own glob automaton. Settings are
// workspace input, so a malformed glob matches nothing and a hostile one must not stall the matcher.
import { describe, expect, it } from 'vitest';
import { compileExcludes, enabledGlobs, excludedBy } from '../../../server-core/search/excludes';

const ex = (rel: string, ...globs: string[]) => excludedBy(rel, compileExcludes(globs));

describe('exclude globs', () => {
  it('match a path or one of its folders, as the search reads them', () => {
    expect(ex('node_modules/x/y.js', '**/node_modules')).toBe(true);
    expect(ex('src/node_modules/y.js', '**/node_modules')).toBe(true);
    expect(ex('src/a.ts', '**/node_modules')).toBe(false);
    expect(ex('out/a.js', '{out,dist}')).toBe(true);
    expect(ex('src/a.log', '**/*.log')).toBe(true);
    expect(ex('src/a.ts', '**/*.log')).toBe(false);
    expect(ex('a1.txt', 'a[0-9].txt')).toBe(true);
    expect(ex('a.b', 'a?b')).toBe(true);
    expect(ex('a/b', 'a?b')).toBe(false);
    // VS Code reads a glob without "**" against the whole relative path: "*.ts" is the top level only.
    expect(ex('a.ts', '*.ts')).toBe(true);
    expect(ex('src/a.ts', '*.ts')).toBe(false);
  });

  it('a folders-only glob excludes what is inside the folder, not a file of that name', () => {
    expect(ex('build/a.js', 'build/')).toBe(true);
    expect(ex('build', 'build/')).toBe(false);
  });

  it('a malformed glob matches nothing instead of throwing; the others still apply', () => {
    expect(compileExcludes(['{a,b', '[ab', 'ok'])).toHaveLength(1);
    expect(ex('a', '{a,b')).toBe(false);
    expect(ex('zz', '[z-a]')).toBe(false);
    expect(ex('(((', '(((')).toBe(true);
    expect(ex('gen/x.ts', '{a,b', '**/gen')).toBe(true);
  });

  it('takes only the unconditional entries of both settings', () => {
    expect(enabledGlobs({ a: true, b: false, c: { when: 'x' } }, { d: true, a: true }, null, 'x')).toEqual(['a', 'd']);
  });

  // A backtracking RegExp compiler (the old events/glob.ts) needs minutes to hours for these: each
  // "*a" or {a,a} doubles (or multiplies) the ways to fail. The automaton is linear in the path.
  it('hostile globs against long names finish fast', () => {
    const long = `${'a'.repeat(4000)}`;
    const nested = `${'{a,'.repeat(40)}a${'}'.repeat(40)}`;
    const hostile = ['**/*a*a*a*a*a*a*a*a*a*a*b', `${'{a,a}'.repeat(24)}b`, `**/${'*a'.repeat(30)}b`, nested];
    const start = performance.now();
    for (const g of hostile) {
      expect(ex(long, g)).toBe(false);
      expect(ex(`src/${long}/x`, g)).toBe(false);
    }
    expect(ex('a', nested)).toBe(true);
    expect(performance.now() - start).toBeLessThan(2000);
  });
});
