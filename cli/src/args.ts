// Command-line parsing: argv → what to do. Pure (no I/O); every mistake is a UsageError (exit 2)
// naming the flag or argument.
import { type CommandSpec, findCommand, GLOBAL_FLAGS, PARAM_ALIASES, type ParamSpec, VALUE_ALIASES } from './commands';
import { FIX_VALUE_FLAGS, type FixInvocation, fixCommands, parseFix } from './fix';
import type { EventSpec } from './spec';
import { UsageError } from './usage-error';

/** How the argument of a command taking its params as a file is written (help, errors). */
export const PARAMS_FILE_WORD = 'PARAMS.json|-';

export { UsageError } from './usage-error';

export interface GlobalOptions {
  json: boolean;
  url?: string;
  token?: string;
  timeoutMs?: number;
  /** --headless: with no server for the folder, serve it in-process (idea-server) for this command. */
  headless?: boolean;
  /** undefined: colour when stdout is a terminal. */
  color?: boolean;
}

export type Invocation =
  | {
      kind: 'topic';
      command: CommandSpec;
      params: Record<string, unknown>;
      /** The JSON file holding the params (commands.ts `paramsFile`; `-`: stdin), read by main.ts. */
      paramsFile?: string;
      globals: GlobalOptions;
    }
  | { kind: 'call'; topic: string; command?: CommandSpec; params: Record<string, unknown>; globals: GlobalOptions }
  | { kind: 'servers'; globals: GlobalOptions }
  | { kind: 'fix'; fix: FixInvocation; globals: GlobalOptions }
  | { kind: 'watch'; event: string; globals: GlobalOptions }
  | { kind: 'help'; command?: CommandSpec; topic?: 'fix'; globals: GlobalOptions }
  | { kind: 'version'; globals: GlobalOptions };

interface Flag {
  name: string;
  value?: string;
}

/** How split() reads a token starting with "-": a flag without value, one taking the next word, an alias, or unknown. */
type FlagKind = { kind: 'valueless' } | { kind: 'value' } | { kind: 'alias'; flag: Flag } | { kind: 'unknown' };

/** Splits argv into flags (`--x v`, `--x=v`, aliases) and positionals, as `kindOf` says each flag is read. */
function split(argv: readonly string[], kindOf: (name: string) => FlagKind): { flags: Flag[]; words: string[] } {
  const flags: Flag[] = [];
  const words: string[] = [];
  for (let i = 0; i < argv.length; i++) {
    const a = argv[i]!;
    if (a === '--') {
      words.push(...argv.slice(i + 1));
      break;
    }
    if (a === '-h') {
      flags.push({ name: '--help' });
      continue;
    }
    const eq = a.indexOf('=');
    const k = kindOf(eq > 0 ? a.slice(0, eq) : a);
    if (k.kind === 'alias' && eq < 0) {
      flags.push(k.flag);
      continue;
    }
    if (!a.startsWith('--')) {
      words.push(a);
      continue;
    }
    if (eq > 0) flags.push({ name: a.slice(0, eq), value: a.slice(eq + 1) });
    else if (k.kind === 'valueless' || k.kind === 'unknown')
      flags.push({ name: a }); // an unknown one is refused by name, its value never eaten
    else {
      const v = argv[i + 1];
      if (v === undefined) throw new UsageError(`${a} needs a value`);
      flags.push({ name: a, value: v });
      i++;
    }
  }
  return { flags, words };
}

/** The usage error for a flag `cmd` does not have, naming the flags it may have meant. */
function unknownFlag(name: string, cmd: CommandSpec): UsageError {
  const word = name.replace(/^-+/, '').replace(/^no-/, '');
  const close = (f: string) =>
    f.includes(word) ||
    word.includes(f) ||
    f.split('-').some((seg) => seg.length >= 4 && (word.startsWith(seg) || seg.startsWith(word)));
  const near = word.length < 3 ? [] : cmd.params.map((p) => p.flag).filter((f) => close(f.slice(2)));
  return new UsageError(
    `unknown flag ${name} for '${cmd.name}'${near.length ? ` (did you mean ${near.join(' or ')}?)` : ''}`,
    cmd,
  );
}

