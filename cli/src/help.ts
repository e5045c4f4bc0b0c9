// Help text, derived from the commands (so from the spec).
import { locatorForms, PARAMS_FILE_WORD, positionalName, watchName } from './args';
import { type CommandSpec, PARAM_ALIASES, type ParamSpec, VALUE_ALIASES } from './commands';
import { FIX_USAGE, fixCommands } from './fix';
import type { EventSpec } from './spec';

/** FILE_PATH, [FILE_PATH] when optional, [FILE_PATH...] when it takes a list. LINE CHARACTER of a locator: one form. */
function positionalUsage(p: ParamSpec, c: CommandSpec): string {
  const name = `${positionalName(p)}${p.repeatable ? '...' : ''}`;
  return p.required || p === c.locator?.line || p === c.locator?.character ? name : `[${name}]`;
}

/** How a command is typed: `idea find`, `idea diag list`. */
export function commandLine(c: CommandSpec): string {
  return `idea ${c.alias ?? c.name.replace('/', ' ')}`;
}

function usageLine(c: CommandSpec): string {
  const pos = [
    ...(c.paramsFile ? [`[${PARAMS_FILE_WORD}]`] : []),
    ...c.positionals.map((p) => positionalUsage(p, c)),
  ].join(' ');
  const opt = c.params.some((p) => p.position === undefined) ? ' [flags]' : '';
  return `${commandLine(c)}${pos ? ` ${pos}` : ''}${opt}`;
}

/**
 * Said on stderr when a command printed nothing and it had files to name but none was named: what the
 * topic answers without them (its params schema's first sentence) and how to name them. Else undefined.
 * Only for a list of files to look at (diag list): a single optional file or folder narrows a search
 * that covers the workspace without it (findSymbol), where nothing found is the answer.
 */
export function emptyResultHint(c: CommandSpec, params: Record<string, unknown>): string | undefined {
  const file = c.positionals.find((p) => p.file && !p.required && p.repeatable);
  if (!file || params[file.name] !== undefined) return undefined;
  const what = typeof c.schema.description === 'string' ? c.schema.description.replace(/^Params of \S+: /, '') : '';
  const sentence = /^.*?\.(?=\s+[A-Z]|$)/.exec(what)?.[0] ?? c.description;
  return [
    `idea: nothing to show: without ${positionalName(file)}, '${commandLine(c).slice(5)}' answers only from what the server already knows.`,
    `  ${sentence}`,
    `  Name the files to look at: ${commandLine(c)} ${positionalName(file)}${file.repeatable ? '...' : ''}`,
  ].join('\n');
}

function flagLine(p: ParamSpec): string {
  const value = p.type === 'boolean' ? '' : ` <${p.enum ? p.enum.join('|') : p.type}>`;
  const notes = [
    p.required ? 'required' : undefined,
    p.position !== undefined
      ? `or argument${p.repeatable ? 's' : ''} ${positionalName(p)}${p.repeatable ? '...' : ''}`
      : undefined,
    ...(VALUE_ALIASES[p.name] ?? []).map((a) => `${a} = ${p.flag}`),
    ...['true', 'false'].map((v) => {
      const flags = (PARAM_ALIASES[p.name] ?? []).filter((a) => a.value === v).map((a) => a.flag);
      return flags.length ? `${flags.join(', ')} = ${v === 'true' ? p.flag : `--no-${p.flag.slice(2)}`}` : undefined;
    }),
    p.repeatable ? 'repeatable' : undefined,
    p.default !== undefined ? `default ${JSON.stringify(p.default)}` : undefined,
    p.type === 'boolean' ? `--no-${p.flag.slice(2)} for false` : undefined,
    p.minimum !== undefined ? `≥ ${p.minimum}` : undefined,
  ].filter(Boolean);
  return `  ${`${p.flag}${value}`.padEnd(34)} ${p.description}${notes.length ? ` [${notes.join('; ')}]` : ''}`;
}

const GLOBAL_HELP = [
  'Global flags:',
  '  --json                      print exactly the protocol result (JSON) instead of text for people',
  '  --url ws://127.0.0.1:PORT   the server (default: $IDEA_URL, else the VS Code window whose folder contains the current directory)',
  '  --token TOKEN               its token (default: $IDEA_TOKEN, else the one registered for that server)',
  '  --timeout MS                request timeout (default 60000)',
  '  --headless                  no server for the folder: serve it in-process for this command (idea-server)',
  '  --color / --no-color        colours (default: when stdout is a terminal and NO_COLOR is unset)',
].join('\n');

/** The other ways to write a locator command's position (since 0.1.8): FILE:LINE:COL, FILE NAME_PATH, NAME_PATH. */
function locatorLines(c: CommandSpec): string[] {
  const opt = c.params.some((p) => p.position === undefined) ? ' [flags]' : '';
  const notes = ['(1-based, as text output prints it)', '', '(the file: the one symbol of the workspace it names)'];
  return locatorForms(c)
    .slice(1)
    .map((form, i) => `       ${`${commandLine(c)} ${form}${opt}`.padEnd(50)} ${notes[i]}`.trimEnd());
}

