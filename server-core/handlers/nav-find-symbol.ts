// /app/vscode/nav/findSymbol — symbols by name path (T43) in a file, a folder or the whole workspace, with
// signatures, children and source text on request (T45), within the answer's size budget (T46).
// A file is asked for its document symbols. Over a folder or the workspace, every file of the scope
// (the search's own rules: excludes, ignore files) could hold a match, but one whose text lacks a
// segment's name cannot when that name is an identifier (a symbol's name is in its file's text): so
// the files asked are those ripgrep finds holding the last segment's name and whose text holds the
// other identifier segments too, or, for a last segment that is no identifier (a name the language
// server makes up, such as `describe("x") callback`), every file of the scope. Language servers'
// workspace-symbol indexes are not used: they leave out locals and object members. At most
// MAX_FILES_READ files are read, MAX_SYMBOL_QUERIES at a time, the rest listed in coverage as not
// searched (H20); a file's text is read only when it has a match.
import { statSync } from 'node:fs';
import { relative, sep } from 'node:path';
import { type CoreContext, resolvePath, ripgrepOf } from '../context';
import { isUnavailable } from '../host';
import { matchNamePath, type SymbolNode, type SymbolTree, wireSymbolRange } from '../name-paths';
import type { Handlers, NavFindSymbolHandlerParams, NavFindSymbolResult } from '../protocol';
import { listFiles } from '../search/file-walk';
import { searchFolders } from '../search/scope';
import { searchText } from '../search/text-search';
import { bodyStartOf, lineStarts, offsetIn, signatureAt } from '../symbol-text';
import { symbolKindName } from '../symbols';
import { wireUnavailable } from '../unavailable';
import { documentText, heldText } from './document';
import { parsedNamePath, symbolTreeOf } from './locator';

/** Most files a folder or workspace search reads (H20: the server's bound of files). */
export const MAX_FILES_READ = 1000;
/** Document-symbol questions asked at once. */
export const MAX_SYMBOL_QUERIES = 8;

type Found = NavFindSymbolResult['symbols'][number];
type Coverage = NonNullable<NavFindSymbolResult['coverage']>;

/** A name every language writes as it is named: then its file's text contains it. */
const IDENTIFIER = /^[\p{ID_Continue}$]+$/u;

/** The matches of one file, in source order, kept to the kinds asked. */
function matchesIn(
  tree: SymbolTree,
  params: NavFindSymbolHandlerParams,
  path: ReturnType<typeof parsedNamePath>,
): SymbolNode[] {
  const include = params.includeKinds ? new Set<string>(params.includeKinds) : undefined;
  const exclude = new Set<string>(params.excludeKinds ?? []);
  return matchNamePath(tree, path, params.substring).filter((n) => {
    const kind = symbolKindName(n.kind);
    return (!include || include.has(kind)) && !exclude.has(kind);
  });
}

/** A match as the answer lists it (T45): range, name path, signature; body and children as asked. */
function found(
  filePath: string,
  tree: SymbolTree,
  text: string,
  starts: readonly number[],
  n: SymbolNode,
  params: NavFindSymbolHandlerParams,
): Found {
  const at = (p: { line: number; character: number }) => offsetIn(text, starts, p.line, p.character);
  const sig = (s: SymbolNode) => signatureAt(text, at(s.range.start), at(s.range.end));
  const out: Found = { ...wireSymbolRange(n), filePath, signature: sig(n) };
  if (params.includeBody) {
    const start = bodyStartOf(text, starts, tree, n);
    out.bodyLine = start.line;
    out.bodyCharacter = start.character;
    out.body = text.slice(at(start), at(n.range.end));
  }
  if (params.depth > 0) {
    const children: NonNullable<Found['children']> = [];
    const walk = (list: readonly SymbolNode[], level: number) => {
      for (const c of list) {
        children.push({ ...wireSymbolRange(c), level, signature: sig(c) });
        if (level < params.depth) walk(c.children, level + 1);
      }
    };
    walk(n.children, 1);
    out.children = children;
  }
  return out;
}

/** Under `scope` (none: anywhere). */
const within = (scope: string | undefined) => (f: string) => !scope || f === scope || f.startsWith(scope + sep);

/** The files a folder or workspace search reads (see the header), sorted, and how many there were. */
async function filesToRead(
  svc: CoreContext,
  scope: string | undefined,
  segments: readonly string[],
  signal: AbortSignal,
): Promise<{ files: string[]; total: number }> {
  const name = segments[segments.length - 1]!;
  const others = [...new Set(segments.slice(0, -1).filter((n) => IDENTIFIER.test(n) && n !== name))];
  const root = scope && svc.folders.paths().find((r) => scope.startsWith(r + sep));
  // The folder as a glob of its own: its name's glob characters escaped (`[id]` is a folder name).
  const include = root
    ? `${relative(root, scope)
        .split(sep)
        .join('/')
        .replace(/[*?[\]{}\\!]/g, '\\$&')}/**`
    : '**/*';
  const folders = searchFolders(svc.folders, include, undefined, 'search');
  let files: string[];
  if (IDENTIFIER.test(name)) {
    const res = await searchText({
      rg: ripgrepOf(svc),
      folders,
      match: { pattern: name, isRegex: false, isCaseSensitive: true },
      dirty: svc.documents.dirty(),
      maxMatches: 1,
      signal,
    });
    files = [...res.files];
    if (others.length > 0) {
      const holds = await Promise.all(
        files.map(async (f) => {
          const text = await documentText(svc, f).catch(() => '');
          return others.every((o) => text.includes(o));
        }),
      );
      files = files.filter((_, i) => holds[i]);
    }
  } else {
    files = [];
    for (const f of folders)
      await listFiles(ripgrepOf(svc), f.root, f.selection, (rel) => void files.push(`${f.root}${sep}${rel}`), signal);
  }
  files = files.filter(within(scope)).sort();
  return { files: files.slice(0, MAX_FILES_READ), total: files.length };
}