const GLOBAL_VALUELESS = new Set(['--json', '--color', '--no-color', '--help', '--version', '--headless']);

function takeGlobals(flags: Flag[]): {
  globals: GlobalOptions;
  help: boolean;
  version: boolean;
  params?: string;
  rest: Flag[];
} {
  const globals: GlobalOptions = { json: false };
  let help = false;
  let version = false;
  let params: string | undefined;
  const rest: Flag[] = [];
  for (const f of flags) {
    switch (f.name) {
      case '--json':
        globals.json = true;
        break;
      case '--color':
        globals.color = true;
        break;
      case '--no-color':
        globals.color = false;
        break;
      case '--help':
        help = true;
        break;
      case '--version':
        version = true;
        break;
      case '--url':
        globals.url = f.value;
        break;
      case '--token':
        globals.token = f.value;
        break;
      case '--params':
        params = f.value;
        break;
      case '--headless':
        globals.headless = true;
        break;
      case '--timeout': {
        if (!/^\d+$/.test(f.value ?? '') || Number(f.value) < 1)
          throw new UsageError(`--timeout expects milliseconds (a positive integer), got '${f.value}'`);
        globals.timeoutMs = Number(f.value);
        break;
      }
      default:
        rest.push(f);
    }
  }
  return { globals, help, version, ...(params !== undefined ? { params } : {}), rest };
}

function convert(p: ParamSpec, raw: string, cmd: CommandSpec, label: string): unknown {
  switch (p.type) {
    case 'string':
      break;
    case 'boolean': {
      if (raw === 'true') return true;
      if (raw === 'false') return false;
      throw new UsageError(`${label} is true or false, got '${raw}'`, cmd);
    }
    case 'integer':
    case 'number': {
      const ok = p.type === 'integer' ? /^-?\d+$/.test(raw) : raw.trim() !== '' && Number.isFinite(Number(raw));
      if (!ok)
        throw new UsageError(`${label} expects ${p.type === 'integer' ? 'an integer' : 'a number'}, got '${raw}'`, cmd);
      const n = Number(raw);
      if (p.minimum !== undefined && n < p.minimum)
        throw new UsageError(`${label} must be ≥ ${p.minimum}, got ${raw}`, cmd);
      if (p.enum && !p.enum.includes(n))
        throw new UsageError(`${label} must be one of ${p.enum.join(', ')}, got ${raw}`, cmd);
      return n;
    }
    case 'json': {
      try {
        return JSON.parse(raw);
      } catch {
        throw new UsageError(`${label} expects JSON, got '${raw}'`, cmd);
      }
    }
  }
  if (p.enum && !p.enum.includes(raw))
    throw new UsageError(`${label} must be one of ${p.enum.join(', ')}, got '${raw}'`, cmd);
  return raw;
}

/** How a param is named in messages: its flag, and its positional name when it is one. */
export function paramLabel(p: ParamSpec): string {
  return p.position !== undefined ? `${positionalName(p)} (${p.flag})` : p.flag;
}

export function positionalName(p: ParamSpec): string {
  return p.name.replace(/([a-z0-9])([A-Z])/g, '$1_$2').toUpperCase();
}

