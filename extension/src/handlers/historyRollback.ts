// /app/vscode/history/rollback — writes exactly the committed bytes of the file's version `toIndex`
// (history/list's index) to disk. What it overwrites is kept as a local-history entry first.
import { blobAt, commitAtIndex, repoFileOf } from '../git';
import { preserveCurrentContent, writeExactly } from '../preserve';
import type { Handlers } from '../protocol';
import { resolvePath, type Services } from '../services';

export function historyRollback(svc: Services): Handlers['historyRollback'] {
  return async (params) => {
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
