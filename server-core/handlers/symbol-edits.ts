// Symbol edits of edit/apply (clause T53), compiled into range edits of their file: the symbol named by
// its name path (exactly one match, T44: else INVALID_REQUEST with the candidates), its leading block of
// comment, decorator and attribute lines as nav/findSymbol finds it (T45, symbol-text.ts), then
// - replace: its text from its declaration (its first line not in that block) to its range end, or from
//   its leading block when newText brings one of its own;
// - insertBefore / insertAfter: newText as whole lines before its leading block / after the line its
//   range ends on, one empty line between for the kinds that get one;
// - delete: the symbol and its leading block, with the lines they leave empty (a variable statement's
//   only declarator: the statement; a list member: its comma too), refused while anything outside its
//   own range refers to it (the references listed, at most 20).
// newText is re-indented to the symbol's first line (see reindent) and its line breaks become the
// file's (the planner writes every edit's line breaks in the file's style). The symbols come from the
// file's language server, which knows the disk: a file an earlier change of the same edit changed is
// refused, as is one whose editor copy is still not the disk's after a bounded wait for it.
import { resolve } from 'node:path';
import type { CoreContext } from '../context';
import { invalidRequest, ProtocolError } from '../errors';
import { isUnavailable, type Range } from '../host';
import { namePathOf, type SymbolNode, type SymbolTree } from '../name-paths';
import { bodyStartOf, declarationStart, leadingBlockStart, lineStarts, offsetIn, positionAt } from '../symbol-text';
import type { RangeTextEdit } from '../write/file-text';
import type { PlanOptions, SymbolEditFile, SymbolTextEdit } from '../write/workspace-edit';
import { editorShowsDisk } from './document';
import { oneSymbol, parsedNamePath, symbolTreeOf } from './locator';

/** References listed at most in a refused delete. */
export const MAX_REFERENCES_LISTED = 20;

/** Kinds (VS Code's, 0-based) that get an empty line between them and what is inserted next to them. */
const SPACED_KINDS = new Set([1, 2, 4, 5, 8, 9, 10, 11]); // module, namespace, class, method, constructor, enum, interface, function

const WHITESPACE = /^[ \t]*/;
const indentationOf = (line: string) => WHITESPACE.exec(line)![0];

/** A file's text split for positions: its lines without their breaks. */
class Lines {
  readonly starts: number[];
  constructor(readonly text: string) {
    this.starts = lineStarts(text);
  }
  get count(): number {
    return this.starts.length;
  }
  /** Line `l` without its line break. */
  line(l: number): string {
    const next = l + 1 < this.starts.length ? this.starts[l + 1]! : this.text.length;
    return this.text.slice(this.starts[l]!, next).replace(/\r\n$|\n$|\r$/, '');
  }
  /** Whether line `l` belongs to a leading block (a comment, decorator or attribute line): T45's own test. */
  isLeading(l: number): boolean {
    return leadingBlockStart(this.text, this.starts, l + 1, l - 1) !== undefined;
  }
  isBlank(l: number): boolean {
    return l >= 0 && l < this.count && this.line(l).trim() === '';
  }
  end(l: number): { line: number; character: number } {
    return { line: l, character: this.line(l).length };
  }
}

/** Where the symbol's leading block starts (T45: above its range, below its previous sibling), if it has one. */
function leadingStart(lines: Lines, tree: SymbolTree, n: SymbolNode): { line: number; character: number } | undefined {
  const start = bodyStartOf(lines.text, lines.starts, tree, n);
  return start === n.range.start ? undefined : start;
}

/**
 * newText's lines re-indented to `indent` (the symbol's first line's): blank lines at both ends dropped,
 * the common leading whitespace of its non-empty lines removed and `indent` put before each. A text whose
 * first line has no leading whitespace and whose other non-empty lines all begin with `indent` is a body
 * as nav/findSymbol gives it (its first line from its first character, the others as in the file): those
 * lines are kept as they are, only the first gets `indent`.
 */
export function reindent(newText: string, indent: string): string[] {
  const lines = newText.split(/\r\n|\n|\r/);
  while (lines.length > 0 && lines[0]!.trim() === '') lines.shift();
  while (lines.length > 0 && lines[lines.length - 1]!.trim() === '') lines.pop();
  if (lines.length === 0) return [];
  const nonEmpty = lines.filter((l) => l.trim() !== '');
  const rest = nonEmpty.slice(1);
  if (indent !== '' && indentationOf(lines[0]!) === '' && rest.length > 0 && rest.every((l) => l.startsWith(indent)))
    return lines.map((l, i) => (i === 0 ? indent + l : l.trim() === '' ? '' : l));
  let common = indentationOf(nonEmpty[0]!);
  for (const l of nonEmpty) {
    const ws = indentationOf(l);
    let k = 0;
    while (k < common.length && k < ws.length && common[k] === ws[k]) k++;
    common = common.slice(0, k);
  }
  return lines.map((l) => (l.trim() === '' ? '' : indent + l.slice(common.length)));
}