/** Params of `cmd` from its flags and positionals (types, enums and minimums checked; the rest is the schema's job). */
function paramsOf(cmd: CommandSpec, flags: readonly Flag[], given: readonly string[]): Record<string, unknown> {
  const expanded = cmd.positionAt ? expandPosition(cmd, given) : given;
  const { words, slots } = expanded !== given ? { words: expanded, slots: cmd.positionals } : locate(cmd, flags, given);
  const params: Record<string, unknown> = {};
  const collected = new Map<ParamSpec, unknown[]>();
  for (const f of flags) {
    let p =
      cmd.params.find((q) => q.flag === f.name) ?? cmd.params.find((q) => VALUE_ALIASES[q.name]?.includes(f.name));
    let value = f.value;
    if (!p && f.name.startsWith('--no-')) {
      p = cmd.params.find((q) => q.flag === `--${f.name.slice(5)}` && q.type === 'boolean');
      if (p) {
        if (value !== undefined) throw new UsageError(`${f.name} takes no value`, cmd);
        value = 'false';
      }
    }
    if (!p) throw unknownFlag(f.name, cmd);
    if (value === undefined) value = 'true'; // a boolean flag given alone
    const list = collected.get(p) ?? [];
    if (list.length > 0 && !p.repeatable) throw new UsageError(`${p.flag} given twice`, cmd);
    list.push(convert(p, value, cmd, p.flag));
    collected.set(p, list);
  }
  if (words.length > slots.length && slots.at(-1)?.repeatable !== true) {
    const extra = words.slice(slots.length).join(' ');
    throw new UsageError(
      `'${cmd.name}' takes ${slots.length === 0 ? 'no arguments' : `at most ${slots.length} argument(s) (${slots.map(positionalName).join(' ')})`}; unexpected: ${extra}`,
      cmd,
    );
  }
  words.forEach((w, i) => {
    const extra = i >= slots.length; // only for a last positional that takes a list
    const p = slots[extra ? slots.length - 1 : i]!;
    if (!extra && collected.has(p))
      throw new UsageError(`${positionalName(p)} given both as an argument and as ${p.flag}`, cmd);
    collected.set(p, [...(extra ? collected.get(p)! : []), convert(p, w, cmd, positionalName(p))]);
  });
  for (const [p, values] of collected)
    params[p.name] = p.repeatable && !(values.length === 1 && p.acceptsScalar) ? values : values[0];
  if (cmd.fileAt && words.length > 0) Object.assign(params, fileAt(cmd, cmd.fileAt, params));
  return { ...params, ...cmd.fixed };
}

/** How the position of a locator command may be written: `FILE LINE CHARACTER NEW_NAME, …`. */
export function locatorForms(cmd: CommandSpec): string[] {
  const l = cmd.locator;
  if (!l) return [];
  const rest = cmd.positionals
    .slice(cmd.positionals.indexOf(l.character) + 1)
    .map((p) => ` ${positionalName(p)}`)
    .join('');
  return [
    `${positionalName(l.file)} LINE CHARACTER${rest}`,
    `${positionalName(l.file)}:LINE:COL${rest}`,
    `${positionalName(l.file)} NAME_PATH${rest}`,
    `NAME_PATH${rest}`,
  ];
}

/**
 * The params the words of a locator command fill (since 0.1.8), when no part of the position is a
 * flag: FILE LINE CHARACTER … as always; one word fewer is FILE NAME_PATH …; two fewer (and no
 * FILE:LINE:COL) is NAME_PATH … alone, whose file the CLI finds (main.ts). A number where NAME_PATH
 * goes is a LINE without its CHARACTER, refused (a symbol named so takes --name-path).
 */
function locate(
  cmd: CommandSpec,
  flags: readonly Flag[],
  words: readonly string[],
): { words: readonly string[]; slots: readonly ParamSpec[] } {
  const l = cmd.locator;
  const slots = cmd.positionals;
  if (!l) return { words, slots };
  const parts = [l.file, l.line, l.character, l.namePath];
  if (flags.some((f) => parts.some((p) => p.flag === f.name))) return { words, slots };
  const rest = slots.slice(slots.indexOf(l.character) + 1);
  const forms = () => `give ${locatorForms(cmd).join(', or ')}`;
  if (words.length === slots.length - 1) {
    const w = words[1]!;
    if (/^\d+$/.test(w))
      throw new UsageError(
        `${w} stands where NAME_PATH goes, but it is a number: ${forms()} (a symbol named ${w}: --name-path ${w})`,
        cmd,
      );
    return { words, slots: [l.file, l.namePath, ...rest] };
  }
  if (words.length === slots.length - 2 && words.length > 0) {
    const w = words[0]!;
    if (/^.+:\d+$/.test(w)) throw new UsageError(`${w} has a line but no column: ${forms()}`, cmd);
    return { words, slots: [l.namePath, ...rest] };
  }
  return { words, slots };
}

