// nav/symbols: the provider's tree (DocumentSymbol) or flat list (SymbolInformation) becomes one list,
// parent before children, each with its parent's name. Structural types keep this vscode-free.

/** vscode.SymbolKind values in order (File = 0 … TypeParameter = 25), lower-cased as on the wire. */
const SYMBOL_KIND_NAMES = [
  'file',
  'module',
  'namespace',
  'package',
  'class',
  'method',
  'property',
  'field',
  'constructor',
  'enum',
  'interface',
  'function',
  'variable',
  'constant',
  'string',
  'number',
  'boolean',
  'array',
  'object',
  'key',
  'null',
  'enummember',
  'struct',
  'event',
  'operator',
  'typeparameter',
] as const;

interface Pos {
  line: number;
  character: number;
}
interface Rng {
  start: Pos;
  end: Pos;
}
export interface TreeSymbol {
  name: string;
  kind: number;
  range: Rng;
  selectionRange: Rng;
  children?: TreeSymbol[];
}
export interface FlatSymbol {
  name: string;
  kind: number;
  containerName?: string;
  location: { range: Rng };
}

export interface WireSymbol {
  name: string;
  kind: string;
  line: number;
  character: number;
  endLine: number;
  endCharacter: number;
  selectionLine: number;
  selectionCharacter: number;
  containerName: string | null;
}

function kindName(kind: number): string {
  return SYMBOL_KIND_NAMES[kind] ?? 'unknown';
}

export type SymbolKindName = (typeof SYMBOL_KIND_NAMES)[number];

/**
 * A kind as v0.1.8's shapes carry it (their SymbolKind enum has no "unknown"): a number outside
 * VS Code's enum, which no provider gives today, counts as "object".
 */
export function symbolKindName(kind: number): SymbolKindName {
  return SYMBOL_KIND_NAMES[kind] ?? 'object';
}

function isTree(s: TreeSymbol | FlatSymbol): s is TreeSymbol {
  return 'range' in s && 'selectionRange' in s;
}

export function flattenSymbols(symbols: readonly (TreeSymbol | FlatSymbol)[]): WireSymbol[] {
  const out: WireSymbol[] = [];
  const walk = (s: TreeSymbol | FlatSymbol, parent: string | null) => {
    if (isTree(s)) {
      out.push({
        name: s.name,
        kind: kindName(s.kind),
        line: s.range.start.line,
        character: s.range.start.character,
        endLine: s.range.end.line,
        endCharacter: s.range.end.character,
        selectionLine: s.selectionRange.start.line,
        selectionCharacter: s.selectionRange.start.character,
        containerName: parent,
      });
      for (const c of byPosition(s.children ?? [])) walk(c, s.name);
    } else {
      const r = s.location.range;
      out.push({
        name: s.name,
        kind: kindName(s.kind),
        line: r.start.line,
        character: r.start.character,
        endLine: r.end.line,
        endCharacter: r.end.character,
        selectionLine: r.start.line,
        selectionCharacter: r.start.character,
        containerName: s.containerName ? s.containerName : null,
      });
    }
  };
  for (const s of byPosition(symbols)) walk(s, null);
  return out;
}

/** Siblings in source order (providers may sort them by name). */
function byPosition<T extends TreeSymbol | FlatSymbol>(list: readonly T[]): T[] {
  const start = (s: TreeSymbol | FlatSymbol) => (isTree(s) ? s.range.start : s.location.range.start);
  return [...list].sort((a, b) => start(a).line - start(b).line || start(a).character - start(b).character);
}

/** Case-insensitive substring filter on the name (the `query` param); no query keeps everything. */
export function filterSymbols(symbols: WireSymbol[], query: string | undefined): WireSymbol[] {
  if (!query) return symbols;
  const q = query.toLowerCase();
  return symbols.filter((s) => s.name.toLowerCase().includes(q));
}

/** Innermost tree symbol whose range contains the position (used to widen a bare Location to its declaration). */
export function innermostContaining(symbols: readonly TreeSymbol[], pos: Pos): TreeSymbol | undefined {
  const contains = (r: Rng) =>
    (r.start.line < pos.line || (r.start.line === pos.line && r.start.character <= pos.character)) &&
    (r.end.line > pos.line || (r.end.line === pos.line && r.end.character >= pos.character));
  let best: TreeSymbol | undefined;
  const walk = (list: readonly TreeSymbol[]) => {
    for (const s of list)
      if (contains(s.range)) {
        best = s;
        walk(s.children ?? []);
        return;
      }
  };
  walk(symbols);
  return best;
}
