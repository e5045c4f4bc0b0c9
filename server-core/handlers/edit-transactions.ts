// /app/vscode/edit/transactions — the write transactions the server keeps for edit/undo (clause T57),
// newest first: those whose every path lies in the open workspace folders (an editor's state folder
// is shared by its windows; another workspace's writes are not this one's to list or undo).
import type { CoreContext } from '../context';
import { isInWorkspace } from '../path-guard';
import type { Handlers } from '../protocol';
import { keptTransactions, undoneIds } from '../write/undo-log';

export function editTransactions(svc: CoreContext): Handlers['editTransactions'] {
  return async (params) => {
    const all = await keptTransactions(svc.tools.stateDir);
    const undone = undoneIds(all);
    const folders = svc.folders.paths();
    const ours = all.filter((t) => t.paths.length > 0 && t.paths.every((p) => isInWorkspace(p, folders)));
    return {
      transactions: ours.slice(0, params.maxCount).map((t) => ({
        transactionId: t.id,
        topic: t.topic,
        ...(t.record.label !== undefined && { label: t.record.label }),
        timestamp: t.timestamp,
        files: t.paths,
        undone: undone.has(t.id),
      })),
      totalCount: ours.length,
    };
  };
}
