// typescript-language-server's own commands, as its code actions carry them, never run as they are
// (H22): `_typescript.applyRefactoring` creates the files of a refactoring on disk itself (fs.ensureFile)
// before asking for the edit, outside any transaction. So a refactoring or an organize-imports command
// becomes the question to tsserver that computes its edits (getEditsForRefactor, organizeImports),
// asked through the server's `typescript.tsserverRequest` command, which writes nothing; the answer
// (tsserver's FileCodeEdits) becomes a WorkspaceEdit for the transaction. A quick fix's own command
// runs tsserver's follow-up commands (installing a types package), which IDEA does not do: with none
// there is nothing to run, with some the action is refused. Every other `_typescript.` command asks
// the editor for something (a choice, a rename box) and is refused.
import { existsSync } from 'node:fs';
import { isAbsolute } from 'node:path';
import { pathToFileURL } from 'node:url';

/** What a command of typescript-language-server comes to. */
export type TypeScriptCommandPlan =
  /** Nothing of it needs running (its edit, if any, is the action's). */
  | { kind: 'nothing' }
  /** Ask tsserver this (through `typescript.tsserverRequest`); its answer's body is FileCodeEdits[]. */
  | { kind: 'tsserver'; request: 'getEditsForRefactor' | 'organizeImports'; args: Record<string, unknown> }
  /** Not something IDEA runs; the action is disabled with this reason. */
  | { kind: 'refused'; reason: string };

export const TSSERVER_REQUEST = 'typescript.tsserverRequest';

/** typescript-language-server's organize-imports code action kind. */
export const ORGANIZE_IMPORTS_KIND = 'source.organizeImports.ts';

/**
 * tsserver's organizeImports question for `file`, its mode as typescript-language-server's command
 * picks it: the one given, else `SortAndCombine` when destructive actions are skipped, else `All`,
 * which is VS Code's organize imports and removes unused imports too (typescript-language-server's own
 * `source.organizeImports` action is computed with `SortAndCombine`, which only sorts and merges).
 */
export function organizeImportsPlan(
  file: string,
  options: { skipDestructiveCodeActions?: boolean; mode?: string } = {},
): Extract<TypeScriptCommandPlan, { kind: 'tsserver' }> {
  const mode = options.mode ?? (options.skipDestructiveCodeActions === true ? 'SortAndCombine' : 'All');
  return {
    kind: 'tsserver',
    request: 'organizeImports',
    args: { scope: { type: 'file', args: { file } }, ...options, mode },
  };
}

const isObject = (x: unknown): x is Record<string, unknown> => typeof x === 'object' && x !== null;

/** tsserver's follow-up commands a TypeScript quick fix carries (installTypesPackage); none when absent. */
function followUps(arg: unknown): number {
  const action = isObject(arg) ? arg.action : undefined;
  const commands = isObject(action) ? action.commands : undefined;
  return Array.isArray(commands) ? commands.length : 0;
}

/** The plan for `command` when it is typescript-language-server's (`_typescript.…`), else undefined. */
export function typeScriptCommand(command: string, args: readonly unknown[]): TypeScriptCommandPlan | undefined {
  if (!command.startsWith('_typescript.')) return undefined;
  const first = args[0];
  switch (command) {
    case '_typescript.applyRefactoring': {
      if (!isObject(first) || typeof first.refactor !== 'string' || typeof first.action !== 'string')
        return { kind: 'refused', reason: 'the refactoring command came without its refactoring' };
      const { file, startLine, startOffset, endLine, endOffset, refactor, action } = first;
      return {
        kind: 'tsserver',
        request: 'getEditsForRefactor',
        args: { file, startLine, startOffset, endLine, endOffset, refactor, action },
      };
    }
    case '_typescript.organizeImports': {
      if (typeof first !== 'string')
        return { kind: 'refused', reason: 'the organize-imports command came without its file' };
      const more = isObject(args[1]) ? args[1] : {};
      return organizeImportsPlan(first, {
        ...(typeof more.skipDestructiveCodeActions === 'boolean' && {
          skipDestructiveCodeActions: more.skipDestructiveCodeActions,
        }),
        ...(typeof more.mode === 'string' && { mode: more.mode }),
      });
    }
    case '_typescript.applyCodeActionCommand':
      return followUps(first) === 0
        ? { kind: 'nothing' }
        : {
            kind: 'refused',
            reason: 'it runs TypeScript commands of its own (installing a package), which IDEA does not run',
          };
    // Resolved, a fix-all carries its whole edit; its command only runs such follow-ups.
    case '_typescript.applyFixAllCodeAction':
      return { kind: 'nothing' };
    case '_typescript.selectRefactoring':
      return { kind: 'refused', reason: 'it asks the user to choose a refactoring in the editor' };
    default:
      return { kind: 'refused', reason: `its command ${command} is not one IDEA runs` };
  }
}

