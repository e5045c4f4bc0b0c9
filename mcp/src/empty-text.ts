// What an empty answer says to a model. The CLI prints nothing for an empty list, as grep does, and its
// exit status speaks to a script; a model that reads an empty text cannot tell "nothing found" from a
// call that did nothing or failed, and tends to call again or guess. So for MCP, a result whose list is
// empty reads as a sentence naming what was asked and found empty (paths and positions as the other
// texts print them: as given, positions 1-based; a symbol by its name path as given). Since 0.1.8 an
// empty answer may say no language server could answer (`unavailable`): then the sentence says that,
// and that the empty answer does not mean there is nothing; an incomplete `coverage` follows either.
import { coverageText, unavailableText } from '@idea-kit/result-text/format';
import type { Coverage, Unavailable } from '../../generated/v0.1.8/types';

type Args = Record<string, unknown>;

/** What was asked: the params sent, and whether the client filled the file list from git (`changed`). */
export interface Asked {
  params: Args;
  changedFiles?: boolean;
}

const q = (v: unknown) => `"${String(v)}"`; // as given: a regular expression's backslashes not doubled
/** The symbol asked about: by its name path (since 0.1.8) or at its position. */
const symbol = (p: Args) =>
  typeof p.namePath === 'string'
    ? `${p.namePath} in ${p.filePath}`
    : `the symbol at ${p.filePath}:${Number(p.line) + 1}:${Number(p.character) + 1}`;
/** Only these kinds (` (kinds: class, method)`), when a kinds filter was given. */
const kinds = (k: unknown) => (Array.isArray(k) && k.length > 0 ? ` (kinds: ${k.join(', ')})` : '');

/** ` in INCLUDE, excluding EXCLUDE`, for the globs given. */
function scope(p: Args): string {
  return `${p.include !== undefined ? ` in ${p.include}` : ''}${p.exclude !== undefined ? `, excluding ${p.exclude}` : ''}`;
}

function diagnostics(p: Args, how: Asked): string {
  const what =
    typeof p.severity === 'string' && p.severity !== 'all' ? `No ${p.severity} diagnostics` : 'No diagnostics';
  const files = p.filePath;
  if (typeof files === 'string') return `${what} in ${files}.`;
  if (Array.isArray(files)) {
    if (files.length === 1) return `${what} in ${files[0]}.`;
    return `${what} in the ${files.length} files ${how.changedFiles ? 'git reports as changed' : 'asked'}.`;
  }
  return `${what} known (only files already analysed count; pass filePath to analyse a file).`;
}

