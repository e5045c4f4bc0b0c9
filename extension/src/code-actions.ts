// Code actions over VS Code (server-core/host.ts codeActions, collectCodeAction; T54, H22):
// `vscode.executeCodeActionProvider` lists them, with the file's diagnostics settled first (a quick fix
// is offered for the diagnostics VS Code holds). Applying one never runs it: its WorkspaceEdit is taken
// as the core's plan (plan-builder.ts), and an action whose edit VS Code computes on demand (TypeScript's
// refactorings and organize imports) is resolved by listing it again with `itemResolveCount`, which
// asks its provider for the edit and runs nothing. A command is never executed, since commands write to
// editors outside the transaction: the TypeScript extension's that only report telemetry, open a rename
// box or run nothing are left out (the edit is the whole action); any other makes the action disabled
// with that reason. VS Code's command gives neither the actions' diagnostics nor their disabled ones
// (only what can apply): the diagnostics are the TypeScript quick fixes' own, else, for a quick fix,
// those in the range.
import * as vscode from 'vscode';
import type { RawDiagnostic } from '../../server-core/diagnostics';
import { invalidRequest } from '../../server-core/errors';
import type { CodeActionOffer, LanguageFeatures, PlannedChange } from '../../server-core/host';
import { PlanBuilder } from '../../server-core/plan-builder';
import { openDocument } from './documents';
import { plain, vscodeRange } from './plain-range';
import { semanticServerReady } from './ts-server';

export type CodeActionFeatures = Required<Pick<LanguageFeatures, 'codeActions' | 'collectCodeAction'>>;

/** Most actions one list keeps. */
export const MAX_CODE_ACTIONS = 500;

type Listed = vscode.CodeAction | vscode.Command;

/** What an offer's handle holds: where it was listed, by which kind, and its place among its namesakes. */
interface Handle {
  uri: vscode.Uri;
  range: vscode.Range;
  /** The kind it was asked for by (undefined: every kind). */
  only: string | undefined;
  /** Its place among the listed actions of its title and kind. */
  nth: number;
  action: Listed;
}

const isObject = (x: unknown): x is Record<string, unknown> => typeof x === 'object' && x !== null;

/** vscode.Command has a string `command`; a CodeAction's command is an object. */
const isBareCommand = (a: Listed): a is vscode.Command => typeof (a as vscode.Command).command === 'string';

const kindOf = (a: Listed): string => (isBareCommand(a) ? '' : (a.kind?.value ?? ''));

const sameAction = (a: Listed, title: string, kind: string) => a.title === title && kindOf(a) === kind;

/** TypeScript's follow-up tsserver commands of a quick fix or fix-all (installing a types package). */
function followUps(arg: unknown): number {
  const action = isObject(arg) ? arg.action : undefined;
  if (!isObject(action)) return 0;
  const own = action.commands;
  const combined = isObject(action.combinedResponse)
    ? (action.combinedResponse.body as { commands?: unknown })
    : undefined;
  return (Array.isArray(own) ? own.length : 0) + (Array.isArray(combined?.commands) ? combined.commands.length : 0);
}

/**
 * Why a command must not be taken as part of its action, or undefined when it can be left out: the
 * TypeScript extension's that report telemetry (didApplyRefactoring, didOrganizeImports), open the
 * rename box after a refactoring, or run tsserver follow-ups that a quick fix has none of (H22).
 */
export function refusedCommand(command: vscode.Command | undefined): string | undefined {
  if (!command) return undefined;
  const args = Array.isArray(command.arguments) ? (command.arguments as unknown[]) : [];
  switch (command.command) {
    case '_typescript.didApplyRefactoring':
    case '_typescript.didOrganizeImports':
    case 'editor.action.rename':
      return undefined;
    case '_typescript.applyCodeActionCommand':
    case '_typescript.applyFixAllCodeAction':
      return followUps(args[0]) === 0
        ? undefined
        : 'it runs TypeScript commands of its own (installing a package), which IDEA does not run';
    case '_typescript.compositeCommand':
      for (const part of args) {
        const why =
          isObject(part) && typeof part.command === 'string' ? refusedCommand(part as never) : 'a malformed command';
        if (why) return why;
      }
      return undefined;
    default:
      return `its command ${command.command} runs in the editor, outside the transaction`;
  }
}

/** The diagnostics a listed action fixes: a TypeScript quick fix's own, else a quick fix's in the range. */
function diagnosticsOf(a: Listed, inRange: readonly vscode.Diagnostic[]): RawDiagnostic[] {
  if (isBareCommand(a)) return [];
  const args = Array.isArray(a.command?.arguments) ? (a.command.arguments as unknown[]) : [];
  const arg = isObject(args[0]) ? args[0] : {};
  const own = arg.diagnostic instanceof vscode.Diagnostic ? [arg.diagnostic] : undefined;
  const fixAll = isObject(arg.action) && Array.isArray(arg.action.diagnostics) ? arg.action.diagnostics : undefined;
  const list = own ?? fixAll ?? (a.kind && vscode.CodeActionKind.QuickFix.contains(a.kind) ? inRange : []);
  return list.filter((d): d is vscode.Diagnostic => d instanceof vscode.Diagnostic) as unknown as RawDiagnostic[];
}

async function listed(uri: vscode.Uri, range: vscode.Range, only: string | undefined, resolve = 0): Promise<Listed[]> {
  const answer = await vscode.commands.executeCommand<Listed[] | undefined>(
    'vscode.executeCodeActionProvider',
    uri,
    range,
    only,
    resolve,
  );
  return Array.isArray(answer) ? answer.filter((a) => isObject(a) && typeof a.title === 'string') : [];
}

