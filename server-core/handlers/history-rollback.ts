// /app/vscode/history/rollback — writes exactly the committed bytes of the file's version `toIndex`
// (history/list's index) to disk, through the write path (write/workspace-write.ts: atomic, what it
// overwrites kept in local history, never over unsaved editor changes or a protected file).
import { readFile } from 'node:fs/promises';
import { type CoreContext, resolvePath } from '../context';
import { blobAt, commitAtIndex, repoFileOf } from '../git';
import type { Handlers } from '../protocol';
import { BACKUP_SOURCES, checkWritable, writeFiles } from '../write/workspace-write';

export function historyRollback(svc: CoreContext): Handlers['historyRollback'] {
  return async (params, ctx) => {
    const { path, real } = resolvePath(svc, params.filePath);
    checkWritable(svc, [{ path, target: real }]);
    const repo = await repoFileOf(real, ctx.signal);
    const hash = await commitAtIndex(repo, params.toIndex, ctx.signal);
    const bytes = await blobAt(repo, hash, ctx.signal);
    const before = await readFile(real).catch(() => null);
    const transactionId = await writeFiles(svc, [{ path, target: real, before, after: bytes }], {
      what: 'history/rollback',
      recordResult: false,
      backupSource: BACKUP_SOURCES.rollback,
      request: ctx,
    });
    svc.tools.log(`history rollback: ${path} ← ${hash.slice(0, 7)} (index ${params.toIndex})`);
    // Reading 2: index 1 is named "HEAD" (its content is what HEAD holds), older versions by their hash.
    return {
      filePath: path,
      toRef: params.toIndex === 1 ? 'HEAD' : hash,
      restoredIndex: params.toIndex,
      ...(transactionId !== undefined && { transactionId }),
    };
  };
}
