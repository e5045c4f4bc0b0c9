// /app/vscode/fs/findFiles — files whose name contains `query` (case-insensitive, glob characters in
// it are plain characters) and that match `include`/`exclude`. File selection follows
// workspace.findFiles: files.exclude applies, .gitignore does not.
import { basename, join } from 'node:path';
import type { FsFindFilesParams, FsFindFilesResult } from '../../../generated/v0.1.6/types';
import type { RequestContext } from '../../../generated/v0.1.6/server';
import { invalidRequest } from '../errors';
import { rgListFiles } from '../search/ripgrep';
import { searchFolders } from '../searchScope';
import type { Services } from '../services';

export const MAX_FIND_FILES = 10_000;

export function fsFindFiles(svc: Services) {
  return async (params: FsFindFilesParams, ctx: RequestContext): Promise<FsFindFilesResult> => {
    if (typeof params.query !== 'string' || params.query.length === 0) throw invalidRequest('query must be a non-empty string');
    const maxResults = params.maxResults ?? 100;
    if (!Number.isInteger(maxResults) || maxResults < 1) throw invalidRequest('maxResults must be an integer >= 1');
    const needle = params.query.toLowerCase();
    const found: { fileName: string; filePath: string; relativePath: string }[] = [];
    for (const folder of searchFolders(params.include, params.exclude, 'files')) {
      const problems = await rgListFiles(svc.rgPath, folder.root, folder.selection, (rel) => {
        const name = basename(rel);
        if (name.toLowerCase().includes(needle)) found.push({ fileName: name, filePath: join(folder.root, rel), relativePath: rel });
      }, ctx.signal);
      // Like workspace.findFiles, the answer is what could be listed; what could not is logged, not hidden.
      for (const p of problems) svc.log(`findFiles: could not list ${join(folder.root, p.relPath)}: ${p.message}`);
    }
    found.sort((a, b) => (a.relativePath < b.relativePath ? -1 : a.relativePath > b.relativePath ? 1 : a.filePath < b.filePath ? -1 : 1));
    const files = found.slice(0, Math.min(maxResults, MAX_FIND_FILES));
    return { files, totalCount: files.length };
  };
}
