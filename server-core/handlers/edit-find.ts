// /app/vscode/edit/find — ripgrep-backed, JS regex semantics, unsaved editor contents included.

import { type CoreContext, ripgrepOf } from '../context';
import type { Handlers } from '../protocol';
import { searchFolders } from '../search/scope';
import { searchText } from '../search/text-search';

/**
 * Most matches returned in one result. totalCount still counts every match in the workspace, so a
 * client sees truncation as matches.length < totalCount.
 */
const MAX_FIND_MATCHES = 5000;

export function editFind(svc: CoreContext): Handlers['editFind'] {
  return async (params, ctx) => {
    const res = await searchText({
      rg: ripgrepOf(svc),
      folders: searchFolders(svc.folders, params.include, params.exclude, 'search'),
      match: { pattern: params.pattern, isRegex: params.isRegex, isCaseSensitive: params.isCaseSensitive },
      dirty: svc.documents.dirty(),
      maxMatches: MAX_FIND_MATCHES,
      signal: ctx.signal,
    });
    if (res.usedFallback)
      svc.tools.log(`find: rg could not compile /${params.pattern}/, matched in JS over every file`);
    return { matches: res.matches, totalCount: res.totalCount };
  };
}
