// edit/find's engine: ripgrep narrows the workspace down to candidate lines fast; the JS regex decides
// (so the semantics are exactly JavaScript's); documents with unsaved changes are searched in memory
// instead of their stale disk copy. No vscode import: the handler passes folders, settings and dirty texts.
import { readFile } from 'node:fs/promises';
import { join, relative, sep } from 'node:path';
import { buildRegExp, matchColumns, relaxForRipgrep, splitLines, type MatchOptions } from './jsRegex';
import { rgListFiles, rgSearchLines, RipgrepPatternError, type FileSelection } from './ripgrep';

export interface SearchFolder { root: string; selection: FileSelection }
export interface DirtyDoc { path: string; text: string }
export interface TextMatch { filePath: string; line: number; character: number; lineText: string }

export interface SearchOutcome {
  /** At most maxMatches, sorted by file, line, column. */
  matches: TextMatch[];
  /** Every match in the workspace, also those beyond maxMatches. */
  totalCount: number;
  /** Absolute paths of all files with at least one match. */
  files: Set<string>;
  /** True when rg could not compile the pattern and every file was scanned in JS. */
  usedFallback: boolean;
}

/** Longest lineText returned; longer lines (minified code) are cut, the columns stay exact. */
export const MAX_LINE_TEXT = 2000;

export interface SearchRequest {
  rg: string;
  folders: SearchFolder[];
  match: MatchOptions;
  dirty: DirtyDoc[];
  maxMatches: number;
  signal?: AbortSignal;
}

export async function searchText(req: SearchRequest): Promise<SearchOutcome> {
  const re = buildRegExp(req.match);
  const out: SearchOutcome = { matches: [], totalCount: 0, files: new Set(), usedFallback: false };
  const record = (filePath: string, line: number, text: string) => {
    const cols = matchColumns(re, text);
    if (cols.length === 0) return;
    out.files.add(filePath);
    for (const character of cols) {
      out.totalCount++;
      if (out.matches.length < req.maxMatches) out.matches.push({ filePath, line, character, lineText: text.length > MAX_LINE_TEXT ? text.slice(0, MAX_LINE_TEXT) : text });
    }
  };
  const rgQuery = req.match.isRegex
    ? { regex: relaxForRipgrep(req.match.pattern), literal: '', caseSensitive: req.match.isCaseSensitive }
    : { regex: null, literal: req.match.pattern, caseSensitive: req.match.isCaseSensitive };

  await Promise.all(req.folders.map(async (folder) => {
    const dirtyHere = req.dirty.filter((d) => isUnder(d.path, folder.root));
    const dirtyPaths = new Set(dirtyHere.map((d) => d.path));
    try {
      await rgSearchLines(req.rg, folder.root, rgQuery, folder.selection, (hit) => {
        const abs = join(folder.root, hit.relPath);
        if (!dirtyPaths.has(abs)) record(abs, hit.line, hit.text);
      }, req.signal);
    } catch (e) {
      if (!(e instanceof RipgrepPatternError)) throw e;
      // A JS-only construct rg cannot compile: same file selection, matching done entirely in JS.
      out.usedFallback = true;
      const files: string[] = [];
      await rgListFiles(req.rg, folder.root, folder.selection, (rel) => { files.push(rel); }, req.signal);
      for (const rel of files) {
        const abs = join(folder.root, rel);
        if (dirtyPaths.has(abs)) continue;
        req.signal?.throwIfAborted();
        const buf = await readFile(abs).catch(() => null);
        if (!buf || buf.subarray(0, 8192).includes(0)) continue; // unreadable or binary, as rg skips it
        splitLines(buf.toString('utf8')).forEach((text, i) => record(abs, i, text));
      }
    }
    if (dirtyHere.length > 0) {
      // An unsaved document counts only if rg would have searched its file (globs, ignore files, excludes).
      const eligible = new Set<string>();
      await rgListFiles(req.rg, folder.root, folder.selection, (rel) => { eligible.add(join(folder.root, rel)); }, req.signal);
      for (const d of dirtyHere) if (eligible.has(d.path)) splitLines(d.text).forEach((text, i) => record(d.path, i, text));
    }
  }));

  out.matches.sort((a, b) => (a.filePath < b.filePath ? -1 : a.filePath > b.filePath ? 1 : a.line - b.line || a.character - b.character));
  return out;
}

function isUnder(p: string, root: string): boolean {
  const rel = relative(root, p);
  return rel !== '' && !rel.startsWith('..' + sep) && rel !== '..' && !rel.startsWith(sep);
}
