// Whether one JSON Schema `pattern` allows every string another allows, in the simple cases where
// that is decidable: anchors removed, character classes or quantifiers widened, alternatives added
// (a structural proof over a small regex subset). A containment that does not hold is shown by a
// witness: a string one pattern matches and the other does not, checked with the real RegExp engine.
// Anything else (lookarounds, backreferences, rewrites beyond the structural rules) stays unknown.

/** true: proven; false: disproven by `witness`; null: unknown. */
interface Containment {
  holds: boolean | null;
  witness?: string;
}

export interface PatternRelation {
  /** Every string the old pattern allows is allowed by the new one. */
  oldInNew: Containment;
  /** Every string the new pattern allows was allowed by the old one. */
  newInOld: Containment;
}

export function comparePatterns(oldP: string, newP: string): PatternRelation {
  const ro = compile(oldP);
  const rn = compile(newP);
  const ao = parsePattern(oldP);
  const an = parsePattern(newP);
  const within = (a: Node | null, b: Node | null, ra: RegExp | null, rb: RegExp | null): Containment => {
    if (a && b && contains(b, a)) return { holds: true };
    if (ra && rb) {
      for (const w of candidates(a)) if (ra.test(w) && !rb.test(w)) return { holds: false, witness: w };
    }
    return { holds: null };
  };
  return { oldInNew: within(ao, an, ro, rn), newInOld: within(an, ao, rn, ro) };
}

function compile(p: string): RegExp | null {
  try {
    return new RegExp(p, 'u');
  } catch {
    try {
      return new RegExp(p);
    } catch {
      return null;
    }
  }
}

// ---- a regex subset as full-match languages -------------------------------------------------------

type Range = [number, number];
type Node =
  | { t: 'set'; ranges: Range[] }
  | { t: 'seq'; items: Node[] }
  | { t: 'alt'; options: Node[] }
  | { t: 'rep'; node: Node; min: number; max: number }
  | { t: 'anchor'; end: boolean };

const MAX_CP = 0x10ffff;
const set = (...ranges: Range[]): Node => ({ t: 'set', ranges: tidy(ranges) });
const DIGIT: Range[] = [[0x30, 0x39]];
const WORD: Range[] = [
  [0x30, 0x39],
  [0x41, 0x5a],
  [0x5f, 0x5f],
  [0x61, 0x7a],
];
const SPACE: Range[] = [
  [0x09, 0x0d],
  [0x20, 0x20],
  [0xa0, 0xa0],
  [0x1680, 0x1680],
  [0x2000, 0x200a],
  [0x2028, 0x2029],
  [0x202f, 0x202f],
  [0x205f, 0x205f],
  [0x3000, 0x3000],
  [0xfeff, 0xfeff],
];
const LINE_END: Range[] = [
  [0x0a, 0x0a],
  [0x0d, 0x0d],
  [0x2028, 0x2029],
];
const ANY_CHAR: Range[] = [[0, MAX_CP]];

function tidy(ranges: Range[]): Range[] {
  const sorted = ranges.map(([a, b]): Range => [a, b]).sort((x, y) => x[0] - y[0]);
  const out: Range[] = [];
  for (const r of sorted) {
    const last = out.at(-1);
    if (last && r[0] <= last[1] + 1) last[1] = Math.max(last[1], r[1]);
    else out.push(r);
  }
  return out;
}

function complement(ranges: Range[]): Range[] {
  const out: Range[] = [];
  let next = 0;
  for (const [a, b] of tidy(ranges)) {
    if (a > next) out.push([next, a - 1]);
    next = b + 1;
  }
  if (next <= MAX_CP) out.push([next, MAX_CP]);
  return out;
}

class Unsupported extends Error {}

/** The pattern as a full-match language (JSON Schema patterns search: an unanchored side gets `[^]*`),
 *  or null when it uses syntax outside the subset. */
export function parsePattern(p: string): Node | null {
  try {
    const parser = new Parser(p);
    const top = parser.alternation();
    if (parser.pos < p.length) throw new Unsupported();
    const options = top.t === 'alt' ? top.options : [top];
    return { t: 'alt', options: options.map(anchorToFull) };
  } catch (e) {
    if (e instanceof Unsupported) return null;
    throw e;
  }
}

