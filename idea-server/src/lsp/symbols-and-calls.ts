// v0.1.8's language features over LSP (server-core/host.ts): workspace symbols (every language server
// asked, TypeScript's through tsserver's own navto so every loaded project is searched), call hierarchy
// (textDocument/prepareCallHierarchy, callHierarchy/incomingCalls and /outgoingCalls; a server that
// does not offer it answers `unsupported`, T48) and the project loader (each project's file opened and
// kept open, T47). A file no language server serves is `Unavailable`, as in lsp-features.ts.
import type { CallHierarchyItem as LspCallItem } from 'vscode-languageserver-protocol';
import type {
  CallHierarchyItem,
  LanguageFeatures,
  Range,
  Unavailable,
  WorkspaceSymbolList,
} from '../../../server-core/host';
import { orUnavailable, unavailableOf } from '../lsp-features';
import type { LspClient } from './client';
import { isRange, pathOfUri } from './convert';
import { LspUnavailableError } from './errors';

export type SymbolsAndCalls = Required<Pick<LanguageFeatures, 'workspaceSymbols' | 'callHierarchy' | 'projects'>>;

/** Most symbols asked of each language server for one query (the answer's own bound is far below). */
export const WORKSPACE_SYMBOLS_ASKED = 20_000;

/** An LSP call hierarchy item as the core's (0-based kind, the LSP item kept to ask its calls); undefined when not a file's. */
export function toCallItem(x: unknown): CallHierarchyItem | undefined {
  if (typeof x !== 'object' || x === null) return undefined;
  const i = x as Partial<LspCallItem>;
  const filePath = pathOfUri(i.uri);
  if (typeof i.name !== 'string' || typeof i.kind !== 'number' || filePath === undefined) return undefined;
  if (!isRange(i.range) || !isRange(i.selectionRange)) return undefined;
  return {
    name: i.name,
    kind: i.kind - 1,
    ...(typeof i.detail === 'string' && i.detail ? { detail: i.detail } : {}),
    filePath,
    range: i.range,
    selectionRange: i.selectionRange,
    handle: x,
  };
}

/** Incoming (`from`) or outgoing (`to`) calls as the core's: the other item and the ranges of the calls. */
export function toCalls(answer: unknown, side: 'from' | 'to'): { item: CallHierarchyItem; ranges: Range[] }[] {
  const out: { item: CallHierarchyItem; ranges: Range[] }[] = [];
  for (const c of Array.isArray(answer) ? answer : []) {
    if (typeof c !== 'object' || c === null) continue;
    const item = toCallItem((c as Record<string, unknown>)[side]);
    const ranges = (c as { fromRanges?: unknown }).fromRanges;
    if (item) out.push({ item, ranges: Array.isArray(ranges) ? ranges.filter(isRange) : [] });
  }
  return out;
}

/** `asked`: most symbols asked of each language server (a test asks few, to see a list cut). */
export function lspSymbolsAndCalls(client: LspClient, asked = WORKSPACE_SYMBOLS_ASKED): SymbolsAndCalls {
  const calls = async (item: CallHierarchyItem, method: string, side: 'from' | 'to', signal: AbortSignal) =>
    toCalls(
      await client.requestAbout(item.filePath, method, () => ({ item: item.handle }), 'callHierarchyProvider', {
        signal,
      }),
      side,
    );
  return {
    workspaceSymbols: async (query, signal): Promise<WorkspaceSymbolList | Unavailable> => {
      const answers = await client.workspaceSymbols(query, asked, { signal });
      const answered = answers.filter((a) => a.symbols);
      if (answered.length === 0) {
        const e = answers.find((a) => a.error)?.error;
        if (e instanceof LspUnavailableError || e === undefined)
          return e ? unavailableOf(e) : { unavailable: 'no language server is configured', kind: 'none' };
        throw e;
      }
      const out: WorkspaceSymbolList = [];
      const cut = answered.filter((a) => a.cut).map((a) => a.language);
      if (cut.length > 0)
        out.limitedBy = `the ${cut.join(' and ')} language server listed as many symbols as it was asked for (${asked}): some matches may be missing; a longer query finds fewer`;
      for (const a of answered)
        for (const s of a.symbols!) {
          const filePath = pathOfUri(s.location?.uri);
          if (filePath === undefined || !isRange(s.location.range)) continue;
          out.push({
            name: s.name,
            kind: s.kind - 1,
            ...(s.containerName ? { containerName: s.containerName } : {}),
            filePath,
            range: s.location.range,
          });
        }
      return out;
    },
    callHierarchy: {
      prepare: (path, at, signal) =>
        orUnavailable(async () => {
          const answer = await client.requestAbout<unknown>(
            path,
            'textDocument/prepareCallHierarchy',
            (uri, p) => ({ textDocument: { uri }, position: p }),
            'callHierarchyProvider',
            { signal },
            at,
          );
          return (Array.isArray(answer) ? answer : []).flatMap((i) => toCallItem(i) ?? []);
        }),
      incoming: (item, signal) => calls(item, 'callHierarchy/incomingCalls', 'from', signal),
      outgoing: (item, signal) => calls(item, 'callHierarchy/outgoingCalls', 'to', signal),
    },
    projects: { load: (files, signal) => client.load(files, { signal }) },
  };
}
