// /app/vscode/nav/symbols — the document symbol tree flattened parent-first, filtered by `query`.
import * as vscode from 'vscode';
import { type FlatSymbol, filterSymbols, flattenSymbols, type TreeSymbol } from '../../../server-core/symbols';
import { openDocument } from '../documents';
import { documentSymbols, hasNoLanguageServer } from '../language-server';
import type { Handlers, NavSymbolsResult } from '../protocol';
import { resolvePath, type Services } from '../services';

export function navSymbols(svc: Services): Handlers['navSymbols'] {
  return async (params, ctx) => {
    const { path } = resolvePath(svc, params.filePath);
    const doc = await openDocument(path);
    const raw = hasNoLanguageServer(doc)
      ? ((await vscode.commands.executeCommand<unknown[]>('vscode.executeDocumentSymbolProvider', doc.uri)) ?? [])
      : await documentSymbols(doc.uri, ctx.signal);
    const symbols = filterSymbols(flattenSymbols(raw as (TreeSymbol | FlatSymbol)[]), params.query);
    return { symbols: symbols as NavSymbolsResult['symbols'], totalCount: symbols.length };
  };
}