/** T46: the first form of the answer that fits `max` characters of JSON. */
export function withinBudget(
  full: { symbols: Found[]; totalCount: number; truncated: boolean },
  counts: Map<string, number>,
  extra: { coverage?: Coverage; unavailable?: NavFindSymbolResult['unavailable'] },
  max: number,
): NavFindSymbolResult {
  const asked: NavFindSymbolResult = { ...full, form: 'symbols', ...extra };
  if (JSON.stringify(asked).length <= max) return asked;
  const signatures: NavFindSymbolResult = {
    ...asked,
    symbols: full.symbols.map(({ body: _b, bodyLine: _l, bodyCharacter: _c, children: _k, ...s }) => s),
    form: 'signatures',
  };
  if (JSON.stringify(signatures).length <= max) return signatures;
  const all = [...counts]
    .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))
    .map(([filePath, count]) => ({ filePath, count }));
  const answer: NavFindSymbolResult = {
    symbols: [],
    totalCount: full.totalCount,
    truncated: false,
    form: 'counts',
    files: all,
    ...extra,
  };
  if (JSON.stringify(answer).length <= max) return answer;
  // Cut: the files that fit, in path order, each entry's length and its comma counted.
  answer.truncated = true;
  answer.files = [];
  let size = JSON.stringify(answer).length;
  for (const f of all) {
    const more = JSON.stringify(f).length + (answer.files.length > 0 ? 1 : 0);
    if (size + more > max) break;
    answer.files.push(f);
    size += more;
  }
  return answer;
}

export function navFindSymbol(svc: CoreContext): Handlers['navFindSymbol'] {
  return async (params, ctx) => {
    const path = parsedNamePath(params.namePath);
    const scope = params.filePath === undefined ? undefined : resolvePath(svc, params.filePath).path;
    let isFile = false;
    if (scope !== undefined) {
      try {
        isFile = statSync(scope).isFile();
      } catch (e) {
        throw new Error(`cannot open ${scope}: ${(e as NodeJS.ErrnoException).code ?? (e as Error).message}`);
      }
    }
    const symbols: Found[] = [];
    const counts = new Map<string, number>();
    let totalCount = 0;
    const take = (file: string, tree: SymbolTree, text: string, matches: readonly SymbolNode[]) => {
      if (matches.length === 0) return;
      counts.set(file, matches.length);
      totalCount += matches.length;
      const starts = lineStarts(text);
      for (const n of matches)
        if (symbols.length < params.maxResults) symbols.push(found(file, tree, text, starts, n, params));
    };
    const textOf = async (file: string) => heldText(svc, file) ?? documentText(svc, file);

    if (isFile) {
      const tree = await symbolTreeOf(svc, scope!, ctx.signal);
      if (isUnavailable(tree)) {
        svc.tools.log(`findSymbol: ${tree.unavailable}`);
        return { symbols: [], totalCount: 0, truncated: false, form: 'symbols', unavailable: wireUnavailable(tree) };
      }
      take(scope!, tree, await textOf(scope!), matchesIn(tree, params, path));
      return withinBudget(
        { symbols, totalCount, truncated: totalCount > symbols.length },
        counts,
        {},
        params.maxAnswerChars,
      );
    }

    const { files, total } = await filesToRead(
      svc,
      scope,
      path.segments.map((x) => x.name),
      ctx.signal,
    );
    // MAX_SYMBOL_QUERIES files at a time; each file's matches kept in its slot, so the order is the files'.
    const perFile: { tree: SymbolTree; matches: SymbolNode[] }[] = new Array(files.length);
    let next = 0;
    const worker = async () => {
      while (next < files.length) {
        const i = next++;
        ctx.signal.throwIfAborted();
        const tree = await symbolTreeOf(svc, files[i]!, ctx.signal, 'once');
        if (isUnavailable(tree)) continue; // no language server for it
        const matches = matchesIn(tree, params, path);
        if (matches.length > 0) perFile[i] = { tree, matches };
      }
    };
    await Promise.all(Array.from({ length: Math.min(MAX_SYMBOL_QUERIES, files.length) }, worker));
    for (const [i, f] of perFile.entries()) if (f) take(files[i]!, f.tree, await textOf(files[i]!), f.matches);
    const where = scope ?? svc.folders.paths();
    const entries = (Array.isArray(where) ? where : [where]).map((p) => ({ kind: 'folder' as const, path: p }));
    const coverage: Coverage =
      total > files.length
        ? {
            complete: false,
            searched: [],
            notSearched: entries.map((e) => ({
              ...e,
              reason: `${total} files could hold it; the first ${MAX_FILES_READ} (in path order) were read`,
            })),
          }
        : { complete: true, searched: entries, notSearched: [] };
    return withinBudget(
      { symbols, totalCount, truncated: totalCount > symbols.length },
      counts,
      { coverage },
      params.maxAnswerChars,
    );
  };
}
