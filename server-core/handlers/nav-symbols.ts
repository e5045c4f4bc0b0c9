// /app/vscode/nav/symbols — the document symbol tree flattened parent-first, filtered by `query`.
import { type CoreContext, resolvePath } from '../context';
import { isUnavailable } from '../host';
import type { Handlers, NavSymbolsResult } from '../protocol';
import { filterSymbols, flattenSymbols } from '../symbols';
import { wireUnavailable } from '../unavailable';
import { documentText } from './document';

export function navSymbols(svc: CoreContext): Handlers['navSymbols'] {
  return async (params, ctx) => {
    const { path } = resolvePath(svc, params.filePath);
    await documentText(svc, path); // a file that cannot be opened fails, as it would in an editor
    const raw = await svc.language.documentSymbols(path, ctx.signal, 'wait');
    if (isUnavailable(raw)) svc.tools.log(`symbols: ${raw.unavailable}`);
    if (isUnavailable(raw)) return { symbols: [], totalCount: 0, unavailable: wireUnavailable(raw) };
    const symbols = filterSymbols(flattenSymbols(raw), params.query);
    return { symbols: symbols as NavSymbolsResult['symbols'], totalCount: symbols.length };
  };
}
