// VS Code's ranges as the core's plain ones (server-core/host.ts), and back.
import * as vscode from 'vscode';
import type { Range } from '../../server-core/host';

export function plain(r: vscode.Range): Range {
  return {
    start: { line: r.start.line, character: r.start.character },
    end: { line: r.end.line, character: r.end.character },
  };
}

export function vscodeRange(r: Range): vscode.Range {
  return new vscode.Range(r.start.line, r.start.character, r.end.line, r.end.character);
}
