// edit/find's engine: ripgrep narrows the workspace down to candidate lines fast (without rg, every
// selected file is read: file-walk.ts); the JS regex decides
// (so the semantics are exactly JavaScript's); documents with unsaved changes are searched in memory
// instead of their stale disk copy. No vscode import: the handler passes folders, settings and dirty texts.
// Where the JS matching runs: literal patterns on the main thread (linear, see literal.ts); regular
// expressions in the regex workers under one time budget per request (regex-pool.ts). A file that could
// not be searched (rg's messages, an overlong line, an unreadable file) fails the search, naming it.
import { readFile, stat } from 'node:fs/promises';
import { join, relative, sep } from 'node:path';
import { inheritClient } from '../limits/client-context';
import { listFiles } from './file-walk';
import { buildRegExp, type MatchOptions } from './js-regex';
import { type LiteralMatcher, literalMatcher } from './literal';
import { forEachLine } from './regex-core';
import type { LinesResult, TextsResult } from './regex-jobs';
import { RegexBudget, regexPool } from './regex-pool';
import { type FileProblem, type FileSelection, type FlowControl, RipgrepPatternError, rgSearchLines } from './ripgrep';

export interface SearchFolder {
  root: string;
  selection: FileSelection;
}
/** An unsaved document; `text` may be a function so it is read only when the search gets to it. */
interface DirtyDoc {
  path: string;
  text: string | (() => string);
}
interface TextMatch {
  filePath: string;
  line: number;
  character: number;
  lineText: string;
}

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
/** Largest file the JS fallback reads (whole files go to a regex worker). */
const MAX_FALLBACK_FILE_BYTES = 64 * 1024 * 1024;

export interface SearchRequest {
  /** The ripgrep binary; null: no rg, every selected file is read and matched in JavaScript (same answers). */
  rg: string | null;
  folders: SearchFolder[];
  match: MatchOptions;
  dirty: DirtyDoc[];
  maxMatches: number;
  signal?: AbortSignal;
}

/** Files that could not be searched: the answer would have been incomplete, so there is none. */
export class SearchIncompleteError extends Error {
  constructor(readonly problems: { filePath: string; message: string }[]) {
    const shown = problems
      .slice(0, 5)
      .map((p) => `${p.filePath} (${p.message})`)
      .join('; ');
    const more = problems.length > 5 ? `; and ${problems.length - 5} more` : '';
    super(`${problems.length} file(s) could not be searched, so matches could be missing: ${shown}${more}`);
  }
}

export async function searchText(req: SearchRequest): Promise<SearchOutcome> {
  buildRegExp(req.match); // INVALID_REQUEST for a malformed pattern, before any work
  const out: SearchOutcome = { matches: [], totalCount: 0, files: new Set(), usedFallback: false };
  const problems: { filePath: string; message: string }[] = [];
  const noteProblems = (root: string, ps: FileProblem[]) => {
    for (const p of ps) problems.push({ filePath: join(root, p.relPath), message: p.message });
  };
  // One controller for the whole request: the client going away, or a failed regex job, stops every rg.
  const ctl = new AbortController();
  inheritClient(ctl.signal, req.signal); // its rg and regex jobs are still the requesting client's
  const onAbort = () => ctl.abort(req.signal?.reason);
  if (req.signal?.aborted) ctl.abort(req.signal.reason);
  req.signal?.addEventListener('abort', onAbort, { once: true });
  const sink = req.match.isRegex ? new RegexSink(req, out, ctl) : new LiteralSink(req, out);
  const rgQuery = req.match.isRegex
    ? { regex: req.match.pattern, literal: '', caseSensitive: req.match.isCaseSensitive }
    : { regex: null, literal: req.match.pattern, caseSensitive: req.match.isCaseSensitive };

  try {
    await Promise.all(
      req.folders.map(async (folder) => {
        const dirtyHere = req.dirty.filter((d) => isUnder(d.path, folder.root));
        const dirtyPaths = new Set(dirtyHere.map((d) => d.path));
        // Every selected file read whole and matched in JS: without rg, or when rg cannot compile the pattern.
        const scanWholeFiles = async () => {
          const files: string[] = [];
          noteProblems(
            folder.root,
            await listFiles(
              req.rg,
              folder.root,
              folder.selection,
              (rel) => {
                files.push(rel);
              },
              ctl.signal,
            ),
          );
          for (const rel of files) {
            const abs = join(folder.root, rel);
            if (dirtyPaths.has(abs)) continue;
            ctl.signal.throwIfAborted();
            await sink.room();
            const buf = await readSmallFile(abs, problems);
            if (!buf || buf.subarray(0, 8192).includes(0)) continue; // gone, too large (noted) or binary, as rg skips it
            sink.addText(abs, buf);
          }
        };
        if (req.rg === null) await scanWholeFiles();
        else {
          try {
            noteProblems(
              folder.root,
              await rgSearchLines(
                req.rg,
                folder.root,
                rgQuery,
                folder.selection,
                (hit) => {
                  const abs = join(folder.root, hit.relPath);
                  if (!dirtyPaths.has(abs)) sink.addLine(abs, hit.line, hit.text);
                },
                ctl.signal,
                (flow) => sink.throttle(flow),
              ),
            );
          } catch (e) {
            if (!(e instanceof RipgrepPatternError)) throw e;
            // A JS-only construct rg cannot compile: same file selection, matching done entirely in JS.
            out.usedFallback = true;
            await scanWholeFiles();
          }
        }
        if (dirtyHere.length > 0) {
          // An unsaved document counts only if rg would have searched its file (globs, ignore files, excludes).
          const eligible = new Set<string>();
          noteProblems(
            folder.root,
            await listFiles(
              req.rg,
              folder.root,
              folder.selection,
              (rel) => {
                eligible.add(join(folder.root, rel));
              },
              ctl.signal,
            ),
          );
          for (const d of dirtyHere) {
            if (!eligible.has(d.path)) continue;
            await sink.room();
            sink.addText(d.path, typeof d.text === 'function' ? d.text() : d.text);
          }
        }
      }),
    );
    await sink.finish();
  } catch (e) {
    ctl.abort(e);
    await sink.finish().catch(() => undefined);
    throw sink.failure ?? e;
  } finally {
    req.signal?.removeEventListener('abort', onAbort);
  }
  if (problems.length > 0) throw new SearchIncompleteError(problems);
  out.matches.sort((a, b) =>
    a.filePath < b.filePath ? -1 : a.filePath > b.filePath ? 1 : a.line - b.line || a.character - b.character,
  );
  return out;
}

