// /app/vscode/edit/format — a file, or a range or symbol of it, formatted by the formatter its
// language's server or the editor provides (clause T55), with tabSize and insertSpaces where given and
// the file's own otherwise; the edits are written as edit/apply writes (one transaction, dry run, diffs),
// the file guarded by the sha256 it had when the formatter was asked. A file no formatter serves is
// INVALID_REQUEST saying so; one formatted already answers with no file changed. Served when the host's
// LanguageFeatures has format.
import type { CoreContext } from '../context';
import { invalidRequest } from '../errors';
import { isUnavailable, type LanguageFeatures } from '../host';
import type { Handlers } from '../protocol';
import { fileSha256 } from './edit-code-actions';
import { nothingWritten, type WritePlan } from './language-edit';
import { requestRange } from './request-range';

type Format = NonNullable<LanguageFeatures['format']>;

export function editFormat(svc: CoreContext, format: Format, write: WritePlan): Handlers['editFormat'] {
  return async (params, ctx) => {
    const { path, range } = await requestRange(svc, params, ctx.signal);
    const sha256 = await fileSha256(path);
    const edits = await format(
      path,
      range,
      {
        ...(params.tabSize !== undefined && { tabSize: params.tabSize }),
        ...(params.insertSpaces !== undefined && { insertSpaces: params.insertSpaces }),
      },
      ctx.signal,
    );
    if (isUnavailable(edits)) throw invalidRequest(`no formatter for ${path}: ${edits.unavailable}`);
    if (edits.length === 0) return nothingWritten(params);
    return write(
      [{ kind: 'edit', filePath: path, sha256, edits }],
      {
        what: 'edit/format',
        label: range ? 'format a range' : 'format the file',
        dryRun: params.dryRun,
      },
      ctx,
    );
  };
}
