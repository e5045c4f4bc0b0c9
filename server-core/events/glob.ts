// VS Code exclude globs (`files.exclude` / `search.exclude` keys) as regular expressions over
// '/'-separated relative paths: `**` any segments, `*` and `?` within a segment, `{a,b}`, `[abc]`.
// Settings are workspace input: a glob that cannot be compiled matches nothing (and is not thrown).

/** The glob as an anchored RegExp, or undefined when it is malformed. */
export function globRegExp(glob: string): RegExp | undefined {
  let re = '';
  let braces = 0;
  for (let i = 0; i < glob.length; i++) {
    const c = glob[i]!;
    if (c === '*') {
      if (glob[i + 1] === '*') {
        i++;
        if (glob[i + 1] === '/') {
          i++;
          re += '(?:[^/]*/)*';
        } else re += '.*';
      } else re += '[^/]*';
    } else if (c === '?') re += '[^/]';
    else if (c === '{') {
      braces++;
      re += '(?:';
    } else if (c === '}' && braces > 0) {
      braces--;
      re += ')';
    } else if (c === ',' && braces > 0) re += '|';
    else if (c === '[') {
      const end = glob.indexOf(']', i + 2);
      if (end < 0) re += '\\[';
      else {
        let body = glob.slice(i + 1, end).replace(/[\\^]/g, '\\$&');
        if (body.startsWith('!')) body = `^${body.slice(1)}`;
        re += `[${body}]`;
        i = end;
      }
    } else re += c.replace(/[.+^${}()|[\]\\]/g, '\\$&');
  }
  if (braces > 0) return undefined;
  try {
    return new RegExp(`^${re}$`);
  } catch {
    return undefined;
  }
}

/** True when `rel` ('/'-separated) or one of its parent folders matches one of `globs`. */
export function excludedBy(rel: string, globs: readonly RegExp[]): boolean {
  if (globs.length === 0) return false;
  const parts = rel.split('/');
  for (let n = 1; n <= parts.length; n++) {
    const prefix = parts.slice(0, n).join('/');
    if (globs.some((g) => g.test(prefix))) return true;
  }
  return false;
}
