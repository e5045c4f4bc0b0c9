// /app/vscode/editor/open — opens a workspace file in an editor and selects a range (the file's start
// when none is given), revealed in the middle of the viewport, for the person watching an agent work.
import * as vscode from 'vscode';
import { openDocument, withTimeout } from '../documents';
import { invalidRequest } from '../errors';
import type { Handlers } from '../protocol';
import { resolvePath, type Services } from '../services';
import { wireRange } from './position';

/** Bound on showing the editor: without a connected workbench it never completes. */
const SHOW_TIMEOUT_MS = 10_000;

export function editorOpen(svc: Services): Handlers['editorOpen'] {
  return async (params) => {
    const { path } = resolvePath(svc, params.filePath);
    const doc = await openDocument(path);
    const lineOk = (line: number, what: string) => {
      if (line >= doc.lineCount)
        throw invalidRequest(`${what} ${line} is beyond the end of the file (${doc.lineCount} lines)`);
    };
    if (params.line !== undefined) lineOk(params.line, 'line');
    if (params.endLine !== undefined) lineOk(params.endLine, 'endLine');
    // validatePosition clamps a character past its line's end.
    const start = doc.validatePosition(new vscode.Position(params.line ?? 0, params.character ?? 0));
    const end =
      params.endLine === undefined
        ? start
        : doc.validatePosition(new vscode.Position(params.endLine, params.endCharacter ?? 0));
    if (end.isBefore(start)) throw invalidRequest('the range ends before it starts');
    const editor = await withTimeout(
      vscode.window.showTextDocument(doc, {
        selection: new vscode.Range(start, end),
        preserveFocus: params.preserveFocus,
        ...(params.preview === undefined ? {} : { preview: params.preview }),
      }),
      SHOW_TIMEOUT_MS,
      `showing ${path}`,
    );
    editor.revealRange(editor.selection, vscode.TextEditorRevealType.InCenterIfOutsideViewport);
    return { filePath: path, ...wireRange(editor.selection) };
  };
}
