// /app/vscode/nav/workspaceSymbols — the workspace's symbols matching a query as its language servers
// match it (T49), after every project was loaded (T47: coverage says what was searched). Symbols of
// files outside the workspace folders or in node_modules (libraries' declarations) are left out; the
// servers' order (best match first) is kept. A list a language server cut short (the host's
// `limitedBy`) makes the answer truncated.
import { sep } from 'node:path';
import type { CoreContext } from '../context';
import { isUnavailable, type LanguageFeatures } from '../host';
import { coverWorkspace, wireCoverage } from '../projects';
import type { Handlers, NavWorkspaceSymbolsResult } from '../protocol';
import { symbolKindName } from '../symbols';
import { wireUnavailable } from '../unavailable';
import { wireRange } from './document';

type WireSymbol = NavWorkspaceSymbolsResult['symbols'][number];

export function navWorkspaceSymbols(
  svc: CoreContext,
  search: NonNullable<LanguageFeatures['workspaceSymbols']>,
): Handlers['navWorkspaceSymbols'] {
  return async (params, ctx) => {
    const coverage = wireCoverage(await coverWorkspace(svc, ctx.signal));
    const answer = await search(params.query, ctx.signal);
    if (isUnavailable(answer)) {
      svc.tools.log(`workspaceSymbols: ${answer.unavailable}`);
      return { symbols: [], totalCount: 0, truncated: false, coverage, unavailable: wireUnavailable(answer) };
    }
    const folders = svc.folders.paths().map((f) => (f.endsWith(sep) ? f : f + sep));
    const kinds = params.kinds ? new Set<string>(params.kinds) : undefined;
    const seen = new Set<string>();
    const symbols: WireSymbol[] = [];
    let totalCount = 0;
    for (const s of answer) {
      if (!folders.some((f) => s.filePath.startsWith(f)) || s.filePath.includes(`${sep}node_modules${sep}`)) continue;
      const kind = symbolKindName(s.kind);
      if (kinds && !kinds.has(kind)) continue;
      const at = wireRange(s.range);
      const key = `${s.filePath}\0${at.line}\0${at.character}\0${s.name}`;
      if (seen.has(key)) continue; // two servers, or two projects of one, giving the same symbol
      seen.add(key);
      totalCount++;
      if (symbols.length < params.maxResults)
        symbols.push({ filePath: s.filePath, ...at, name: s.name, kind, containerName: s.containerName || null });
    }
    // T49: a list the language server cut short is truncated, however few of its symbols were kept.
    if (answer.limitedBy) svc.tools.log(`workspaceSymbols: ${answer.limitedBy}`);
    return { symbols, totalCount, truncated: totalCount > symbols.length || answer.limitedBy !== undefined, coverage };
  };
}
