// `idea fix`: the language server's code actions at a line or a symbol, and one of them applied, on one
// connection (an action's id is good only on the connection that listed it, clause T54). Without a
// choice it lists them, numbered; with one (its number, its id, its kind or its title, or --first) it
// shows that action's dry run, and writes it only with --yes. Present where the spec has both
// edit/codeActions and edit/applyCodeAction (their params are read from the commands, nothing here is
// written per field but the command's own flags).
import { open } from 'node:fs/promises';
import { resolve } from 'node:path';
import type { CommandSpec } from './commands';
import { UsageError } from './usage-error';

export const FIX_USAGE = 'idea fix FILE[:LINE[:COL]] [CHOICE] | idea fix FILE NAME_PATH [CHOICE]';

/** What `idea fix` was asked. */
export interface FixInvocation {
  list: CommandSpec;
  apply: CommandSpec;
  /** edit/codeActions' params: the file and a range or a name path, `only` when given. */
  listParams: Record<string, unknown>;
  /** FILE:LINE: the range is the whole line, its end to be found in the file (`withLineEnd`). */
  wholeLine?: true;
  /** How to pick: a 1-based number, an id, a kind or a title; `first`: the first listed. None: list only. */
  choice?: { first: true } | { word: string };
  /** Write it (else its dry run only). */
  yes: boolean;
  /** edit/applyCodeAction's params besides id and dryRun (diagnostics, diagnosticsWaitMs). */
  applyParams: Record<string, unknown>;
}

/** The two commands `idea fix` stands on, when the spec has them. */
export function fixCommands(cmds: readonly CommandSpec[]): { list: CommandSpec; apply: CommandSpec } | undefined {
  const list = cmds.find((c) => c.action === 'codeActions' && !c.fixed);
  const apply = cmds.find((c) => c.action === 'applyCodeAction' && !c.fixed);
  return list && apply ? { list, apply } : undefined;
}

interface Flag {
  name: string;
  value?: string;
}

/**
 * `idea fix`'s words and flags (the CLI's own already taken) → a FixInvocation. FILE:LINE (1-based) asks
 * for the whole line, FILE:LINE:COL for that position, FILE NAME_PATH for that symbol's range, FILE alone
 * for the file's start (source actions: organize imports, fix all).
 */
export function parseFix(
  words: readonly string[],
  flags: readonly Flag[],
  cmds: { list: CommandSpec; apply: CommandSpec },
): FixInvocation {
  const usage = (msg: string) => new UsageError(`${msg} (usage: ${FIX_USAGE} [--only KIND] [--first] [--yes])`);
  const [where, ...rest] = words;
  if (where === undefined) throw usage('no file given');
  const m = /^(.+?):(\d+)(?::(\d+))?$/.exec(where);
  const listParams: Record<string, unknown> = { filePath: m ? m[1] : where };
  let wholeLine = false;
  let more = rest;
  if (m) {
    const line = Number(m[2]);
    const col = m[3] === undefined ? undefined : Number(m[3]);
    if (!Number.isSafeInteger(line) || line < 1 || (col !== undefined && (!Number.isSafeInteger(col) || col < 1)))
      throw usage(`the line and column in ${where} are 1-based: 1 or more`);
    // A whole line (its end is found in the file: wholeLine), so every diagnostic on it is inside the range.
    Object.assign(listParams, { line: line - 1, character: col === undefined ? 0 : col - 1 });
    if (col === undefined) wholeLine = true;
  } else if (rest.length > 0 && !/^\d+$/.test(rest[0]!)) {
    listParams.namePath = rest[0];
    more = rest.slice(1);
  } else Object.assign(listParams, { line: 0, character: 0 });
  if (more.length > 1) throw usage(`unexpected: ${more.slice(1).join(' ')}`);
  const applyParams: Record<string, unknown> = {};
  let first = false;
  let yes = false;
  const only: string[] = [];
  for (const f of flags) {
    const boolean = (v: string | undefined) => {
      if (v === undefined || v === 'true') return true;
      if (v === 'false') return false;
      throw usage(`${f.name} is true or false, got '${v}'`);
    };
    if (f.name === '--first') first = boolean(f.value);
    else if (f.name === '--yes' || f.name === '-y') yes = boolean(f.value);
    else if (f.name === '--only') {
      if (!f.value) throw usage('--only needs a kind (quickfix, source.organizeImports, refactor, …)');
      only.push(f.value);
    } else if (f.name === '--diagnostics') applyParams.diagnostics = boolean(f.value);
    else if (f.name === '--diagnostics-wait-ms') {
      if (!/^\d+$/.test(f.value ?? '')) throw usage(`--diagnostics-wait-ms expects an integer, got '${f.value}'`);
      applyParams.diagnosticsWaitMs = Number(f.value);
    } else if (f.name === '--dry-run') {
      if (boolean(f.value)) yes = false;
    } else throw usage(`unknown flag ${f.name} for 'fix'`);
  }
  if (only.length > 0) listParams.only = only;
  if (first && more.length > 0) throw usage(`--first and ${more[0]} both choose: give one`);
  const choice = first ? { first: true as const } : more.length > 0 ? { word: more[0]! } : undefined;
  if (yes && !choice) throw usage('--yes applies the action chosen: give its number, id, kind or title, or --first');
  return { ...cmds, listParams, ...(wholeLine ? { wholeLine } : {}), ...(choice ? { choice } : {}), yes, applyParams };
}

