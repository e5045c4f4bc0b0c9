// The unified diff a write answers per file (edit/rename, edit/apply and what is built on it): git's
// style, `a/` and `b/` before the workspace-relative path, `/dev/null` for a side that does not exist,
// three lines of context, no "====" banner. Bounded: the line diff gives up past an edit length that
// keeps its work near DIFF_WORK line comparisons, and the answer is then one hunk replacing every line
// (still a correct diff, only less precise), so a hostile pair of large files cannot hold the server.
import { isAbsolute, relative, sep } from 'node:path';
import { createTwoFilesPatch } from 'diff';
import { decodeText } from './file-text';

/** About how many line comparisons one diff may cost. */
export const DIFF_WORK = 20_000_000;

const countLines = (s: string) => {
  let n = 1;
  for (let i = s.indexOf('\n'); i !== -1; i = s.indexOf('\n', i + 1)) n++;
  return n;
};

/** The lines of `s` as a hunk's body, each prefixed with `sign`; "\ No newline at end of file" where it ends without one. */
function hunkLines(s: string, sign: '-' | '+'): string {
  if (s === '') return '';
  const lines = s.split('\n');
  const last = lines.pop()!; // "" when s ends with a line break
  let out = lines.map((l) => `${sign}${l}\n`).join('');
  if (last !== '') out += `${sign}${last}\n\\ No newline at end of file\n`;
  return out;
}

const lineCount = (s: string) => (s === '' ? 0 : countLines(s) - (s.endsWith('\n') ? 1 : 0));

/**
 * A unified diff from `before` (named `oldName`: "a/<path>" or "/dev/null") to `after` (`newName`);
 * "" when they are equal.
 */
export function unifiedDiff(oldName: string, newName: string, before: string, after: string): string {
  if (before === after) return '';
  const maxEditLength = Math.max(100, Math.floor(DIFF_WORK / (countLines(before) + countLines(after))));
  const patch = createTwoFilesPatch(oldName, newName, before, after, undefined, undefined, {
    context: 3,
    maxEditLength,
  });
  if (patch !== undefined) return patch.replace(/^=+\n/, '');
  // Past the bound: every line replaced, in one hunk.
  const b = lineCount(before);
  const a = lineCount(after);
  const range = (start: number, n: number) => (n === 0 ? '0,0' : n === 1 ? `${start}` : `${start},${n}`);
  return `--- ${oldName}\n+++ ${newName}\n@@ -${range(1, b)} +${range(1, a)} @@\n${hunkLines(before, '-')}${hunkLines(after, '+')}`;
}

/** `path` relative to the workspace folder holding it (the deepest), with "/" separators; as given when none does. */
export function workspaceRelative(path: string, folders: readonly string[]): string {
  const folder = [...folders]
    .sort((x, y) => y.length - x.length)
    .find((f) => path === f || path.startsWith(f.endsWith(sep) ? f : `${f}${sep}`));
  const rel = folder !== undefined && isAbsolute(path) ? relative(folder, path) : path;
  return rel.split(sep).join('/');
}

/**
 * The diff of one file a write changes: from `before` at `oldPath` (null: the file did not exist) to
 * `after` at `newPath` (null: it is gone), paths shown relative to their workspace folder; "" when a
 * side is not UTF-8 text.
 */
export function fileDiff(
  folders: readonly string[],
  oldPath: string | null,
  newPath: string | null,
  before: Uint8Array | null,
  after: Uint8Array | null,
): string {
  const b = before === null ? { text: '' } : decodeText(before);
  const a = after === null ? { text: '' } : decodeText(after);
  if (!b || !a) return '';
  return unifiedDiff(
    oldPath === null ? '/dev/null' : `a/${workspaceRelative(oldPath, folders)}`,
    newPath === null ? '/dev/null' : `b/${workspaceRelative(newPath, folders)}`,
    b.text,
    a.text,
  );
}
