// /app/vscode/edit/undo — a kept transaction undone (clause T57): every file and folder it touched put
// back as before it, all or nothing, as a transaction of its own (its id answered: undoing it redoes),
// refused naming the path when one changed since (write/undo.ts). A dry run answers the same, writes
// nothing. An id the server does not keep (never written, dropped from the bounded log) is refused.
import type { CoreContext } from '../context';
import { invalidRequest } from '../errors';
import type { Handlers } from '../protocol';
import { planUndo } from '../write/undo';
import { keptTransaction } from '../write/undo-log';
import { BACKUP_SOURCES, writeFiles } from '../write/workspace-write';

export function editUndo(svc: CoreContext): Handlers['editUndo'] {
  return async (params, ctx) => {
    const t = await keptTransaction(svc.tools.stateDir, params.transactionId);
    if (!t)
      throw invalidRequest(
        `transaction ${params.transactionId} is not kept by this server (edit/transactions lists those it keeps); nothing was changed`,
      );
    const plan = await planUndo(svc, t, ctx.signal);
    if (params.dryRun) return { dryRun: true, files: plan.files, changedFiles: [], editCount: 0 };
    const transactionId = await writeFiles(svc, plan.writes, {
      what: 'edit/undo',
      recordResult: true,
      backupSource: BACKUP_SOURCES.undo,
      request: ctx,
      folders: plan.folders,
      undoes: t.id,
    });
    if (transactionId !== undefined) svc.tools.log(`edit/undo: transaction ${t.id} undone as ${transactionId}`);
    return {
      dryRun: false,
      ...(transactionId !== undefined && { transactionId }),
      files: plan.files,
      changedFiles: transactionId === undefined ? [] : plan.changedFiles,
      editCount: 0,
    };
  };
}
