// Literal (isRegex: false) matching without a RegExp, in time linear in the line, so it may run on the
// extension host's main thread. Neither V8's regex engine nor String.prototype.indexOf is linear: both
// compare the pattern from its end at each position, so "a"×2,500+"b"+"a"×2,500 against a long run of
// "a" costs line × 2,500 (≈1 s per MB). Patterns of up to 8 units (where that product stays small) use indexOf,
// longer ones Knuth-Morris-Pratt. Case-insensitive matching compares JavaScript's own canonical forms
// (ES Canonicalize for /i without /u: toUpperCase per UTF-16 unit, kept when it would not be one unit or
// would turn non-ASCII into ASCII), so the results are exactly those of the escaped RegExp ("gi").
import { type MatchOptions, replaceLines } from './regex-core';

let canonTable: Uint16Array | undefined;

function canonOf(): Uint16Array {
  if (canonTable) return canonTable;
  const t = new Uint16Array(65536);
  for (let c = 0; c < 65536; c++) {
    const u = String.fromCharCode(c).toUpperCase();
    const cu = u.length === 1 ? u.charCodeAt(0) : c;
    t[c] = c >= 128 && cu < 128 ? c : cu;
  }
  return (canonTable = t);
}

const ASCII_ONLY = /^[\x00-\x7f]*$/;

/** `s` with every UTF-16 unit replaced by its canonical form; same length, so columns carry over. */
export function canonicalize(s: string): string {
  if (ASCII_ONLY.test(s)) return s.toUpperCase();
  const t = canonOf();
  let out = '';
  const CHUNK = 8192;
  const buf = new Uint16Array(Math.min(CHUNK, s.length));
  for (let start = 0; start < s.length; start += CHUNK) {
    const end = Math.min(s.length, start + CHUNK);
    for (let i = start; i < end; i++) buf[i - start] = t[s.charCodeAt(i)]!;
    out += String.fromCharCode.apply(null, buf.subarray(0, end - start) as unknown as number[]);
  }
  return out;
}

/** Longest pattern searched with indexOf: its worst case, line × pattern, stays a small multiple of the line. */
const INDEXOF_MAX_PATTERN = 8;

/** A search for `needle` from a position, -1 when absent; linear in the text searched. */
function searcher(needle: string): (hay: string, from: number) => number {
  if (needle.length <= INDEXOF_MAX_PATTERN) return (hay, from) => hay.indexOf(needle, from);
  const m = needle.length;
  const fail = new Int32Array(m); // KMP: length of the longest proper border of needle[0..i]
  for (let i = 1, k = 0; i < m; i++) {
    while (k > 0 && needle.charCodeAt(i) !== needle.charCodeAt(k)) k = fail[k - 1]!;
    if (needle.charCodeAt(i) === needle.charCodeAt(k)) k++;
    fail[i] = k;
  }
  return (hay, from) => {
    for (let i = from, k = 0; i < hay.length; i++) {
      const c = hay.charCodeAt(i);
      while (k > 0 && c !== needle.charCodeAt(k)) k = fail[k - 1]!;
      if (c === needle.charCodeAt(k) && ++k === m) return i - m + 1;
    }
    return -1;
  };
}

export interface LiteralMatcher {
  /** Counts every match in one line and keeps the start columns of the first `keep`. */
  scan(line: string, keep: number): { count: number; cols: number[] };
  /** One line with every match replaced by `replacement`, verbatim. */
  replace(line: string, replacement: string): { text: string; count: number };
}

export function literalMatcher(o: MatchOptions): LiteralMatcher {
  const needle = o.isCaseSensitive ? o.pattern : canonicalize(o.pattern);
  const m = needle.length;
  const hay = o.isCaseSensitive ? (s: string) => s : canonicalize;
  const find = searcher(needle);
  /** Calls onMatch for each non-overlapping match, left to right; returns how many. */
  const each = (line: string, onMatch: (col: number) => void): number => {
    if (m === 0 || line.length < m) return 0;
    const h = hay(line);
    let count = 0;
    for (let i = find(h, 0); i >= 0; i = find(h, i + m)) {
      onMatch(i);
      count++;
    }
    return count;
  };
  return {
    scan(line, keep) {
      const cols: number[] = [];
      const count = each(line, (c) => {
        if (cols.length < keep) cols.push(c);
      });
      return { count, cols };
    },
    replace(line, replacement) {
      const parts: string[] = [];
      let at = 0;
      const count = each(line, (c) => {
        parts.push(line.slice(at, c), replacement);
        at = c + m;
      });
      if (count === 0) return { text: line, count };
      parts.push(line.slice(at));
      return { text: parts.join(''), count };
    },
  };
}

/** Literal replacement over a whole text, line by line with VS Code's line splitting, endings kept. */
export function literalReplaceText(
  o: MatchOptions,
  replacement: string,
  text: string,
): { text: string; count: number } {
  const lm = literalMatcher(o);
  return replaceLines(text, (line) => lm.replace(line, replacement));
}