/** What else names the command, or what it stands for. */
function otherNames(c: CommandSpec): string[] {
  const fixed = Object.entries(c.fixed ?? {}).map(
    ([k, v]) => `--${k.replace(/([a-z0-9])([A-Z])/g, '$1-$2').toLowerCase()} ${v}`,
  );
  return [
    ...(c.shortNames ? [`also: ${c.shortNames.map((n) => `idea ${n}`).join(', ')}`] : []),
    ...(fixed.length > 0 ? [`= idea ${c.name.replace('/', ' ')} … ${fixed.join(' ')}`] : []),
    ...(c.switchTo
      ? [
          `idea ${c.alias ?? c.name} ${c.switchTo.flag} ${c.switchTo.words} = idea ${c.switchTo.action} ${c.switchTo.words}`,
        ]
      : []),
  ];
}

export function commandHelp(c: CommandSpec): string {
  const others = otherNames(c);
  return [
    `usage: ${usageLine(c)}`,
    ...locatorLines(c),
    `       idea ${c.name} …   (topic ${c.topic})`,
    ...(others.length > 0 ? ['', ...others] : []),
    '',
    c.description,
    ...(c.paramsFile
      ? [
          '',
          `${PARAMS_FILE_WORD.split('|')[0]} holds the params as JSON: an object, or the list of ${c.params.find((p) => p.required && p.type === 'json')?.name} alone; - reads it from stdin.`,
          'Flags given win over the file: idea apply edit.json --dry-run shows the diff and writes nothing.',
        ]
      : []),
    '',
    'Flags:',
    ...c.params.map(flagLine),
    '',
    GLOBAL_HELP,
  ].join('\n');
}

export function mainHelp(cmds: readonly CommandSpec[], version: string, events: readonly EventSpec[] = []): string {
  const rows = cmds.map((c) => {
    const also = [
      ...(c.shortNames ?? []),
      ...(c.switchTo ? [`${c.alias ?? c.name} ${c.switchTo.flag} ${c.switchTo.words}`] : []),
    ];
    return `  ${usageLine(c).slice(5).padEnd(44)} ${c.description}${also.length > 0 ? ` (also: ${also.join('; ')})` : ''}`;
  });
  const locators = cmds.some((c) => c.locator);
  const watchable = events.map((e) => watchName(e.event));
  return [
    `idea: use a running VS Code from the shell (IDEA protocol ${version}).`,
    '',
    'Commands (one per topic; `idea CATEGORY ACTION` and `idea CATEGORY/ACTION` always work):',
    ...rows,
    ...(fixCommands(cmds)
      ? [
          `  ${'fix FILE:LINE [CHOICE] [--first] [--yes]'.padEnd(44)} the code actions at a line (or FILE NAME_PATH), and one applied: its dry run, written with --yes`,
        ]
      : []),
    `  ${'call TOPIC [--params JSON]'.padEnd(44)} any topic, params as JSON`,
    `  ${'servers'.padEnd(44)} the running IDEA servers, * = the one serving this folder`,
    ...(watchable.length > 0
      ? [
          `  ${`watch ${watchable.join('|')} [--json]`.padEnd(44)} stream changes as they happen (--json: NDJSON) until Ctrl-C`,
        ]
      : []),
    `  ${'help COMMAND'.padEnd(44)} a command's flags (or: idea COMMAND --help)`,
    '',
    'Positions are 0-based in flags, in FILE LINE COL and in --json (as in the protocol); text output',
    'prints them 1-based as path:line:col, like grep and tsc, and a file argument takes that form too:',
    'idea hover src/a.ts:12:5 is idea hover src/a.ts 11 4.',
    ...(locators
      ? [
          'A position is also a symbol, by name path (NAME_PATH: Class/method, /Top/level, name[1] for the second of',
          'that name): idea def src/app.ts Hono/route, or the name path alone when it names one symbol of the',
          'workspace: idea callers Hono/route. Every symbol listed shows its own name path.',
        ]
      : []),
    '',
    GLOBAL_HELP,
    '',
    'Exit codes: 0 ok, 1 protocol error (its code on stderr), 2 usage, 3 no server.',
  ].join('\n');
}

/** `idea fix --help` (fix.ts). */
export function fixHelp(): string {
  return [
    `usage: ${FIX_USAGE} [flags]`,
    '',
    "The language server's code actions (quick fixes, organize imports, fix all, refactors) at a line, a",
    'position or a symbol, numbered; with a CHOICE, that action: its dry run (the diff, nothing written),',
    'or with --yes the action written as one transaction (its id printed: idea undo ID takes it back).',
    'FILE:LINE is the whole line (1-based), FILE:LINE:COL a position, FILE NAME_PATH a symbol, FILE alone the',
    "file's start (for source actions: --only source.organizeImports). Listing and applying happen on one",
    'connection, where the listed ids are good.',
    '',
    'CHOICE: the number listed (1 = the first), or an id, a kind or a title (exactly) of one listed action.',
    '',
    'Flags:',
    '  --only KIND                        only actions of this kind or its sub-kinds (quickfix, refactor, source.organizeImports, …) [repeatable]',
    '  --first                            choose the first action listed',
    '  --yes, -y                          write the chosen action (else its dry run only)',
    '  --diagnostics                      with --yes: also answer the diagnostics of the files written, once settled',
    '  --diagnostics-wait-ms <integer>    with --diagnostics: the longest to wait for them [default 5000]',
    '',
    GLOBAL_HELP,
  ].join('\n');
}
