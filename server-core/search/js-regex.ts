// The matching semantics of edit/find and edit/replace are JavaScript's (capture groups, named groups,
// look-around, \b), applied line by line. ripgrep only pre-selects candidate lines; the JS regex has
// the last word. User patterns run in the regex workers (regex-pool.ts); here they are only compiled,
// to refuse a malformed one synchronously, and rewritten for ripgrep.
import { invalidRequest } from '../errors';
import { compileRegExp, type MatchOptions } from './regex-core';

export { type MatchOptions, matchColumns, replaceInLine } from './regex-core';

/** The global JS RegExp for the options; INVALID_REQUEST for an empty or malformed pattern. Never runs it. */
export function buildRegExp(o: MatchOptions): RegExp {
  if (typeof o.pattern !== 'string' || o.pattern.length === 0)
    throw invalidRequest('pattern must be a non-empty string');
  try {
    return compileRegExp(o);
  } catch (e) {
    throw invalidRequest(`invalid regular expression: ${(e as Error).message}`);
  }
}

/**
 * The pattern for ripgrep's PCRE2 engine, relaxed so it finds a superset of the lines the JS regex
 * matches: PCRE2 runs in Unicode mode, where \b/\B, \W and \D differ from JavaScript's ASCII meaning,
 * so word-boundary assertions are dropped and \W/\D become explicit ASCII classes (outside brackets);
 * JavaScript's \s also takes U+FEFF, which PCRE2's does not, so it is added (inside brackets too); and
 * rg's line of a CRLF file still ends in \r, which the JS side strips, so $ may follow one.
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
      if (!inClass && n === 'W') {
        out += '[^A-Za-z0-9_]';
        continue;
      }
      if (!inClass && n === 'D') {
        out += '[^0-9]';
        continue;
      }
      if (n === 's') {
        out += inClass ? '\\x{FEFF}\\s' : '[\\x{FEFF}\\s]';
        continue;
      }
      out += c + n;
      continue;
    }
    if (c === '$' && !inClass) {
      out += '\\r?$';
      continue;
    }
    if (c === '[' && !inClass) inClass = true;
    else if (c === ']' && inClass) inClass = false;
    out += c;
  }
  return out;
}
