// nav/definition, nav/typeDefinition and nav/implementation: a location provider's targets at a position,
// each with the full declaration text: the provider's whole target range when it gives one
// (LocationLink.targetRange; TypeScript does), else the innermost document symbol around the location,
// else the location's own range.
import type { CoreContext } from '../context';
import { type DefinitionTarget, isUnavailable, type Position, type Unavailable } from '../host';
import type { DefinitionLocation } from '../protocol';
import { innermostContaining, type TreeSymbol } from '../symbols';
import { documentAt, documentText, textOfRange, wireRange } from './document';

type Provider = (path: string, at: Position, signal: AbortSignal) => Promise<DefinitionTarget[] | Unavailable>;

interface At {
  filePath: string;
  line: number;
  character: number;
}

export async function providerLocations(
  svc: CoreContext,
  what: string,
  provider: Provider,
  params: At,
  signal: AbortSignal,
): Promise<{ locations: DefinitionLocation[] }> {
  const { path, position } = await documentAt(svc, params.filePath, params.line, params.character);
  const defs = await provider(path, position, signal);
  signal.throwIfAborted(); // cancelled: no more language-server queries for an answer nobody reads
  if (isUnavailable(defs)) {
    svc.tools.log(`${what}: ${defs.unavailable}`);
    return { locations: [] };
  }
  const locations: DefinitionLocation[] = [];
  for (const d of defs) {
    signal.throwIfAborted();
    let range = d.targetRange;
    if (!range) {
      // The server just answered for this position, so one symbol query (no retries) suffices.
      const syms = await svc.language.documentSymbols(d.filePath, signal, 'once');
      const tree = isUnavailable(syms) ? [] : syms.filter((s): s is TreeSymbol => 'selectionRange' in s);
      range = innermostContaining(tree, d.range.start)?.range ?? d.range;
    }
    const code = textOfRange(await documentText(svc, d.filePath), range);
    locations.push({ filePath: d.filePath, ...wireRange(range), code });
  }
  return { locations };
}
