// rg-pattern.ts: which engine pre-selects a regex's lines and the Rust pattern it gets. The translation
// is checked as text here, and against JavaScript and the real rg (the server's own rgSearchLines) on
// one line per BMP code unit: every single-atom pattern selects exactly the lines the JS regex matches.
// rg-pattern-differential.test.ts checks whole generated patterns.
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { relaxForRipgrep } from '../../../server-core/search/js-regex';
import { canonicalize, MAX_PATTERN_CHARS, rgRegexChoices, toRustRegex } from '../../../server-core/search/rg-pattern';
import { rgSearchLines } from '../../../server-core/search/ripgrep';
import { useTestSpawner } from '../spawn/spawner-build';

useTestSpawner();

const DOT = '[\\x{0}-\\x{9}\\x{B}-\\x{C}\\x{E}-\\x{2027}\\x{202A}-\\x{D7FF}\\x{E000}-\\x{10FFFF}]';
const BYTES = '(?-u:[\\x80-\\xFF]{1,3})';

describe('toRustRegex', () => {
  it("translates the bench's pattern for the default engine, case-sensitive", () => {
    expect(rgRegexChoices('\\bmake\\d*[37]7\\(', true)).toEqual([
      { engine: 'default', args: ['--case-sensitive', '--regexp', 'make(?:[0-9])*[37]7\\x{28}'] },
      { engine: 'pcre2', args: ['--case-sensitive', '--pcre2', '--regexp', 'make\\d*[37]7\\('] },
    ]);
  });

  it('spells case-insensitivity out as the JS closure, so Rust folding never narrows a negated class', () => {
    expect(rgRegexChoices('needle', false)[0]).toEqual({
      engine: 'default',
      args: ['--case-sensitive', '--regexp', '[Nn][Ee][Ee][Dd][Ll][Ee]'],
    });
    expect(toRustRegex('k', true)).toBe('[Kk]'); // not U+212A KELVIN SIGN: JS does not fold it to k
    expect(toRustRegex('é', true)).toBe('[\\x{C9}\\x{E9}]');
    // [^s] with i: ſ (U+017F) canonicalizes to itself (toUpperCase gives ASCII S), so JS matches it, as
    // it does K (U+212A) for [^k]; Rust's (?i)[^s] would leave both out.
    expect(toRustRegex('[^s]', true)).toBe(`(?:[\\x{0}-\\x{9}\\x{B}-RT-rt-\\x{D7FF}\\x{E000}-\\x{10FFFF}]|${BYTES})`);
  });

  it('gives \\d \\w \\s their JavaScript sets: \\s with U+FEFF, \\d and \\w ASCII', () => {
    expect(toRustRegex('\\d\\w', false)).toBe('[0-9][0-9A-Z\\x{5F}a-z]');
    expect(toRustRegex('x\\sy', false)).toBe(
      'x[\\x{9}\\x{B}-\\x{D}\\x{20}\\x{A0}\\x{1680}\\x{2000}-\\x{200A}\\x{2028}-\\x{2029}\\x{202F}\\x{205F}\\x{3000}\\x{FEFF}]y',
    );
  });

  it('writes every literal but [A-Za-z0-9] as \\x{…}, Annex B escapes as what they mean in JS', () => {
    expect(toRustRegex('a\\/b\\-c{d}e]\\<f\\a\\z\\p&&~~', false)).toBe(
      'a\\x{2F}b\\x{2D}c\\x{7B}d\\x{7D}e\\x{5D}\\x{3C}fazp\\x{26}\\x{26}\\x{7E}\\x{7E}',
    );
    expect(toRustRegex('\\x41\\x4\\cI\\c1\\0[\\b\\c1]', false)).toBe('Ax4\\x{9}\\x{5C}c1\\x{0}[\\x{8}\\x{11}]');
  });

  it("anchors at the line's ends, a CRLF line's \\r before $ included; drops \\b and look-around", () => {
    expect(toRustRegex('^foo$', false)).toBe('(?m:^)foo(?m:\\r?$)');
    expect(toRustRegex('^$^|$(?:^)*', false)).toBe('(?m:^)(?m:\\r?$)|(?m:\\r?$)'); // ^ after $: an empty line
    expect(toRustRegex('\\bx\\B(?=a)(?!b)(?<=c)(?<!d)(?<n>y)(?:z)', false)).toBe('x(?:y)(?:z)');
  });

  it('lets an atom after a possible high surrogate match nothing, and takes U+FFFD as raw bytes', () => {
    expect(toRustRegex('a..b', false)).toBe(`a(?:${DOT}|${BYTES})(?:(?:${DOT}|${BYTES}))?b`);
    expect(toRustRegex('😀', false)).toBe('\\x{1F600}');
    expect(toRustRegex('[😀]', false)).toBe('[\\x{10000}-\\x{10FFFF}]');
    expect(toRustRegex('.{80,}', false)).toBe(`(?:(?:${DOT}|${BYTES})){40,}`);
  });

  it('loosens large repetition counts instead of risking rg size limits', () => {
    expect(toRustRegex('a{500}', false)).toBe('(?:a){100,}');
    expect(toRustRegex('a{2,500}', false)).toBe('(?:a){2,}');
  });

  it('leaves to PCRE2 what it does not translate', () => {
    for (const p of ['(a)\\1', '\\12', '\\u0061', '[^]', '(a+)+$', 'a\\nb', '[]', '(?<n>a)\\k<n>', '\\01']) {
      expect(toRustRegex(p, false), p).toBeUndefined();
      expect(rgRegexChoices(p, false), p).toEqual([
        { engine: 'pcre2', args: ['--ignore-case', '--pcre2', '--regexp', relaxForRipgrep(p)] },
      ]);
    }
  });

  it('leaves a pattern over MAX_PATTERN_CHARS to PCRE2 untranslated: bounded main-thread work', () => {
    const atCap = 'ab'.repeat(MAX_PATTERN_CHARS / 2);
    expect(toRustRegex(atCap, true)).toBeDefined();
    expect(toRustRegex(`${atCap}a`, true)).toBeUndefined();
  });
});

