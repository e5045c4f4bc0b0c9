// Code actions over LSP (server-core/host.ts codeActions, collectCodeAction; T54, H22):
// textDocument/codeAction with the file's settled diagnostics in the range, then, for the one applied,
// codeAction/resolve and its command, everything it would write collected for the core's transaction,
// nothing written here. A command is run only when its language server announced it
// (executeCommandProvider) and only through workspace/executeCommand, while the server's
// workspace/applyEdit requests are collected (ServerProcess.collectEdits); typescript-language-server's
// own commands are turned into tsserver questions instead (typescript-commands.ts), since one of them
// writes files itself.
import type {
  CodeAction,
  CodeActionParams,
  Command,
  Diagnostic as LspDiagnostic,
} from 'vscode-languageserver-protocol';
import { invalidRequest } from '../../../server-core/errors';
import type { CodeActionOffer, LanguageFeatures, PlannedChange, Range } from '../../../server-core/host';
import { orUnavailable, toRawDiagnostics } from '../lsp-features';
import type { LspClient } from './client';
import { isRange } from './convert';
import type { ServerProcess } from './server-process';
import {
  NotApplicableError,
  ORGANIZE_IMPORTS_KIND,
  organizeImportsPlan,
  TSSERVER_REQUEST,
  type TypeScriptCommandPlan,
  tsserverAnswerAsWorkspaceEdit,
  typeScriptCommand,
} from './typescript-commands';
import { toPlannedChanges } from './workspace-edit';

export type CodeActionFeatures = Required<Pick<LanguageFeatures, 'codeActions' | 'collectCodeAction'>>;

/** Most actions one list keeps (a server's answer is input like any other). */
export const MAX_CODE_ACTIONS = 500;

/**
 * What an offer's handle holds: the server's action as it gave it, the request that listed it and its
 * place among the actions of that answer with its title and kind (to find it again: see collect).
 */
interface Handle {
  lsp: CodeAction | Command;
  request: CodeActionParams;
  nth: number;
}

const sameAction = (a: unknown, title: string, kind: string) =>
  isObject(a) && a.title === title && (typeof a.kind === 'string' ? a.kind : '') === kind;

const isObject = (x: unknown): x is Record<string, unknown> => typeof x === 'object' && x !== null;

/** LSP's CodeAction | Command union: a Command has a string `command` and no kind, edit or diagnostics. */
function isBareCommand(a: CodeAction | Command): a is Command {
  return typeof (a as Command).command === 'string';
}

/** The action's command, if any: a bare Command, or a CodeAction's `command`. */
function commandOf(a: CodeAction | Command): Command | undefined {
  if (isBareCommand(a)) return a;
  const c = a.command;
  return isObject(c) && typeof c.command === 'string' ? c : undefined;
}

/** `kind` is one of `only` or a sub-kind of one ("refactor" keeps "refactor.extract.function"). */
export function kindMatches(kind: string, only: readonly string[] | undefined): boolean {
  return only === undefined || only.some((o) => kind === o || kind.startsWith(`${o}.`));
}

const before = (a: Range['start'], b: Range['start']) =>
  a.line < b.line || (a.line === b.line && a.character < b.character);

/** The diagnostics touching `range` (a position: those containing it), as code action contexts want. */
export function diagnosticsIn(all: readonly LspDiagnostic[], range: Range): LspDiagnostic[] {
  return all.filter((d) => isRange(d?.range) && !before(d.range.end, range.start) && !before(range.end, d.range.start));
}

/** How a command would run, or why it will not (H22): a plan for a TypeScript one, else the server's own run. */
type CommandPlan = TypeScriptCommandPlan | { kind: 'execute'; command: Command };

/** A server that answers tsserver's questions (typescript-language-server): its organize imports is asked so. */
const ownsOrganizeImports = (server: ServerProcess) => server.executeCommands.has(TSSERVER_REQUEST);

function planCommand(server: ServerProcess, command: Command): CommandPlan {
  const ts = typeScriptCommand(command.command, Array.isArray(command.arguments) ? command.arguments : []);
  if (ts) return ts;
  if (!server.executeCommands.has(command.command))
    return { kind: 'refused', reason: `its command ${command.command} is not one its language server offers to run` };
  return { kind: 'execute', command };
}

function offerOf(
  server: ServerProcess,
  a: CodeAction | Command,
  request: CodeActionParams,
  nth: number,
): CodeActionOffer | undefined {
  if (!isObject(a) || typeof a.title !== 'string') return undefined;
  const action = isBareCommand(a) ? undefined : a;
  const command = commandOf(a);
  const plan = command ? planCommand(server, command) : undefined;
  const ownReason = isObject(action?.disabled) ? action.disabled.reason : undefined;
  const disabled = typeof ownReason === 'string' ? ownReason : plan?.kind === 'refused' ? plan.reason : undefined;
  return {
    title: a.title,
    kind: typeof action?.kind === 'string' ? action.kind : '',
    ...(action?.isPreferred === true && { isPreferred: true }),
    ...(disabled !== undefined && { disabled }),
    diagnostics: toRawDiagnostics(Array.isArray(action?.diagnostics) ? action.diagnostics : []),
    handle: { lsp: a, request, nth } satisfies Handle,
  };
}

/**
 * `diagnosticsWaitMs`: the longest a list waits for the file's diagnostics to settle, then takes what
 * arrived (default: the client's diagnostics bound, which a first list needs while the project loads).
 */