/** The compiler of edit/apply's symbol edits over the host's language features (PlanOptions.symbolEdits). */
export function symbolEditCompiler(svc: CoreContext): NonNullable<PlanOptions['symbolEdits']> {
  return async (file, edits, signal) => {
    if (file.changedByEarlier)
      throw invalidRequest(
        'symbol edits need the file as it is on disk (its language server knows that), and an earlier change of this edit changed it; put them in an edit before those changes',
      );
    // The symbols come from the editor's copy where it has one: wait (bounded) for it to show the disk.
    if (!(await editorShowsDisk(svc, file.path, file.text)))
      throw new ProtocolError('HANDLER_ERROR', `the editor's copy of ${file.path} is not the disk's yet; retry`);
    const tree = await symbolTreeOf(svc, file.path, signal);
    if (isUnavailable(tree))
      throw new ProtocolError('HANDLER_ERROR', `cannot find the symbols of ${file.path}: ${tree.unavailable}`);
    const lines = new Lines(file.text);
    const out: RangeTextEdit[] = [];
    for (const e of edits) out.push(await compile(svc, file, lines, tree, e, signal));
    return out;
  };
}

async function compile(
  svc: CoreContext,
  file: SymbolEditFile,
  lines: Lines,
  tree: SymbolTree,
  e: SymbolTextEdit,
  signal: AbortSignal,
): Promise<RangeTextEdit> {
  const n = oneSymbol(tree, e.namePath, parsedNamePath(e.namePath), file.path);
  const first = n.range.start.line;
  const last = Math.min(n.range.end.line, lines.count - 1);
  const indent = indentationOf(lines.line(first));
  const leading = leadingStart(lines, tree, n);
  const spaced = SPACED_KINDS.has(n.kind);
  const at = (line: number, character: number) => ({ line, character });
  const edit = (start: Range['start'], end: Range['start'], newText: string): RangeTextEdit => ({
    range: { start, end },
    newText,
  });
  if (e.operation !== 'delete' && e.newText === undefined)
    throw invalidRequest(`a symbol edit's ${e.operation} needs newText (${e.namePath})`);
  const text = reindent(e.newText ?? '', indent);

  switch (e.operation) {
    case 'replace': {
      // newText with its own comment, decorator or attribute line replaces the leading block too.
      const own = text.length > 0 && new Lines(`${text[0]}\nx`).isLeading(0);
      let start: Range['start'];
      if (own) start = leading ?? n.range.start;
      else {
        // The declaration, past the comments and decorators the range begins with (TS ranges begin at
        // decorators, which may span lines): T45's own rule (symbol-text.ts declarationStart).
        const from = offsetIn(lines.text, lines.starts, n.range.start.line, n.range.start.character);
        const to = offsetIn(lines.text, lines.starts, n.range.end.line, n.range.end.character);
        const decl = declarationStart(lines.text, from, to);
        start = decl === from ? n.range.start : positionAt(lines.starts, decl);
      }
      // The first line goes where the replaced text began, after the indentation already there.
      const firstLine = text[0]?.slice(Math.min(indent.length, start.character)) ?? '';
      return edit(start, n.range.end, [firstLine, ...text.slice(1)].join('\n'));
    }
    case 'insertBefore': {
      const line = leading?.line ?? first;
      return edit(at(line, 0), at(line, 0), `${text.join('\n')}\n${spaced ? '\n' : ''}`);
    }
    case 'insertAfter': {
      const block = `${spaced ? '\n' : ''}${text.join('\n')}`;
      if (last + 1 < lines.count) return edit(at(last + 1, 0), at(last + 1, 0), `${block}\n`);
      return edit(lines.end(last), lines.end(last), `\n${block}`);
    }
    case 'delete': {
      await unreferenced(svc, file.path, n, signal);
      let { start, end } = deletedSpan(lines, n, leading ?? n.range.start, last);
      const before = lines.line(start.line).slice(0, start.character);
      const after = lines.line(end.line).slice(end.character);
      const wholeLines = before.trim() === '' && after.trim() === '';
      if (wholeLines) {
        start = at(start.line, 0);
        if (last + 1 < lines.count) {
          // The lines around must not be left with two blank lines, nor a blank line before a closing
          // bracket or at the file's end: with a blank line above, the blank line below goes too, or
          // else the one above when what follows closes the enclosing block or nothing follows.
          const blankAbove = lines.isBlank(start.line - 1) || start.line === 0;
          const next = lines.line(last + 1).trim();
          const fileEnds = next === '' && last + 2 >= lines.count;
          if (blankAbove && next === '' && !fileEnds) end = at(last + 2, 0);
          else {
            end = at(last + 1, 0);
            if (start.line > 0 && lines.isBlank(start.line - 1) && (fileEnds || /^[}\])]/.test(next)))
              start = at(start.line - 1, 0);
          }
        } else {
          end = lines.end(last);
          if (start.line > 0) start = lines.end(start.line - 1);
        }
      }
      return edit(start, end, '');
    }
  }
}