/**
 * A resolved action's WorkspaceEdit as a plan. VS Code's edit keeps its file operations in order
 * (`_allEntries`, what its converter fills: files created, renamed, deleted; text edits); where that is
 * not there, its text edits, a file that does not exist being created first.
 */
export async function planOf(edit: vscode.WorkspaceEdit): Promise<PlannedChange[]> {
  const plan = new PlanBuilder();
  const all = (edit as unknown as { _allEntries?: () => readonly unknown[] })._allEntries?.();
  if (Array.isArray(all)) {
    for (const e of all) {
      if (!isObject(e)) continue;
      const options = isObject(e.options) ? e.options : {};
      const flag = (k: string) => (typeof options[k] === 'boolean' ? { [k]: options[k] as boolean } : {});
      const from = e.from instanceof vscode.Uri ? e.from : undefined;
      const to = e.to instanceof vscode.Uri ? e.to : undefined;
      if (e._type === 1 && from && to)
        plan.operation({
          kind: 'rename',
          filePath: pathOf(from),
          newFilePath: pathOf(to),
          ...flag('overwrite'),
          ...flag('ignoreIfExists'),
        });
      else if (e._type === 1 && to)
        plan.operation({ kind: 'create', filePath: pathOf(to), ...flag('overwrite'), ...flag('ignoreIfExists') });
      else if (e._type === 1 && from)
        plan.operation({ kind: 'delete', filePath: pathOf(from), ...flag('recursive'), ...flag('ignoreIfNotExists') });
      else if (e._type === 2 && e.uri instanceof vscode.Uri && e.edit instanceof vscode.TextEdit)
        plan.edit(pathOf(e.uri), [{ range: plain(e.edit.range), newText: e.edit.newText }]);
      else throw invalidRequest('the code action edits in a way IDEA does not write (a snippet or a notebook edit)');
    }
    return plan.plan();
  }
  for (const [uri, edits] of edit.entries()) {
    const path = pathOf(uri);
    if (uri.scheme === 'file' && !(await exists(uri))) plan.operation({ kind: 'create', filePath: path });
    plan.edit(
      path,
      edits.map((e) => ({ range: plain(e.range), newText: e.newText })),
    );
  }
  return plan.plan();
}

/** A file URI's path; any other keeps its URI, which the core refuses as outside the workspace. */
const pathOf = (uri: vscode.Uri) => (uri.scheme === 'file' ? uri.fsPath : uri.toString());

async function exists(uri: vscode.Uri): Promise<boolean> {
  try {
    await vscode.workspace.fs.stat(uri);
    return true;
  } catch {
    return false;
  }
}

/**
 * `settle(path, signal)`: waits until the file's diagnostics settle (the host's diagnostics), so that
 * the quick fixes for them are offered.
 */
export function vscodeCodeActions(settle: (path: string, signal: AbortSignal) => Promise<unknown>): CodeActionFeatures {
  return {
    async codeActions(path, range, only, signal) {
      const doc = await openDocument(path);
      await semanticServerReady(doc, signal);
      await settle(path, signal);
      const vsRange = vscodeRange(range);
      const inRange = vscode.languages.getDiagnostics(doc.uri).filter((d) => d.range.intersection(vsRange));
      const offers: CodeActionOffer[] = [];
      const seen = new Set<string>();
      // VS Code takes one kind at a time: several are asked for in turn, an action kept once.
      for (const kind of only ?? [undefined]) {
        const list = await listed(doc.uri, vsRange, kind);
        for (const [i, a] of list.entries()) {
          const key = `${kindOf(a)}\n${a.title}`;
          if (seen.has(key)) continue;
          const nth = list.slice(0, i).filter((b) => sameAction(b, a.title, kindOf(a))).length;
          const disabled = refusedCommand(isBareCommand(a) ? a : a.command);
          offers.push({
            title: a.title,
            kind: kindOf(a),
            ...(!isBareCommand(a) && a.isPreferred && { isPreferred: true }),
            ...(disabled !== undefined && { disabled }),
            diagnostics: diagnosticsOf(a, inRange),
            handle: { uri: doc.uri, range: vsRange, only: kind, nth, action: a } satisfies Handle,
          });
          if (offers.length >= MAX_CODE_ACTIONS) return offers;
        }
        for (const a of list) seen.add(`${kindOf(a)}\n${a.title}`);
      }
      return offers;
    },

    async collectCodeAction(_path, offer, signal) {
      const h = offer.handle as Handle;
      let action = h.action;
      if (isBareCommand(action))
        throw invalidRequest(`the code action "${offer.title}" cannot be applied: ${refusedCommand(action)}`);
      if (!action.edit) {
        // Computed on demand: listed again by its own kind (few to resolve), resolved up to it.
        const kind = kindOf(action) || h.only;
        const same = (list: Listed[]) => list.filter((a) => sameAction(a, offer.title, offer.kind));
        const again = await listed(h.uri, h.range, kind);
        const index = again.indexOf(same(again)[h.nth]!);
        signal.throwIfAborted();
        const found = index < 0 ? undefined : same(await listed(h.uri, h.range, kind, index + 1))[h.nth];
        if (!found || isBareCommand(found))
          throw invalidRequest(`VS Code no longer offers the code action "${offer.title}"; list the actions again`);
        action = found;
      }
      const refused = refusedCommand(action.command);
      if (refused) throw invalidRequest(`the code action "${offer.title}" cannot be applied: ${refused}`);
      return action.edit ? planOf(action.edit) : [];
    },
  };
}