/**
 * `FILE:LINE:COL` (1-based) standing for the FILE LINE CHARACTER positionals (0-based), recognised only
 * when exactly the two words it replaces are missing: `idea rename a.ts:3:17 sum`.
 */
function expandPosition(cmd: CommandSpec, words: readonly string[]): readonly string[] {
  const m = words.length === cmd.positionals.length - 2 ? /^(.+?):(\d+):(\d+)$/.exec(words[0] ?? '') : null;
  if (!m) return words;
  const [, file, line, col] = m;
  const zeroBased = (n: string, what: string) => {
    const v = Number(n);
    if (!Number.isSafeInteger(v) || v < 1)
      throw new UsageError(`${what} in ${words[0]} must be 1 or more (1-based)`, cmd);
    return String(v - 1);
  };
  return [file!, zeroBased(line!, 'the line'), zeroBased(col!, 'the column'), ...words.slice(1)];
}

/** `FILE:LINE[:COL]` (1-based) in a file argument → the file and the 0-based line/character params. */
function fileAt(
  cmd: CommandSpec,
  at: NonNullable<CommandSpec['fileAt']>,
  params: Record<string, unknown>,
): Record<string, unknown> {
  const value = params[at.file.name];
  const m = typeof value === 'string' ? /^(.+?):(\d+)(?::(\d+))?$/.exec(value) : null;
  if (!m) return {};
  const [, file, line, col] = m;
  if (
    params[at.line.name] !== undefined ||
    (col !== undefined && at.character && params[at.character.name] !== undefined)
  )
    throw new UsageError(`${positionalName(at.file)} carries a position and ${at.line.flag} is given too`, cmd);
  const oneBased = (n: string, what: string) => {
    const v = Number(n);
    if (!Number.isSafeInteger(v) || v < 1) throw new UsageError(`${what} in ${value} must be 1 or more (1-based)`, cmd);
    return v - 1;
  };
  return {
    [at.file.name]: file,
    [at.line.name]: oneBased(line!, 'the line'),
    ...(col !== undefined && at.character ? { [at.character.name]: oneBased(col, 'the column') } : {}),
  };
}

/** How `idea fix`'s flags (and the CLI's own) are read. */
function fixFlagKinds(name: string): FlagKind {
  if (GLOBAL_VALUELESS.has(name)) return { kind: 'valueless' };
  if ((GLOBAL_FLAGS as readonly string[]).includes(name) || FIX_VALUE_FLAGS.includes(name)) return { kind: 'value' };
  if (name === '-y') return { kind: 'alias', flag: { name: '--yes' } };
  return { kind: name.startsWith('--') ? 'valueless' : 'unknown' };
}

/** How each flag of `cmd` (and the CLI's own) is read; without a command, any other flag takes a value. */
function flagKinds(cmd: CommandSpec | undefined): (name: string) => FlagKind {
  return (name) => {
    if (GLOBAL_VALUELESS.has(name)) return { kind: 'valueless' };
    if ((GLOBAL_FLAGS as readonly string[]).includes(name)) return { kind: 'value' };
    if (!cmd) return { kind: name.startsWith('--') ? 'value' : 'unknown' };
    const own = cmd.params.find((p) => p.flag === name || (p.type === 'boolean' && `--no-${p.flag.slice(2)}` === name));
    if (own) return { kind: own.type === 'boolean' ? 'valueless' : 'value' }; // a param's own flag wins over an alias
    for (const p of cmd.params) {
      const alias = p.type === 'boolean' ? PARAM_ALIASES[p.name]?.find((a) => a.flag === name) : undefined;
      if (alias) return { kind: 'alias', flag: { name: p.flag, value: alias.value } };
      if (p.type !== 'boolean' && VALUE_ALIASES[p.name]?.includes(name)) return { kind: 'value' };
    }
    return { kind: 'unknown' };
  };
}

