// typescript-language-server's answers as VS Code's own TypeScript extension presents the same tsserver
// results, for the servers whose command says `vscodeTypeScript` (the default TS/JS server): IDEA
// clients (and the conformance suite, recorded against VS Code) see what VS Code shows.
// - diagnostics: source "ts" (tsserver's diagnostics in VS Code), not "typescript"; the style checks
//   VS Code reports as warnings (`typescript.reportStyleChecksAsWarnings`, default on) are warnings;
// - document symbols: VS Code's TS extension knows no Constant or EnumMember kind (its getSymbolKind
//   maps `const` and enum members, like anything it does not list, to Variable).
import type { DocumentSymbol, PublishDiagnosticsParams, SymbolInformation } from 'vscode-languageserver-protocol';

/** VS Code's typescript-language-features `styleCheckDiagnostics` (unused locals/parameters, unreachable code, …). */
export const STYLE_CHECK_CODES: ReadonlySet<number> = new Set([
  6133, 6138, 6192, 6196, 6198, 6199, 6205, 7027, 7028, 7029, 7030,
]);

const LSP = { Error: 1, Warning: 2, Variable: 13, Constant: 14, EnumMember: 22 } as const;

export function asVsCodeDiagnostics(p: PublishDiagnosticsParams): PublishDiagnosticsParams {
  if (!Array.isArray(p?.diagnostics)) return p;
  return {
    ...p,
    diagnostics: p.diagnostics.map((d) => {
      if (typeof d !== 'object' || d === null) return d;
      const style = typeof d.code === 'number' && STYLE_CHECK_CODES.has(d.code) && d.severity === LSP.Error;
      return {
        ...d,
        ...(d.source === 'typescript' ? { source: 'ts' } : {}),
        ...(style ? { severity: LSP.Warning } : {}),
      };
    }),
  };
}

export function asVsCodeSymbols<T extends DocumentSymbol | SymbolInformation>(symbols: T[] | null): T[] | null {
  if (!Array.isArray(symbols)) return symbols;
  return symbols.map((s) => {
    if (typeof s !== 'object' || s === null) return s;
    const kind = s.kind === LSP.Constant || s.kind === LSP.EnumMember ? LSP.Variable : s.kind;
    const children = (s as DocumentSymbol).children;
    return {
      ...s,
      kind,
      ...(Array.isArray(children) ? { children: asVsCodeSymbols(children) } : {}),
    } as T;
  });
}