export function lspCodeActions(
  client: LspClient,
  { diagnosticsWaitMs }: { diagnosticsWaitMs?: number } = {},
): CodeActionFeatures {
  return {
    codeActions: (path, range, only, signal) =>
      orUnavailable(async () => {
        const { server, doc, language, bounds } = await client.server(path, { signal });
        if (!server.capabilities.codeActionProvider)
          return {
            unavailable: `the ${language} language server offers no code actions`,
            kind: 'unsupported' as const,
          };
        // Quick fixes are for the diagnostics given: the file's, once its server has settled them.
        const known = await client.rawDiagnostics(path, {
          signal,
          ...(diagnosticsWaitMs !== undefined && { timeoutMs: diagnosticsWaitMs }),
        });
        const diagnostics = diagnosticsIn(known, range);
        const request: CodeActionParams = {
          textDocument: { uri: doc.uri },
          range: { start: range.start, end: range.end },
          context: { diagnostics, ...(only && { only: [...only] }), triggerKind: 1 },
        };
        const answer = await server.exclusive(
          () => server.request<unknown>('textDocument/codeAction', request, 'codeAction', bounds),
          bounds,
        );
        const list = Array.isArray(answer) ? (answer as (CodeAction | Command)[]) : [];
        const offers: CodeActionOffer[] = [];
        for (const [i, a] of list.entries()) {
          if (!isObject(a)) continue;
          const kind = typeof (a as CodeAction).kind === 'string' ? (a as CodeAction).kind! : '';
          const nth = list.slice(0, i).filter((b) => sameAction(b, a.title, kind)).length;
          const offer = offerOf(server, a, request, nth);
          if (offer && kindMatches(offer.kind, only)) offers.push(offer);
          if (offers.length >= MAX_CODE_ACTIONS) break;
        }
        // typescript-language-server lists organize imports only when sorting or merging changes something;
        // VS Code's, which removes unused imports too, is offered whenever it is asked for.
        if (
          ownsOrganizeImports(server) &&
          only?.some((o) => kindMatches(ORGANIZE_IMPORTS_KIND, [o])) &&
          !offers.some((o) => o.kind === ORGANIZE_IMPORTS_KIND) &&
          offers.length < MAX_CODE_ACTIONS
        )
          offers.push(offerOf(server, { title: 'Organize Imports', kind: ORGANIZE_IMPORTS_KIND }, request, 0)!);
        return offers;
      }),

    async collectCodeAction(path, offer, signal) {
      const { lsp, request, nth } = offer.handle as Handle;
      const { server, bounds } = await client.server(path, { signal });
      const { result, edits } = await server.collectEdits(async (): Promise<unknown[]> => {
        const ask = async (plan: Extract<TypeScriptCommandPlan, { kind: 'tsserver' }>) => {
          const answer = await server.request<unknown>(
            'workspace/executeCommand',
            { command: TSSERVER_REQUEST, arguments: [plan.request, plan.args] },
            plan.request,
            bounds,
          );
          try {
            return tsserverAnswerAsWorkspaceEdit(plan.request, answer);
          } catch (e) {
            if (e instanceof NotApplicableError)
              throw invalidRequest(`the code action "${offer.title}" cannot be applied: ${e.message}`);
            throw e;
          }
        };
        // typescript-language-server's organize imports only sorts and merges; VS Code's (tsserver's
        // mode All) removes unused imports too: asked so, in place of the edit the list carried.
        if (!isBareCommand(lsp) && lsp.kind === ORGANIZE_IMPORTS_KIND && ownsOrganizeImports(server))
          return [await ask(organizeImportsPlan(path))];
        let action = lsp;
        // An action without its edit is resolved first (typescript-language-server's fix-all). The server
        // resolves only what its last list gave (it forgets the rest at every list), so it is listed
        // again, the same question about the same text (the core checked the file did not change), and
        // the action found again by its title, kind and place.
        const provider = server.capabilities.codeActionProvider;
        if (!isBareCommand(action) && action.edit === undefined && isObject(provider) && provider.resolveProvider) {
          const again = await server.request<unknown>('textDocument/codeAction', request, 'codeAction', bounds);
          const same = (Array.isArray(again) ? again : []).filter((a) => sameAction(a, offer.title, offer.kind));
          const found = same[nth] as CodeAction | undefined;
          if (!found)
            throw invalidRequest(
              `the language server no longer offers the code action "${offer.title}"; list the actions again`,
            );
          action = await server.request<CodeAction>('codeAction/resolve', found, 'codeAction/resolve', bounds);
        }
        if (!isObject(action)) return [];
        const own: unknown[] = isBareCommand(action) || action.edit === undefined ? [] : [action.edit];
        const command = commandOf(action);
        if (!command) return own;
        const plan = planCommand(server, command);
        switch (plan.kind) {
          case 'nothing':
            return own;
          case 'refused':
            throw invalidRequest(`the code action "${offer.title}" cannot be applied: ${plan.reason}`);
          case 'tsserver':
            return [...own, await ask(plan)];
          case 'execute':
            // What it asks to write arrives as workspace/applyEdit, collected by collectEdits.
            await server.request<unknown>(
              'workspace/executeCommand',
              { command: plan.command.command, ...(plan.command.arguments && { arguments: plan.command.arguments }) },
              'executeCommand',
              bounds,
            );
            return own;
        }
      }, bounds);
      return toPlannedChanges([...result, ...edits]) satisfies PlannedChange[];
    },
  };
}
