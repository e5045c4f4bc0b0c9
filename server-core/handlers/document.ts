// Shared by the language handlers: a file's text as the server sees it (the editor's copy when it has
// one open, else the disk), positions checked against it, and the text of a range.
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
  return checkedAt(core, path, line, character);
}

/**
 * documentAt with `ask` run meanwhile: the path is checked first, then `ask` starts while the file is
 * read for the line check, whose error still wins (it is awaited first). Without an editor that read
 * is file-system round trips, which need not wait for the language server's.
 */
export async function askedAt<T>(
  core: CoreContext,
  filePath: string,
  line: number,
  character: number,
  ask: (path: string, position: Position) => Promise<T>,
): Promise<{ source: { path: string; position: Position; text: string }; answer: T }> {
  const { path } = resolvePath(core, filePath);
  const asked = (async () => ask(path, { line, character }))();
  asked.catch(() => {}); // awaited below, after the line check
  const source = await checkedAt(core, path, line, character);
  return { source, answer: await asked };
}

async function checkedAt(core: CoreContext, path: string, line: number, character: number) {
  const text = await documentText(core, path);
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

/** A position's offset in `text`, clamped to the document (as VS Code's TextDocument.offsetAt). */
export function offsetAt(text: string, p: Position): number {
  const lines = text.split(LINE_BREAK);
  const breaks = text.match(new RegExp(LINE_BREAK, 'g')) ?? [];
  if (p.line < 0) return 0;
  if (p.line >= lines.length) return text.length;
  let o = 0;
  for (let i = 0; i < p.line; i++) o += lines[i]!.length + breaks[i]!.length;
  return o + Math.max(0, Math.min(p.character, lines[p.line]!.length));
}

/** The text a range covers, clamped to the document (as VS Code's TextDocument.getText(range)). */
export function textOfRange(text: string, range: Range): string {
  const start = offsetAt(text, range.start);
  const end = offsetAt(text, range.end);
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
