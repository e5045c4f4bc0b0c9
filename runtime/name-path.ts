// Name paths (clause T43): `Hono/route` names the symbols called `route` inside one called `Hono`. The one
// parser and formatter, for the server (matching, the name paths answers carry), the CLI and the
// conformance fuzzer (which judges malformed name paths by it). Grammar:
//
//   namePath := "/"? segment ("/" segment)*
//   segment  := name ("[" index "]")?
//   name     := (char | "\/" | "\[" | "\]" | "\\")+        char: anything but / [ ] \
//   index    := "0" | [1-9][0-9]{0,8}
//
// The parse is one pass over the text (no backtracking); an error says what is wrong and at which
// character (0-based, in UTF-16 code units as the wire counts).

/** Longest name path accepted (the schema's maxLength; the parser checks it too, for callers without a schema). */
export const MAX_NAME_PATH_LENGTH = 1024;
/** Most digits in an index (`[123456789]`). */
export const MAX_INDEX_DIGITS = 9;

export interface NamePathSegment {
  /** The name, unescaped. */
  name: string;
  /** `[i]`: the i-th (0-based) of the same-named symbols under one parent, in source order. */
  index?: number;
}

export interface NamePath {
  /** A leading `/`: the first segment is a top-level symbol of the file. */
  absolute: boolean;
  segments: NamePathSegment[];
}

/** A malformed name path: `message` says what is wrong and where, `at` is that character (0-based). */
export class NamePathError extends Error {
  override readonly name = 'NamePathError';
  constructor(
    readonly problem: string,
    readonly at: number,
  ) {
    super(`malformed name path: ${problem} at character ${at}`);
  }
}

const ESCAPABLE = new Set(['/', '[', ']', '\\']);

/** Parses a name path; throws NamePathError naming what is wrong and at which character. */
export function parseNamePath(text: string): NamePath {
  if (typeof text !== 'string') throw new NamePathError('not a string', 0);
  if (text.length === 0) throw new NamePathError('empty name path', 0);
  if (text.length > MAX_NAME_PATH_LENGTH)
    throw new NamePathError(`longer than ${MAX_NAME_PATH_LENGTH} characters`, MAX_NAME_PATH_LENGTH);
  const absolute = text[0] === '/';
  const segments: NamePathSegment[] = [];
  let i = absolute ? 1 : 0;
  for (;;) {
    const start = i;
    let name = '';
    let index: number | undefined;
    while (i < text.length && text[i] !== '/') {
      const c = text[i]!;
      if (index !== undefined) throw new NamePathError(`"${c}" after an index (an index ends its segment)`, i);
      if (c === '\\') {
        const next = text[i + 1];
        if (next === undefined) throw new NamePathError('"\\" at the end (escape "\\" as "\\\\")', i);
        if (!ESCAPABLE.has(next))
          throw new NamePathError(`"\\${next}" is not an escape (only \\/, \\[, \\] and \\\\ are)`, i);
        name += next;
        i += 2;
      } else if (c === ']') {
        throw new NamePathError('"]" without "[" (escape it as "\\]")', i);
      } else if (c === '[') {
        if (name === '') throw new NamePathError('an index without a name before it', i);
        index = parseIndex(text, i);
        i = text.indexOf(']', i) + 1;
      } else {
        name += c;
        i++;
      }
    }
    if (name === '') throw new NamePathError('empty segment', start);
    segments.push(index === undefined ? { name } : { name, index });
    if (i >= text.length) break;
    i++; // the "/"
    if (i >= text.length) throw new NamePathError('empty segment (a trailing "/")', i);
  }
  return { absolute, segments };
}

/** The index of a `[` at `open`: digits then `]`, no leading zero, at most MAX_INDEX_DIGITS digits. */
function parseIndex(text: string, open: number): number {
  let j = open + 1;
  while (j < text.length && text[j]! >= '0' && text[j]! <= '9') j++;
  const digits = text.slice(open + 1, j);
  if (text[j] !== ']') {
    if (j >= text.length) throw new NamePathError('"[" without "]" (escape it as "\\[")', open);
    throw new NamePathError(`"${text[j]}" in an index (an index is digits: [0], [1], …)`, j);
  }
  if (digits === '') throw new NamePathError('an empty index "[]"', open);
  if (digits.length > MAX_INDEX_DIGITS)
    throw new NamePathError(`an index of more than ${MAX_INDEX_DIGITS} digits`, open + 1);
  if (digits.length > 1 && digits[0] === '0') throw new NamePathError('an index with a leading zero', open + 1);
  return Number(digits);
}

/** A name as a name path writes it: `/`, `[`, `]` and `\` escaped with a backslash. */
export function escapeName(name: string): string {
  return name.replace(/[/[\]\\]/g, (c) => `\\${c}`);
}

/** Writes a name path (the inverse of parseNamePath: parse(format(p)) equals p). */
export function formatNamePath(path: NamePath): string {
  const body = path.segments
    .map((s) => (s.index === undefined ? escapeName(s.name) : `${escapeName(s.name)}[${s.index}]`))
    .join('/');
  return path.absolute ? `/${body}` : body;
}
