// What the language-edit topics (edit/applyCodeAction, edit/format, fs/move; clauses T54-T56) share: a
// plan a host collected, written through the structural write of edit/apply (T52's checks, diffs, dry
// run, one transaction), and the answer of a plan with nothing in it. Their diagnostics (T58) are added
// to the answer by write-diagnostics.ts, as for every write topic.
import type { CoreContext } from '../context';
import type { PlannedChange } from '../host';
import type { EditApplyCodeActionResult, RequestContext } from '../protocol';
import { applyWorkspaceEdit } from '../write/apply-edit';

/** A host's planned change, with the sha256 its file must still hold where the core knows it. */
export type GuardedChange = PlannedChange & { sha256?: string };

/** What the three topics answer: edit/apply's result (their schemas are one). */
export type LanguageEditResult = EditApplyCodeActionResult;

export interface LanguageEditOptions {
  /** The topic, short ("edit/format"): messages, the journal, local-history sources. */
  what: string;
  /** What the edit does, for people: kept with the transaction. */
  label: string;
  dryRun: boolean;
}

/** Writes `changes` as one transaction as edit/apply does (positions clamped: a language server's), or plans them on a dry run. */
export type WritePlan = (
  changes: readonly GuardedChange[],
  opts: LanguageEditOptions,
  request: Pick<RequestContext, 'signal' | 'holdCancelAnswer'>,
) => Promise<LanguageEditResult>;

/** Sources of the local-history entries keeping what these topics overwrite (shown in VS Code's Timeline). */
export const LANGUAGE_EDIT_SOURCES: Readonly<Record<string, string>> = {
  'edit/applyCodeAction': 'IDEA: before edit/applyCodeAction',
  'edit/format': 'IDEA: before edit/format',
  'fs/move': 'IDEA: before fs/move',
};

/** The WritePlan of a server: edit/apply's structural write (write/apply-edit.ts). */
export function languageEditWriter(svc: CoreContext): WritePlan {
  return (changes, opts, request) =>
    applyWorkspaceEdit(svc, changes, {
      what: opts.what,
      backupSource: LANGUAGE_EDIT_SOURCES[opts.what] ?? `IDEA: before ${opts.what}`,
      label: opts.label,
      dryRun: opts.dryRun,
      positions: 'clamp',
      request,
    });
}

/** The answer of a plan with nothing to write (a file formatted already, an action that changes nothing). */
export function nothingWritten(opts: Pick<LanguageEditOptions, 'dryRun'>): LanguageEditResult {
  return { dryRun: opts.dryRun, files: [], changedFiles: [], editCount: 0 };
}
