// A workspace edit planned (write/workspace-edit.ts) and written as one transaction (write/
// workspace-write.ts), answered as every structural write topic answers (edit/apply, and the code
// actions, formatting and moves that collect a host's PlannedChange[] and write them through here):
// `dryRun`, the transaction's id, each file's change, diff and sha256s, the paths written and the edit
// count. A dry run is refused in the same cases and writes nothing.
import type { CoreContext } from '../context';
import type { RequestContext } from '../protocol';
import { type FileWriteAnswer, type PlanOptions, planWorkspaceEdit, type WorkspaceChangeInput } from './workspace-edit';
import { writeFiles } from './workspace-write';

export interface ApplyEditOptions {
  /** The topic, short ("edit/apply"): messages, the journal, the transaction's topic, local-history sources. */
  what: string;
  /** Local-history source of the entries keeping what the write overwrites (workspace-write.ts BACKUP_SOURCES). */
  backupSource: string;
  /** The client's label, kept with the transaction. */
  label?: string;
  dryRun: boolean;
  /** Positions past a line's end: refused (a client's edit) or clamped (a language server's). */
  positions: PlanOptions['positions'];
  /** Compiles symbol edits (edit/apply's, clause T53). */
  symbolEdits?: PlanOptions['symbolEdits'];
  /** The request: its signal cancels, its cancel answer is held while the write runs (workspace-write.ts). */
  request: Pick<RequestContext, 'signal' | 'holdCancelAnswer'>;
}

/** What a structural write answers (the wire's EditApplyResult without diagnostics). */
export interface WriteAnswer {
  dryRun: boolean;
  transactionId?: string;
  files: FileWriteAnswer[];
  changedFiles: string[];
  editCount: number;
}

export async function applyWorkspaceEdit(
  svc: CoreContext,
  changes: readonly WorkspaceChangeInput[],
  opts: ApplyEditOptions,
): Promise<WriteAnswer> {
  const plan = await planWorkspaceEdit(svc, changes, {
    positions: opts.positions,
    ...(opts.symbolEdits && { symbolEdits: opts.symbolEdits }),
    signal: opts.request.signal,
  });
  if (opts.dryRun) return { dryRun: true, files: plan.files, changedFiles: [], editCount: plan.editCount };
  const transactionId = await writeFiles(svc, plan.writes, {
    what: opts.what,
    recordResult: true,
    backupSource: opts.backupSource,
    request: opts.request,
    folders: plan.folders,
    ...(opts.label !== undefined && { label: opts.label }),
  });
  if (transactionId !== undefined)
    svc.tools.log(
      `${opts.what}: ${plan.editCount} edit(s), ${plan.writes.length} file(s) and ${plan.folders.length} folder(s) as transaction ${transactionId}`,
    );
  return {
    dryRun: false,
    ...(transactionId !== undefined && { transactionId }),
    files: plan.files,
    changedFiles: transactionId === undefined ? [] : plan.changedFiles,
    editCount: plan.editCount,
  };
}
