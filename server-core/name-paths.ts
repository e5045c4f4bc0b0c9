// Name paths over a file's document symbols (clauses T43, T44): the provider's tree (or flat list, nested
// by its containerNames) as one tree in source order, matching a parsed name path against it, each
// symbol's own name path (absolute, escaped, `[i]` where it has same-named siblings), and the candidates
// an unknown or ambiguous name path lists. The grammar itself is runtime/name-path.ts's.
// Matching walks each symbol's chain of parents at most as far as the name path has segments: time
// linear in its length times the file's symbols (H20), no backtracking.
import { escapeName, type NamePath } from '../runtime/name-path';
import type { Range } from './host';
import type { FlatSymbol, TreeSymbol } from './symbols';
import { type SymbolKindName, symbolKindName } from './symbols';

/** One symbol of a file, with its place in the tree. */
export interface SymbolNode {
  name: string;
  /** VS Code's 0-based kind. */
  kind: number;
  range: Range;
  /** Where its name is (a flat list's symbols have only their range: its start). */
  selectionRange: Range;
  parent: SymbolNode | undefined;
  children: SymbolNode[];
  /** Its place among its parent's children of the same name (source order), and how many there are. */
  nth: number;
  sameNamed: number;
  /** 0 for a top-level symbol. */
  depth: number;
}

/** A file's symbols as a tree: its top-level symbols, and every symbol in source order (parents first). */
export interface SymbolTree {
  roots: SymbolNode[];
  all: SymbolNode[];
}

/** The wire's SymbolRange: a symbol with its own name path. */
export interface WireSymbolRange {
  namePath: string;
  name: string;
  kind: SymbolKindName;
  line: number;
  character: number;
  endLine: number;
  endCharacter: number;
  selectionLine: number;
  selectionCharacter: number;
}

/** The wire's SymbolCandidate. */
export interface WireCandidate {
  namePath: string;
  kind: SymbolKindName;
  line: number;
}

/** At most this many candidates in an error (the ErrorBody schema's maxItems). */
export const MAX_CANDIDATES = 20;

const before = (a: Range, b: Range) =>
  a.start.line - b.start.line || a.start.character - b.start.character || b.end.line - a.end.line;

function isTree(s: TreeSymbol | FlatSymbol): s is TreeSymbol {
  return 'range' in s && 'selectionRange' in s;
}

function contains(outer: Range, inner: Range): boolean {
  const le = (a: Range['start'], b: Range['start']) =>
    a.line < b.line || (a.line === b.line && a.character <= b.character);
  return le(outer.start, inner.start) && le(inner.end, outer.end);
}

/** Numbers each node's same-named siblings in source order. */
function numberSiblings(siblings: SymbolNode[]): void {
  const byName = new Map<string, SymbolNode[]>();
  for (const s of siblings) {
    const list = byName.get(s.name);
    if (list) list.push(s);
    else byName.set(s.name, [s]);
  }
  for (const list of byName.values())
    list.forEach((s, i) => {
      s.nth = i;
      s.sameNamed = list.length;
    });
}

/**
 * The provider's symbols (tree or flat) as one tree, siblings in source order. A flat list's symbol goes
 * under the innermost enclosing symbol named its containerName, else the last one so named before it;
 * without a containerName it is top-level. Built without recursion (a provider's tree may be deep).
 */
