// Shared by the navigation handlers: validate the 0-based position and open the file for the language server.
import * as vscode from 'vscode';
import { invalidRequest } from '../errors';
import { resolvePath, type Services } from '../services';
import { openDocument } from '../vscodeDocs';

export async function documentAt(svc: Services, filePath: unknown, line: unknown, character: unknown) {
  const { path } = resolvePath(svc, filePath);
  if (!Number.isInteger(line) || (line as number) < 0) throw invalidRequest('line must be an integer >= 0');
  if (!Number.isInteger(character) || (character as number) < 0) throw invalidRequest('character must be an integer >= 0');
  const doc = await openDocument(path);
  if ((line as number) >= doc.lineCount) throw invalidRequest(`line ${line} is beyond the end of the file (${doc.lineCount} lines)`);
  return { doc, uri: doc.uri, position: new vscode.Position(line as number, character as number) };
}

export interface WireRange { line: number; character: number; endLine: number; endCharacter: number }

export function wireRange(r: vscode.Range): WireRange {
  return { line: r.start.line, character: r.start.character, endLine: r.end.line, endCharacter: r.end.character };
}
