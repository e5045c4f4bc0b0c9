// /app/vscode/edit/find — ripgrep-backed, JS regex semantics, unsaved editor contents included.

import { dirtyDocuments } from '../documents';
import type { Handlers } from '../protocol';
import { searchText } from '../search/text-search';
import { searchFolders } from '../search-scope';
import type { Services } from '../services';

/**
 * Most matches returned in one result. totalCount still counts every match in the workspace, so a
 * client sees truncation as matches.length < totalCount.
 */
const MAX_FIND_MATCHES = 5000;

export function editFind(svc: Services): Handlers['editFind'] {
  return async (params, ctx) => {
    const res = await searchText({
      rg: svc.rgPath,
      folders: searchFolders(params.include, params.exclude, 'search'),
      match: { pattern: params.pattern, isRegex: params.isRegex, isCaseSensitive: params.isCaseSensitive },
      dirty: dirtyDocuments(),
      maxMatches: MAX_FIND_MATCHES,
      signal: ctx.signal,
    });
    if (res.usedFallback) svc.log(`find: rg could not compile /${params.pattern}/, matched in JS over every file`);
    return { matches: res.matches, totalCount: res.totalCount };
  };
}
