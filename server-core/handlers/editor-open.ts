// /app/vscode/editor/open — opens a workspace file in the editor and selects a range (the file's start
// when none is given), revealed for the person watching an agent work. Lines are checked against the
// file (INVALID_REQUEST past its end); a character past its line's end is clamped to it.
import { type CoreContext, resolvePath } from '../context';
import { invalidRequest } from '../errors';
import type { EditorHost, Position } from '../host';
import type { Handlers } from '../protocol';
import { documentText, wireRange } from './document';

const LINE_BREAK = /\r\n|\r|\n/;

export function editorOpen(svc: CoreContext, editor: EditorHost): Handlers['editorOpen'] {
  return async (params) => {
    const { path } = resolvePath(svc, params.filePath);
    const lines = (await documentText(svc, path)).split(LINE_BREAK);
    const at = (line: number, character: number, what: string): Position => {
      if (line >= lines.length)
        throw invalidRequest(`${what} ${line} is beyond the end of the file (${lines.length} lines)`);
      return { line, character: Math.min(character, lines[line]!.length) };
    };
    const start = at(params.line ?? 0, params.character ?? 0, 'line');
    const end = params.endLine === undefined ? start : at(params.endLine, params.endCharacter ?? 0, 'endLine');
    if (end.line < start.line || (end.line === start.line && end.character < start.character))
      throw invalidRequest('the range ends before it starts');
    const shown = await editor.open(
      path,
      { start, end },
      {
        ...(params.preview === undefined ? {} : { preview: params.preview }),
        ...(params.preserveFocus === undefined ? {} : { preserveFocus: params.preserveFocus }),
      },
    );
    return { filePath: path, ...wireRange(shown) };
  };
}
