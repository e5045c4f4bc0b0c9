// Which files edit/find and edit/replace look at: every workspace folder, the request's include and
// exclude globs, plus VS Code search's own rules (files.exclude, search.exclude, .gitignore when
// search.useIgnoreFiles is on), read per folder so folder-level settings apply.
import * as vscode from 'vscode';
import { enabledGlobs } from './search/excludes';
import type { SearchFolder } from './search/text-search';

/** `include`/`exclude` as the request gave them (the schema made them strings; include defaults to `**` + `/*`). */
export function searchFolders(include: string, exclude: string | undefined, mode: 'search' | 'files'): SearchFolder[] {
  return (vscode.workspace.workspaceFolders ?? [])
    .filter((f) => f.uri.scheme === 'file')
    .map((f) => {
      const filesExclude = vscode.workspace.getConfiguration('files', f.uri).get('exclude');
      const searchCfg = vscode.workspace.getConfiguration('search', f.uri);
      // fs/findFiles follows workspace.findFiles: files.exclude only, ignore files not consulted.
      const excludes =
        mode === 'search' ? enabledGlobs(filesExclude, searchCfg.get('exclude')) : enabledGlobs(filesExclude);
      if (exclude) excludes.push(exclude);
      return {
        root: f.uri.fsPath,
        selection: {
          include: include || undefined,
          excludes,
          useIgnoreFiles: mode === 'search' && searchCfg.get<boolean>('useIgnoreFiles', true),
        },
      };
    });
}
