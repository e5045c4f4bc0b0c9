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