/** `export const `, `let `, `declare var `: what leads a variable statement's first declarator on its line. */
const DECLARATION_KEYWORDS = /^[ \t]*(?:(?:export|declare|default)[ \t]+)*(?:const|let|var)[ \t]+$/;

/**
 * What a delete removes of `n`, from `start` (its leading block's start, else its range's): a language
 * server's range of a variable or a list member leaves out what belongs to it around it, so
 * - the only declarator of a variable statement (`export const x = …;`: the range is `x = …`) takes the
 *   statement, from its first keyword through its semicolon;
 * - a member or declarator followed by a comma (an enum member, a property, `a = 1, b = 2`) takes the
 *   comma and the spaces after it;
 * - else one preceded by a comma (the last of its list without a trailing comma) takes that comma, from
 *   where it stands;
 * - else a member alone on its line followed by a semicolon takes it.
 */
function deletedSpan(
  lines: Lines,
  n: SymbolNode,
  start: Range['start'],
  last: number,
): { start: Range['start']; end: Range['start'] } {
  const lastLine = lines.line(last);
  const endCharacter = n.range.end.line > last ? lastLine.length : Math.min(n.range.end.character, lastLine.length);
  const tail = lastLine.slice(endCharacter);
  const through = (pattern: RegExp) => {
    const m = pattern.exec(tail);
    return m ? { line: last, character: endCharacter + m[0].length } : undefined;
  };
  const declLine = lines.line(n.range.start.line);
  if (DECLARATION_KEYWORDS.test(declLine.slice(0, n.range.start.character)) && /^[ \t]*(?:;|$)/.test(tail)) {
    const keyword = { line: n.range.start.line, character: indentationOf(declLine).length };
    return { start: start === n.range.start ? keyword : start, end: through(/^[ \t]*;?/)! };
  }
  const comma = through(/^[ \t]*,[ \t]*/);
  if (comma) return { start, end: comma };
  let k = offsetIn(lines.text, lines.starts, start.line, start.character);
  while (k > 0 && /\s/.test(lines.text[k - 1]!)) k--;
  if (lines.text[k - 1] === ',')
    return { start: positionAt(lines.starts, k - 1), end: { line: last, character: endCharacter } };
  const alone = lines.line(start.line).slice(0, start.character).trim() === '';
  return { start, end: (alone && through(/^[ \t]*;/)) || { line: last, character: endCharacter } };
}

/** Refuses to delete `n` while a reference to it lies outside its own range (listing at most 20). */
async function unreferenced(svc: CoreContext, path: string, n: SymbolNode, signal: AbortSignal): Promise<void> {
  const refs = await svc.language.references(path, n.selectionRange.start, false, signal);
  if (isUnavailable(refs))
    throw new ProtocolError(
      'HANDLER_ERROR',
      `cannot delete ${namePathOf(n)} safely: its references cannot be checked (${refs.unavailable})`,
    );
  const inside = (r: Range) =>
    (r.start.line > n.range.start.line ||
      (r.start.line === n.range.start.line && r.start.character >= n.range.start.character)) &&
    (r.end.line < n.range.end.line || (r.end.line === n.range.end.line && r.end.character <= n.range.end.character));
  const self = resolve(path);
  const outside = refs.filter((r) => !(resolve(r.filePath) === self && inside(r.range)));
  if (outside.length === 0) return;
  const listed = outside.slice(0, MAX_REFERENCES_LISTED).map((r) => ({
    filePath: r.filePath,
    line: r.range.start.line,
    character: r.range.start.character,
  }));
  const where = listed.map((r) => `${r.filePath}:${r.line}:${r.character}`).join(', ');
  const more = outside.length > listed.length ? ` and ${outside.length - listed.length} more` : '';
  throw invalidRequest(
    `${namePathOf(n)} is still referenced outside itself (${outside.length}): ${where}${more}; remove those first`,
    { references: listed },
  );
}
