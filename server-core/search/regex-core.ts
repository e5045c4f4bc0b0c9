// The matching and replacement semantics of edit/find and edit/replace, as pure functions with no
// imports: the regex worker (search/regex-worker.ts) bundles exactly this, and the main thread uses it
// only to validate patterns, never to run a user regular expression.

export interface MatchOptions {
  pattern: string;
  isRegex: boolean;
  isCaseSensitive: boolean;
}

export function escapeRegExp(s: string): string {
  return s.replace(/[.*+?^${}()|[\]\\/-]/g, '\\$&');
}

/** The global JS RegExp for the options; throws SyntaxError for a malformed pattern. */
export function compileRegExp(o: MatchOptions): RegExp {
  return new RegExp(o.isRegex ? o.pattern : escapeRegExp(o.pattern), o.isCaseSensitive ? 'g' : 'gi');
}

/** Start columns (UTF-16) of every match in one line, zero-length matches included (as String.replace sees them). */
export function matchColumns(re: RegExp, line: string, limit = Infinity): number[] {
  return scanLine(re, line, limit).cols;
}

/** Counts every match in one line and keeps the start columns of the first `keep`. */
export function scanLine(re: RegExp, line: string, keep: number): { count: number; cols: number[] } {
  const cols: number[] = [];
  let count = 0;
  re.lastIndex = 0;
  let m: RegExpExecArray | null;
  while ((m = re.exec(line)) !== null) {
    if (count < keep) cols.push(m.index);
    count++;
    if (m[0].length === 0) re.lastIndex++;
    if (re.lastIndex > line.length) break;
  }
  re.lastIndex = 0;
  return { count, cols };
}

/** Replaces every match in one line; literal mode inserts `replacement` verbatim (no $-expansion). */
export function replaceInLine(
  re: RegExp,
  line: string,
  replacement: string,
  isRegex: boolean,
): { text: string; count: number } {
  let count = 0;
  re.lastIndex = 0;
  const text = line.replace(re, (...args: unknown[]) => {
    count++;
    if (!isRegex) return replacement;
    // Expand $1, $<name>, $&, $$ exactly as String.prototype.replace would for this one match.
    const groupsLast = typeof args[args.length - 1] === 'object' && args[args.length - 1] !== null;
    const groups = groupsLast ? (args[args.length - 1] as Record<string, string | undefined>) : undefined;
    const offsetIdx = groupsLast ? args.length - 3 : args.length - 2;
    const matched = args[0] as string;
    const caps = args.slice(1, offsetIdx) as (string | undefined)[];
    const offset = args[offsetIdx] as number;
    return expandReplacement(replacement, matched, caps, offset, line, groups);
  });
  re.lastIndex = 0;
  return { text, count };
}

function expandReplacement(
  rep: string,
  matched: string,
  caps: (string | undefined)[],
  offset: number,
  input: string,
  groups?: Record<string, string | undefined>,
): string {
  let out = '';
  for (let i = 0; i < rep.length; i++) {
    const c = rep[i]!;
    if (c !== '$' || i + 1 >= rep.length) {
      out += c;
      continue;
    }
    const n = rep[i + 1]!;
    if (n === '$') {
      out += '$';
      i++;
    } else if (n === '&') {
      out += matched;
      i++;
    } else if (n === '`') {
      out += input.slice(0, offset);
      i++;
    } else if (n === "'") {
      out += input.slice(offset + matched.length);
      i++;
    } else if (n === '<' && groups) {
      const end = rep.indexOf('>', i + 2);
      if (end < 0) {
        out += c;
        continue;
      }
      out += groups[rep.slice(i + 2, end)] ?? '';
      i = end;
    } else if (n >= '0' && n <= '9') {
      // Two-digit group numbers win when that group exists (the spec's rule).
      const n2 = rep[i + 2];
      const two = n2 !== undefined && n2 >= '0' && n2 <= '9' ? Number(n + n2) : 0;
      if (two >= 1 && two <= caps.length) {
        out += caps[two - 1] ?? '';
        i += 2;
      } else if (Number(n) >= 1 && Number(n) <= caps.length) {
        out += caps[Number(n) - 1] ?? '';
        i++;
      } else out += c;
    } else out += c;
  }
  return out;
}

/**
 * Calls `onLine` for every line of `text` (VS Code's splitting) with the line ending that follows it
 * ("\r\n", "\r", "\n", or "" after the last line). Linear; no regular expression.
 */
export function forEachLine(text: string, onLine: (line: string, eol: string, index: number) => void): void {
  let start = 0;
  let index = 0;
  const n = text.length;
  for (let i = 0; i < n; i++) {
    const c = text.charCodeAt(i);
    if (c !== 10 && c !== 13) continue;
    const crlf = c === 13 && i + 1 < n && text.charCodeAt(i + 1) === 10;
    onLine(text.slice(start, i), crlf ? '\r\n' : c === 13 ? '\r' : '\n', index++);
    if (crlf) i++;
    start = i + 1;
  }
  onLine(text.slice(start), '', index);
}

/**
 * Replaces in `text` line by line (VS Code's line splitting), keeping every line ending byte for byte;
 * `replaceLine` decides each line. Returns the new text and the number of matches.
 */
export function replaceLines(
  text: string,
  replaceLine: (line: string) => { text: string; count: number },
): { text: string; count: number } {
  const parts: string[] = [];
  let count = 0;
  forEachLine(text, (line, eol) => {
    const r = replaceLine(line);
    count += r.count;
    parts.push(r.count > 0 ? r.text : line, eol);
  });
  return { text: count > 0 ? parts.join('') : text, count };
}
