// Shared by the language handlers: a file's text as the server sees it (the editor's copy when it has
// one open, else the disk), positions checked against it, and the text of a range.
import { type Stats, statSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import { type CoreContext, resolvePath } from '../context';
import { invalidRequest } from '../errors';
import type { Position, Range } from '../host';

const LINE_BREAK = /\r\n|\r|\n/;

/** The file's text: the open editor copy (saved or not), else the disk's. HANDLER_ERROR when unreadable. */
export async function documentText(core: CoreContext, path: string): Promise<string> {
  const open = core.documents.text(path);
  if (open !== undefined) return open;
  try {
    return await readFile(path, 'utf8');
  } catch (e) {
    throw new Error(`cannot open ${path}: ${(e as NodeJS.ErrnoException).code ?? (e as Error).message}`);
  }
}

/** Disk texts kept for reuse (diskText), the least recently used first. */
const diskTexts = new Map<string, { text: string; stat: Stats }>();
let diskChars = 0;
/** At most this many files' texts are kept for reuse, this many characters in all, a quarter of it each. */
export const DISK_TEXTS_MAX = 64;
export const DISK_TEXTS_MAX_CHARS = 8 * 1024 * 1024;
/**
 * A file changed less than this long before its stat is not reused: a timestamp is coarser than the
 * clock (a kernel tick, a second or two on some file systems), so a second write of the same length
 * that soon could leave the stat as it was (git's "racily clean" entries).
 */
export const RACY_MS = 2000;

/** The same file, unchanged: mtime, ctime, size, inode and device all as they were. */
export function sameFile(a: Stats, b: Stats): boolean {
  return a.mtimeMs === b.mtimeMs && a.ctimeMs === b.ctimeMs && a.size === b.size && a.ino === b.ino && a.dev === b.dev;
}

function forgetDiskText(path: string): void {
  const known = diskTexts.get(path);
  if (!known) return;
  diskTexts.delete(path);
  diskChars -= known.text.length;
}

/**
 * documentText for a file read again and again (the target of a definition asked from many places): the
 * text read last time while one synchronous stat finds the file as it was then (mtime, ctime, size,
 * inode, device), else read as documentText does (four file-system round trips through the thread
 * pool, each a wake-up of the event loop). A file changed within RACY_MS of its stat is read every time.
 */
export async function diskText(core: CoreContext, path: string): Promise<string> {
  const open = core.documents.text(path);
  if (open !== undefined) return open;
  let stat: Stats;
  try {
    stat = statSync(path);
  } catch {
    forgetDiskText(path);
    return documentText(core, path); // its error says why
  }
  const known = diskTexts.get(path);
  if (known && sameFile(known.stat, stat)) {
    diskTexts.delete(path); // re-inserted: the Map's order is the order of use
    diskTexts.set(path, known);
    return known.text;
  }
  forgetDiskText(path);
  const text = await documentText(core, path);
  // Read after the stat: a change in between makes the next stat differ, and the file is read again.
  if (!stat.isFile() || Date.now() - Math.max(stat.mtimeMs, stat.ctimeMs) < RACY_MS) return text;
  if (text.length > DISK_TEXTS_MAX_CHARS / 4) return text;
  forgetDiskText(path); // another request may have kept it meanwhile
  diskTexts.set(path, { text, stat });
  diskChars += text.length;
  for (const [p, e] of diskTexts) {
    if (diskTexts.size <= DISK_TEXTS_MAX && diskChars <= DISK_TEXTS_MAX_CHARS) break;
    diskTexts.delete(p);
    diskChars -= e.text.length;
  }
  return text;
}

/**
 * Resolves a request's file and 0-based position (the schema made line/character integers >= 0; only
 * the file's own length is checked here: INVALID_REQUEST beyond its last line), with the text read.
 */
export async function documentAt(
  core: CoreContext,
  filePath: string,
  line: number,
  character: number,
): Promise<{ path: string; position: Position; text: string }> {
  const { path } = resolvePath(core, filePath);
  return checkedAt(path, await documentText(core, path), line, character);
}

function checkedAt(path: string, text: string, line: number, character: number) {
  if (!hasLine(text, line)) {
    const lineCount = text.split(LINE_BREAK).length;
    throw invalidRequest(`line ${line} is beyond the end of the file (${lineCount} lines)`);
  }
  return { path, position: { line, character }, text };
}

/** Whether 0-based `line` exists: counts line breaks up to it, not through the whole text. */
function hasLine(text: string, line: number): boolean {
  const breaks = new RegExp(LINE_BREAK.source, 'g');
  for (let n = 0; n < line; n++) if (!breaks.exec(text)) return false;
  return true;
}

const normalised = (s: string) => s.replace(/^\ufeff/, '').replace(/\r\n?/g, '\n');

/**
 * Whether the editor's open copy of `path` shows `diskText` (the disk's), waiting for it first, bounded
 * (the host's afterWrite): a change made behind the editor's back (a git checkout, another program, a
 * conformance runner's reset) reaches its copy asynchronously, and a language provider answers for the
 * copy. True without an open copy; false when it has unsaved changes or is still behind after the
 * wait. Line breaks and a byte order mark are not differences (an editor keeps one line break style).
 */
export async function editorShowsDisk(core: CoreContext, path: string, diskText: string): Promise<boolean> {
  const held = core.documents.text(path);
  const want = normalised(diskText);
  if (held === undefined || normalised(held) === want) return true;
  if (core.documents.isDirty(path) || !core.documents.afterWrite) return false;
  await core.documents.afterWrite(path, Buffer.from(diskText, 'utf8'));
  const now = core.documents.text(path);
  return now === undefined || normalised(now) === want;
}

/** The text the server holds for `path` without reading it: the editor's copy, else its language server's. */
export function heldText(core: CoreContext, path: string): string | undefined {
  return core.documents.text(path) ?? core.language.syncedText?.(path);
}

/**
 * A language provider asked about a request's position, with the position checked against the file
 * (that INVALID_REQUEST wins over the provider's failure). Where the host's language server holds the
 * file's text (idea-server's LSP client, synced for this very request), the check uses that text once
 * the provider answered: no read of its own. Otherwise the file is read beside the provider's call
 * (without an editor four file-system round trips, which need not wait for the language server's).
 */
export async function askAt<R>(
  core: CoreContext,
  filePath: string,
  line: number,
  character: number,
  provider: (path: string, position: Position) => Promise<R>,
): Promise<{ path: string; position: Position; text: string; answer: R }> {
  const { path } = resolvePath(core, filePath);
  const position = { line, character };
  const asked = (async () => provider(path, position))();
  if (core.language.syncedText) {
    const answer = await asked.then(
      (a) => ({ ok: true as const, a }),
      (e: unknown) => ({ ok: false as const, e }),
    );
    const held = heldText(core, path);
    const source = checkedAt(path, held ?? (await documentText(core, path)), line, character);
    if (!answer.ok) throw answer.e;
    return { ...source, answer: answer.a };
  }
  asked.catch(() => {}); // awaited below, after the line check
  const source = checkedAt(path, await documentText(core, path), line, character);
  return { ...source, answer: await asked };
}

/** Where 0-based `line` starts, scanning on from `fromLine`, which starts at `fromOffset`; undefined past the end. */
function lineStart(text: string, line: number, fromLine: number, fromOffset: number): number | undefined {
  const breaks = new RegExp(LINE_BREAK.source, 'g');
  breaks.lastIndex = fromOffset;
  let start = fromOffset;
  for (let n = fromLine; n < line; n++) {
    const m = breaks.exec(text);
    if (!m) return undefined;
    start = m.index + m[0].length;
  }
  return start;
}

/** The offset of `character` in the line starting at `start`, clamped to the line. */
function inLine(text: string, start: number, character: number): number {
  const breaks = new RegExp(LINE_BREAK.source, 'g');
  breaks.lastIndex = start;
  const next = breaks.exec(text);
  return start + Math.max(0, Math.min(character, (next ? next.index : text.length) - start));
}

/**
 * A position's offset in `text`, clamped to the document (as VS Code's TextDocument.offsetAt). Scans the
 * text only up to the end of the position's line: a definition's target in a large file (lib.dom.d.ts,
 * 1.9 MB) is not split into lines for every answer.
 */
export function offsetAt(text: string, p: Position): number {
  if (p.line < 0) return 0;
  const start = lineStart(text, p.line, 0, 0);
  return start === undefined ? text.length : inLine(text, start, p.character);
}

/**
 * The text a range covers, clamped to the document (as VS Code's TextDocument.getText(range)): one scan
 * to the start's line and on to the end's.
 */
export function textOfRange(text: string, range: Range): string {
  const { start: a, end: b } = range;
  const aLine = a.line < 0 ? undefined : lineStart(text, a.line, 0, 0);
  const start = a.line < 0 ? 0 : aLine === undefined ? text.length : inLine(text, aLine, a.character);
  let end: number;
  if (aLine !== undefined && b.line >= a.line) {
    const bLine = lineStart(text, b.line, a.line, aLine);
    end = bLine === undefined ? text.length : inLine(text, bLine, b.character);
  } else end = offsetAt(text, b);
  return end <= start ? '' : text.slice(start, end);
}

export interface WireRange {
  line: number;
  character: number;
  endLine: number;
  endCharacter: number;
}

export function wireRange(r: Range): WireRange {
  return { line: r.start.line, character: r.start.character, endLine: r.end.line, endCharacter: r.end.character };
}

/** Sorts locations by file, then position (the order every language topic answers in). */
export function byFileAndPosition(a: { filePath: string } & Position, b: { filePath: string } & Position): number {
  return a.filePath < b.filePath ? -1 : a.filePath > b.filePath ? 1 : a.line - b.line || a.character - b.character;
}
