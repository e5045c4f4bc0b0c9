// /app/vscode/edit/applyCodeAction — a code action edit/codeActions listed on this connection, applied by
// its id as one transaction (clause T54): the host resolves it and collects everything it would write
// (its edit, what its command asks for, H22), never writing it; the core writes that plan as edit/apply
// does, the action's file guarded by the sha256 it had when listed. An id this connection was not given
// (or one over 10 minutes old), an action whose file changed since, or a disabled one is INVALID_REQUEST
// saying what to do. Served when the host's LanguageFeatures has codeActions and collectCodeAction.
import type { CodeActionIds } from '../code-action-ids';
import { invalidRequest } from '../errors';
import type { LanguageFeatures } from '../host';
import { clientOf } from '../limits/client-context';
import type { Handlers } from '../protocol';
import { fileSha256 } from './edit-code-actions';
import { nothingWritten, type WritePlan } from './language-edit';

type Collect = NonNullable<LanguageFeatures['collectCodeAction']>;

const LIST_AGAIN = 'list the actions again (edit/codeActions)';

export function editApplyCodeAction(
  collect: Collect,
  ids: CodeActionIds,
  write: WritePlan,
): Handlers['editApplyCodeAction'] {
  return async (params, ctx) => {
    const listed = ids.get(clientOf(ctx.signal), params.id);
    if (!listed)
      throw invalidRequest(
        `no code action ${params.id} was listed on this connection in the last 10 minutes; ${LIST_AGAIN}`,
      );
    const { offer, path } = listed;
    if (offer.disabled !== undefined)
      throw invalidRequest(`the code action "${offer.title}" cannot be applied: ${offer.disabled}`);
    if ((await fileSha256(path)) !== listed.sha256)
      throw invalidRequest(`${path} changed since the code action "${offer.title}" was listed; ${LIST_AGAIN}`);
    const plan = await collect(path, offer, ctx.signal);
    if (plan.length === 0) return nothingWritten(params);
    // The action was computed on the file as listed: a change meanwhile refuses the write.
    const changes = plan.map((c) => (c.kind === 'edit' && c.filePath === path ? { ...c, sha256: listed.sha256 } : c));
    return write(
      changes,
      {
        what: 'edit/applyCodeAction',
        label: `code action: ${offer.title}`,
        dryRun: params.dryRun,
      },
      ctx,
    );
  };
}