function anchorToFull(n: Node): Node {
  const items = n.t === 'seq' ? [...n.items] : [n];
  const anyStar: Node = { t: 'rep', node: set(...ANY_CHAR), min: 0, max: Infinity };
  if (items[0]?.t === 'anchor' && !items[0].end) items.shift();
  else items.unshift(anyStar);
  const last = items.at(-1);
  if (last?.t === 'anchor' && last.end) items.pop();
  else items.push(anyStar);
  if (items.some(hasAnchor)) throw new Unsupported();
  return { t: 'seq', items };
}

function hasAnchor(n: Node): boolean {
  switch (n.t) {
    case 'anchor':
      return true;
    case 'seq':
      return n.items.some(hasAnchor);
    case 'alt':
      return n.options.some(hasAnchor);
    case 'rep':
      return hasAnchor(n.node);
    default:
      return false;
  }
}

class Parser {
  pos = 0;
  constructor(private readonly s: string) {}

  private peek(): string | undefined {
    return this.s[this.pos];
  }

  alternation(): Node {
    const options = [this.sequence()];
    while (this.peek() === '|') {
      this.pos++;
      options.push(this.sequence());
    }
    return options.length === 1 ? options[0]! : { t: 'alt', options };
  }

  private sequence(): Node {
    const items: Node[] = [];
    while (this.pos < this.s.length && this.peek() !== '|' && this.peek() !== ')') {
      const item = this.quantified();
      // A group in a sequence is spliced in: (?:ab)c is abc.
      if (item.t === 'seq') items.push(...item.items);
      else items.push(item);
    }
    return items.length === 1 ? items[0]! : { t: 'seq', items };
  }

  private quantified(): Node {
    const atom = this.atom();
    const c = this.peek();
    let min: number;
    let max: number;
    if (c === '*') [min, max] = [0, Infinity];
    else if (c === '+') [min, max] = [1, Infinity];
    else if (c === '?') [min, max] = [0, 1];
    else if (c === '{') {
      const m = /^\{(\d+)(,(\d*))?\}/.exec(this.s.slice(this.pos));
      if (!m) throw new Unsupported();
      min = Number(m[1]);
      max = m[2] === undefined ? min : m[3] === '' ? Infinity : Number(m[3]);
      this.pos += m[0].length - 1;
    } else return atom;
    this.pos++;
    if (this.peek() === '?') this.pos++; // lazy: same language
    if (atom.t === 'anchor') throw new Unsupported();
    return { t: 'rep', node: atom, min, max };
  }

  private atom(): Node {
    const c = this.s[this.pos++];
    switch (c) {
      case '^':
        return { t: 'anchor', end: false };
      case '$':
        return { t: 'anchor', end: true };
      case '.':
        return set(...complement(LINE_END));
      case '(': {
        if (this.peek() === '?') {
          if (this.s[this.pos + 1] !== ':') throw new Unsupported(); // lookarounds, named groups
          this.pos += 2;
        }
        const inner = this.alternation();
        if (this.s[this.pos++] !== ')') throw new Unsupported();
        return inner;
      }
      case '[':
        return this.charClass();
      case '\\':
        return set(...this.escape(false));
      case undefined:
      case ')':
      case '*':
      case '+':
      case '?':
      case '{':
      case '|':
        throw new Unsupported();
      default: {
        const cp = this.s.codePointAt(this.pos - 1)!;
        if (cp > 0xffff) this.pos++;
        return set([cp, cp]);
      }
    }
  }

  private charClass(): Node {
    const negate = this.peek() === '^';
    if (negate) this.pos++;
    const ranges: Range[] = [];
    while (this.peek() !== ']') {
      if (this.pos >= this.s.length) throw new Unsupported();
      const lo = this.classAtom();
      if (this.peek() === '-' && this.s[this.pos + 1] !== ']' && this.pos + 1 < this.s.length) {
        this.pos++;
        const hi = this.classAtom();
        if (lo.length !== 1 || hi.length !== 1 || lo[0]![0] !== lo[0]![1] || hi[0]![0] !== hi[0]![1])
          throw new Unsupported();
        if (hi[0]![0] < lo[0]![0]) throw new Unsupported();
        ranges.push([lo[0]![0], hi[0]![0]]);
      } else ranges.push(...lo);
    }
    this.pos++;
    return set(...(negate ? complement(ranges) : ranges));
  }