/**
 * How a flag given before the command is read, before the command is known: the CLI's own flags as
 * always; a command's boolean flag (or its `--no-` form) takes no value and a value flag takes the next
 * word — judged over every command, so `idea --dry-run rename …` never eats `rename`. A flag that is a
 * boolean of one command and takes a value in another is 'either' (both readings are tried); one no
 * command has takes no value (it is refused by name later, as split() does).
 */
function kindBeforeCommand(cmds: readonly CommandSpec[], name: string): 'valueless' | 'value' | 'either' {
  if (GLOBAL_VALUELESS.has(name) || name === '-h') return 'valueless';
  if ((GLOBAL_FLAGS as readonly string[]).includes(name)) return 'value';
  let boolean = false;
  let value = false;
  for (const c of cmds)
    for (const p of c.params) {
      if (p.type === 'boolean' && (p.flag === name || `--no-${p.flag.slice(2)}` === name)) boolean = true;
      else if (p.flag === name) value = true;
      if (p.type === 'boolean' && PARAM_ALIASES[p.name]?.some((a) => a.flag === name)) boolean = true;
      if (p.type !== 'boolean' && VALUE_ALIASES[p.name]?.includes(name)) value = true;
    }
  return boolean && value ? 'either' : value ? 'value' : 'valueless';
}

/**
 * The words naming the command: up to two adjacent words of argv after any flags (the CLI's own or a
 * command's: `idea --headless --json symbols F`, `idea --dry-run rename …`) and their values; `--` ends
 * the flags. Where a flag before the command could be read two ways, the reading that names a command wins.
 */
function commandWords(argv: readonly string[], cmds: readonly CommandSpec[], from = 0): string[] {
  const words: string[] = [];
  for (let i = from; i < argv.length && words.length < 2; i++) {
    const a = argv[i]!;
    if (a === '--') {
      words.push(...argv.slice(i + 1, i + 1 + (2 - words.length)));
      break;
    }
    if (!a.startsWith('-') || a === '-') {
      words.push(a);
      continue;
    }
    if (words.length > 0) break; // the command's words stand together
    if (a.includes('=')) continue;
    const kind = kindBeforeCommand(cmds, a);
    if (kind === 'value') i++;
    else if (kind === 'either') {
      const asBoolean = commandWords(argv, cmds, i + 1);
      if (findCommand(cmds, asBoolean.slice(0, 2))) return asBoolean;
      return commandWords(argv, cmds, i + 2);
    }
  }
  return words;
}

/**
 * argv (without node and the script) → an Invocation. The command is chosen from the leading words
 * (`idea find …`, `idea history list …`, `idea call TOPIC`, `idea servers`).
 */
