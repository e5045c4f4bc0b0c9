// Which ripgrep engine pre-selects the lines of a regex edit/find, and the pattern it gets (issue 33).
// The JS RegExp decides every match (text-search.ts), so rg only has to select a SUPERSET of the lines
// the JS regex matches. rg's default (Rust regex) engine is faster than PCRE2, but its syntax and
// semantics differ from JavaScript's, so a pattern goes to it only as a translation proven to be such a
// superset; anything this file cannot translate goes to PCRE2 as before (relaxForRipgrep). The JS
// pattern is compiled without the u flag (regex-core.ts compileRegExp: 'g' or 'gi'), so it matches
// UTF-16 code units, Annex B syntax. The translation parses it and emits, for every atom, the exact set
// of code units the JS atom accepts:
// - as explicit \x{…} classes in rg's case-sensitive mode: case-insensitivity is the JS closure of the
//   set (every unit whose Canonicalize(), i.e. toUpperCase, equals a member's), computed here by the same
//   ICU the JS regex uses, so Rust's own case folding (which puts ſ with s, K with k) never narrows a
//   negated class ([^s], \W, \S) and no Unicode-version skew between Node and rg can drop a line;
// - \d \w \s \D \W \S . as JavaScript defines them (Rust's \s lacks U+FEFF; Rust's \w, \d are Unicode);
// - every literal other than [A-Za-z0-9] as \x{…} (Rust gives \<, \/, \a, \z, \p, `&&`, `~~`… meanings
//   of its own, and they changed between rg versions); \n, which no line holds, left out;
// - surrogates: the JS text is rg's line decoded from UTF-8, where an astral character is two code
//   units that JS atoms may take one by one. Rust matches the code point whole, so an atom that accepts
//   a high surrogate also takes any astral code point, and one that accepts a low surrogate after a unit
//   that may have been a high one may also match nothing (the code point went with the high half);
// - invalid UTF-8 decodes to U+FFFD (one per maximal ill-formed subpart: 1–3 bytes, all ≥ 0x80): an atom
//   accepting U+FFFD also takes 1–3 raw bytes ≥ 0x80 (rg matches raw bytes under (?-u:…));
// - ^ and $ (no m flag: the line's ends) as (?m:^) and (?m:\r?$): rg's line of a CRLF file ends in \r,
//   which the JS side strips (ripgrep.ts), and a ^ that may follow a $ (an empty line) is dropped, as
//   are \b, \B and look-around (always true: a superset);
// - repetition counts over CAP become CAP.. (unbounded): never narrower, and no rg size-limit error.
// PCRE2 keeps: back-references, octal escapes, an atom no line can hold (\n, []), an oversized result,
// and, as before this file, three shapes the tests pin to PCRE2's behaviour although the translation
// would be sound: \uXXXX and [^] (PCRE2 refuses them, so the pattern runs in JS: search.test.ts,
// search-limits.test.ts) and nested unbounded repetition like (a+)+ (PCRE2's match limit fails the
// file: search-limits.test.ts; the default engine would take it in linear time). ripgrep.ts also
// retries with PCRE2 should rg still refuse a translation.
import { relaxForRipgrep } from './js-regex';

/** rg's arguments that select a regex's candidate lines: the first choice, then what to retry with. */
export interface RgRegexChoice {
  engine: 'default' | 'pcre2';
  args: string[];
}

export function rgRegexChoices(jsPattern: string, caseSensitive: boolean): RgRegexChoice[] {
  const pcre2: RgRegexChoice = {
    engine: 'pcre2',
    args: [caseSensitive ? '--case-sensitive' : '--ignore-case', '--pcre2', '--regexp', relaxForRipgrep(jsPattern)],
  };
  const rust = toRustRegex(jsPattern, !caseSensitive);
  return rust === undefined ? [pcre2] : [{ engine: 'default', args: ['--case-sensitive', '--regexp', rust] }, pcre2];
}

/**
 * The Rust-regex pattern (for rg's default engine, case-sensitive) whose matches cover every line the
 * JS RegExp (flags '' or 'i') matches; undefined when the pattern must go to PCRE2 instead.
 */