  private classAtom(): Range[] {
    const c = this.s[this.pos++]!;
    if (c === '\\') return this.escape(true);
    const cp = this.s.codePointAt(this.pos - 1)!;
    if (cp > 0xffff) this.pos++;
    return [[cp, cp]];
  }

  private escape(inClass: boolean): Range[] {
    const c = this.s[this.pos++];
    const one = (cp: number): Range[] => [[cp, cp]];
    switch (c) {
      case 'd':
        return DIGIT;
      case 'D':
        return complement(DIGIT);
      case 'w':
        return WORD;
      case 'W':
        return complement(WORD);
      case 's':
        return SPACE;
      case 'S':
        return complement(SPACE);
      case 't':
        return one(9);
      case 'n':
        return one(10);
      case 'v':
        return one(11);
      case 'f':
        return one(12);
      case 'r':
        return one(13);
      case '0':
        return one(0);
      case 'x':
      case 'u': {
        const m =
          c === 'x'
            ? /^[0-9a-fA-F]{2}/.exec(this.s.slice(this.pos))
            : /^(?:[0-9a-fA-F]{4}|\{[0-9a-fA-F]+\})/.exec(this.s.slice(this.pos));
        if (!m) throw new Unsupported();
        this.pos += m[0].length;
        return one(parseInt(m[0].replace(/[{}]/g, ''), 16));
      }
      case undefined:
        throw new Unsupported();
      default:
        // Escaped punctuation is the character itself; letters and digits are classes, backreferences
        // or boundaries outside the subset (\b inside a class is a backspace).
        if (inClass && c === 'b') return one(8);
        if (/[A-Za-z0-9]/.test(c)) throw new Unsupported();
        return one(c.codePointAt(0)!);
    }
  }
}

// ---- structural containment -----------------------------------------------------------------------

/** True when every string `small` matches is matched by `big` (sound, not complete). */
function contains(big: Node, small: Node): boolean {
  if (small.t === 'alt') return small.options.every((o) => contains(big, o));
  if (big.t === 'alt') return big.options.some((o) => contains(o, small));
  const xs = small.t === 'seq' ? small.items : [small];
  const ys = big.t === 'seq' ? big.items : [big];
  if (xs.length === 1 && ys.length === 1) return containsItem(ys[0]!, xs[0]!);
  const memo = new Map<number, boolean>();
  // f(i, j): xs[i..] within ys[j..]. A ys element that can match nothing may be skipped; a `Y*` may
  // absorb any number of xs elements within Y.
  const f = (i: number, j: number): boolean => {
    const key = i * (ys.length + 1) + j;
    const known = memo.get(key);
    if (known !== undefined) return known;
    let r = false;
    if (i === xs.length && j === ys.length) r = true;
    if (!r && j < ys.length && nullable(ys[j]!)) r = f(i, j + 1);
    if (!r && i < xs.length && j < ys.length && containsItem(ys[j]!, xs[i]!)) r = f(i + 1, j + 1);
    const y = ys[j];
    if (
      !r &&
      i < xs.length &&
      y?.t === 'rep' &&
      y.min === 0 &&
      y.max === Infinity &&
      containsItem({ ...y, min: 0 }, xs[i]!)
    )
      r = f(i + 1, j);
    // An alternation may match several xs elements at once: abc within (abc|x).
    if (y?.t === 'alt') {
      for (let k = i + 2; !r && k <= xs.length; k++)
        r = contains(y, { t: 'seq', items: xs.slice(i, k) }) && f(k, j + 1);
    }
    memo.set(key, r);
    return r;
  };
  return f(0, 0);
}

