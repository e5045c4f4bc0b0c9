// The range a request names (edit/codeActions, edit/format; clauses T54, T55): `line`/`character` to
// `endLine`/`endCharacter` (the end omitted: the range ends where it starts), or the range of the one
// symbol its `namePath` matches (T44, through locator.ts), or none at all (the whole file). Lines and
// characters are checked against the file's text: a line past the file's end, a character past its
// line's end (a language server may crash on one: tsserver's "Debug Failure") and an end before the
// start are INVALID_REQUEST naming the field.
import { type CoreContext, resolvePath } from '../context';
import { invalidRequest } from '../errors';
import type { Position, Range } from '../host';
import { documentText } from './document';
import { locate } from './locator';

export interface RangeParams {
  filePath: string;
  line?: number;
  character?: number;
  endLine?: number;
  endCharacter?: number;
  namePath?: string;
}

const before = (a: Position, b: Position) => a.line < b.line || (a.line === b.line && a.character < b.character);

/** The file and the range its params name; `range` undefined when they name none (the whole file). */
export async function requestRange(
  svc: CoreContext,
  params: RangeParams,
  signal: AbortSignal,
): Promise<{ path: string; range: Range | undefined }> {
  const { path } = resolvePath(svc, params.filePath);
  if (params.namePath !== undefined) {
    const located = await locate(svc, params, signal);
    return { path, range: located.symbol!.range };
  }
  if (params.line === undefined && params.character === undefined) {
    if (params.endLine !== undefined || params.endCharacter !== undefined)
      throw invalidRequest('endLine and endCharacter need line and character');
    return { path, range: undefined };
  }
  if (params.line === undefined || params.character === undefined)
    throw invalidRequest('line and character go together');
  if ((params.endLine === undefined) !== (params.endCharacter === undefined))
    throw invalidRequest('endLine and endCharacter go together');
  const start = { line: params.line, character: params.character };
  const end = params.endLine === undefined ? start : { line: params.endLine, character: params.endCharacter ?? 0 };
  if (before(end, start)) throw invalidRequest('the range ends before it starts');
  const lines = (await documentText(svc, path)).split(/\r\n|\r|\n/);
  for (const [field, p] of [
    ['', start],
    ['end', end],
  ] as const) {
    if (p.line >= lines.length)
      throw invalidRequest(
        `${field}${field ? 'Line' : 'line'} ${p.line} is beyond the end of the file (${lines.length} lines)`,
      );
    const length = lines[p.line]!.length;
    if (p.character > length)
      throw invalidRequest(
        `${field}${field ? 'Character' : 'character'} ${p.character} is past the end of line ${p.line} (${length} characters)`,
      );
  }
  return { path, range: { start, end } };
}
