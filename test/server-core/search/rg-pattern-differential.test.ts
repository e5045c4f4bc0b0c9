// Differential: for generated JS patterns (fast-check), every line the JS regex matches (flags as
// regex-core.ts compiles them: '' or 'i') must be among the lines rg selects with what the server gives
// it (ripgrep.ts rgSearchLines: engine, arguments, output decoding), over lines full of what JavaScript
// and Rust regex see differently: case pairs (ſ s, K k, İ ı i, ß ẞ, ς σ Σ, µ μ), U+FEFF, U+00A0,
// U+2028, U+0085, astral characters (two UTF-16 units), Arabic-Indic digits, CRLF endings and invalid
// UTF-8. One file holds every line; one rg run per pattern. Only patterns the translation takes are
// generated: the PCRE2 path is the old one (rg-pattern.ts).
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { toRustRegex } from '../../../server-core/search/rg-pattern';
import { rgSearchLines } from '../../../server-core/search/ripgrep';
import { useTestSpawner } from '../spawn/spawner-build';

useTestSpawner();

const CHARS = [
  ...'abksiKSI07 _-.(){}[]<>/\\|^$*+?,=!:\t',
  ...'éÉſ\u212AİıßẞςσΣµμ٣\uFEFF\u00A0\u2028\u0085\u3000\uFFFD',
  '😀',
  '😁',
  '𝐀',
  '\r',
];
/** Where UTF-16 code units and UTF-8 bytes part ways. */
const UNIT_CHARS = ['a', 'b', 'é', '😀', '😁', '\r', '\uFFFD'];
/** Where JavaScript's and Rust's case-insensitivity part ways (U+FFFD: a negated class without it
 *  does not take every non-ASCII character as raw bytes). */
const CASE_CHARS = [...'sSſkK\u212AiIİıßẞσςΣµμ\uFFFD'];
/** Invalid UTF-8 pieces (Node decodes each maximal ill-formed part to one U+FFFD). */
const BAD_BYTES = [[0xe9], [0xff], [0xf0, 0x9f, 0x98], [0xed, 0xa0, 0x80], [0xc3], [0x80, 0x80]];

function lineArb(chars: string[], maxLength: number): fc.Arbitrary<Buffer> {
  const piece = fc.oneof(
    { weight: 6, arbitrary: fc.constantFrom(...chars).map((c) => Buffer.from(c)) },
    { weight: 1, arbitrary: fc.constantFrom(...BAD_BYTES).map((b) => Buffer.from(b)) },
  );
  return fc.array(piece, { minLength: 0, maxLength }).map((ps) => Buffer.concat(ps));
}

let dir: string;
/** Each line as the JS side sees it: rg's line decoded, one trailing \r dropped. */
const lines: string[] = [];

beforeAll(() => {
  dir = mkdtempSync(join(tmpdir(), 'idea-rg-diff-'));
  const fixed = [
    '',
    'a',
    '\u212A',
    'ſ',
    'k😀b',
    'a😀b',
    '😀',
    'x\uFEFFy',
    'foo',
    'café',
    'İı',
    'ß ẞ',
    '٣',
    '\u2028',
  ].map((s) => Buffer.from(s));
  const bodies = [
    ...fixed,
    ...[...UNIT_CHARS, ...CASE_CHARS].map((c) => Buffer.from(c)),
    ...fc.sample(lineArb(CHARS, 8), { numRuns: 500, seed: 33 }),
    ...fc.sample(lineArb(UNIT_CHARS, 4), { numRuns: 200, seed: 34 }),
    ...fc.sample(lineArb(CASE_CHARS, 4), { numRuns: 200, seed: 35 }),
  ];
  const parts: Buffer[] = [];
  bodies.forEach((b, i) => {
    parts.push(b, Buffer.from(i % 3 === 1 ? '\r\n' : '\n'));
    const text = b.toString('utf8');
    lines.push(i % 3 === 1 || !text.endsWith('\r') ? text : text.slice(0, -1));
  });
  writeFileSync(join(dir, 'lines.txt'), Buffer.concat(parts));
});
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const esc = (c: string) => (/[\\^$.*+?()[\]{}|/-]/.test(c) ? `\\${c}` : c);
const CLASS_ESCAPES = ['\\d', '\\D', '\\w', '\\W', '\\s', '\\S'];
const quant = fc.constantFrom('', '', '', '*', '+', '?', '{2}', '{1,3}', '{0,}', '{3,}', '+?', '{,2}');
const zeroWidth = fc.constantFrom('^', '$', '\\b', '\\B');

