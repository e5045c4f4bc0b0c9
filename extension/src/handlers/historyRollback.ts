// /app/vscode/history/rollback — writes exactly the committed bytes of the file's version `toIndex`
// (history/list's index) to disk. What it overwrites is kept as a local-history entry first.
import type { HistoryRollbackParams, HistoryRollbackResult } from '../../../generated/v0.1.6/types';
import { invalidRequest } from '../errors';
import { blobAt, commitAtIndex, repoFileOf } from '../git';
import { preserveCurrentContent, writeExactly } from '../preserve';
import { resolvePath, type Services } from '../services';

export function historyRollback(svc: Services) {
  return async (params: HistoryRollbackParams): Promise<HistoryRollbackResult> => {
    if (!Number.isInteger(params.toIndex) || params.toIndex < 1) throw invalidRequest('toIndex must be an integer >= 1 (1 = the version in HEAD)');
    const { path, real } = resolvePath(svc, params.filePath);
    const repo = await repoFileOf(real);
    const hash = await commitAtIndex(repo, params.toIndex);
    const bytes = await blobAt(repo, hash);
    await preserveCurrentContent(svc, path);
    await writeExactly(path, bytes);
    svc.log(`history rollback: ${path} ← ${hash.slice(0, 7)} (index ${params.toIndex})`);
    return { filePath: path, toRef: hash, restoredIndex: params.toIndex };
  };
}
