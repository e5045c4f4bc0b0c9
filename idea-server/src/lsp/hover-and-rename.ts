// v0.1.7's language features over LSP (server-core/host.ts LanguageFeatures): textDocument/hover,
// typeDefinition, implementation, prepareRename and rename, asked through the LSP client like
// definition (lsp-features.ts). A file no language server serves is `Unavailable`; a rename the server
// refuses (an error reply, or prepareRename's null) is RenameRejectedError with the server's message.
import {
  ErrorCodes,
  type Hover,
  type MarkedString,
  type MarkupContent,
  type PrepareRenameResult,
  ResponseError,
} from 'vscode-languageserver-protocol';
import {
  type HoverAnswer,
  type HoverSection,
  type LanguageFeatures,
  type PlannedChange,
  type Position,
  type RenameFileEdits,
  RenameRejectedError,
} from '../../../server-core/host';
import { fencedCode } from '../../../server-core/markdown';
import { orUnavailable, toDefinitionTargets } from '../lsp-features';
import type { LspClient } from './client';
import { isRange } from './convert';
import { MalformedEditError, toPlannedChanges } from './workspace-edit';

/** The members idea-server adds to lspLanguageFeatures' (serve.ts spreads them in). */
export type HoverAndRename = Required<
  Pick<LanguageFeatures, 'hover' | 'typeDefinition' | 'implementation' | 'prepareRename' | 'rename'>
>;

/** The server's error reply to a rename as the core's refusal (its message kept); anything else rethrown. */
function rejected(e: unknown): never {
  // vscode-jsonrpc wraps the server's message in "Request <method> failed with message: …".
  if (e instanceof ResponseError)
    throw new RenameRejectedError(e.message.replace(/^Request \S+ failed with message: /, ''));
  throw e;
}

function sectionOf(c: unknown): HoverSection | undefined {
  if (typeof c === 'string') return c ? { kind: 'markdown', value: c } : undefined;
  if (typeof c !== 'object' || c === null) return undefined;
  const m = c as Partial<MarkupContent> & { language?: unknown };
  if (typeof m.value !== 'string' || m.value === '') return undefined;
  if (typeof m.language === 'string') return { kind: 'markdown', value: fencedCode(m.language, m.value) };
  return { kind: m.kind === 'plaintext' ? 'plaintext' : 'markdown', value: m.value };
}

/** An LSP Hover (MarkupContent, MarkedString or MarkedString[]) as the core's sections and range. */
export function toHoverAnswer(answer: unknown): HoverAnswer {
  if (typeof answer !== 'object' || answer === null) return { contents: [] };
  const h = answer as Partial<Hover>;
  const list: unknown[] = Array.isArray(h.contents) ? (h.contents as MarkedString[]) : [h.contents];
  const contents = list.flatMap((c) => sectionOf(c) ?? []);
  return isRange(h.range) ? { contents, range: h.range } : { contents };
}

/**
 * An LSP WorkspaceEdit as the core's per-file edits (workspace-edit.ts's plan, text edits only): creating,
 * renaming or deleting files is refused (edit/rename only edits text).
 */
export function toRenameEdits(answer: unknown): RenameFileEdits[] | null {
  if (typeof answer !== 'object' || answer === null) return null;
  let plan: PlannedChange[];
  try {
    plan = toPlannedChanges([answer]);
  } catch (e) {
    if (e instanceof MalformedEditError) throw new Error(`${e.message}; nothing was changed`);
    throw e;
  }
  return plan.map((c) => {
    if (c.kind !== 'edit')
      throw new Error(
        'the rename would create, rename or delete files, which edit/rename does not do; nothing was changed',
      );
    return { filePath: c.filePath, edits: c.edits };
  });
}

export function lspHoverAndRename(client: LspClient): HoverAndRename {
  const at = (path: string, method: string, position: Position, signal: AbortSignal, extra: object = {}) =>
    client.rawRequest<unknown>(
      path,
      method,
      (uri, p) => ({ textDocument: { uri }, position: p, ...extra }),
      { signal },
      position,
    );
  return {
    hover: (path, position, signal) =>
      orUnavailable(async () => toHoverAnswer(await at(path, 'textDocument/hover', position, signal))),
    typeDefinition: (path, position, signal) =>
      orUnavailable(async () => toDefinitionTargets(await at(path, 'textDocument/typeDefinition', position, signal))),
    implementation: (path, position, signal) =>
      orUnavailable(async () => toDefinitionTargets(await at(path, 'textDocument/implementation', position, signal))),
    // A server without prepareRename (MethodNotFound) does not check positions beforehand: null.
    prepareRename: (path, position, signal) =>
      orUnavailable(async () => {
        let answer: PrepareRenameResult | null;
        try {
          answer = (await at(path, 'textDocument/prepareRename', position, signal)) as PrepareRenameResult | null;
        } catch (e) {
          if (e instanceof ResponseError && e.code === ErrorCodes.MethodNotFound) return null;
          return rejected(e);
        }
        if (answer === null || typeof answer !== 'object')
          throw new RenameRejectedError('the language server finds no symbol to rename there');
        if (isRange(answer)) return { range: answer };
        if ('range' in answer && isRange(answer.range))
          return typeof answer.placeholder === 'string'
            ? { range: answer.range, placeholder: answer.placeholder }
            : { range: answer.range };
        return null; // { defaultBehavior: true }: the server takes the word at the position
      }),
    rename: (path, position, newName, signal) =>
      orUnavailable(async () => {
        let answer: unknown;
        try {
          answer = await at(path, 'textDocument/rename', position, signal, { newName });
        } catch (e) {
          return rejected(e);
        }
        return toRenameEdits(answer);
      }),
  };
}
