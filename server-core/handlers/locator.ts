// The position a request names (clause T44): its line and character, or the start of the name of the one
// symbol of its file that its namePath matches. An unknown or ambiguous name path is INVALID_REQUEST
// with the candidates, never a guess; a file no language server can give symbols for is HANDLER_ERROR
// with the reason (the operation failed, R7).

import { type Stats, statSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import { type NamePath, NamePathError, parseNamePath } from '../../runtime/name-path';
import { type CoreContext, resolvePath } from '../context';
import { invalidRequest, ProtocolError } from '../errors';
import { isUnavailable, type Position, type Unavailable } from '../host';
import { candidatesFor, matchNamePath, type SymbolNode, type SymbolTree, symbolTree } from '../name-paths';
import { editorShowsDisk, RACY_MS, sameFile } from './document';

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

/**
 * Symbol trees kept for reuse per host's language features, the least recently used first (a file's
 * symbols follow its text alone).
 */
const kept = new WeakMap<object, { trees: Map<string, { stat: Stats; tree: SymbolTree }>; symbols: number }>();
/** At most this many files' symbol trees are kept (a folder-wide nav/findSymbol reads up to 1,000 files), … */
export const SYMBOL_TREES_KEPT = 1000;
/** … holding at most this many symbols in all. */
export const SYMBOLS_KEPT = 200_000;

/**
 * The file's document symbols as a tree, or why there are none (no language server could answer). A
 * file on disk unchanged since its tree was made (one stat: as diskText decides, document.ts) reuses it:
 * nav/referencingSymbols and folder-wide nav/findSymbol ask the same files again and again. A file an
 * editor holds, or changed within RACY_MS of its stat, is asked every time (the editor's copy once it
 * shows the disk, unless it has unsaved changes); so is one with no symbols (a provider may answer
 * nothing before its server is ready).
 */
export async function symbolTreeOf(
  svc: CoreContext,
  path: string,
  signal: AbortSignal,
  mode: 'wait' | 'once' = 'wait',
): Promise<SymbolTree | Unavailable> {
  let cache = kept.get(svc.language);
  if (!cache) kept.set(svc.language, (cache = { trees: new Map(), symbols: 0 }));
  const { trees } = cache;
  let stat: Stats | undefined;
  if (svc.documents.text(path) === undefined) {
    try {
      stat = statSync(path);
    } catch {
      stat = undefined; // the language server says why
    }
  } else if (!svc.documents.isDirty(path)) {
    // An editor's copy answers for the file: one the disk changed behind its back is waited for (bounded),
    // so a name path names what the file holds now. Still behind, its symbols are what the editor has.
    const disk = await readFile(path, 'utf8').catch(() => undefined);
    if (disk !== undefined) await editorShowsDisk(svc, path, disk);
  }
  const known = trees.get(path);
  if (known) {
    trees.delete(path); // re-inserted below when still good: the Map's order is the order of use
    if (stat && sameFile(known.stat, stat)) {
      trees.set(path, known);
      return known.tree;
    }
    cache.symbols -= known.tree.all.length;
  }
  const raw = await svc.language.documentSymbols(path, signal, mode);
  if (isUnavailable(raw)) return raw;
  const tree = symbolTree(raw);
  // Kept only when the file did not change while it was asked, nor just before.
  const after = stat && statSync(path, { throwIfNoEntry: false });
  const settled =
    stat && after && sameFile(stat, after) && Date.now() - Math.max(stat.mtimeMs, stat.ctimeMs) >= RACY_MS;
  if (stat && settled && tree.all.length > 0 && !trees.has(path)) {
    trees.set(path, { stat, tree });
    cache.symbols += tree.all.length;
    for (const [p, e] of trees) {
      if (trees.size <= SYMBOL_TREES_KEPT && cache.symbols <= SYMBOLS_KEPT) break;
      trees.delete(p);
      cache.symbols -= e.tree.all.length;
    }
  }
  return tree;
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
