// nav/definition, nav/typeDefinition and nav/implementation: a location provider's targets at a position,
// each with the full declaration text: the provider's whole target range when it gives one
// (LocationLink.targetRange; TypeScript does), else the innermost document symbol around the location,
// else the location's own range.
import type { CoreContext } from '../context';
import { type DefinitionTarget, isUnavailable, type Position, type Unavailable } from '../host';
import type { DefinitionLocation } from '../protocol';
import { innermostContaining, type TreeSymbol } from '../symbols';
import { type WireUnavailable, wireUnavailable } from '../unavailable';
import { askAt, diskText, heldText, textOfRange, wireRange } from './document';
import { type Locator, locate as locateParams } from './locator';

/** Targets worked out at once (each may need a symbol query and a file read). */
const LOOKUPS_IN_FLIGHT = 8;

type Provider = (path: string, at: Position, signal: AbortSignal) => Promise<DefinitionTarget[] | Unavailable>;

export async function providerLocations(
  svc: CoreContext,
  what: string,
  provider: Provider,
  params: Locator,
  signal: AbortSignal,
): Promise<{ locations: DefinitionLocation[]; unavailable?: WireUnavailable }> {
  const { line, character } = await locateParams(svc, params, signal);
  const { answer: defs, ...source } = await askAt(svc, params.filePath, line, character, (p, at) =>
    provider(p, at, signal),
  );
  signal.throwIfAborted(); // cancelled: no more language-server queries for an answer nobody reads
  if (isUnavailable(defs)) {
    svc.tools.log(`${what}: ${defs.unavailable}`);
    return { locations: [], unavailable: wireUnavailable(defs) };
  }
  // Targets are worked out together, each file's symbols and text asked once (two implementations in
  // one file are common): every symbol query is a language-server round trip the bare command does not make.
  const symbols = new Map<string, Promise<TreeSymbol[]>>();
  const symbolsOf = (path: string) => {
    let tree = symbols.get(path);
    if (!tree) {
      // The server just answered for this position, so one symbol query (no retries) suffices.
      tree = svc.language
        .documentSymbols(path, signal, 'once')
        .then((syms) => (isUnavailable(syms) ? [] : syms.filter((s): s is TreeSymbol => 'selectionRange' in s)));
      symbols.set(path, tree);
    }
    return tree;
  };
  // A target in the requested file (most are), or one the server holds, needs no read; nor does another
  // file read for an earlier answer and unchanged since (one stat: the same target asked from many places).
  const texts = new Map<string, Promise<string>>([[source.path, Promise.resolve(source.text)]]);
  const textOf = (path: string) => {
    let text = texts.get(path);
    if (!text) {
      const held = heldText(svc, path);
      texts.set(path, (text = held === undefined ? diskText(svc, path) : Promise.resolve(held)));
    }
    return text;
  };
  const locate = async (d: DefinitionTarget): Promise<DefinitionLocation> => {
    const range = d.targetRange ?? innermostContaining(await symbolsOf(d.filePath), d.range.start)?.range ?? d.range;
    signal.throwIfAborted();
    const code = textOfRange(await textOf(d.filePath), range);
    return { filePath: d.filePath, ...wireRange(range), code };
  };
  // Bounded: an interface with hundreds of implementations must not open hundreds of files at once.
  const locations: DefinitionLocation[] = new Array(defs.length);
  let next = 0;
  const worker = async () => {
    while (next < defs.length) {
      const i = next++;
      try {
        locations[i] = await locate(defs[i]!);
      } catch (e) {
        next = defs.length; // the answer failed: the other workers stop asking
        throw e;
      }
    }
  };
  await Promise.all(Array.from({ length: Math.min(LOOKUPS_IN_FLIGHT, defs.length) }, worker));
  return { locations };
}
