// Pattern containment (spec-tools/diff/pattern.ts): proofs in the simple structural cases, witnesses
// checked with RegExp when containment fails, unknown beyond the subset.
import { describe, expect, it } from 'vitest';
import { comparePatterns, parsePattern } from '../../spec-tools/diff/pattern';

const rel = (a: string, b: string) => {
  const r = comparePatterns(a, b);
  return [r.oldInNew.holds, r.newInOld.holds];
};

describe('pattern containment', () => {
  it('proves relaxations: anchor removed, class widened, quantifier widened, alternative added', () => {
    expect(rel('^[a-z]{3,8}$', '^[a-z]{3,8}')).toEqual([true, false]);
    expect(rel('^[a-z]{3,8}$', '[a-z]{3,8}$')).toEqual([true, false]);
    expect(rel('^[a-f]+$', '^[a-z]+$')).toEqual([true, false]);
    expect(rel('^\\d{7}$', '^\\d{7,40}$')).toEqual([true, false]);
    expect(rel('^a+$', '^a*$')).toEqual([true, false]);
    expect(rel('^(x|y)$', '^(x|y|z)$')).toEqual([true, false]);
    expect(rel('^abc$', '^(abc|\\*)$')).toEqual([true, false]);
  });

  it('proves tightenings the same way, and equal languages both ways', () => {
    expect(rel('^[a-z]+$', '^[a-f]+$')).toEqual([false, true]);
    expect(rel('^\\d{4}$', '^[0-9]{4}$')).toEqual([true, true]);
    expect(rel('^(?:ab)c$', '^abc$')).toEqual([true, true]);
    expect(rel('^[^-]', '^[^-][\\s\\S]*')).toEqual([true, true]);
  });

  it('shows a witness that the real RegExp engine agrees with', () => {
    const r = comparePatterns('^[0-9a-f]{40}$', '^[0-9a-f]{7}$');
    expect(r.oldInNew.holds).toBe(false);
    expect(/^[0-9a-f]{40}$/.test(r.oldInNew.witness!)).toBe(true);
    expect(/^[0-9a-f]{7}$/.test(r.oldInNew.witness!)).toBe(false);
    expect(r.newInOld.witness).toMatch(/^[0-9a-f]{7}$/);
  });

  it('stays unknown beyond the subset (lookarounds, backreferences, boundaries) when no witness exists', () => {
    for (const p of ['^(?=a)a$', '^(a)\\1$', '\\bword\\b', '^(?<n>a)$']) expect(parsePattern(p)).toBeNull();
    expect(rel('^[a-z]+$', '^(?![0-9])[a-z]+$')).toEqual([null, null]);
    // A witness still decides what the structure cannot.
    expect(rel('^[a-z]+$', '^(?=a)[a-z]+$')[0]).toBe(false);
  });

  it('never proves a containment that a sample string contradicts', () => {
    const pats = [
      '^a',
      'a$',
      '^a$',
      'a',
      '^[ab]{2}$',
      '^(a|b)+$',
      '^a?b$',
      '^.+$',
      '^[^a]*$',
      '^\\w+$',
      '^\\S+$',
      '^x{2,3}$',
      '^(ab|c)*$',
    ];
    const samples = [
      '',
      'a',
      'b',
      'ab',
      'ba',
      'aa',
      'abc',
      'xx',
      'xxx',
      'xxxx',
      ' ',
      'a b',
      'c',
      'abab',
      'cab',
      '\n',
      'é',
    ];
    for (const a of pats) {
      for (const b of pats) {
        if (comparePatterns(a, b).oldInNew.holds !== true) continue;
        for (const s of samples)
          if (new RegExp(a, 'u').test(s)) expect([a, b, s, new RegExp(b, 'u').test(s)]).toEqual([a, b, s, true]);
      }
    }
  });
});
