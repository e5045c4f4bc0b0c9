// /app/vscode/nav/definition — the definition provider's answer, each with the full declaration text:
// the provider's whole target range when it gives one (LocationLink.targetRange; TypeScript does), else
// the innermost document symbol around the location, else the location's own range.
import type { CoreContext } from '../context';
import { isUnavailable } from '../host';
import type { Handlers } from '../protocol';
import { innermostContaining, type TreeSymbol } from '../symbols';
import { documentAt, documentText, textOfRange, wireRange } from './document';

export function navDefinition(svc: CoreContext): Handlers['navDefinition'] {
  return async (params, ctx) => {
    const { path, position } = await documentAt(svc, params.filePath, params.line, params.character);
    const defs = await svc.language.definition(path, position, ctx.signal);
    if (isUnavailable(defs)) {
      svc.tools.log(`definition: ${defs.unavailable}`);
      return { locations: [] };
    }
    const locations = [];
    for (const d of defs) {
      let range = d.targetRange;
      if (!range) {
        // The server just answered for this position, so one symbol query (no retries) suffices.
        const syms = await svc.language.documentSymbols(d.filePath, ctx.signal, 'once');
        const tree = isUnavailable(syms) ? [] : syms.filter((s): s is TreeSymbol => 'selectionRange' in s);
        range = innermostContaining(tree, d.range.start)?.range ?? d.range;
      }
      const code = textOfRange(await documentText(svc, d.filePath), range);
      locations.push({ filePath: d.filePath, ...wireRange(range), code });
    }
    return { locations };
  };
}
