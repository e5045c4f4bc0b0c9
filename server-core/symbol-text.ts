// A symbol's text as nav/findSymbol gives it (clause T45): its signature (its declaration up to its body,
// on one line) and where its body starts (its doc comment, decorators or attributes directly above it
// included). Pure functions over the file's text and 0-based positions (UTF-16, as the wire counts).
import type { SymbolNode, SymbolTree } from './name-paths';

/** Longest signature (after its whitespace is folded). */
export const MAX_SIGNATURE = 400;
/** A signature is looked for this far at most (a `(` never closed must not scan a whole file). */
const MAX_SIGNATURE_SCAN = 64 * 1024;

/** The text's line starts (offsets), for many positions in one text. */
export function lineStarts(text: string): number[] {
  const starts = [0];
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (c === 10) starts.push(i + 1);
    else if (c === 13) starts.push(text.charCodeAt(i + 1) === 10 ? ++i + 1 : i + 1);
  }
  return starts;
}

/** The offset of a position, clamped to its line and to the text. */
export function offsetIn(text: string, starts: readonly number[], line: number, character: number): number {
  if (line < 0) return 0;
  if (line >= starts.length) return text.length;
  const start = starts[line]!;
  const next = line + 1 < starts.length ? starts[line + 1]! : text.length;
  let end = next;
  while (end > start && (text[end - 1] === '\n' || text[end - 1] === '\r')) end--;
  return Math.min(start + Math.max(0, character), end);
}

/** Past `open`'s matching `close` from `i` (at `open`), quotes skipped; undefined when it is not closed before `end`. */
function pastBalanced(text: string, i: number, end: number, open: string, close: string): number | undefined {
  let depth = 0;
  let quote: string | undefined;
  for (; i < end; i++) {
    const c = text[i]!;
    if (quote) {
      if (c === '\\') i++;
      else if (c === quote) quote = undefined;
    } else if (c === '"' || c === "'" || c === '`') quote = c;
    else if (c === open) depth++;
    else if (c === close && --depth === 0) return i + 1;
  }
  return undefined;
}

const LINE_BREAK = /[\r\n]/;
const lineEndFrom = (text: string, i: number, end: number) => {
  while (i < end && !LINE_BREAK.test(text[i]!)) i++;
  return i;
};

/**
 * Past the comment, decorator or attribute at `i` (`//…`, `/* … *\/`, `@name.name(…)`, `#[…]`, `#![…]`,
 * `# …`), or undefined when none starts there. `#name` (a private field) is none.
 */
function pastLeadingConstruct(text: string, i: number, end: number): number | undefined {
  const c = text[i];
  const d = text[i + 1];
  if (c === '/' && d === '/') return lineEndFrom(text, i, end);
  if (c === '/' && d === '*') {
    const close = text.indexOf('*/', i + 2);
    return close < 0 || close + 2 > end ? undefined : close + 2;
  }
  if (c === '@' && d !== undefined && /[\p{ID_Start}_$]/u.test(d)) {
    let j = i + 1;
    while (j < end && /[\p{ID_Continue}$.]/u.test(text[j]!)) j++;
    return text[j] === '(' ? pastBalanced(text, j, end, '(', ')') : j;
  }
  if (c === '#' && d === '[') return pastBalanced(text, i + 1, end, '[', ']');
  if (c === '#' && d === '!' && text[i + 2] === '[') return pastBalanced(text, i + 2, end, '[', ']');
  if (c === '#' && (d === undefined || d === ' ' || d === '\t' || LINE_BREAK.test(d))) return lineEndFrom(text, i, end);
  return undefined;
}

const blanksFrom = (text: string, i: number, end: number) => {
  while (i < end && (text[i] === ' ' || text[i] === '\t')) i++;
  return i;
};

/**
 * Where T45's declaration starts in the range from `from` to `to`: past the whole lines of comments,
 * decorators and attributes the range begins with (TypeScript's and Python's ranges begin at a
 * decorator, rust-analyzer's at a doc comment or attribute). A line that holds such constructs and
 * then more text starts the declaration, with them.
 */
export function declarationStart(text: string, from: number, to: number): number {
  const end = Math.min(to, text.length, from + MAX_SIGNATURE_SCAN);
  let i = from;
  for (;;) {
    const run = blanksFrom(text, i, end);
    i = run;
    let constructs = 0;
    for (let past = pastLeadingConstruct(text, i, end); past !== undefined; past = pastLeadingConstruct(text, i, end)) {
      constructs++;
      i = blanksFrom(text, past, end);
    }
    if (constructs === 0) return i < end ? run : from;
    if (i >= end) return from; // nothing but comments and decorators: keep the range as it is
    if (!LINE_BREAK.test(text[i]!)) return run; // more on this line: the declaration starts with them
    i += text[i] === '\r' && text[i + 1] === '\n' ? 2 : 1;
  }
}

