// nav/definition, nav/typeDefinition and nav/implementation: a location provider's targets at a position,
// each with the full declaration text: the provider's whole target range when it gives one
// (LocationLink.targetRange; TypeScript does), else the innermost document symbol around the location,
// else the location's own range.
import { type CoreContext, resolvePath } from '../context';
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
  // The path is checked first; then the provider is asked while the file is read for the line check
  // (whose error still wins: it is awaited first). Without an editor that read is four file-system
  // round trips, which need not wait for the language server's.
  const { path } = resolvePath(svc, params.filePath);
  const asked = (async () => provider(path, { line: params.line, character: params.character }, signal))();
  asked.catch(() => {}); // awaited below, after the line check
  const source = await documentAt(svc, params.filePath, params.line, params.character);
  const defs = await asked;
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
    // A target in the requested file (most are) needs no second read.
    const text = d.filePath === source.path ? source.text : await documentText(svc, d.filePath);
    const code = textOfRange(text, range);
    locations.push({ filePath: d.filePath, ...wireRange(range), code });
  }
  return { locations };
}