/** `idea watch NAME`: an event's name is its first word after /app/vscode/ ("files" for files/changed). */
export function watchName(event: string): string {
  return event.replace(/^\/app\/vscode\//, '').split('/')[0]!;
}

export function parseArgs(
  argv: readonly string[],
  cmds: readonly CommandSpec[],
  events: readonly EventSpec[] = [],
): Invocation {
  // The command words come first (after global flags, if any); the command is picked before splitting
  // so that its boolean flags are known to take no value.
  const leading = commandWords(argv, cmds);
  const special = leading[0];
  let found =
    special === 'call' || special === 'servers' || special === 'help' || special === 'watch'
      ? undefined
      : findCommand(cmds, leading.slice(0, 2));
  // `idea symbols --workspace QUERY` is another command (commands.ts SWITCHES): the flag says which.
  const switched = found?.command.switchTo;
  const end = argv.indexOf('--');
  const at = switched ? argv.indexOf(switched.flag) : -1;
  if (switched && at >= 0 && (end < 0 || at < end)) {
    const to = cmds.find((c) => c.name === switched.name)!;
    found = { command: to, used: found!.used };
    argv = [...argv.slice(0, at), ...argv.slice(at + 1)];
  }
  const fix = special === 'fix' && !found ? fixCommands(cmds) : undefined;
  const { flags, words } = split(argv, fix ? fixFlagKinds : flagKinds(found?.command));
  const { globals, help, version, params: paramsJson, rest } = takeGlobals(flags);
  if (version) return { kind: 'version', globals };
  if (words.length === 0) {
    if (help || rest.length === 0) return { kind: 'help', globals };
    throw new UsageError(`no command given (flags ${rest.map((f) => f.name).join(', ')})`);
  }
  const head = words[0]!;
  if (head === 'help') {
    if (words[1] === 'fix' && fixCommands(cmds) && !findCommand(cmds, ['fix']))
      return { kind: 'help', topic: 'fix', globals };
    const target = findCommand(cmds, words.slice(1, 3));
    return { kind: 'help', ...(target ? { command: target.command } : {}), globals };
  }
  if (head === 'fix' && fix) {
    if (help) return { kind: 'help', topic: 'fix', globals };
    return { kind: 'fix', fix: parseFix(words.slice(1), rest, fix), globals };
  }
  if (head === 'servers') {
    if (help) return { kind: 'help', globals };
    if (words.length > 1 || rest.length > 0) throw new UsageError(`'servers' takes no arguments besides --json`);
    return { kind: 'servers', globals };
  }
  if (head === 'watch') {
    if (help) return { kind: 'help', globals };
    const names = events.map((e) => watchName(e.event));
    const usage = `usage: idea watch ${names.join('|') || 'EVENT'} [--json]`;
    if (names.length === 0) throw new UsageError('this protocol version has no events to watch');
    if (words.length !== 2) throw new UsageError(usage);
    const event = events.find((e) => watchName(e.event) === words[1]!.toLowerCase());
    if (!event) throw new UsageError(`unknown event '${words[1]}' (${usage})`);
    if (rest.length > 0) throw new UsageError(`'watch' takes no ${rest[0]!.name} (${usage})`);
    return { kind: 'watch', event: event.event, globals };
  }
  if (head === 'call') {
    if (help) return { kind: 'help', globals };
    const topic = words[1];
    if (!topic || words.length > 2)
      throw new UsageError(
        'usage: idea call TOPIC [--params JSON]  (e.g. idea call /app/vscode/edit/find --params \'{"pattern":"TODO"}\')',
      );
    if (rest.length > 0) throw new UsageError(`'call' takes its params as --params JSON, not ${rest[0]!.name}`);
    let params: unknown = {};
    if (paramsJson !== undefined) {
      try {
        params = JSON.parse(paramsJson);
      } catch (e) {
        throw new UsageError(`--params is not JSON: ${(e as Error).message}`);
      }
    }
    if (typeof params !== 'object' || params === null || Array.isArray(params))
      throw new UsageError('--params must be a JSON object');
    const known = findCommand(cmds, [topic]);
    const full = known ? known.command.topic : topic;
    if (!full.startsWith('/'))
      throw new UsageError(`unknown topic '${topic}' (give the full topic, e.g. /app/vscode/edit/find)`);
    return {
      kind: 'call',
      topic: full,
      ...(known ? { command: known.command } : {}),
      params: params as Record<string, unknown>,
      globals,
    };
  }
  if (!found) throw new UsageError(`unknown command '${words.slice(0, 2).join(' ')}' (idea --help lists them)`);
  if (help) return { kind: 'help', command: found.command, globals };
  if (paramsJson !== undefined)
    throw new UsageError(`--params belongs to 'idea call'; '${found.command.name}' takes flags`, found.command);
  // The command words are the first words of argv that are not flags; drop them.
  const given = words.slice(found.used);
  if (found.command.paramsFile && given.length > 0) {
    if (given.length > 1)
      throw new UsageError(
        `'${found.command.alias ?? found.command.name}' takes one argument, the params file (${PARAMS_FILE_WORD}); unexpected: ${given.slice(1).join(' ')}`,
        found.command,
      );
    const params = paramsOf(found.command, rest, []);
    return { kind: 'topic', command: found.command, params, paramsFile: given[0]!, globals };
  }
  const params = paramsOf(found.command, rest, given);
  return { kind: 'topic', command: found.command, params, globals };
}
