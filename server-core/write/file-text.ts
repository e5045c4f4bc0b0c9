// A file's bytes as text and back, and text edits by range applied to it: what every write topic that
// edits text does (edit/rename's provider edits, edit/apply's range and symbol edits, the code actions,
// formatting and moves built on it). Positions are 0-based lines and UTF-16 characters, as on the wire;
// "\r\n", "\n" and "\r" each end a line (as in LSP). Pure: no I/O.
import type { Range } from '../host';
import { lineStarts } from '../symbol-text';

const BOM = Buffer.from([0xef, 0xbb, 0xbf]);
const utf8 = new TextDecoder('utf-8', { fatal: true, ignoreBOM: true });

/** A file's text without its byte order mark, and whether it had one; null when the bytes are not UTF-8. */
export function decodeText(bytes: Uint8Array): { text: string; bom: boolean } | null {
  const bom = bytes.length >= 3 && bytes[0] === 0xef && bytes[1] === 0xbb && bytes[2] === 0xbf;
  try {
    return { text: utf8.decode(bom ? bytes.subarray(3) : bytes), bom };
  } catch {
    return null;
  }
}

/** The bytes of `text`, with the byte order mark when the file had one. */
export function encodeText(text: string, bom: boolean): Buffer {
  const body = Buffer.from(text, 'utf8');
  return bom ? Buffer.concat([BOM, body]) : body;
}

export type LineBreak = '\r\n' | '\n' | '\r';

/** The file's own line break: the most frequent of "\r\n", "\n" and "\r" (a tie: "\n"); null when it has none. */
export function lineBreakOf(text: string): LineBreak | null {
  let crlf = 0;
  let lf = 0;
  let cr = 0;
  for (const m of text.matchAll(/\r\n|\n|\r/g)) {
    if (m[0] === '\r\n') crlf++;
    else if (m[0] === '\n') lf++;
    else cr++;
  }
  if (crlf + lf + cr === 0) return null;
  if (crlf > lf && crlf >= cr) return '\r\n';
  if (cr > lf && cr > crlf) return '\r';
  return '\n';
}

/** `text` with every line break written as `eol` (unchanged when null: the file has no style). */
export function withLineBreaks(text: string, eol: LineBreak | null): string {
  return eol === null ? text : text.replace(/\r\n|\n|\r/g, eol);
}

/** An edit that cannot be applied: `edit` is its index in the list given, `reason` a sentence. */
export class TextEditError extends Error {
  constructor(
    readonly edit: number,
    readonly reason: string,
  ) {
    super(reason);
  }
}

export interface RangeTextEdit {
  range: Range;
  newText: string;
}

export interface ApplyTextOptions {
  /**
   * 'strict': a position past its line's end or past the last line is refused (a client's edit says
   * exactly where); 'clamp': it is moved to the line's end, or the text's (as LSP has it, for edits a
   * language server computed).
   */
  positions: 'strict' | 'clamp';
  /** Line breaks of each newText are written as this (the file's own style); null: as given. */
  eol: LineBreak | null;
}

/**
 * Applies `edits` (ranges in `text` as it is) at once. Refused with TextEditError: a range that ends
 * before it starts, a position outside the text ('strict'), and two edits that overlap (two insertions
 * at one position are applied in their order, an insertion where a replacement starts goes before it).
 */
export function applyTextEdits(text: string, edits: readonly RangeTextEdit[], opts: ApplyTextOptions): string {
  const starts = lineStarts(text);
  const offsetOf = (i: number, p: { line: number; character: number }, what: string): number => {
    const lastLine = starts.length - 1;
    if (p.line > lastLine) {
      if (opts.positions === 'clamp') return text.length;
      throw new TextEditError(i, `its ${what} line ${p.line} is past the file's last line (${lastLine})`);
    }
    const lineStart = starts[p.line]!;
    // The line's end before its break; "\r" then "\n" is always one break (lineStarts' pattern).
    let lineEnd = p.line < lastLine ? starts[p.line + 1]! : text.length;
    if (p.line < lastLine) lineEnd -= text[lineEnd - 1] === '\n' && text[lineEnd - 2] === '\r' ? 2 : 1;
    const content = lineEnd - lineStart;
    if (p.character > content) {
      if (opts.positions === 'clamp') return lineStart + content;
      throw new TextEditError(
        i,
        `its ${what} character ${p.character} is past the end of line ${p.line} (${content} characters)`,
      );
    }
    return lineStart + p.character;
  };
  const spans = edits.map((e, i) => {
    const start = offsetOf(i, e.range.start, 'start');
    const end = offsetOf(i, e.range.end, 'end');
    if (end < start) throw new TextEditError(i, 'its range ends before it starts');
    return { i, start, end, text: withLineBreaks(e.newText, opts.eol) };
  });
  spans.sort((a, b) => a.start - b.start || a.end - b.end || a.i - b.i);
  const parts: string[] = [];
  let at = 0;
  let prev: (typeof spans)[number] | undefined;
  for (const s of spans) {
    if (prev && s.start < prev.end)
      throw new TextEditError(s.i, `it overlaps edit ${prev.i} (${describe(prev, starts)} and ${describe(s, starts)})`);
    parts.push(text.slice(at, s.start), s.text);
    at = s.end;
    prev = s;
  }
  parts.push(text.slice(at));
  return parts.join('');
}

/** "3:4-3:9": a span's range as line:character, for messages. */
function describe(s: { start: number; end: number }, starts: readonly number[]): string {
  const pos = (off: number) => {
    let lo = 0;
    let hi = starts.length - 1;
    while (lo < hi) {
      const mid = (lo + hi + 1) >> 1;
      if (starts[mid]! <= off) lo = mid;
      else hi = mid - 1;
    }
    return `${lo}:${off - starts[lo]!}`;
  };
  return `${pos(s.start)}-${pos(s.end)}`;
}