/** tsserver finds the refactoring not applicable (its reason is the message). */
export class NotApplicableError extends Error {
  override readonly name = 'NotApplicableError';
}

/**
 * The answer of `typescript.tsserverRequest` (tsserver's whole response) to a plan's request as a
 * WorkspaceEdit: getEditsForRefactor's `body.edits`, organizeImports' `body`. A refactoring tsserver
 * finds not applicable throws NotApplicableError with its reason.
 */
export function tsserverAnswerAsWorkspaceEdit(
  request: 'getEditsForRefactor' | 'organizeImports',
  answer: unknown,
): { documentChanges: unknown[] } {
  const body = isObject(answer) ? answer.body : undefined;
  if (request === 'organizeImports') return fileCodeEditsAsWorkspaceEdit(body ?? []);
  if (isObject(body) && typeof body.notApplicableReason === 'string')
    throw new NotApplicableError(body.notApplicableReason);
  return fileCodeEditsAsWorkspaceEdit(isObject(body) ? (body.edits ?? []) : []);
}

interface TsLocation {
  line: number;
  offset: number;
}

const isLocation = (l: unknown): l is TsLocation =>
  isObject(l) &&
  Number.isSafeInteger(l.line) &&
  Number.isSafeInteger(l.offset) &&
  (l.line as number) >= 0 &&
  (l.offset as number) >= 0;

/** 1-based to 0-based; a new file's text starts at line 0, offset 0 (as VS Code's converter, clamped). */
const position = (l: TsLocation) => ({ line: Math.max(l.line - 1, 0), character: Math.max(l.offset - 1, 0) });

/**
 * tsserver's FileCodeEdits[] (1-based lines and offsets) as an LSP WorkspaceEdit with documentChanges:
 * a file that does not exist (a refactoring's new file; tsserver's `isNewFile` where it says so) is
 * created, then edited. A malformed answer throws.
 */
export function fileCodeEditsAsWorkspaceEdit(
  body: unknown,
  exists: (path: string) => boolean = existsSync,
): { documentChanges: unknown[] } {
  if (!Array.isArray(body)) throw new Error('tsserver answered no edits');
  const documentChanges: unknown[] = [];
  for (const f of body as unknown[]) {
    if (!isObject(f) || typeof f.fileName !== 'string' || !Array.isArray(f.textChanges))
      throw new Error('tsserver answered a malformed file edit');
    const uri = fileUri(f.fileName);
    if (f.isNewFile === true || !exists(f.fileName)) documentChanges.push({ kind: 'create', uri });
    const edits = (f.textChanges as unknown[]).map((c) => {
      if (!isObject(c) || !isLocation(c.start) || !isLocation(c.end) || typeof c.newText !== 'string')
        throw new Error(`tsserver answered a malformed edit for ${f.fileName}`);
      return { range: { start: position(c.start), end: position(c.end) }, newText: c.newText };
    });
    documentChanges.push({ textDocument: { uri, version: null }, edits });
  }
  return { documentChanges };
}

/** tsserver names files by absolute path; anything else stays as it is, for the core to refuse. */
function fileUri(fileName: string): string {
  return isAbsolute(fileName) ? pathToFileURL(fileName).href : fileName;
}