export function toRustRegex(jsPattern: string, ignoreCase: boolean): string | undefined {
  // The translation runs on the server's main thread, a few µs per character of pattern (more with
  // ignoreCase): a long pattern goes to PCRE2 untranslated, so no request buys more than a few ms here.
  if (jsPattern.length > MAX_PATTERN_CHARS) return undefined;
  try {
    const p = new Parser(jsPattern, ignoreCase);
    const alts = p.parseDisjunction();
    if (p.i !== jsPattern.length) return undefined; // an unbalanced ")": JS would have refused it
    const out = emitAlts(alts, { high: false, eol: false }, { weight: 0, unbounded: false });
    return out.src;
  } catch {
    return undefined; // Unsupported, or a slip here: PCRE2 as before rather than a failed search
  }
}

class Unsupported extends Error {}

/** Repetition bounds above this are loosened (min lowered to it, max unbounded). */
const CAP = 100;
/** Longest JS pattern translated (in UTF-16 units); a longer one goes to PCRE2. */
export const MAX_PATTERN_CHARS = 1024;
/** Largest translation (roughly: atoms after repetition) sent to the default engine. */
const MAX_WEIGHT = 5000;

// ---- sets of UTF-16 code units: sorted, disjoint, non-adjacent inclusive ranges [lo0, hi0, lo1, hi1, …]

type Ranges = number[];

function normalize(pairs: [number, number][]): Ranges {
  pairs.sort((a, b) => a[0] - b[0]);
  const out: Ranges = [];
  for (const [lo, hi] of pairs) {
    if (out.length > 0 && lo <= out[out.length - 1]! + 1) out[out.length - 1] = Math.max(out[out.length - 1]!, hi);
    else out.push(lo, hi);
  }
  return out;
}

function toPairs(r: Ranges): [number, number][] {
  const out: [number, number][] = [];
  for (let i = 0; i < r.length; i += 2) out.push([r[i]!, r[i + 1]!]);
  return out;
}

function union(...sets: Ranges[]): Ranges {
  return normalize(sets.flatMap(toPairs));
}

function complement(r: Ranges): Ranges {
  const out: Ranges = [];
  let next = 0;
  for (let i = 0; i < r.length; i += 2) {
    if (r[i]! > next) out.push(next, r[i]! - 1);
    next = r[i + 1]! + 1;
  }
  if (next <= 0xffff) out.push(next, 0xffff);
  return out;
}

function intersect(a: Ranges, b: Ranges): Ranges {
  const out: [number, number][] = [];
  for (const [a0, a1] of toPairs(a))
    for (const [b0, b1] of toPairs(b)) {
      const lo = Math.max(a0, b0);
      const hi = Math.min(a1, b1);
      if (lo <= hi) out.push([lo, hi]);
    }
  return normalize(out);
}

function overlaps(r: Ranges, lo: number, hi: number): boolean {
  // Binary search for the first range ending at or after lo.
  let a = 0;
  let z = r.length / 2;
  while (a < z) {
    const m = (a + z) >> 1;
    if (r[2 * m + 1]! < lo) a = m + 1;
    else z = m;
  }
  return a < r.length / 2 && r[2 * a]! <= hi;
}

const single = (u: number): Ranges => [u, u];
const DIGIT: Ranges = [0x30, 0x39];
const WORD: Ranges = union(DIGIT, [0x41, 0x5a], [0x5f, 0x5f], [0x61, 0x7a]);
/** JS \s: WhiteSpace (with U+FEFF and every Zs) and LineTerminator. */
const SPACE: Ranges = union(
  [0x09, 0x0d],
  single(0x20),
  single(0xa0),
  single(0x1680),
  [0x2000, 0x200a],
  [0x2028, 0x2029],
  single(0x202f),
  single(0x205f),
  single(0x3000),
  single(0xfeff),
);
/** JS `.` without the s flag: every code unit but the line terminators. */
const DOT: Ranges = complement(union(single(0x0a), single(0x0d), [0x2028, 0x2029]));
const ESCAPE_CLASSES: Record<string, Ranges> = {
  d: DIGIT,
  D: complement(DIGIT),
  w: WORD,
  W: complement(WORD),
  s: SPACE,
  S: complement(SPACE),
};

// ---- case-insensitive closure, the JS way (ECMA-262 Canonicalize without the u flag)

let caseClasses: { units: number[]; classOf: Map<number, number[]> } | undefined;

