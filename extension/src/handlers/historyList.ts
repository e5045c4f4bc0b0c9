// /app/vscode/history/list — commits that touched the file, newest first; entry i has index i+1, the
// same index history/diff and history/rollback take.
import type { HistoryListParams, HistoryListResult } from '../../../generated/v0.1.6/types';
import { invalidRequest } from '../errors';
import { fileLog, repoFileOf } from '../git';
import { resolvePath, type Services } from '../services';

export const MAX_HISTORY_COUNT = 1000;

export function historyList(svc: Services) {
  return async (params: HistoryListParams): Promise<HistoryListResult> => {
    const maxCount = params.maxCount ?? 20;
    if (!Number.isInteger(maxCount) || maxCount < 1) throw invalidRequest('maxCount must be an integer >= 1');
    const { real } = resolvePath(svc, params.filePath);
    const repo = await repoFileOf(real);
    const commits = await fileLog(repo, Math.min(maxCount, MAX_HISTORY_COUNT));
    const entries = commits.map((c, i) => ({
      index: i + 1, hash: c.hash, shortHash: c.hash.slice(0, 7), message: c.message,
      authorName: c.authorName, authorEmail: c.authorEmail, authorDate: c.authorDate,
    }));
    return { entries, totalCount: entries.length };
  };
}