/** JS patterns over the literals `chars`: classes, escapes, groups, look-around, alternatives. */
function patternArb(chars: string[]): fc.Arbitrary<string> {
  const litChar = fc.constantFrom(...chars.filter((c) => c !== '\r')).map(esc);
  const classItem = fc.oneof(
    litChar,
    fc.constantFrom(...CLASS_ESCAPES, '\\b', '\\-', '\\cJ', '\\x41', '\\0'),
    fc.tuple(litChar, litChar).map(([a, b]) => `${a}-${b}`),
  );
  const klass = fc
    .tuple(fc.boolean(), fc.array(classItem, { minLength: 1, maxLength: 4 }))
    .map(([neg, items]) => `[${neg ? '^' : ''}${items.join('')}]`);
  return fc.letrec<{ pattern: string; term: string; atom: string }>((tie) => ({
    pattern: fc
      .array(tie('term'), { minLength: 1, maxLength: 5 })
      .chain((ts) =>
        fc.oneof(
          { weight: 4, arbitrary: fc.constant(ts.join('')) },
          { weight: 1, arbitrary: fc.constant(`${ts.slice(0, 2).join('')}|${ts.slice(2).join('')}`) },
        ),
      ),
    term: fc.oneof(
      { weight: 6, arbitrary: fc.tuple(tie('atom'), quant).map(([a, q]) => a + q) },
      { weight: 1, arbitrary: zeroWidth },
    ),
    atom: fc.oneof(
      { weight: 5, arbitrary: litChar },
      { weight: 2, arbitrary: fc.constantFrom('.', ...CLASS_ESCAPES, '\\/', '\\<', '\\cI', '{', '}') },
      { weight: 2, arbitrary: klass },
      {
        weight: 1,
        arbitrary: fc
          .tuple(fc.constantFrom('(', '(?:', '(?<g>', '(?=', '(?!', '(?<=', '(?<!'), tie('pattern'))
          .map(([open, p]) => `${open}${p})`),
      },
    ),
  })).pattern;
}

function compiles(p: string, flags: string): boolean {
  try {
    new RegExp(p, flags);
    return true;
  } catch {
    return false;
  }
}

async function rgLines(p: string, caseSensitive: boolean): Promise<Set<number>> {
  const got = new Set<number>();
  await rgSearchLines(
    'rg',
    dir,
    { regex: p, literal: '', caseSensitive },
    { excludes: [], useIgnoreFiles: false },
    (h) => {
      got.add(h.line);
    },
  );
  return got;
}

// RG_DIFF_SEED and RG_DIFF_RUNS (a multiplier) for longer hunts; the defaults keep this to seconds.
const seed = Number(process.env.RG_DIFF_SEED ?? 20261201);
const scale = Number(process.env.RG_DIFF_RUNS ?? 1);

async function check(patterns: fc.Arbitrary<string>, caseSensitive: fc.Arbitrary<boolean>, numRuns: number) {
  let checked = 0;
  await fc.assert(
    fc.asyncProperty(patterns, caseSensitive, async (p, cs) => {
      const flags = cs ? '' : 'i';
      fc.pre(compiles(p, flags) && toRustRegex(p, !cs) !== undefined);
      checked++;
      const re = new RegExp(p, flags);
      const got = await rgLines(p, cs);
      const missed = lines.flatMap((l, i) => (re.test(l) && !got.has(i) ? [JSON.stringify(l)] : []));
      expect(missed, `/${p}/${flags} → ${toRustRegex(p, !cs)}`).toEqual([]);
    }),
    { numRuns: numRuns * scale, seed, endOnFailure: true },
  );
  expect(checked).toBeGreaterThan(numRuns * scale * 0.6);
}

describe('rg selects every line the JS regex matches', () => {
  it('for generated patterns, case-sensitive or not', () => check(patternArb(CHARS), fc.boolean(), 200));
  it('where code units and bytes part ways: astral characters, invalid UTF-8, CRLF', () =>
    check(patternArb(UNIT_CHARS), fc.boolean(), 120));
  it('where case folding parts ways', () => check(patternArb(CASE_CHARS), fc.constant(false), 120));
});
