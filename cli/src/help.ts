// Help text, derived from the commands (so from the spec).
import { positionalName, watchName } from './args';
import { type CommandSpec, PARAM_ALIASES, type ParamSpec } from './commands';
import type { EventSpec } from './spec';

/** FILE_PATH, [FILE_PATH] when optional, [FILE_PATH...] when it takes a list. */
function positionalUsage(p: ParamSpec): string {
  const name = `${positionalName(p)}${p.repeatable ? '...' : ''}`;
  return p.required ? name : `[${name}]`;
}

/** How a command is typed: `idea find`, `idea diag list`. */
export function commandLine(c: CommandSpec): string {
  return `idea ${c.alias ?? c.name.replace('/', ' ')}`;
}

function usageLine(c: CommandSpec): string {
  const pos = c.positionals.map(positionalUsage).join(' ');
  const opt = c.params.some((p) => p.position === undefined) ? ' [flags]' : '';
  return `${commandLine(c)}${pos ? ` ${pos}` : ''}${opt}`;
}

/**
 * Said on stderr when a command printed nothing and it had files to name but none was named: what the
 * topic answers without them (its params schema's first sentence) and how to name them. Else undefined.
 */
export function emptyResultHint(c: CommandSpec, params: Record<string, unknown>): string | undefined {
  const file = c.positionals.find((p) => p.file && !p.required);
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

export function commandHelp(c: CommandSpec): string {
  return [
    `usage: ${usageLine(c)}`,
    `       idea ${c.name} …   (topic ${c.topic})`,
    '',
    c.description,
    '',
    'Flags:',
    ...c.params.map(flagLine),
    '',
    GLOBAL_HELP,
  ].join('\n');
}

export function mainHelp(cmds: readonly CommandSpec[], version: string, events: readonly EventSpec[] = []): string {
  const rows = cmds.map((c) => `  ${usageLine(c).slice(5).padEnd(44)} ${c.description}`);
  const watchable = events.map((e) => watchName(e.event));
  return [
    `idea: use a running VS Code from the shell (IDEA protocol ${version}).`,
    '',
    'Commands (one per topic; `idea CATEGORY ACTION` and `idea CATEGORY/ACTION` always work):',
    ...rows,
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
    '',
    GLOBAL_HELP,
    '',
    'Exit codes: 0 ok, 1 protocol error (its code on stderr), 2 usage, 3 no server.',
  ].join('\n');
}
