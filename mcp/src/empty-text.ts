// What an empty answer says to a model. The CLI prints nothing for an empty list, as grep does, and its
// exit status speaks to a script; a model that reads an empty text cannot tell "nothing found" from a
// call that did nothing or failed, and tends to call again or guess. So for MCP, a result whose list is
// empty reads as a sentence naming what was asked and found empty (paths and positions as the other
// texts print them: as given, positions 1-based).
type Args = Record<string, unknown>;

/** What was asked: the params sent, and whether the client filled the file list from git (`changed`). */
export interface Asked {
  params: Args;
  changedFiles?: boolean;
}

const q = (v: unknown) => `"${String(v)}"`; // as given: a regular expression's backslashes not doubled
const at = (p: Args) => `${p.filePath}:${Number(p.line) + 1}:${Number(p.character) + 1}`;

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

/** Per topic: the result's list, and the sentence when it is empty. */
const EMPTY: Record<string, { list: string; say: (p: Args, how: Asked) => string }> = {
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
    say: (p) => `Nothing to rename at ${at(p)}: no edits${p.dryRun === true ? ' (dry run)' : ''}, nothing written.`,
  },
  '/app/vscode/nav/references': { list: 'locations', say: (p) => `No references to the symbol at ${at(p)}.` },
  '/app/vscode/nav/definition': { list: 'locations', say: (p) => `No definition found for the symbol at ${at(p)}.` },
  '/app/vscode/nav/typeDefinition': {
    list: 'locations',
    say: (p) => `No type definition found for the symbol at ${at(p)}.`,
  },
  '/app/vscode/nav/implementation': {
    list: 'locations',
    say: (p) => `No implementation found for the symbol at ${at(p)}.`,
  },
  '/app/vscode/nav/hover': { list: 'contents', say: (p) => `No hover information at ${at(p)}.` },
  '/app/vscode/nav/symbols': {
    list: 'symbols',
    say: (p) =>
      typeof p.query === 'string' && p.query !== ''
        ? `No symbols matching ${q(p.query)} in ${p.filePath}.`
        : `No symbols in ${p.filePath}.`,
  },
  '/app/vscode/diag/list': { list: 'diagnostics', say: diagnostics },
  '/app/vscode/history/list': { list: 'entries', say: (p) => `No git commits found for ${p.filePath}.` },
  '/app/vscode/localhistory/list': { list: 'entries', say: (p) => `No local history entries for ${p.filePath}.` },
};

/** The sentence for `result` of `topic` when its list is empty; undefined otherwise. */
export function emptyText(topic: string, result: unknown, asked: Asked): string | undefined {
  const e = EMPTY[topic];
  const list = e && result !== null && typeof result === 'object' ? (result as Args)[e.list] : undefined;
  return e && Array.isArray(list) && list.length === 0 ? e.say(asked.params, asked) : undefined;
}
