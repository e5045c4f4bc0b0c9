// Which files edit/find and edit/replace look at: every workspace folder, the request's include and
// exclude globs, plus VS Code search's own rules (files.exclude, search.exclude, .gitignore when
// search.useIgnoreFiles is on), read per folder so folder-level settings apply.
import * as vscode from 'vscode';
import { invalidRequest } from './errors';
import { enabledGlobs } from './search/excludes';
import type { SearchFolder } from './search/textSearch';

export function searchFolders(include: unknown, exclude: unknown, mode: 'search' | 'files'): SearchFolder[] {
  if (include !== undefined && typeof include !== 'string') throw invalidRequest('include must be a string');
  if (exclude !== undefined && typeof exclude !== 'string') throw invalidRequest('exclude must be a string');
  return (vscode.workspace.workspaceFolders ?? [])
    .filter((f) => f.uri.scheme === 'file')
    .map((f) => {
      const filesExclude = vscode.workspace.getConfiguration('files', f.uri).get('exclude');
      const searchCfg = vscode.workspace.getConfiguration('search', f.uri);
      // fs/findFiles follows workspace.findFiles: files.exclude only, ignore files not consulted.
      const excludes = mode === 'search' ? enabledGlobs(filesExclude, searchCfg.get('exclude')) : enabledGlobs(filesExclude);
      if (exclude) excludes.push(exclude);
      return {
        root: f.uri.fsPath,
        selection: { include: include || undefined, excludes, useIgnoreFiles: mode === 'search' && searchCfg.get<boolean>('useIgnoreFiles', true) },
      };
    });
}