/** Reads a file for the JS fallback: undefined when it is gone; too large or unreadable is a problem. */
async function readSmallFile(
  path: string,
  problems: { filePath: string; message: string }[],
): Promise<Buffer | undefined> {
  try {
    const st = await stat(path);
    if (st.size > MAX_FALLBACK_FILE_BYTES) {
      problems.push({
        filePath: path,
        message: `${st.size} bytes, over the ${MAX_FALLBACK_FILE_BYTES} bytes the JavaScript regex fallback reads`,
      });
      return undefined;
    }
    return await readFile(path);
  } catch (e) {
    const err = e as NodeJS.ErrnoException;
    if (err.code !== 'ENOENT') problems.push({ filePath: path, message: err.message });
    return undefined;
  }
}

/** Where candidate lines and whole texts go to be matched. */
interface MatchSink {
  addLine(filePath: string, line: number, text: string): void;
  addText(filePath: string, text: string | Buffer): void;
  /** Resolves when more input may be added (the regex workers are not too far behind). */
  room(): Promise<void>;
  /** Lets the sink pause an rg's output while it is behind. */
  throttle(flow: FlowControl): void;
  /** All input matched; rejects with the first failure. */
  finish(): Promise<void>;
  readonly failure: unknown;
}

/** Adds `count` matches of a file to the totals. */
function tally(out: SearchOutcome, filePath: string, count: number): void {
  if (count === 0) return;
  out.files.add(filePath);
  out.totalCount += count;
}

/** Keeps the matches at `cols` of one line, up to the cap (already counted by tally). */
function keepMatches(
  out: SearchOutcome,
  max: number,
  filePath: string,
  line: number,
  text: string,
  cols: number[],
): void {
  for (const character of cols) {
    if (out.matches.length >= max) return;
    out.matches.push({
      filePath,
      line,
      character,
      lineText: text.length > MAX_LINE_TEXT ? text.slice(0, MAX_LINE_TEXT) : text,
    });
  }
}

/** Literal patterns: matched right here, linear in the input (literal.ts). */
class LiteralSink implements MatchSink {
  readonly failure = undefined;
  private readonly lm: LiteralMatcher;
  constructor(
    private readonly req: SearchRequest,
    private readonly out: SearchOutcome,
  ) {
    this.lm = literalMatcher(req.match);
  }
  addLine(filePath: string, line: number, text: string): void {
    const r = this.lm.scan(text, this.req.maxMatches - this.out.matches.length);
    tally(this.out, filePath, r.count);
    keepMatches(this.out, this.req.maxMatches, filePath, line, text, r.cols);
  }
  addText(filePath: string, text: string | Buffer): void {
    forEachLine(typeof text === 'string' ? text : text.toString('utf8'), (l, _eol, i) => this.addLine(filePath, i, l));
  }
  room(): Promise<void> {
    return Promise.resolve();
  }
  throttle(): void {
    /* matching keeps up with rg */
  }
  finish(): Promise<void> {
    return Promise.resolve();
  }
}

/** Jobs in flight per request before rg's output is paused. */
const MAX_PENDING_JOBS = 4;
const BATCH_CHARS = 1 << 20;
const BATCH_LINES = 4000;
const BATCH_TEXTS = 64;

