// /app/vscode/nav/callHierarchy — the function at a position (or name path) and its callers or callees
// down to `depth` levels (T51), listed depth first with a level. The tree is grown level by level, at
// most maxResults + 1 questions per level (H20); a function already on the path from the root is listed
// `recursive` and not followed. Each function's calls list each caller (or callee) once with each call
// site once (callsOnce: tsserver gives a method's calls through `this` twice). Each item carries its
// name path when its file's symbols name it.
// Served when the host's LanguageFeatures has callHierarchy.
import type { CoreContext } from '../context';
import { type CallHierarchy, type CallHierarchyItem, isUnavailable, type Range } from '../host';
import { innermostAround, namePathOf, type SymbolTree } from '../name-paths';
import type { CallItem, CallNode, Handlers } from '../protocol';
import { symbolKindName } from '../symbols';
import { wireUnavailable } from '../unavailable';
import { askAt, wireRange } from './document';
import { locate, symbolTreeOf } from './locator';
import { MAX_SYMBOL_QUERIES } from './nav-find-symbol';

interface Node {
  item: CallHierarchyItem;
  level: number;
  /** Where the calls are, and in which file. */
  sites: { filePath: string; ranges: Range[] };
  recursive: boolean;
  children: Node[];
}

type Call = { item: CallHierarchyItem; ranges: Range[] };

const keyOf = (i: CallHierarchyItem) =>
  `${i.filePath}\0${i.selectionRange.start.line}\0${i.selectionRange.start.character}`;

const rangeKey = (r: Range) => `${r.start.line}\0${r.start.character}\0${r.end.line}\0${r.end.character}`;
const rangeOrder = (a: Range, b: Range) =>
  a.start.line - b.start.line ||
  a.start.character - b.start.character ||
  a.end.line - b.end.line ||
  a.end.character - b.end.character;

/**
 * One function's calls, each caller (or callee) once with each call site once, sites in source order
 * (T51): a language server may list a function twice (two providers, a declaration reached twice) or a
 * range twice, and the same call may come back through two of its answers.
 */
export function callsOnce(calls: readonly Call[]): Call[] {
  const byItem = new Map<string, { item: CallHierarchyItem; ranges: Map<string, Range> }>();
  for (const c of calls) {
    const key = keyOf(c.item);
    let entry = byItem.get(key);
    if (!entry) byItem.set(key, (entry = { item: c.item, ranges: new Map() }));
    for (const r of c.ranges) entry.ranges.set(rangeKey(r), r);
  }
  return [...byItem.values()].map((e) => ({ item: e.item, ranges: [...e.ranges.values()].sort(rangeOrder) }));
}

export function navCallHierarchy(svc: CoreContext, calls: CallHierarchy): Handlers['navCallHierarchy'] {
  return async (params, ctx) => {
    const signal = ctx.signal;
    const { line, character } = await locate(svc, params, signal);
    const { answer } = await askAt(svc, params.filePath, line, character, (path, at) =>
      calls.prepare(path, at, signal),
    );
    if (isUnavailable(answer)) {
      svc.tools.log(`callHierarchy: ${answer.unavailable}`);
      return { item: null, calls: [], totalCount: 0, truncated: false, unavailable: wireUnavailable(answer) };
    }
    const root = answer[0];
    if (!root) return { item: null, calls: [], totalCount: 0, truncated: false };
    const incoming = params.direction === 'incoming';
    const ask = (item: CallHierarchyItem) => (incoming ? calls.incoming(item, signal) : calls.outgoing(item, signal));

    // Level by level: every node of a level asked for its calls, at most maxResults + 1 of them.
    // Each entry: a function to ask, the functions from the root down to it (the recursion check), and
    // where its calls go.
    const top: Node[] = [];
    let level: { path: Set<string>; item: CallHierarchyItem; into: Node[] }[] = [
      { path: new Set([keyOf(root)]), item: root, into: top },
    ];
    let totalCount = 0;
    let cut = false;
    for (let depth = 1; depth <= params.depth && level.length > 0; depth++) {
      const asked = level.slice(0, params.maxResults + 1);
      if (asked.length < level.length) cut = true;
      const answers = await Promise.all(asked.map((l) => ask(l.item)));
      signal.throwIfAborted();
      const following: typeof level = [];
      for (const [k, l] of asked.entries()) {
        for (const c of callsOnce(answers[k]!)) {
          totalCount++;
          const key = keyOf(c.item);
          const recursive = l.path.has(key);
          const node: Node = {
            item: c.item,
            level: depth,
            // Incoming: the calls are in the caller (this item); outgoing: in the function one level up.
            sites: { filePath: incoming ? c.item.filePath : l.item.filePath, ranges: c.ranges },
            recursive,
            children: [],
          };
          l.into.push(node);
          if (!recursive) following.push({ path: new Set([...l.path, key]), item: c.item, into: node.children });
        }
      }
      level = following;
    }

    // Depth first, at most maxResults.
    const listed: Node[] = [];
    const walk = (list: Node[]) => {
      for (const n of list) {
        if (listed.length >= params.maxResults) return;
        listed.push(n);
        walk(n.children);
      }
    };
    walk(top);

    // Name paths from each file's symbols, a few files at a time.
    const files = [...new Set([root, ...listed.map((n) => n.item)].map((i) => i.filePath))];
    const trees = new Map<string, SymbolTree>();
    let next = 0;
    const worker = async () => {
      while (next < files.length) {
        const file = files[next++]!;
        const tree = await symbolTreeOf(svc, file, signal, 'once').catch(() => undefined);
        if (tree && !isUnavailable(tree)) trees.set(file, tree);
      }
    };
    await Promise.all(Array.from({ length: Math.min(MAX_SYMBOL_QUERIES, files.length) }, worker));
    const wireItem = (i: CallHierarchyItem): CallItem => {
      const tree = trees.get(i.filePath);
      const symbol = tree && innermostAround(tree, i.selectionRange);
      return {
        name: i.name,
        kind: symbolKindName(i.kind),
        ...(i.detail ? { detail: i.detail } : {}),
        filePath: i.filePath,
        ...(symbol && symbol.name === i.name ? { namePath: namePathOf(symbol) } : {}),
        ...wireRange(i.range),
        selectionLine: i.selectionRange.start.line,
        selectionCharacter: i.selectionRange.start.character,
      };
    };
    const out: CallNode[] = listed.map((n) => ({
      item: wireItem(n.item),
      level: n.level,
      callSites: n.sites.ranges.map((r) => ({ filePath: n.sites.filePath, ...wireRange(r) })),
      ...(n.recursive ? { recursive: true } : {}),
    }));
    return { item: wireItem(root), calls: out, totalCount, truncated: cut || totalCount > out.length };
  };
}