/** Per topic: the result's list, and the sentence when it is empty (`empty`: when the list alone does not tell). */
const EMPTY: Record<string, { list: string; say: (p: Args, how: Asked) => string; empty?: (r: Args) => boolean }> = {
  '/app/vscode/edit/find': {
    list: 'matches',
    say: (p) => `No matches for ${q(p.pattern)}${p.isRegex === true ? ' (regular expression)' : ''}${scope(p)}.`,
  },
  '/app/vscode/fs/findFiles': {
    list: 'files',
    say: (p) => `No files whose name contains ${q(p.query)}${scope(p)}.`,
  },
  '/app/vscode/edit/replace': {
    list: 'affectedFiles',
    say: (p) =>
      `No matches for ${q(p.pattern)}${p.isRegex === true ? ' (regular expression)' : ''}${scope(p)}: nothing replaced.`,
  },
  '/app/vscode/edit/rename': {
    list: 'files',
    say: (p) =>
      `Nothing to rename for ${symbol(p)}: no edits${p.dryRun === true ? ' (dry run)' : ''}, nothing written.`,
  },
  '/app/vscode/nav/references': { list: 'locations', say: (p) => `No references to ${symbol(p)}.` },
  '/app/vscode/nav/definition': { list: 'locations', say: (p) => `No definition found for ${symbol(p)}.` },
  '/app/vscode/nav/typeDefinition': {
    list: 'locations',
    say: (p) => `No type definition found for ${symbol(p)}.`,
  },
  '/app/vscode/nav/implementation': {
    list: 'locations',
    say: (p) => `No implementation found for ${symbol(p)}.`,
  },
  '/app/vscode/nav/hover': { list: 'contents', say: (p) => `No hover information for ${symbol(p)}.` },
  '/app/vscode/nav/findSymbol': {
    list: 'symbols',
    // The counts form lists no symbols but files: empty only when nothing matched.
    empty: (r) => r.totalCount === 0,
    say: (p) =>
      `No symbol matches the name path ${q(p.namePath)}${p.substring === true ? ' (last segment as a substring)' : ''}${kinds(p.includeKinds)} in ${p.filePath ?? 'the workspace'}. Names are compared exactly, case included: nav_workspaceSymbols finds a name you only partly know.`,
  },
  '/app/vscode/nav/workspaceSymbols': {
    list: 'symbols',
    say: (p) => `No symbol of the workspace has a name containing ${q(p.query)}${kinds(p.kinds)}.`,
  },
  '/app/vscode/nav/referencingSymbols': { list: 'groups', say: (p) => `No references to ${symbol(p)}.` },
  '/app/vscode/nav/callHierarchy': {
    list: 'calls',
    // A function with no calls is an answer the text shows (the function, "no callers found").
    empty: (r) => r.item === null,
    say: (p) => `No function, method or constructor at ${symbol(p).replace(/^the symbol at /, '')}.`,
  },
  '/app/vscode/nav/symbols': {
    list: 'symbols',
    say: (p) =>
      typeof p.query === 'string' && p.query !== ''
        ? `No symbols matching ${q(p.query)} in ${p.filePath}.`
        : `No symbols in ${p.filePath}.`,
  },
  '/app/vscode/diag/list': { list: 'diagnostics', say: diagnostics },
  '/app/vscode/edit/codeActions': {
    list: 'actions',
    say: (p) =>
      `No code actions ${typeof p.namePath === 'string' ? `for ${p.namePath} in ${p.filePath}` : `at ${p.filePath}:${Number(p.line) + 1}:${Number(p.character) + 1}`}${kinds(p.only)}.`,
  },
  '/app/vscode/edit/transactions': { list: 'transactions', say: () => 'No write transactions to undo.' },
  '/app/vscode/history/list': { list: 'entries', say: (p) => `No git commits found for ${p.filePath}.` },
  '/app/vscode/localhistory/list': { list: 'entries', say: (p) => `No local history entries for ${p.filePath}.` },
};

const isObject = (v: unknown): v is Args => typeof v === 'object' && v !== null;

/**
 * The sentence for `result` of `topic` when it is empty; undefined otherwise. No language server could
 * answer (`unavailable`): that, in place of "none found". An incomplete `coverage` follows, in words.
 */
export function emptyText(topic: string, result: unknown, asked: Asked): string | undefined {
  const e = EMPTY[topic];
  if (!e || !isObject(result)) return undefined;
  const list = result[e.list];
  if (!(e.empty ? e.empty(result) : Array.isArray(list) && list.length === 0)) return undefined;
  const u = isObject(result.unavailable) ? (result.unavailable as unknown as Unavailable) : undefined;
  const sentence = u ? unavailableSentence(u, asked.params) : e.say(asked.params, asked);
  const coverage = isObject(result.coverage)
    ? coverageText(result.coverage as unknown as Coverage, { color: false })
    : '';
  return coverage ? `${sentence}\n${coverage}` : sentence;
}

/** No language server could answer: which file, why, and that empty here is not "nothing". */
function unavailableSentence(u: Unavailable, p: Args): string {
  const files = Array.isArray(p.filePath) && p.filePath.length === 1 ? p.filePath[0] : p.filePath;
  const why = unavailableText(u).replace(/^no answer: /, '');
  return `No language server could answer${typeof files === 'string' ? ` for ${files}` : ''}: ${why}. This empty answer does not mean there is nothing: no language server looked.`;
}
