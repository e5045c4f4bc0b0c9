// /app/vscode/fs/findFiles — files whose name contains `query` (case-insensitive, glob characters in
// it are plain characters) and that match `include`/`exclude`. File selection follows
// workspace.findFiles: files.exclude applies, .gitignore does not.
import { basename, join } from 'node:path';
import { type CoreContext, ripgrepOf } from '../context';
import type { Handlers } from '../protocol';
import { listFiles } from '../search/file-walk';
import { searchFolders } from '../search/scope';

export const MAX_FIND_FILES = 10_000;

export function fsFindFiles(svc: CoreContext): Handlers['fsFindFiles'] {
  return async (params, ctx) => {
    const needle = params.query.toLowerCase();
    const found: { fileName: string; filePath: string; relativePath: string }[] = [];
    const rg = ripgrepOf(svc);
    for (const folder of searchFolders(svc.folders, params.include, params.exclude, 'files')) {
      const problems = await listFiles(
        rg,
        folder.root,
        folder.selection,
        (rel) => {
          const name = basename(rel);
          if (name.toLowerCase().includes(needle))
            found.push({ fileName: name, filePath: join(folder.root, rel), relativePath: rel });
        },
        ctx.signal,
      );
      // Like workspace.findFiles, the answer is what could be listed; what could not is logged, not hidden.
      for (const p of problems)
        svc.tools.log(`findFiles: could not list ${join(folder.root, p.relPath)}: ${p.message}`);
    }
    found.sort((a, b) =>
      a.relativePath < b.relativePath ? -1 : a.relativePath > b.relativePath ? 1 : a.filePath < b.filePath ? -1 : 1,
    );
    const files = found.slice(0, Math.min(params.maxResults, MAX_FIND_FILES));
    return { files, totalCount: files.length };
  };
}
