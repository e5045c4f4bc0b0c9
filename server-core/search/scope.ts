// Which files edit/find and edit/replace look at: every workspace folder, the request's include and
// exclude globs, plus VS Code search's own rules (files.exclude, search.exclude, .gitignore when
// search.useIgnoreFiles is on), read per folder from the host so folder-level settings apply.
import type { WorkspaceFolders } from '../host';
import { enabledGlobs } from './excludes';
import type { SearchFolder } from './text-search';

/** `include`/`exclude` as the request gave them (the schema made them strings; include defaults to `**` + `/*`). */
export function searchFolders(
  folders: WorkspaceFolders,
  include: string,
  exclude: string | undefined,
  mode: 'search' | 'files',
): SearchFolder[] {
  return folders.paths().map((root) => {
    const s = folders.searchSettings(root);
    // fs/findFiles follows workspace.findFiles: files.exclude only, ignore files not consulted.
    const excludes = mode === 'search' ? enabledGlobs(s.filesExclude, s.searchExclude) : enabledGlobs(s.filesExclude);
    if (exclude) excludes.push(exclude);
    return {
      root,
      selection: {
        include: include || undefined,
        excludes,
        useIgnoreFiles: mode === 'search' && s.useIgnoreFiles,
      },
    };
  });
}
