// /app/vscode/localhistory/rollback — writes the entry's exact bytes back to the file. The content it
// overwrites is kept as a local-history entry first, so a rollback can itself be rolled back.
import { readFile } from 'node:fs/promises';
import { invalidRequest } from '../errors';
import { formatUtcLabel } from '../localHistory';
import { preserveCurrentContent, writeExactly } from '../preserve';
import type { Handlers } from '../protocol';
import { resolvePath, type Services } from '../services';

export function localhistoryRollback(svc: Services): Handlers['localhistoryRollback'] {
  return async (params) => {
    const { path } = resolvePath(svc, params.filePath);
    const entry = svc.localHistory.find(path, params.toId);
    if (!entry) throw invalidRequest(`unknown local-history id for this file: ${params.toId}`);
    const bytes = await readFile(entry.location);
    await preserveCurrentContent(svc, path);
    await writeExactly(path, bytes);
    svc.log(`local-history rollback: ${path} ← ${entry.id}`);
    return { filePath: path, restoredId: entry.id, restoredLabel: formatUtcLabel(entry.timestamp) };
  };
}