function containsItem(y: Node, x: Node): boolean {
  if (x.t === 'seq' || x.t === 'alt' || y.t === 'seq' || y.t === 'alt') return contains(y, x);
  const [xn, xmin, xmax] = x.t === 'rep' ? [x.node, x.min, x.max] : [x, 1, 1];
  const [yn, ymin, ymax] = y.t === 'rep' ? [y.node, y.min, y.max] : [y, 1, 1];
  if (xmin === 0 && xmax === 0) return true;
  if (ymin > xmin || ymax < xmax) return false;
  if (xn.t === 'set' && yn.t === 'set') return rangesWithin(xn.ranges, yn.ranges);
  // A repeated group: allowed when the counts are 1, or the groups are the same language.
  if (xmin === 1 && xmax === 1 && ymin <= 1 && ymax >= 1) return contains(yn, xn);
  return contains(yn, xn) && contains(xn, yn);
}

function nullable(n: Node): boolean {
  switch (n.t) {
    case 'rep':
      return n.min === 0 || nullable(n.node);
    case 'seq':
      return n.items.every(nullable);
    case 'alt':
      return n.options.some(nullable);
    default:
      return false;
  }
}

function rangesWithin(small: Range[], big: Range[]): boolean {
  return small.every(([a, b]) => big.some(([c, d]) => c <= a && b <= d));
}

// ---- witnesses ------------------------------------------------------------------------------------

const PROBES = [
  '',
  'a',
  'abc',
  'A',
  'Z',
  '0',
  '7',
  '123',
  '-',
  '_',
  ' ',
  '/',
  '\\',
  '.',
  '*',
  'C:/',
  'x-y',
  'a b',
  '0000000',
  'ffffffff',
];
const MAX_WITNESSES = 2000;

/** Strings to try: probes, strings built from the pattern, and each with a character added or dropped. */
function candidates(n: Node | null): string[] {
  const base = [...PROBES, ...(n ? generate(n, 48) : [])];
  const out = new Set<string>();
  for (const w of base) {
    for (const v of [
      w,
      `x${w}`,
      `${w}x`,
      `-${w}`,
      `${w}0`,
      w.slice(1),
      w.slice(0, -1),
      `${w}${w.slice(-1)}`,
      `${w} `,
    ]) {
      out.add(v);
      if (out.size >= MAX_WITNESSES) return [...out];
    }
  }
  return [...out];
}

function generate(n: Node, cap: number): string[] {
  switch (n.t) {
    case 'anchor':
      return [''];
    case 'set': {
      const picks = new Set<number>();
      for (const [a, b] of n.ranges.slice(0, 3)) {
        picks.add(a);
        picks.add(b);
      }
      const last = n.ranges.at(-1);
      if (last) picks.add(last[0]);
      return [...picks]
        .filter((cp) => cp < 0xd800 || cp > 0xdfff)
        .slice(0, 4)
        .map((cp) => String.fromCodePoint(cp));
    }
    case 'alt': {
      // Round robin, so every alternative is represented however small the cap.
      const gens = n.options.map((o) => generate(o, cap));
      const out: string[] = [];
      for (let i = 0; out.length < cap && gens.some((g) => i < g.length); i++)
        for (const g of gens) if (i < g.length) out.push(g[i]!);
      return out.slice(0, cap);
    }
    case 'rep': {
      const inner = generate(n.node, 4);
      const counts = [
        ...new Set([
          n.min,
          n.min + 1,
          Number.isFinite(n.max) ? n.max : n.min + 2,
          Math.max(0, n.min - 1),
          Number.isFinite(n.max) ? n.max + 1 : n.min + 3,
        ]),
      ];
      const out: string[] = [];
      for (const k of counts) if (k <= 200) for (const w of inner) out.push(w.repeat(k));
      return out.slice(0, cap);
    }
    case 'seq': {
      let acc = [''];
      for (const item of n.items) {
        const next: string[] = [];
        const gen = generate(item, 8);
        // Vary one position at a time around the first choice, so the product stays small.
        for (const [i, prefix] of acc.entries()) {
          for (const [j, w] of gen.entries()) if (i === 0 || j === 0) next.push(prefix + w);
        }
        acc = next.slice(0, cap);
      }
      return acc;
    }
  }
}
