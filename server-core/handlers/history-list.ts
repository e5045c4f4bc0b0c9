// /app/vscode/history/list — commits that touched the file, newest first; entry i has index i+1, the
// same index history/diff and history/rollback take.

import { type CoreContext, resolvePath } from '../context';
import { fileLog, repoFileOf } from '../git';
import type { Handlers } from '../protocol';

export const MAX_HISTORY_COUNT = 1000;

export function historyList(svc: CoreContext): Handlers['historyList'] {
  return async (params, ctx) => {
    const { real } = resolvePath(svc, params.filePath);
    const repo = await repoFileOf(real, ctx.signal);
    const commits = await fileLog(repo, Math.min(params.maxCount, MAX_HISTORY_COUNT), 0, ctx.signal);
    const entries = commits.map((c, i) => ({
      index: i + 1,
      hash: c.hash,
      shortHash: c.hash.slice(0, 7),
      message: c.message,
      authorName: c.authorName,
      authorEmail: c.authorEmail,
      authorDate: c.authorDate,
    }));
    return { entries, totalCount: entries.length };
  };
}
