// Literal matching on the main thread must give exactly what the escaped RegExp ("g"/"gi") gives, and
// stay linear where V8's regex engine is not (pattern "aaa…ab" against a long run of "a").
import { describe, expect, it } from 'vitest';
import { canonicalize, literalMatcher, literalReplaceText } from '../../../server-core/search/literal';
import {
  compileRegExp,
  escapeRegExp,
  matchColumns,
  replaceInLine,
  replaceLines,
} from '../../../server-core/search/regex-core';

// Characters whose case mappings are irregular in JavaScript's /i (non-Unicode) canonicalization.
const ALPHABET = [
  'a',
  'A',
  'b',
  'B',
  's',
  'S',
  'ſ',
  'ß',
  'ẞ',
  'k',
  'K',
  '\u212a',
  'µ',
  'μ',
  'Μ',
  'ς',
  'σ',
  'Σ',
  'i',
  'I',
  'İ',
  'ı',
  'Ǆ',
  'ǅ',
  'ǆ',
  'ǰ',
  'ŉ',
  'ﬀ',
  'ÿ',
  'Ÿ',
  '\ud800',
  '\udc00',
  '😀',
  '.',
  '*',
  '(',
  '$',
  ' ',
  'é',
  'É',
];

let seed = 7;
const rnd = (n: number) => (seed = (seed * 1103515245 + 12345) & 0x7fffffff) % n;
const randomString = (len: number) => Array.from({ length: len }, () => ALPHABET[rnd(ALPHABET.length)]).join('');

describe('literal matching', () => {
  it('finds the same columns as the escaped RegExp, case-sensitive and not (2,000 random cases)', () => {
    for (let n = 0; n < 2000; n++) {
      const line = randomString(rnd(40));
      const pattern =
        n % 10 === 0 ? randomString(9 + rnd(30)).replace(/./g, (c, i) => (i % 3 ? 'a' : c)) : randomString(1 + rnd(3));
      for (const isCaseSensitive of [true, false]) {
        const o = { pattern, isRegex: false, isCaseSensitive };
        const want = matchColumns(compileRegExp(o), line);
        const got = literalMatcher(o).scan(line, Infinity);
        expect({ line, pattern, isCaseSensitive, cols: got.cols }).toEqual({
          line,
          pattern,
          isCaseSensitive,
          cols: want,
        });
        expect(got.count).toBe(want.length);
        expect(literalMatcher(o).replace(line, '$1<$&>')).toEqual(
          replaceInLine(compileRegExp(o), line, '$1<$&>', false),
        );
      }
    }
  });

  it('agrees with /x/i on every cased UTF-16 unit and its case partners', () => {
    let checked = 0;
    for (let c = 0; c < 65536; c++) {
      const ch = String.fromCharCode(c);
      const partners = [ch.toUpperCase(), ch.toLowerCase()].filter((p) => p.length === 1 && p !== ch);
      if (partners.length === 0) continue;
      const re = new RegExp(escapeRegExp(ch), 'i');
      for (const p of partners) {
        expect([ch, p, canonicalize(ch) === canonicalize(p)]).toEqual([ch, p, re.test(p)]);
        checked++;
      }
    }
    expect(checked).toBeGreaterThan(2000);
  });

  it('keeps columns and counts caps: at most `keep` columns, every match counted', () => {
    const r = literalMatcher({ pattern: 'ab', isRegex: false, isCaseSensitive: false }).scan('AB ab aB xx Ab', 2);
    expect(r).toEqual({ count: 4, cols: [0, 3] });
  });

  it('stays linear where the RegExp engine and indexOf are not ("a"×2,500+"b"+"a"×2,500 in 4 M of "a")', () => {
    const line = 'a'.repeat(4_000_000);
    const pattern = `${'a'.repeat(2500)}b${'a'.repeat(2500)}`;
    for (const isCaseSensitive of [true, false]) {
      const t0 = performance.now();
      expect(literalMatcher({ pattern, isRegex: false, isCaseSensitive }).scan(line, 10)).toEqual({
        count: 0,
        cols: [],
      });
      // RegExp ("g" or "gi") and indexOf compare ~2,500 units per position here: 5–10 s; KMP ~50 ms.
      expect(performance.now() - t0).toBeLessThan(2000);
    }
    // Long patterns (the KMP path) that do occur, overlapping candidates included: the RegExp's answers.
    for (let n = 0; n < 300; n++) {
      const text = Array.from({ length: 300 }, () => 'aAb'[rnd(3)]).join('');
      const start = rnd(200);
      const pattern = text.slice(start, start + 9 + rnd(60));
      for (const isCaseSensitive of [true, false]) {
        const o = { pattern, isRegex: false, isCaseSensitive };
        expect(literalMatcher(o).scan(text, Infinity).cols).toEqual(matchColumns(compileRegExp(o), text));
      }
    }
  });
});

describe('replacement over a whole text', () => {
  it('keeps \\r\\n, \\r and \\n byte for byte and matches line by line', () => {
    const text = 'foo\r\nFOO\rbar foo\n\nfoo';
    expect(literalReplaceText({ pattern: 'foo', isRegex: false, isCaseSensitive: false }, 'x', text)).toEqual({
      text: 'x\r\nx\rbar x\n\nx',
      count: 4,
    });
    expect(literalReplaceText({ pattern: 'foo', isRegex: false, isCaseSensitive: true }, '$&', text)).toEqual({
      text: '$&\r\nFOO\rbar $&\n\n$&',
      count: 3,
    });
    // A pattern spanning a line break never matches (lines are matched one by one).
    expect(literalReplaceText({ pattern: 'foo\nbar', isRegex: false, isCaseSensitive: true }, 'x', 'foo\nbar')).toEqual(
      { text: 'foo\nbar', count: 0 },
    );
    const re = compileRegExp({ pattern: '^(\\w)', isRegex: true, isCaseSensitive: true });
    expect(replaceLines('ab\r\ncd\r\r\nef', (l) => replaceInLine(re, l, '[$1]', true))).toEqual({
      text: '[a]b\r\n[c]d\r\r\n[e]f',
      count: 3,
    });
  });
});
