// server-core's LanguageFeatures answered by language servers over LSP (src/lsp/client.ts). A file no
// language server serves (none configured for it, its command missing, crashed too often) is
// `Unavailable` with the client's reason and its kind (T48: `none` when no server is configured for
// the language, `down` when its server could not start or stopped), which the core turns into an
// empty answer saying why: never a crash. Shapes are converted to VS Code's (0-based symbol kinds and
// severities) here, once.
import type { LocationLink, Location as LspLocation } from 'vscode-languageserver-protocol';
import type { RawDiagnostic } from '../../server-core/diagnostics';
import type { DefinitionTarget, LanguageFeatures, Range, Unavailable, UnavailableKind } from '../../server-core/host';
import type { LspClient } from './lsp/client';
import { isRange, pathOfUri, rawDiagnostic, toVsCodeSymbols } from './lsp/convert';
import { LspUnavailableError, type UnavailableReason } from './lsp/errors';

/** T48's kind of each reason the client gives: no server configured, or one that is not running. */
const KIND_OF: Record<UnavailableReason, UnavailableKind> = {
  unconfigured: 'none',
  missing: 'down',
  failed: 'down',
  crashed: 'down',
  stopped: 'down',
  unsupported: 'unsupported',
};

/** The client's unavailability as the core's. */
export function unavailableOf(e: LspUnavailableError): Unavailable {
  return { unavailable: e.message, kind: KIND_OF[e.reason] };
}

/** The client's answer, or `Unavailable` when no language server can give one. */
export async function orUnavailable<T>(call: () => Promise<T>): Promise<T | Unavailable> {
  try {
    return await call();
  } catch (e) {
    if (e instanceof LspUnavailableError) return unavailableOf(e);
    throw e;
  }
}

/** LSP definition answers (Location | Location[] | LocationLink[]) as the core's targets; non-file and malformed ones dropped. */
export function toDefinitionTargets(answer: unknown): DefinitionTarget[] {
  const list: unknown[] = answer === null || answer === undefined ? [] : Array.isArray(answer) ? answer : [answer];
  const out: DefinitionTarget[] = [];
  for (const d of list) {
    if (typeof d !== 'object' || d === null) continue;
    if ('targetUri' in d) {
      const link = d as LocationLink;
      const filePath = pathOfUri(link.targetUri);
      if (filePath === undefined || !isRange(link.targetRange)) continue;
      const range = isRange(link.targetSelectionRange) ? link.targetSelectionRange : link.targetRange;
      out.push({ filePath, range, targetRange: link.targetRange });
    } else {
      const loc = d as LspLocation;
      const filePath = pathOfUri(loc.uri);
      if (filePath !== undefined && isRange(loc.range)) out.push({ filePath, range: loc.range });
    }
  }
  return out;
}

/** LSP locations as the core's, non-file and malformed ones dropped. */
export function toLocations(answer: unknown): { filePath: string; range: Range }[] {
  const out: { filePath: string; range: Range }[] = [];
  for (const l of Array.isArray(answer) ? (answer as LspLocation[]) : []) {
    const filePath = typeof l === 'object' && l !== null ? pathOfUri(l.uri) : undefined;
    if (filePath !== undefined && isRange(l.range)) out.push({ filePath, range: l.range });
  }
  return out;
}

/** LSP diagnostics (VS Code-shaped already for the TS server) as the core's; malformed ones dropped. */
export function toRawDiagnostics(list: readonly unknown[]): RawDiagnostic[] {
  return list.flatMap((d) => {
    const raw = typeof d === 'object' && d !== null ? rawDiagnostic(d as never) : undefined;
    return raw ? [raw] : [];
  });
}

export function lspLanguageFeatures(client: LspClient): LanguageFeatures {
  return {
    definition: (path, at, signal) =>
      orUnavailable(async () =>
        toDefinitionTargets(
          await client.rawRequest<unknown>(
            path,
            'textDocument/definition',
            (uri, p) => ({ textDocument: { uri }, position: p }),
            { signal },
            at,
          ),
        ),
      ),
    references: (path, at, includeDeclaration, signal) =>
      orUnavailable(async () =>
        toLocations(
          await client.rawRequest<unknown>(
            path,
            'textDocument/references',
            (uri, p) => ({ textDocument: { uri }, position: p, context: { includeDeclaration } }),
            { signal },
            at,
          ),
        ),
      ),
    // A language server answers documentSymbol once its analysis of the file is ready, so 'wait' and
    // 'once' ask one question (VS Code's providers may answer empty before they are ready). 'once' (the
    // server has just answered about the file, or its index named it) takes the TypeScript server's own
    // copy of a file it does not have open, without opening it (client.ts closedFileSymbols).
    documentSymbols: (path, signal, mode) =>
      orUnavailable(async () => {
        // As VS Code's TypeScript extension shows them (the client adapts the TS server's answer).
        const closed = mode === 'once' ? await client.closedFileSymbols(path, { signal }) : undefined;
        const answer = closed ?? (await client.documentSymbols(path, { signal }));
        return toVsCodeSymbols(Array.isArray(answer) ? answer : []);
      }),
    // A file no server is configured for has no diagnostics, and says why (T48).
    diagnostics: (path, signal) =>
      orUnavailable(async () => {
        client.configuredFor(path);
        return toRawDiagnostics(await client.rawDiagnostics(path, { signal }));
      }),
    syncedText: (path) => client.syncedText(path),
    allDiagnostics: () =>
      client.allRawDiagnostics().map(([filePath, list]) => ({ filePath, diagnostics: toRawDiagnostics(list) })),
  };
}
