// The matching semantics of edit/find and edit/replace are JavaScript's (capture groups, named groups,
// look-around, \b), applied line by line. ripgrep only pre-selects candidate lines; this module has the
// last word, and also derives the pattern handed to ripgrep.
import { invalidRequest } from '../errors';

export interface MatchOptions {
  pattern: string;
  isRegex: boolean;
  isCaseSensitive: boolean;
}

export function escapeRegExp(s: string): string {
  return s.replace(/[.*+?^${}()|[\]\\/-]/g, '\\$&');
}

/** The global JS RegExp for the options; INVALID_REQUEST for an empty or malformed pattern. */
export function buildRegExp(o: MatchOptions): RegExp {
  if (typeof o.pattern !== 'string' || o.pattern.length === 0) throw invalidRequest('pattern must be a non-empty string');
  const source = o.isRegex ? o.pattern : escapeRegExp(o.pattern);
  try {
    return new RegExp(source, o.isCaseSensitive ? 'g' : 'gi');
  } catch (e) {
    throw invalidRequest(`invalid regular expression: ${(e as Error).message}`);
  }
}

/** Start columns (UTF-16) of every match in one line, zero-length matches included (as String.replace sees them). */
export function matchColumns(re: RegExp, line: string, limit = Infinity): number[] {
  const cols: number[] = [];
  re.lastIndex = 0;
  let m: RegExpExecArray | null;
  while (cols.length < limit && (m = re.exec(line)) !== null) {
    cols.push(m.index);
    if (m[0].length === 0) re.lastIndex++;
    if (re.lastIndex > line.length) break;
  }
  re.lastIndex = 0;
  return cols;
}

/** Replaces every match in one line; literal mode inserts `replacement` verbatim (no $-expansion). */
export function replaceInLine(re: RegExp, line: string, replacement: string, isRegex: boolean): { text: string; count: number } {
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

function expandReplacement(rep: string, matched: string, caps: (string | undefined)[], offset: number, input: string, groups?: Record<string, string | undefined>): string {
  let out = '';
  for (let i = 0; i < rep.length; i++) {
    const c = rep[i]!;
    if (c !== '$' || i + 1 >= rep.length) { out += c; continue; }
    const n = rep[i + 1]!;
    if (n === '$') { out += '$'; i++; }
    else if (n === '&') { out += matched; i++; }
    else if (n === '`') { out += input.slice(0, offset); i++; }
    else if (n === "'") { out += input.slice(offset + matched.length); i++; }
    else if (n === '<' && groups) {
      const end = rep.indexOf('>', i + 2);
      if (end < 0) { out += c; continue; }
      out += groups[rep.slice(i + 2, end)] ?? '';
      i = end;
    } else if (/[0-9]/.test(n)) {
      // Two-digit group numbers win when that group exists (the spec's rule).
      const two = rep.slice(i + 1, i + 3);
      if (/^[0-9]{2}$/.test(two) && Number(two) >= 1 && Number(two) <= caps.length) { out += caps[Number(two) - 1] ?? ''; i += 2; }
      else if (Number(n) >= 1 && Number(n) <= caps.length) { out += caps[Number(n) - 1] ?? ''; i++; }
      else out += c;
    } else out += c;
  }
  return out;
}

/** Splits text into lines the way VS Code's TextDocument does (\r\n, \r or \n). */
export function splitLines(text: string): string[] {
  return text.split(/\r\n|\r|\n/);
}

/**
 * The pattern for ripgrep's PCRE2 engine, relaxed so it finds a superset of the lines the JS regex
 * matches: PCRE2 runs in Unicode mode, where \b/\B, \W and \D differ from JavaScript's ASCII meaning,
 * so word-boundary assertions are dropped and \W/\D become explicit ASCII classes (outside brackets).
 */
export function relaxForRipgrep(jsPattern: string): string {
  let out = '';
  let inClass = false;
  for (let i = 0; i < jsPattern.length; i++) {
    const c = jsPattern[i]!;
    if (c === '\\' && i + 1 < jsPattern.length) {
      const n = jsPattern[i + 1]!;
      i++;
      if (!inClass && (n === 'b' || n === 'B')) continue;
      if (!inClass && n === 'W') { out += '[^A-Za-z0-9_]'; continue; }
      if (!inClass && n === 'D') { out += '[^0-9]'; continue; }
      out += c + n;
      continue;
    }
    if (c === '[' && !inClass) inClass = true;
    else if (c === ']' && inClass) inClass = false;
    out += c;
  }
  return out;
}
