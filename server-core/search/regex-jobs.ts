// What the regex workers do, as plain functions of plain data (testable without a worker): scan
// candidate lines, scan whole texts, replace in a text. The pool (regex-pool.ts) ships jobs to
// regex-worker.ts, which calls runJob; nothing here runs on the extension host's main thread.
import { compileRegExp, forEachLine, type MatchOptions, replaceInLine, replaceLines, scanLine } from './regex-core';

export type RegexJob =
  /** Candidate lines (from rg): match counts per line, columns of the first `keep` matches. */
  | { op: 'lines'; match: MatchOptions; lines: string[]; keep: number }
  /** Whole texts (unsaved documents, files rg could not search): per text, the matching lines. */
  | { op: 'texts'; match: MatchOptions; texts: (string | Uint8Array)[]; keep: number; maxLineText: number }
  /** Replacement over one text, line by line, endings kept. */
  | { op: 'replace'; match: MatchOptions; replacement: string; text: string };

export interface LinesResult {
  /** Matches per input line. */
  counts: number[];
  /** [lineIndex, column] pairs of the first `keep` matches, flattened. */
  hits: number[];
}

interface TextHitLine {
  line: number;
  cols: number[];
  text: string;
}
export interface TextsResult {
  texts: { count: number; lines: TextHitLine[] }[];
}
export interface ReplaceResult {
  text: string;
  count: number;
}

export type RegexJobResult = LinesResult | TextsResult | ReplaceResult;

let cached: { key: string; re: RegExp } | undefined;

function regexFor(m: MatchOptions): RegExp {
  const key = `${m.isRegex ? 'r' : 'l'}${m.isCaseSensitive ? 'c' : 'i'}${m.pattern}`;
  if (cached?.key !== key) cached = { key, re: compileRegExp(m) };
  return cached.re;
}

// Keeps the BOM character, as Buffer#toString does (rg and VS Code columns count it as text).
const utf8 = new TextDecoder('utf-8', { ignoreBOM: true });

export function runJob(job: RegexJob): RegexJobResult {
  const re = regexFor(job.match);
  if (job.op === 'lines') {
    const counts: number[] = new Array(job.lines.length);
    const hits: number[] = [];
    let keep = job.keep;
    for (let i = 0; i < job.lines.length; i++) {
      const r = scanLine(re, job.lines[i]!, keep);
      counts[i] = r.count;
      for (const c of r.cols) hits.push(i, c);
      keep -= r.cols.length;
    }
    return { counts, hits };
  }
  if (job.op === 'texts') {
    let keep = job.keep;
    return {
      texts: job.texts.map((t) => {
        const text = typeof t === 'string' ? t : utf8.decode(t);
        const lines: TextHitLine[] = [];
        let count = 0;
        forEachLine(text, (line, _eol, index) => {
          const r = scanLine(re, line, keep);
          if (r.count === 0) return;
          count += r.count;
          keep -= r.cols.length;
          lines.push({
            line: index,
            cols: r.cols,
            text: line.length > job.maxLineText ? line.slice(0, job.maxLineText) : line,
          });
        });
        return { count, lines };
      }),
    };
  }
  return replaceLines(job.text, (line) => replaceInLine(re, line, job.replacement, job.match.isRegex));
}