/** Regular expressions: batched into regex-worker jobs under one budget for the request. */
class RegexSink implements MatchSink {
  failure: unknown;
  private readonly budget = new RegexBudget();
  private lines: { filePath: string; line: number; text: string }[] = [];
  private lineChars = 0;
  private texts: { filePath: string; text: string | Buffer }[] = [];
  private textChars = 0;
  private readonly pending = new Set<Promise<void>>();
  private readonly flows = new Set<FlowControl>();
  private waiters: (() => void)[] = [];

  constructor(
    private readonly req: SearchRequest,
    private readonly out: SearchOutcome,
    private readonly ctl: AbortController,
  ) {}

  addLine(filePath: string, line: number, text: string): void {
    if (this.failure) return;
    this.lines.push({ filePath, line, text });
    this.lineChars += text.length;
    if (this.lines.length >= BATCH_LINES || this.lineChars >= BATCH_CHARS) this.sendLines();
  }

  addText(filePath: string, text: string | Buffer): void {
    if (this.failure) return;
    this.texts.push({ filePath, text });
    this.textChars += text.length;
    if (this.texts.length >= BATCH_TEXTS || this.textChars >= BATCH_CHARS) this.sendTexts();
  }

  room(): Promise<void> {
    if (this.pending.size < MAX_PENDING_JOBS) return Promise.resolve();
    return new Promise((r) => this.waiters.push(r));
  }

  throttle(flow: FlowControl): void {
    this.flows.add(flow);
  }

  async finish(): Promise<void> {
    if (!this.ctl.signal.aborted) {
      this.sendLines();
      this.sendTexts();
    }
    while (this.pending.size > 0) await Promise.allSettled([...this.pending]);
    if (this.failure) throw this.failure;
  }

  private keep(): number {
    return Math.max(0, this.req.maxMatches - this.out.matches.length);
  }

  private sendLines(): void {
    if (this.lines.length === 0) return;
    const batch = this.lines;
    this.lines = [];
    this.lineChars = 0;
    this.track(
      regexPool()
        .run<LinesResult>(
          { op: 'lines', match: this.req.match, lines: batch.map((b) => b.text), keep: this.keep() },
          this.budget,
          this.ctl.signal,
        )
        .then((r) => {
          let h = 0;
          for (let i = 0; i < batch.length; i++) {
            const cols: number[] = [];
            while (h < r.hits.length && r.hits[h] === i) {
              cols.push(r.hits[h + 1]!);
              h += 2;
            }
            const b = batch[i]!;
            tally(this.out, b.filePath, r.counts[i] ?? 0);
            keepMatches(this.out, this.req.maxMatches, b.filePath, b.line, b.text, cols);
          }
        }),
    );
  }

  private sendTexts(): void {
    if (this.texts.length === 0) return;
    const batch = this.texts;
    this.texts = [];
    this.textChars = 0;
    // File bytes move to the worker without a copy when the Buffer owns its memory.
    const transfer: ArrayBuffer[] = [];
    const payload = batch.map((b) => {
      if (typeof b.text === 'string') return b.text;
      const u8 = b.text;
      if (u8.byteOffset === 0 && u8.byteLength === u8.buffer.byteLength && u8.buffer instanceof ArrayBuffer) {
        transfer.push(u8.buffer);
        return new Uint8Array(u8.buffer);
      }
      return new Uint8Array(u8);
    });
    this.track(
      regexPool()
        .run<TextsResult>(
          { op: 'texts', match: this.req.match, texts: payload, keep: this.keep(), maxLineText: MAX_LINE_TEXT },
          this.budget,
          this.ctl.signal,
          transfer,
        )
        .then((r) => {
          r.texts.forEach((t, i) => {
            const filePath = batch[i]!.filePath;
            tally(this.out, filePath, t.count);
            for (const l of t.lines) keepMatches(this.out, this.req.maxMatches, filePath, l.line, l.text, l.cols);
          });
        }),
    );
  }

  private track(job: Promise<void>): void {
    const p = job
      .catch((e: unknown) => {
        if (this.failure === undefined) {
          this.failure = e;
          this.ctl.abort(e);
        }
      })
      .finally(() => {
        this.pending.delete(p);
        if (this.pending.size < MAX_PENDING_JOBS) {
          for (const w of this.waiters.splice(0)) w();
          if (this.pending.size <= MAX_PENDING_JOBS / 2) for (const f of this.flows) f.resume();
        }
      });
    this.pending.add(p);
    if (this.pending.size >= MAX_PENDING_JOBS) for (const f of this.flows) f.pause();
  }
}

function isUnder(p: string, root: string): boolean {
  const rel = relative(root, p);
  return rel !== '' && !rel.startsWith(`..${sep}`) && rel !== '..' && !rel.startsWith(sep);
}