/** Every code unit whose case-insensitive class has more than one member (ascending), and that class. */
function nontrivialCaseClasses(): { units: number[]; classOf: Map<number, number[]> } {
  if (caseClasses) return caseClasses;
  const byCanon = new Map<number, number[]>();
  for (let u = 0; u <= 0xffff; u++) {
    const c = canonicalize(u);
    const g = byCanon.get(c);
    if (g) g.push(u);
    else byCanon.set(c, [u]);
  }
  const classOf = new Map<number, number[]>();
  for (const g of byCanon.values()) if (g.length > 1) for (const u of g) classOf.set(u, g);
  caseClasses = { units: [...classOf.keys()].sort((a, b) => a - b), classOf };
  return caseClasses;
}

/** ECMA-262 Canonicalize(rer, ch) for a non-unicode, ignoreCase RegExp. */
export function canonicalize(u: number): number {
  const up = String.fromCharCode(u).toUpperCase();
  if (up.length !== 1) return u;
  const cu = up.charCodeAt(0);
  return u >= 128 && cu < 128 ? u : cu;
}

/** Closures of the constant sets (., \d …), computed once. */
const closed = new WeakMap<Ranges, Ranges>();

/** Every code unit a JS /i character set built from `r` accepts. */
function caseClosure(r: Ranges): Ranges {
  const known = closed.get(r);
  if (known) return known;
  const { units, classOf } = nontrivialCaseClasses();
  const extra: [number, number][] = [];
  for (let i = 0; i < r.length; i += 2) {
    // The first nontrivial unit at or after the range's start, then every one inside it.
    let a = 0;
    let z = units.length;
    while (a < z) {
      const m = (a + z) >> 1;
      if (units[m]! < r[i]!) a = m + 1;
      else z = m;
    }
    for (; a < units.length && units[a]! <= r[i + 1]!; a++)
      for (const m of classOf.get(units[a]!)!) if (!overlaps(r, m, m)) extra.push([m, m]);
  }
  const out = extra.length === 0 ? r : union(r, normalize(extra));
  if (r === DOT || Object.values(ESCAPE_CLASSES).includes(r)) closed.set(r, out);
  return out;
}

// ---- the parsed JS pattern

type Node =
  | { k: 'set'; set: Ranges } // one code unit from the set
  | { k: 'astral'; cp: number } // a literal surrogate pair
  | { k: 'group'; alts: Node[][] }
  | { k: 'rep'; body: Node; min: number; max: number }
  | { k: 'bol' }
  | { k: 'eol' }
  | { k: 'none' }; // zero-width, always true here (\b, \B, look-around)

const isHigh = (u: number) => u >= 0xd800 && u <= 0xdbff;
const isLow = (u: number) => u >= 0xdc00 && u <= 0xdfff;
const isDigit = (c: string | undefined) => c !== undefined && c >= '0' && c <= '9';
const isHex = (c: string | undefined) => c !== undefined && /^[0-9A-Fa-f]$/.test(c);
const isAsciiLetter = (c: string | undefined) => c !== undefined && /^[A-Za-z]$/.test(c);