describe('canonicalize', () => {
  it("is ECMA-262's for a non-unicode /i regex", () => {
    expect(canonicalize(0x61)).toBe(0x41);
    expect(canonicalize(0x17f)).toBe(0x17f); // ſ → "S" is ASCII: kept
    expect(canonicalize(0x212a)).toBe(0x212a); // KELVIN SIGN is upper case already
    expect(canonicalize(0xdf)).toBe(0xdf); // ß → "SS": two units, kept
    expect(canonicalize(0x3c2)).toBe(0x3a3); // ς → Σ
  });
});

// One line per BMP code unit but \n and the surrogates, between "<" and ">", then astral and invalid
// UTF-8 lines; CRLF on every third line.
let dir: string;
let unitsFile: Buffer;
const lines: string[] = [];
beforeAll(() => {
  dir = mkdtempSync(join(tmpdir(), 'idea-rg-pattern-'));
  const parts: Buffer[] = [];
  const push = (body: Buffer, text: string) => {
    parts.push(body, Buffer.from(lines.length % 3 === 2 ? '\r\n' : '\n'));
    lines.push(text);
  };
  for (let u = 1; u <= 0xffff; u++) {
    if (u === 0x0a || (u >= 0xd800 && u <= 0xdfff)) continue;
    const s = `<${String.fromCharCode(u)}>`;
    push(Buffer.from(s), s);
  }
  for (const s of ['<😀>', '<𝐀>', '<\u{10FFFF}>']) push(Buffer.from(s), s);
  for (const bytes of [[0xe9], [0xff], [0xf0, 0x9f, 0x98], [0xed, 0xa0, 0x80], [0xc3]]) {
    const b = Buffer.concat([Buffer.from('<'), Buffer.from(bytes), Buffer.from('>')]);
    push(b, b.toString('utf8'));
  }
  unitsFile = Buffer.concat(parts);
  writeFileSync(join(dir, 'units.txt'), unitsFile);
});
afterAll(() => rmSync(dir, { recursive: true, force: true }));

async function rgLines(pattern: string, caseSensitive: boolean): Promise<Set<number>> {
  const got = new Set<number>();
  await rgSearchLines(
    'rg',
    dir,
    { regex: pattern, literal: '', caseSensitive },
    { excludes: [], useIgnoreFiles: false },
    (h) => {
      got.add(h.line);
    },
  );
  return got;
}

