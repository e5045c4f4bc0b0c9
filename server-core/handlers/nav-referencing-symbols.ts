// /app/vscode/nav/referencingSymbols — the references to a symbol (as nav/references finds them, every
// project loaded first) grouped by the innermost document symbol containing each one, with the text of
// its line (T50), so a reader sees "called from Router/add". Only the files of the references listed
// (at most maxResults) are asked for their symbols, MAX_SYMBOL_QUERIES at a time.
import { type CoreContext, resolvePath } from '../context';
import { isUnavailable, type Range } from '../host';
import { innermostAround, type SymbolNode, type SymbolTree, wireSymbolRange } from '../name-paths';
import type { Handlers, NavReferencingSymbolsResult } from '../protocol';
import { MAX_LINE_TEXT } from '../search/text-search';
import { lineStarts } from '../symbol-text';
import { documentText, heldText, wireRange } from './document';
import { symbolTreeOf } from './locator';
import { MAX_SYMBOL_QUERIES } from './nav-find-symbol';
import { coveredReferences } from './nav-references';

type Group = NavReferencingSymbolsResult['groups'][number];

/** A line of `text` without its line break; cut at MAX_LINE_TEXT as edit/find cuts (minified code). */
function lineOf(text: string, starts: readonly number[], line: number): string {
  if (line >= starts.length) return '';
  const end = line + 1 < starts.length ? starts[line + 1]! : text.length;
  return text
    .slice(starts[line]!, Math.min(end, starts[line]! + MAX_LINE_TEXT + 2))
    .replace(/\r?\n$|\r$/, '')
    .slice(0, MAX_LINE_TEXT);
}

/** VS Code's 0-based SymbolKind of a method, a constructor and a function. */
const OVERLOADABLE = new Set([5, 8, 11]);

/**
 * The references without the names of symbols declared in the asked file: VS Code's reference provider
 * lists the target's other overload declarations as references (tsserver marks them definitions, and
 * idea-server's language server leaves them out), and without includeDeclaration a declaration is no
 * reference (T50). Only the asked file holds them, so only its symbols are asked.
 */
async function withoutDeclarations(
  svc: CoreContext,
  filePath: string,
  refs: { filePath: string; range: Range }[],
  ctx: { signal: AbortSignal },
): Promise<{ filePath: string; range: Range }[]> {
  const file = resolvePath(svc, filePath).path;
  if (!refs.some((r) => r.filePath === file)) return refs;
  const tree = await symbolTreeOf(svc, file, ctx.signal, 'once');
  if (isUnavailable(tree)) return refs;
  // By where the name starts (VS Code's selection range of an overload may run past the name).
  const key = (r: Range) => `${r.start.line}:${r.start.character}`;
  // Only what can be overloaded (a shorthand property's name is a reference and a symbol's name at once).
  const names = new Set(tree.all.filter((n) => OVERLOADABLE.has(n.kind)).map((n) => key(n.selectionRange)));
  return refs.filter((r) => r.filePath !== file || !names.has(key(r.range)));
}

export function navReferencingSymbols(svc: CoreContext): Handlers['navReferencingSymbols'] {
  return async (params, ctx) => {
    const found = await coveredReferences(svc, params, params.includeDeclaration, ctx.signal);
    const { coverage, unavailable } = found;
    if (unavailable) return { groups: [], totalCount: 0, truncated: false, coverage, unavailable };
    const refs = params.includeDeclaration
      ? found.refs
      : await withoutDeclarations(svc, params.filePath, found.refs, ctx);
    const listed = refs.slice(0, params.maxResults);
    // Each file of the listed references: its symbols and text, asked a few files at a time.
    const files = [...new Set(listed.map((r) => r.filePath))];
    const known = new Map<string, { tree: SymbolTree | undefined; text: string; starts: number[] }>();
    let next = 0;
    const worker = async () => {
      while (next < files.length) {
        const file = files[next++]!;
        ctx.signal.throwIfAborted();
        const tree = await symbolTreeOf(svc, file, ctx.signal, 'once');
        const text = heldText(svc, file) ?? (await documentText(svc, file).catch(() => ''));
        known.set(file, { tree: isUnavailable(tree) ? undefined : tree, text, starts: lineStarts(text) });
      }
    };
    await Promise.all(Array.from({ length: Math.min(MAX_SYMBOL_QUERIES, files.length) }, worker));
    // References are sorted by file and position: a group is every reference of one file in one symbol,
    // placed where its first reference is.
    const groups: Group[] = [];
    const byKey = new Map<string, Group>();
    const ids = new Map<SymbolNode, number>();
    for (const r of listed) {
      const f = known.get(r.filePath)!;
      const symbol = f.tree ? innermostAround(f.tree, r.range as Range) : undefined;
      if (symbol && !ids.has(symbol)) ids.set(symbol, ids.size);
      const key = `${r.filePath}\0${symbol ? ids.get(symbol) : ''}`;
      let g = byKey.get(key);
      if (!g) {
        g = { filePath: r.filePath, symbol: symbol ? wireSymbolRange(symbol) : null, references: [] };
        byKey.set(key, g);
        groups.push(g);
      }
      g.references.push({ ...wireRange(r.range), lineText: lineOf(f.text, f.starts, r.range.start.line) });
    }
    return { groups, totalCount: refs.length, truncated: refs.length > listed.length, coverage };
  };
}