class Parser {
  i = 0;
  private readonly namedGroups: boolean;
  constructor(
    private readonly src: string,
    private readonly ignoreCase: boolean,
  ) {
    // Over-approximated (an escaped "\(?<a" counts too): then \k only goes to PCRE2.
    this.namedGroups = /\(\?<[^=!]/.test(src);
  }

  parseDisjunction(): Node[][] {
    const alts = [this.parseAlternative()];
    while (this.src[this.i] === '|') {
      this.i++;
      alts.push(this.parseAlternative());
    }
    return alts;
  }

  private parseAlternative(): Node[] {
    const nodes: Node[] = [];
    while (this.i < this.src.length && this.src[this.i] !== '|' && this.src[this.i] !== ')') {
      const atom = this.parseTerm();
      nodes.push(this.parseQuantifier(atom));
    }
    return mergeSurrogatePairs(nodes);
  }

  private set(r: Ranges): Node {
    return { k: 'set', set: this.ignoreCase ? caseClosure(r) : r };
  }

  private parseTerm(): Node {
    const s = this.src;
    const c = s[this.i]!;
    switch (c) {
      case '^':
        this.i++;
        return { k: 'bol' };
      case '$':
        this.i++;
        return { k: 'eol' };
      case '.':
        this.i++;
        return this.set(DOT);
      case '[':
        return this.parseClass();
      case '(':
        return this.parseGroup();
      case '\\':
        return this.parseAtomEscape();
      case '*':
      case '+':
      case '?':
        throw new Unsupported(); // a quantifier without an atom: JS refuses it
      case '{':
        if (this.quantifierAt(this.i)) throw new Unsupported();
        break;
    }
    this.i++;
    return this.set(single(c.charCodeAt(0)));
  }

  private parseGroup(): Node {
    const s = this.src;
    this.i++; // (
    let zeroWidth = false;
    if (s[this.i] === '?') {
      const n = s[this.i + 1];
      if (n === ':') this.i += 2;
      else if (n === '=' || n === '!') {
        this.i += 2;
        zeroWidth = true;
      } else if (n === '<' && (s[this.i + 2] === '=' || s[this.i + 2] === '!')) {
        this.i += 3;
        zeroWidth = true;
      } else if (n === '<') {
        const end = s.indexOf('>', this.i);
        if (end < 0) throw new Unsupported();
        this.i = end + 1;
      } else throw new Unsupported();
    }
    const alts = this.parseDisjunction();
    if (s[this.i] !== ')') throw new Unsupported();
    this.i++;
    return zeroWidth ? { k: 'none' } : { k: 'group', alts };
  }

  /** After a backslash outside a class. */
  private parseAtomEscape(): Node {
    const s = this.src;
    const n = s[this.i + 1];
    if (n === undefined) throw new Unsupported();
    if (n === 'b' || n === 'B') {
      this.i += 2;
      return { k: 'none' };
    }
    if (n in ESCAPE_CLASSES) {
      this.i += 2;
      return this.set(ESCAPE_CLASSES[n]!);
    }
    if (n === 'k' && this.namedGroups) throw new Unsupported(); // a named back-reference
    if (n === 'c' && !isAsciiLetter(s[this.i + 2])) {
      this.i++; // Annex B: "\c" not followed by a letter is a backslash; the "c" comes next
      return this.set(single(0x5c));
    }
    return this.set(single(this.characterEscape(false)));
  }

  /** The code unit of a character escape at this.i (a backslash); advances past it. */
  private characterEscape(inClass: boolean): number {
    const s = this.src;
    const n = s[this.i + 1]!;
    this.i += 2;
    switch (n) {
      case 'f':
        return 0x0c;
      case 'n':
        return 0x0a;
      case 'r':
        return 0x0d;
      case 't':
        return 0x09;
      case 'v':
        return 0x0b;
      case 'c': {
        const l = s[this.i]!; // a letter (a digit or _ too in a class): checked by the caller
        this.i++;
        return l.charCodeAt(0) % 32;
      }
      case 'x':
        if (isHex(s[this.i]) && isHex(s[this.i + 1])) {
          this.i += 2;
          return Number.parseInt(s.slice(this.i - 2, this.i), 16);
        }
        return 0x78;
      case 'u':
        throw new Unsupported(); // PCRE2 refuses \u, so the pattern runs in JS (as before this file)
      case '0':
        if (isDigit(s[this.i])) throw new Unsupported(); // a legacy octal escape
        return 0;
    }
    if (isDigit(n)) throw new Unsupported(); // a back-reference or octal escape
    if (inClass && n === 'b') return 0x08;
    return n.charCodeAt(0); // an identity escape: \/ \- \. \a …
  }

  private parseClass(): Node {
    const s = this.src;
    this.i++; // [
    const negate = s[this.i] === '^';
    if (negate) this.i++;
    const parts: Ranges[] = [];
    while (s[this.i] !== ']') {
      if (this.i >= s.length) throw new Unsupported();
      const a = this.classAtom();
      if (s[this.i] === '-' && s[this.i + 1] !== ']' && this.i + 1 < s.length) {
        this.i++;
        const b = this.classAtom();
        if (typeof a === 'number' && typeof b === 'number') {
          if (a > b) throw new Unsupported();
          parts.push([a, b]);
        } else parts.push(toSet(a), single(0x2d), toSet(b)); // Annex B: [\d-z] is \d, "-" and z
      } else parts.push(toSet(a));
    }
    this.i++; // ]
    if (negate && parts.length === 0) throw new Unsupported(); // [^]: see the header
    let set = union(...parts);
    if (this.ignoreCase) set = caseClosure(set);
    return { k: 'set', set: negate ? complement(set) : set };
  }

  /** A code unit, or the set of a class escape (\d …), inside brackets. */
  private classAtom(): number | Ranges {
    const s = this.src;
    const c = s[this.i]!;
    if (c !== '\\') {
      this.i++;
      return c.charCodeAt(0);
    }
    const n = s[this.i + 1];
    if (n === undefined) throw new Unsupported();
    if (n in ESCAPE_CLASSES) {
      this.i += 2;
      return ESCAPE_CLASSES[n]!;
    }
    if (n === 'c' && !/^[A-Za-z0-9_]$/.test(s[this.i + 2] ?? '')) {
      this.i++; // Annex B: a backslash; the "c" is the next class atom
      return 0x5c;
    }
    return this.characterEscape(true);
  }

  /** Whether a {n}, {n,} or {n,m} quantifier starts at `at`. */
  private quantifierAt(at: number): RegExpMatchArray | null {
    return /^\{(\d+)(,(\d*))?\}/.exec(this.src.slice(at, at + 40));
  }

  private parseQuantifier(atom: Node): Node {
    const s = this.src;
    let min: number;
    let max: number;
    const c = s[this.i];
    if (c === '*' || c === '+' || c === '?') {
      this.i++;
      [min, max] = c === '*' ? [0, Infinity] : c === '+' ? [1, Infinity] : [0, 1];
    } else if (c === '{' && this.quantifierAt(this.i)) {
      const m = this.quantifierAt(this.i)!;
      this.i += m[0].length;
      min = Number(m[1]);
      max = m[2] === undefined ? min : m[3] === '' ? Infinity : Number(m[3]);
    } else return atom;
    if (s[this.i] === '?') this.i++; // lazy: the same lines match
    if (atom.k === 'bol' || atom.k === 'eol') throw new Unsupported(); // JS refuses it
    if (atom.k === 'none') return atom;
    return { k: 'rep', body: atom, min, max };
  }
}

function toSet(a: number | Ranges): Ranges {
  return typeof a === 'number' ? single(a) : a;
}

/** A literal high surrogate followed by a literal low one (not repeated) is one astral code point. */
function mergeSurrogatePairs(nodes: Node[]): Node[] {
  const out: Node[] = [];
  for (let i = 0; i < nodes.length; i++) {
    const a = nodes[i]!;
    const b = nodes[i + 1];
    if (
      a.k === 'set' &&
      b?.k === 'set' &&
      a.set.length === 2 &&
      a.set[0] === a.set[1] &&
      isHigh(a.set[0]!) &&
      b.set.length === 2 &&
      b.set[0] === b.set[1] &&
      isLow(b.set[0]!)
    ) {
      out.push({ k: 'astral', cp: 0x10000 + ((a.set[0]! - 0xd800) << 10) + (b.set[0]! - 0xdc00) });
      i++;
    } else out.push(a);
  }
  return out;
}

// ---- emitting the Rust pattern

/** What may hold where the next atom starts matching (over every path to it; false = certainly not). */
interface State {
  /** The last code unit consumed was a high surrogate. */
  high: boolean;
  /** A $ matched and no code unit was consumed since (a CRLF line's \r may have been, in Rust). */
  eol: boolean;
}

interface Out {
  src: string;
  after: State;
}

const join2 = (a: State, b: State): State => ({ high: a.high || b.high, eol: a.eol || b.eol });
const same = (a: State, b: State) => a.high === b.high && a.eol === b.eol;

interface Budget {
  weight: number;
  /** Inside an unbounded repetition. */
  unbounded: boolean;
}

function hex(u: number): string {
  return /^[A-Za-z0-9]$/.test(String.fromCodePoint(u))
    ? String.fromCodePoint(u)
    : `\\x{${u.toString(16).toUpperCase()}}`;
}

/** One code unit of `set`, as rg sees it: a Rust class and/or raw bytes; throws when no line holds one. */
function atomSrc(set: Ranges): string {
  const surrogates = overlaps(set, 0xd800, 0xdfff);
  let bmp = intersect(set, complement(union([0xd800, 0xdfff], single(0x0a))));
  if (surrogates) bmp = union(bmp, [0x10000, 0x10ffff]);
  const alts: string[] = [];
  if (bmp.length > 0) {
    const pairs = toPairs(bmp);
    alts.push(
      pairs.length === 1 && pairs[0]![0] === pairs[0]![1]
        ? hex(pairs[0]![0])
        : `[${pairs.map(([lo, hi]) => (lo === hi ? hex(lo) : `${hex(lo)}-${hex(hi)}`)).join('')}]`,
    );
  }
  if (overlaps(set, 0xfffd, 0xfffd)) alts.push('(?-u:[\\x80-\\xFF]{1,3})');
  if (alts.length === 0) throw new Unsupported(); // only \n, or nothing: no line holds it
  return alts.length === 1 ? alts[0]! : `(?:${alts.join('|')})`;
}

function repSrc(body: string, min: number, max: number): string {
  const lo = Math.min(min, CAP);
  const hi = max > CAP ? Infinity : max;
  const q =
    lo === 0 && hi === Infinity
      ? '*'
      : lo === 1 && hi === Infinity
        ? '+'
        : lo === 0 && hi === 1
          ? '?'
          : hi === Infinity
            ? `{${lo},}`
            : lo === hi
              ? `{${lo}}`
              : `{${lo},${hi}}`;
  return lo === 1 && hi === 1 ? body : `(?:${body})${q}`;
}

function emitAlts(alts: Node[][], before: State, b: Budget): Out {
  const outs = alts.map((a) => emitSeq(a, before, b));
  return { src: outs.map((o) => o.src).join('|'), after: outs.map((o) => o.after).reduce(join2) };
}

function emitSeq(nodes: Node[], before: State, b: Budget): Out {
  let src = '';
  let st = before;
  for (const n of nodes) {
    const o = emitNode(n, st, b);
    src += o.src;
    st = o.after;
  }
  return { src, after: st };
}

function emitNode(n: Node, before: State, b: Budget): Out {
  switch (n.k) {
    case 'none':
      return { src: '', after: before };
    case 'bol':
      // After a $ (an empty line), Rust may have taken the \r of a CRLF line: ^ cannot hold there.
      return { src: before.eol ? '' : '(?m:^)', after: before };
    case 'eol':
      return { src: '(?m:\\r?$)', after: { high: before.high, eol: true } };
    case 'astral':
      b.weight++;
      return { src: hex(n.cp), after: { high: false, eol: false } };
    case 'set': {
      b.weight++;
      if (b.weight > MAX_WEIGHT) throw new Unsupported();
      const src = atomSrc(n.set);
      // A low surrogate right after a high one: Rust took the code point with the high half.
      const mayBeEmpty = before.high && overlaps(n.set, 0xdc00, 0xdfff);
      return { src: mayBeEmpty ? `(?:${src})?` : src, after: { high: overlaps(n.set, 0xd800, 0xdbff), eol: false } };
    }
    case 'group': {
      const o = emitAlts(n.alts, before, b);
      return { ...o, src: o.src === '' ? '' : `(?:${o.src})` };
    }
    case 'rep':
      return emitRep(n.body, n.min, n.max, before, b);
  }
}

function emitRep(body: Node, min: number, max: number, before: State, b: Budget): Out {
  if (max === 0) return { src: '', after: before };
  if (max === Infinity && b.unbounded) throw new Unsupported(); // nested, like (a+)+: see the header
  const start = b.weight;
  const times = Math.max(Math.min(min, CAP), max === Infinity || max > CAP ? 1 : max);
  if (body.k === 'set') {
    const high = overlaps(body.set, 0xd800, 0xdbff);
    const low = overlaps(body.set, 0xdc00, 0xdfff);
    // n code units are at least this many code points (a low half after a high one is none).
    const lo = !low
      ? min
      : high
        ? before.high
          ? Math.floor(min / 2)
          : Math.ceil(min / 2)
        : before.high
          ? Math.max(0, min - 1)
          : min;
    b.weight += times;
    if (b.weight > MAX_WEIGHT) throw new Unsupported();
    const after = { high, eol: false };
    return { src: repSrc(atomSrc(body.set), lo, max), after: min === 0 ? join2(before, after) : after };
  }
  // Each JS iteration maps to one Rust iteration, which starts where the one before may have ended.
  const outer = b.unbounded;
  b.unbounded ||= max === Infinity;
  let st = before;
  let o: Out;
  for (;;) {
    b.weight = start;
    o = emitNode(body, st, b);
    const next = join2(st, o.after);
    if (same(next, st)) break;
    st = next;
  }
  b.unbounded = outer;
  b.weight = start + (b.weight - start) * times;
  if (b.weight > MAX_WEIGHT) throw new Unsupported();
  return { src: o.src === '' ? '' : repSrc(o.src, min, max), after: min === 0 ? join2(before, o.after) : o.after };
}
