// /app/vscode/edit/apply — a workspace edit (clause T52): text edits by range or by symbol (T53,
// symbol-edits.ts), files and folders created, renamed and deleted, planned over the workspace in order
// and written as one transaction (write/apply-edit.ts), or only answered on a dry run. A client's positions are exact: one past its
// line's end is refused, not clamped.
import type { CoreContext } from '../context';
import type { EditApplyParams, Handlers } from '../protocol';
import { applyWorkspaceEdit } from '../write/apply-edit';
import type { WorkspaceChangeInput } from '../write/workspace-edit';
import { BACKUP_SOURCES } from '../write/workspace-write';
import { symbolEditCompiler } from './symbol-edits';

type WireChange = EditApplyParams['changes'][number];

/** The wire's change as the planner takes it (a range edit's four numbers as a Range). */
export function changeInput(c: WireChange): WorkspaceChangeInput {
  if (c.kind !== 'edit') return c;
  return {
    kind: 'edit',
    filePath: c.filePath,
    ...(c.sha256 !== undefined && { sha256: c.sha256 }),
    edits: c.edits.map((e) =>
      'namePath' in e
        ? { namePath: e.namePath, operation: e.operation, ...(e.newText !== undefined && { newText: e.newText }) }
        : {
            range: {
              start: { line: e.line, character: e.character },
              end: { line: e.endLine, character: e.endCharacter },
            },
            newText: e.newText,
          },
    ),
  };
}

export function editApply(svc: CoreContext): Handlers['editApply'] {
  const symbolEdits = symbolEditCompiler(svc);
  return async (params, ctx) =>
    applyWorkspaceEdit(svc, params.changes.map(changeInput), {
      what: 'edit/apply',
      backupSource: BACKUP_SOURCES.apply,
      ...(params.label !== undefined && { label: params.label }),
      dryRun: params.dryRun,
      positions: 'strict',
      symbolEdits,
      request: ctx,
    });
}
