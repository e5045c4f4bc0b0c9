// nav/definition, nav/typeDefinition and nav/implementation: a location provider's targets at a position,
// each with the full declaration text: the provider's whole target range when it gives one
// (LocationLink.targetRange; TypeScript does), else the innermost document symbol around the location,
// else the location's own range.
import type { CoreContext } from '../context';
import { type DefinitionTarget, isUnavailable, type Position, type Unavailable } from '../host';
import type { DefinitionLocation } from '../protocol';
import { innermostContaining, type TreeSymbol } from '../symbols';
import { askAt, documentText, heldText, textOfRange, wireRange } from './document';

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
  const { answer: defs, ...source } = await askAt(svc, params.filePath, params.line, params.character, (p, at) =>
    provider(p, at, signal),
  );
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
    // A target in the requested file (most are), or one the language server holds, needs no read.
    const text =
      d.filePath === source.path ? source.text : (heldText(svc, d.filePath) ?? (await documentText(svc, d.filePath)));
    const code = textOfRange(text, range);
    locations.push({ filePath: d.filePath, ...wireRange(range), code });
  }
  return { locations };
}
