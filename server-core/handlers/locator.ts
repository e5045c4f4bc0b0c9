// The position a request names (clause T44): its line and character, or the start of the name of the one
// symbol of its file that its namePath matches. An unknown or ambiguous name path is INVALID_REQUEST
// with the candidates, never a guess; a file no language server can give symbols for is HANDLER_ERROR
// with the reason (the operation failed, R7).
import { type NamePath, NamePathError, parseNamePath } from '../../runtime/name-path';
import { type CoreContext, resolvePath } from '../context';
import { invalidRequest, ProtocolError } from '../errors';
import { isUnavailable, type Position, type Unavailable } from '../host';
import { candidatesFor, matchNamePath, type SymbolNode, type SymbolTree, symbolTree } from '../name-paths';

/** A position topic's params: line and character, or (0.1.8) a name path. */
export interface Locator {
  filePath: string;
  line?: number;
  character?: number;
  namePath?: string;
}

/** A name path parsed, or INVALID_REQUEST saying what is wrong and where (T43). */
export function parsedNamePath(text: string): NamePath {
  try {
    return parseNamePath(text);
  } catch (e) {
    if (e instanceof NamePathError) throw invalidRequest(e.message);
    throw e;
  }
}

/** The file's document symbols as a tree, or why there are none (no language server could answer). */
export async function symbolTreeOf(
  svc: CoreContext,
  path: string,
  signal: AbortSignal,
  mode: 'wait' | 'once' = 'wait',
): Promise<SymbolTree | Unavailable> {
  const raw = await svc.language.documentSymbols(path, signal, mode);
  return isUnavailable(raw) ? raw : symbolTree(raw);
}

/** The one symbol `path` matches in `tree`, or INVALID_REQUEST listing the candidates (T44). */
export function oneSymbol(tree: SymbolTree, text: string, path: NamePath, file: string): SymbolNode {
  const matches = matchNamePath(tree, path);
  if (matches.length === 1) return matches[0]!;
  const candidates = candidatesFor(tree, path, matches);
  const listed = candidates.map((c) => `${c.namePath} (${c.kind}, line ${c.line})`).join(', ');
  const what =
    matches.length === 0
      ? `name path "${text}" matches no symbol of ${file}`
      : `name path "${text}" matches ${matches.length} symbols of ${file}; name one (with [i] or more segments)`;
  const more = matches.length > candidates.length ? ` and ${matches.length - candidates.length} more` : '';
  const hint = candidates.length === 0 ? ' (the file has no symbols)' : `: ${listed}${more}`;
  throw invalidRequest(`${what}${matches.length === 0 && candidates.length > 0 ? '; did you mean' : ''}${hint}`, {
    candidates,
  });
}

/**
 * The request's position: `line`/`character` as given, or the start of the name of the symbol its
 * namePath matches. Both forms, or neither, is INVALID_REQUEST (the schema refuses them too).
 */
export async function locate(
  svc: CoreContext,
  params: Locator,
  signal: AbortSignal,
): Promise<Position & { symbol?: SymbolNode }> {
  const hasPosition = params.line !== undefined || params.character !== undefined;
  if (params.namePath === undefined) {
    if (params.line === undefined || params.character === undefined)
      throw invalidRequest('line and character, or namePath, are required');
    return { line: params.line, character: params.character };
  }
  if (hasPosition) throw invalidRequest('give line and character, or namePath, not both');
  const path = parsedNamePath(params.namePath);
  const file = resolvePath(svc, params.filePath).path;
  const tree = await symbolTreeOf(svc, file, signal);
  if (isUnavailable(tree))
    throw new ProtocolError(
      'HANDLER_ERROR',
      `cannot find name path "${params.namePath}" in ${file}: ${tree.unavailable}`,
    );
  const symbol = oneSymbol(tree, params.namePath, path, file);
  return { ...symbol.selectionRange.start, symbol };
}