export function symbolTree(symbols: readonly (TreeSymbol | FlatSymbol)[]): SymbolTree {
  const roots: SymbolNode[] = [];
  const node = (name: string, kind: number, range: Range, selectionRange: Range, parent?: SymbolNode): SymbolNode => ({
    name,
    kind,
    range,
    selectionRange,
    parent,
    children: [],
    nth: 0,
    sameNamed: 1,
    depth: parent ? parent.depth + 1 : 0,
  });
  const trees = symbols.filter(isTree);
  const flats = symbols.filter((s): s is FlatSymbol => !isTree(s));
  // Trees, through an explicit stack.
  const pending: { s: TreeSymbol; parent: SymbolNode | undefined }[] = trees.map((s) => ({ s, parent: undefined }));
  while (pending.length > 0) {
    const { s, parent } = pending.pop()!;
    const n = node(s.name, s.kind, s.range, s.selectionRange, parent);
    (parent ? parent.children : roots).push(n);
    for (const c of s.children ?? []) pending.push({ s: c, parent: n });
  }
  // Flat lists: nested by containerName.
  const sorted = [...flats].sort((a, b) => before(a.location.range, b.location.range));
  const open: SymbolNode[] = [];
  const lastByName = new Map<string, SymbolNode>();
  for (const s of sorted) {
    const range = s.location.range;
    while (open.length > 0 && !contains(open[open.length - 1]!.range, range)) open.pop();
    let parent: SymbolNode | undefined;
    if (s.containerName) {
      for (let k = open.length - 1; k >= 0 && !parent; k--) if (open[k]!.name === s.containerName) parent = open[k];
      parent ??= lastByName.get(s.containerName);
    }
    const selection = { start: range.start, end: range.start };
    const n = node(s.name, s.kind, range, selection, parent);
    (parent ? parent.children : roots).push(n);
    open.push(n);
    lastByName.set(s.name, n);
  }
  // Source order everywhere, then the same-name numbering and the depth-first list.
  const all: SymbolNode[] = [];
  const order = (list: SymbolNode[]) => list.sort((a, b) => before(a.range, b.range));
  order(roots);
  numberSiblings(roots);
  const walk: SymbolNode[] = [...roots].reverse();
  while (walk.length > 0) {
    const n = walk.pop()!;
    all.push(n);
    order(n.children);
    numberSiblings(n.children);
    for (let k = n.children.length - 1; k >= 0; k--) walk.push(n.children[k]!);
  }
  return { roots, all };
}

/** A symbol's own name path: absolute, names escaped, `[i]` on each segment with same-named siblings. */
export function namePathOf(n: SymbolNode): string {
  const parts: string[] = [];
  for (let p: SymbolNode | undefined = n; p; p = p.parent)
    parts.push(p.sameNamed > 1 ? `${escapeName(p.name)}[${p.nth}]` : escapeName(p.name));
  return `/${parts.reverse().join('/')}`;
}

/**
 * The symbols `path` matches (T43), in source order: each whose chain of parents ends with the
 * segments (from the top of the file when absolute); with `substring`, the last segment's name need
 * only be contained in the symbol's (case-sensitive). An index keeps the symbol only when it is that
 * one of its same-named siblings.
 */
export function matchNamePath(tree: SymbolTree, path: NamePath, substring = false): SymbolNode[] {
  const segs = path.segments;
  const last = segs.length - 1;
  const fits = (n: SymbolNode, k: number) => {
    const seg = segs[k]!;
    const named = k === last && substring ? n.name.includes(seg.name) : n.name === seg.name;
    return named && (seg.index === undefined || seg.index === n.nth);
  };
  return tree.all.filter((n) => {
    let p: SymbolNode | undefined = n;
    for (let k = last; k >= 0; k--) {
      if (!p || !fits(p, k)) return false;
      if (k > 0) p = p.parent;
    }
    return !path.absolute || p?.parent === undefined;
  });
}

export function wireSymbolRange(n: SymbolNode): WireSymbolRange {
  return {
    namePath: namePathOf(n),
    name: n.name,
    kind: symbolKindName(n.kind),
    line: n.range.start.line,
    character: n.range.start.character,
    endLine: n.range.end.line,
    endCharacter: n.range.end.character,
    selectionLine: n.selectionRange.start.line,
    selectionCharacter: n.selectionRange.start.character,
  };
}

/**
 * What an unknown or ambiguous name path could have meant (T44), at most MAX_CANDIDATES in source
 * order: the matches when there are several; for none, the symbols named as its last segment, else
 * those whose name contains it case-insensitively, else the file's top-level symbols.
 */
export function candidatesFor(tree: SymbolTree, path: NamePath, matches: readonly SymbolNode[]): WireCandidate[] {
  let pick: readonly SymbolNode[] = matches;
  if (matches.length === 0) {
    const name = path.segments[path.segments.length - 1]!.name;
    const lower = name.toLowerCase();
    pick = tree.all.filter((n) => n.name === name);
    if (pick.length === 0) pick = tree.all.filter((n) => n.name.toLowerCase().includes(lower));
    if (pick.length === 0) pick = tree.roots;
  }
  return pick.slice(0, MAX_CANDIDATES).map((n) => ({
    namePath: namePathOf(n),
    kind: symbolKindName(n.kind),
    line: n.selectionRange.start.line,
  }));
}

/** The innermost symbol whose range contains the range `r` (T50's containing symbol), or undefined. */
export function innermostAround(tree: SymbolTree, r: Range): SymbolNode | undefined {
  let best: SymbolNode | undefined;
  let level: readonly SymbolNode[] = tree.roots;
  for (;;) {
    const hit = level.find((n) => contains(n.range, r));
    if (!hit) return best;
    best = hit;
    level = hit.children;
  }
}
