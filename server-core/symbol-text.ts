// A symbol's text as nav/findSymbol gives it (clause T45): its signature (its declaration up to its body,
// on one line) and where its body starts (its doc comment, decorators or attributes directly above it
// included). Pure functions over the file's text and 0-based positions (UTF-16, as the wire counts).

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

/**
 * T45's signature: the text from `from` to the first `{` outside parentheses, brackets and quotes, or to
 * the first line break outside parentheses and brackets, whichever is first (and never past `to`), each
 * run of whitespace one space, trimmed, at most MAX_SIGNATURE characters.
 */
export function signatureAt(text: string, from: number, to: number): string {
  const end = Math.min(to, text.length, from + MAX_SIGNATURE_SCAN);
  let depth = 0;
  let quote: string | undefined;
  let i = from;
  for (; i < end; i++) {
    const c = text[i]!;
    if (c === '\n' || c === '\r') {
      if (depth === 0) break;
      continue;
    }
    if (quote) {
      if (c === '\\') i++;
      else if (c === quote) quote = undefined;
      continue;
    }
    if (c === '"' || c === "'" || c === '`') quote = c;
    else if (c === '(' || c === '[') depth++;
    else if ((c === ')' || c === ']') && depth > 0) depth--;
    else if (c === '{' && depth === 0) break;
  }
  const folded = text.slice(from, i).replace(/\s+/g, ' ').trim();
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
