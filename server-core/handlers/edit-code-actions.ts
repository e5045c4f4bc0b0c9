// /app/vscode/edit/codeActions — the language server's code actions for a range, a position or a symbol
// (clause T54), each kept under an id for edit/applyCodeAction (code-action-ids.ts: this connection's,
// 10 minutes, with the sha256 the file had). `only` keeps the kinds named and their sub-kinds; without
// it every kind is listed, so the source actions too (organize imports, fix all, add missing imports),
// which language servers give only when asked for them by kind: they are asked for by `source` besides.
// No language server for the file: no actions, and `unavailable` says why (T48). Served when the host's
// LanguageFeatures has codeActions.
import { readFile } from 'node:fs/promises';
import { sha256 } from '../../runtime/hash';
import type { CodeActionIds } from '../code-action-ids';
import type { CoreContext } from '../context';
import { toWireDiagnostic } from '../diagnostics';
import { type CodeActionOffer, isUnavailable, type LanguageFeatures } from '../host';
import { clientOf } from '../limits/client-context';
import type { EditCodeActionsResult, Handlers } from '../protocol';
import { wireUnavailable } from '../unavailable';
import { requestRange } from './request-range';

type CodeActions = NonNullable<LanguageFeatures['codeActions']>;

/** The sha256 of a file's bytes now (what an id's file must still hold); HANDLER_ERROR when unreadable. */
export async function fileSha256(path: string): Promise<string> {
  try {
    return sha256(await readFile(path));
  } catch (e) {
    throw new Error(`cannot read ${path}: ${(e as NodeJS.ErrnoException).code ?? (e as Error).message}`);
  }
}

export function editCodeActions(
  svc: CoreContext,
  codeActions: CodeActions,
  ids: CodeActionIds,
): Handlers['editCodeActions'] {
  return async (params, ctx) => {
    const { path, range: named } = await requestRange(svc, params, ctx.signal);
    const range = named!; // the schema asks for a position or a name path
    // Hashed before the server is asked: a change while it computes makes the id stale, never wrong.
    const sha = await fileSha256(path);
    const only = params.only;
    const first = await codeActions(path, range, only, ctx.signal);
    if (isUnavailable(first)) {
      svc.tools.log(`code actions: ${first.unavailable}`);
      return { actions: [], unavailable: wireUnavailable(first) };
    }
    let offers: CodeActionOffer[] = first;
    if (only === undefined) {
      const source = await codeActions(path, range, ['source'], ctx.signal);
      if (!isUnavailable(source)) {
        const seen = new Set(first.map((a) => `${a.kind}\n${a.title}`));
        offers = [...first, ...source.filter((a) => !seen.has(`${a.kind}\n${a.title}`))];
      }
    }
    const client = clientOf(ctx.signal);
    const actions: EditCodeActionsResult['actions'] = offers.map((offer) => ({
      id: ids.add(client, { path, sha256: sha, offer }),
      title: offer.title,
      kind: offer.kind,
      ...(offer.isPreferred && { isPreferred: true }),
      ...(offer.disabled !== undefined && { disabled: offer.disabled }),
      ...(offer.diagnostics.length > 0 && { diagnostics: offer.diagnostics.map((d) => toWireDiagnostic(path, d)) }),
    }));
    return { actions };
  };
}