describe('rgSearchLines', () => {
  it('on the PCRE2 path (a back-reference) finds $ before a CRLF line end and \\s on U+FEFF', async () => {
    const sub = mkdtempSync(join(dir, 'pcre2-'));
    writeFileSync(join(sub, 'crlf.txt'), 'xaa\r\nyaa \r\n');
    writeFileSync(join(sub, 'bom.txt'), 'aa\uFEFFaa.\n');
    const found = async (regex: string) => {
      expect(toRustRegex(regex, false), 'a PCRE2-only pattern').toBeUndefined();
      const got: string[] = [];
      await rgSearchLines(
        'rg',
        sub,
        { regex, literal: '', caseSensitive: true },
        { excludes: [], useIgnoreFiles: false },
        (h) => {
          got.push(`${h.relPath.split('/').pop()}:${h.line}`);
        },
      );
      return got.sort();
    };
    expect(await found('(a)\\1$')).toEqual(['crlf.txt:0']);
    expect(await found('(a)\\1\\s(a)\\2')).toEqual(['bom.txt:0']);
  });

  it('retries with PCRE2 when rg refuses the translation', async () => {
    // A stand-in rg that refuses every pattern without --pcre2, as a hypothetical older rg might.
    const fake = join(dir, 'fake-rg.sh');
    writeFileSync(
      fake,
      `#!/bin/sh\ncase " $* " in *" --pcre2 "*) exec rg "$@";; esac\necho 'regex parse error: nope' >&2\nexit 2\n`,
      { mode: 0o755 },
    );
    const got: number[] = [];
    await rgSearchLines(
      fake,
      dir,
      { regex: '<é>', literal: '', caseSensitive: true },
      { excludes: ['*.sh'], useIgnoreFiles: false },
      (h) => {
        got.push(h.line);
      },
    );
    expect(got).toEqual([lines.indexOf('<é>')]);
    rmSync(fake);
  });
});

describe('astral characters split into code units, through rg', () => {
  // JS (no u flag) takes 😀 as two units, one atom each; Rust takes it whole. N: any unit but U+FFFD,
  // whose raw-bytes alternative would let Rust take part of 😀 (4 bytes, all >= 0x80) anyway.
  const astral = ['a😀b', '😀', '😀😁', 'a😀', '😀b', '😀😁😀'];
  const N = '[^\uFFFD]';
  const patterns = [
    'a..b',
    `a${N}${N}b`,
    `^${N}${N}$`,
    `^${N}${N}{2}${N}$`,
    `^${N}{3}$`,
    `^a${N}{2}$`,
    `^${N}{4}$`,
    `^${N}${N}{2,}$`,
    '^\\S\\S$',
    '^\\W{2}\\W+$',
    `😀${N}`,
    `${N}😁`,
    `^${N}(?:${N}${N})+$`,
    `^(?:${N}|a)(?:${N}|b)$`,
    '^\uD83D[\uDC00-\uDFFF]+$', // lone surrogates in the pattern: a high one, then a set of low ones
  ];
  beforeAll(() => writeFileSync(join(dir, 'units.txt'), `${astral.join('\n')}\n`));
  afterAll(() => writeFileSync(join(dir, 'units.txt'), unitsFile));
  for (const p of patterns)
    it(JSON.stringify(p), async () => {
      expect(toRustRegex(p, false)).toBeDefined();
      const got = await rgLines(p, true);
      const re = new RegExp(p);
      expect(astral.filter((l, i) => re.test(l) && !got.has(i))).toEqual([]);
    });
});

describe('single atoms on every code unit, through rg', () => {
  const c = (u: number) => String.fromCharCode(u);
  const atoms = [
    '.',
    '\\s',
    '\\S',
    '\\w',
    '\\W',
    '\\d',
    '\\D',
    '[^a-z]',
    '[\\s\\d]',
    '[^\\W_]',
    `[${c(0x80)}-${c(0x2fff)}]`,
    `[^${c(0xc0)}-${c(0x24f)}\\d]`,
    '[\\w-~]',
    '[^s\uFFFD]', // without U+FFFD, so no raw-bytes alternative: ſ must be in the class itself
    '[^k\uFFFD]',
    'k',
    'ſ',
    'İ',
    'Σ',
    'é',
    '\uFFFD',
  ];
  for (const atom of atoms)
    for (const caseSensitive of [true, false])
      it(`/<${atom}>/${caseSensitive ? '' : 'i'}`, async () => {
        const pattern = `<${atom}>`;
        expect(rgRegexChoices(pattern, caseSensitive)[0]!.engine).toBe('default');
        const re = new RegExp(pattern, caseSensitive ? '' : 'i');
        // An atom that takes U+FFFD (invalid UTF-8) takes any 1–3 bytes >= 0x80: a wider, not an exact set.
        const bytes = re.test('<\uFFFD>');
        const got = await rgLines(pattern, caseSensitive);
        const missed: string[] = [];
        const extra: string[] = [];
        lines.forEach((l, i) => {
          const js = re.test(l);
          if (js && !got.has(i)) missed.push(l);
          // For BMP lines the sets are exact: nothing selected the JS regex does not match.
          if (!js && got.has(i) && l.length === 3 && !(bytes && l.charCodeAt(1) >= 0x80)) extra.push(l);
        });
        expect(missed.map((l) => [...l].map((x) => x.codePointAt(0)!.toString(16)).join(' '))).toEqual([]);
        expect(extra.map((l) => l.charCodeAt(1).toString(16))).toEqual([]);
      });
});
