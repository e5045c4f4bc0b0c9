// Shared by the navigation handlers: open the file for the language server at a 0-based position (the
// schema made line/character integers >= 0; only the file's own length is checked here).
import * as vscode from 'vscode';
import { openDocument } from '../documents';
import { invalidRequest } from '../errors';
import { resolvePath, type Services } from '../services';

export async function documentAt(svc: Services, filePath: string, line: number, character: number) {
  const { path } = resolvePath(svc, filePath);
  const doc = await openDocument(path);
  if (line >= doc.lineCount)
    throw invalidRequest(`line ${line} is beyond the end of the file (${doc.lineCount} lines)`);
  return { doc, uri: doc.uri, position: new vscode.Position(line, character) };
}

export interface WireRange {
  line: number;
  character: number;
  endLine: number;
  endCharacter: number;
}

export function wireRange(r: vscode.Range): WireRange {
  return { line: r.start.line, character: r.start.character, endLine: r.end.line, endCharacter: r.end.character };
}