/** The position of an offset (0-based line and character). */
export function positionAt(starts: readonly number[], offset: number): { line: number; character: number } {
  let lo = 0;
  let hi = starts.length - 1;
  while (lo < hi) {
    const mid = (lo + hi + 1) >> 1;
    if (starts[mid]! <= offset) lo = mid;
    else hi = mid - 1;
  }
  return { line: lo, character: offset - starts[lo]! };
}

/**
 * T45's signature: from the declaration (declarationStart) to the first `{` outside parentheses,
 * brackets, angle brackets and quotes, or to the first line break outside parentheses, brackets and
 * angle brackets, whichever is first (and never past `to`), each run of whitespace one space, trimmed,
 * at most MAX_SIGNATURE characters. `<` opens an angle bracket unless it is `<=` or `<<`; `=>` and `->`
 * close none; a `)` or `]` closes the angle brackets left open inside it (`a < b` in a parameter's
 * default stays there).
 */
export function signatureAt(text: string, from: number, to: number): string {
  const begin = declarationStart(text, from, to);
  const end = Math.min(to, text.length, begin + MAX_SIGNATURE_SCAN);
  const open: string[] = [];
  let quote: string | undefined;
  let i = begin;
  for (; i < end; i++) {
    const c = text[i]!;
    if (c === '\n' || c === '\r') {
      if (open.length === 0) break;
      continue;
    }
    if (quote) {
      if (c === '\\') i++;
      else if (c === quote) quote = undefined;
      continue;
    }
    if (c === '"' || c === "'" || c === '`') quote = c;
    else if (c === '(' || c === '[') open.push(c);
    else if (c === '<') {
      if (text[i + 1] !== '=' && text[i + 1] !== '<' && text[i - 1] !== '<') open.push(c);
    } else if (c === ')' || c === ']') {
      const k = open.lastIndexOf(c === ')' ? '(' : '[');
      if (k >= 0) open.length = k;
    } else if (c === '>') {
      if (open[open.length - 1] === '<' && text[i - 1] !== '=' && text[i - 1] !== '-') open.pop();
    } else if (c === '{' && open.length === 0) break;
  }
  const folded = text.slice(begin, i).replace(/\s+/g, ' ').trim();
  return folded.length > MAX_SIGNATURE ? folded.slice(0, MAX_SIGNATURE) : folded;
}

/** A line that belongs to the block above a symbol: its first non-blank characters start a comment, decorator or attribute. */
const LEADING = /^[ \t]*(\/\*|\*|\/\/|#|@)/;

/**
 * Where T45's body starts: the first non-blank character of the first line of the block of comment,
 * decorator and attribute lines directly above `line` (no blank line between, none at or before the
 * previous sibling's last line `floor`), else undefined (the body starts where the symbol does).
 */
export function leadingBlockStart(
  text: string,
  starts: readonly number[],
  line: number,
  floor: number,
): { line: number; character: number } | undefined {
  let first: number | undefined;
  for (let l = line - 1; l > floor && l >= 0; l--) {
    const lineEnd = l + 1 < starts.length ? starts[l + 1]! : text.length;
    const content = text.slice(starts[l]!, lineEnd).replace(/\r?\n$|\r$/, '');
    if (!LEADING.test(content)) break;
    first = l;
  }
  if (first === undefined) return undefined;
  const content = text.slice(starts[first]!, first + 1 < starts.length ? starts[first + 1]! : text.length);
  return { line: first, character: content.length - content.trimStart().length };
}

/**
 * Where a symbol's body starts (T45), its leading block included: the block may reach up to the line
 * after its previous sibling's range (a top-level symbol's siblings are the file's top-level symbols),
 * or after its parent's first line for a first child, never into them.
 */
export function bodyStartOf(
  text: string,
  starts: readonly number[],
  tree: SymbolTree,
  n: SymbolNode,
): { line: number; character: number } {
  const siblings = n.parent ? n.parent.children : tree.roots;
  const k = siblings.indexOf(n);
  const previous = k > 0 ? siblings[k - 1] : undefined;
  const floor = previous ? previous.range.end.line : n.parent ? n.parent.range.start.line : -1;
  return leadingBlockStart(text, starts, n.range.start.line, floor) ?? n.range.start;
}
