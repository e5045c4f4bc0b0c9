// /app/vscode/edit/find — ripgrep-backed, JS regex semantics, unsaved editor contents included.
import * as vscode from 'vscode';
import type { EditFindParams, EditFindResult } from '../../../generated/v0.1.6/types';
import type { RequestContext } from '../../../generated/v0.1.6/server';
import { searchFolders } from '../searchScope';
import { searchText } from '../search/textSearch';
import type { Services } from '../services';

/**
 * Most matches returned in one result. totalCount still counts every match in the workspace, so a
 * client sees truncation as matches.length < totalCount.
 */
export const MAX_FIND_MATCHES = 5000;

export function editFind(svc: Services) {
  return async (params: EditFindParams, ctx: RequestContext): Promise<EditFindResult> => {
    const res = await searchText({
      rg: svc.rgPath,
      folders: searchFolders(params.include, params.exclude, 'search'),
      match: { pattern: params.pattern, isRegex: params.isRegex ?? false, isCaseSensitive: params.isCaseSensitive ?? false },
      // Texts are read when the search gets to them: a queued request pins no copies.
      dirty: vscode.workspace.textDocuments.filter((d) => d.isDirty && d.uri.scheme === 'file').map((d) => ({ path: d.uri.fsPath, text: () => d.getText() })),
      maxMatches: MAX_FIND_MATCHES,
      signal: ctx.signal,
    });
    if (res.usedFallback) svc.log(`find: rg could not compile /${params.pattern}/, matched in JS over every file`);
    return { matches: res.matches, totalCount: res.totalCount };
  };
}
