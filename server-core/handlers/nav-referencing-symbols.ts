// /app/vscode/nav/referencingSymbols — the references to a symbol (as nav/references finds them, every
// project loaded first) grouped by the innermost document symbol containing each one, with the text of
// its line (T50), so a reader sees "called from Router/add". Only the files of the references listed
// (at most maxResults) are asked for their symbols, MAX_SYMBOL_QUERIES at a time.
import type { CoreContext } from '../context';
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

export function navReferencingSymbols(svc: CoreContext): Handlers['navReferencingSymbols'] {
  return async (params, ctx) => {
    const { refs, coverage, unavailable } = await coveredReferences(svc, params, params.includeDeclaration, ctx.signal);
    if (unavailable) return { groups: [], totalCount: 0, truncated: false, coverage, unavailable };
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
