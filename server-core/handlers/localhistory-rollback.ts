// /app/vscode/localhistory/rollback — writes the entry's exact bytes back to the file through the write
// path (write/workspace-write.ts): atomic, and the content it overwrites is kept as a local-history entry
// first, so a rollback can itself be rolled back.
import { readFile } from 'node:fs/promises';
import { type CoreContext, resolvePath } from '../context';
import { invalidRequest } from '../errors';
import { formatUtcLabel } from '../local-history';
import type { Handlers } from '../protocol';
import { BACKUP_SOURCES, checkWritable, writeFiles } from '../write/workspace-write';

export function localhistoryRollback(svc: CoreContext): Handlers['localhistoryRollback'] {
  return async (params, ctx) => {
    const { path, real } = resolvePath(svc, params.filePath);
    checkWritable(svc, [{ path, target: real }]);
    const entry = svc.history.find(path, params.toId);
    if (!entry) throw invalidRequest(`unknown local-history id for this file: ${params.toId}`);
    const bytes = await readFile(entry.location);
    const before = await readFile(real).catch(() => null);
    const transactionId = await writeFiles(svc, [{ path, target: real, before, after: bytes }], {
      what: 'localhistory/rollback',
      recordResult: false,
      backupSource: BACKUP_SOURCES.rollback,
      request: ctx,
    });
    svc.tools.log(`local-history rollback: ${path} ← ${entry.id}`);
    return {
      filePath: path,
      restoredId: entry.id,
      restoredLabel: formatUtcLabel(entry.timestamp),
      ...(transactionId !== undefined && { transactionId }),
    };
  };
}