/** The flags `idea fix` reads: with a value, and without. */
export const FIX_VALUE_FLAGS: readonly string[] = ['--only', '--diagnostics-wait-ms'];

/**
 * The params with the range to the end of the asked line, read from the file as the CLI sees it (the
 * path relative to `cwd`; LSP characters are UTF-16 units, as a JavaScript string's). A position past a
 * line's end is not sent: tsserver fails on one rather than clamping it. A file the CLI cannot read
 * (a path relative to another workspace root) keeps the line's start alone.
 */
export async function withLineEnd(params: Record<string, unknown>, cwd: string): Promise<Record<string, unknown>> {
  const line = params.line as number;
  let text: string;
  try {
    const f = await open(resolve(cwd, String(params.filePath)), 'r');
    try {
      if ((await f.stat()).size > MAX_FILE_READ) return params;
      text = await f.readFile('utf8');
    } finally {
      await f.close();
    }
  } catch {
    return params;
  }
  const lineText = text.split(/\r\n|\r|\n/)[line];
  return lineText === undefined || lineText === ''
    ? params
    : { ...params, endLine: line, endCharacter: lineText.length };
}

/** The largest file whose line end is looked up (a bigger one: the line's start alone). */
const MAX_FILE_READ = 64 * 1024 * 1024;

/** An action as edit/codeActions lists it. */
export interface ListedAction {
  id: string;
  title: string;
  kind: string;
  isPreferred?: boolean;
  disabled?: string;
}

/** The action `choice` names among `actions`: by number (1-based, as listed), id, kind or title; an error says why none. */
export function chooseAction(
  actions: readonly ListedAction[],
  choice: NonNullable<FixInvocation['choice']>,
): ListedAction {
  const names = () => actions.map((a, i) => `${i + 1}. ${a.title} (${a.kind || 'no kind'})`).join('; ');
  if (actions.length === 0) throw new FixError('no code actions here to choose from');
  if ('first' in choice) return actions[0]!;
  const w = choice.word;
  if (/^\d+$/.test(w)) {
    const n = Number(w);
    if (n < 1 || n > actions.length)
      throw new FixError(`there is no action ${w}: ${plural(actions.length)}: ${names()}`);
    return actions[n - 1]!;
  }
  const byId = actions.filter((a) => a.id === w);
  const byKind = actions.filter((a) => a.kind === w);
  const byTitle = actions.filter((a) => a.title.toLowerCase() === w.toLowerCase());
  const found = [byId, byKind, byTitle].find((x) => x.length > 0);
  if (!found) throw new FixError(`no action here has the id, kind or title '${w}': ${names()}`);
  if (found.length > 1)
    throw new FixError(`'${w}' names ${found.length} actions: ${names()}; give its number, or narrow with --only`);
  return found[0]!;
}

const plural = (n: number) => `${n} action${n === 1 ? '' : 's'}`;

/** A choice that names no action (exit 1, as a protocol error: the answer is what decided). */
export class FixError extends Error {
  override readonly name = 'FixError';
}
