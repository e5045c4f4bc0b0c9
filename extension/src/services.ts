// What every handler needs from the running extension, passed in explicitly so handlers stay small and
// the wiring (folders, ripgrep, local history, logging) lives in one place.
import * as vscode from 'vscode';
import type { LocalHistory } from './local-history';
import { type ResolvedPath, resolveWorkspacePath } from './path-guard';

export interface Services {
  /** Absolute paths of the open workspace folders, in order. */
  folders(): string[];
  /** ripgrep binary (VS Code's bundled one, else `rg` on PATH). */
  rgPath: string;
  localHistory: LocalHistory;
  /** The extension's own storage folder (the write journal lives here). */
  stateDir: string;
  log(message: string): void;
}

/** Resolves a client filePath against the current workspace folders (INVALID_REQUEST when outside). */
export function resolvePath(svc: Services, filePath: string): ResolvedPath {
  return resolveWorkspacePath(filePath, svc.folders());
}

export function workspaceFolderPaths(): string[] {
  return (vscode.workspace.workspaceFolders ?? []).filter((f) => f.uri.scheme === 'file').map((f) => f.uri.fsPath);
}
