// edit/replace's text transformation, for one document's text: line by line with VS Code's line
// splitting (\r\n, \r, \n), every line ending kept byte for byte, `$1`, `$<name>`, `$&` expanded in regex
// mode and the replacement inserted verbatim otherwise. Regular expressions run in a regex worker under
// a time budget (RegexLimitError when exceeded); literal patterns here, in linear time.
import { buildRegExp, type MatchOptions } from './js-regex';
import { literalReplaceText } from './literal';
import type { ReplaceResult } from './regex-jobs';
import { RegexBudget, regexPool } from './regex-pool';

export async function replaceInText(
  match: MatchOptions,
  replacement: string,
  text: string,
  opts: { signal?: AbortSignal; budget?: RegexBudget } = {},
): Promise<{ text: string; count: number }> {
  buildRegExp(match); // INVALID_REQUEST for a malformed pattern
  opts.signal?.throwIfAborted();
  if (!match.isRegex) return literalReplaceText(match, replacement, text);
  return regexPool().run<ReplaceResult>(
    { op: 'replace', match, replacement, text },
    opts.budget ?? new RegexBudget(),
    opts.signal,
  );
}
