// The CLI's subcommands, derived from the topic index and the params schemas; nothing here is written
// per topic. Naming (documented in cli/README.md):
// - every topic is `idea <category> <action>` or `idea <category>/<action>` (the topic without
//   "/app/vscode/"), e.g. `idea history list`, `idea fs/findFiles`;
// - an action unique across topics is also a command on its own: `idea find`, `idea symbols`;
// - names match ignoring case and "-" (`find-files` = `findFiles`);
// - each param is a flag, camelCase → kebab-case (`isRegex` → `--is-regex`); the required scalar
//   params are also positional arguments, in the schema's `required` order (`idea find PATTERN`,
//   `idea definition FILE LINE CHARACTER`);
// - a file argument of a command whose line/character are optional may carry them, 1-based as text
//   output prints them: `idea open src/a.ts:12:5` (`--line 11 --character 4`);
// - a topic whose params take a position as line and character or as a name path (an `anyOf` of the
//   two, since 0.1.8) takes FILE LINE CHARACTER, FILE NAME_PATH or NAME_PATH alone (args.ts);
// - a few shorter or more natural spellings, by action name and never by topic (ACTION_ALIASES,
//   PRESETS, SWITCHES): `idea def`, `idea callers`, `idea symbols --workspace`, `idea mv`;
// - a topic with a required field that takes JSON reads its params from a file named as its argument
//   (`-`: stdin): `idea apply edit.json`.
import { CHANGED_FILES_PARAM } from '../../runtime/changed-files';
import type { JsonSchema, SpecBundle, TopicSpec } from './spec';

type ScalarType = 'string' | 'integer' | 'number' | 'boolean';

export interface ParamSpec {
  /** The params field, e.g. "maxCount". */
  name: string;
  /** The flag, e.g. "--max-count". */
  flag: string;
  /** Scalar type of a value; "json" when the schema is not a scalar (the flag then takes JSON). */
  type: ScalarType | 'json';
  /** The flag may be repeated, collecting an array (schema: array of scalars). */
  repeatable: boolean;
  /** A single occurrence is sent as a scalar (schema allows one); else as a one-element array. */
  acceptsScalar: boolean;
  enum?: readonly (string | number)[];
  default?: unknown;
  minimum?: number;
  required: boolean;
  /** Position among the positional arguments, when it is one. */
  position?: number;
  /** A file path (the spec's FilePath, or a list of them). */
  file: boolean;
  description: string;
  /** Answered by the client, never sent: `--changed` (runtime/changed-files.ts). */
  client?: true;
}

export interface CommandSpec {
  topic: string;
  /** "edit/find". */
  name: string;
  category: string;
  action: string;
  /** The action alone, when no other topic has it. */
  alias?: string;
  description: string;
  params: ParamSpec[];
  /** The positional params, in order. */
  positionals: ParamSpec[];
  /**
   * A positional file that may be written `FILE:LINE[:COL]` (1-based, as text output prints positions),
   * filling these optional params (0-based): commands with a file argument and optional line/character.
   */
  fileAt?: { file: ParamSpec; line: ParamSpec; character?: ParamSpec };
  /**
   * Positionals that start FILE LINE CHARACTER (required, 0-based): the three may also be given as one
   * `FILE:LINE:COL` (1-based), pasted from text output (`idea hover src/a.ts:12:5`).
   */
  positionAt?: true;
  /**
   * Since 0.1.8: the position is line and character, or a name path in their place (the schema's
   * `anyOf` of the two): FILE NAME_PATH and NAME_PATH alone are read too (args.ts).
   */
  locator?: { file: ParamSpec; line: ParamSpec; character: ParamSpec; namePath: ParamSpec };
  /** More names of the command (ACTION_ALIASES): `def` for definition. */
  shortNames?: string[];
  /** Params a preset fixes (PRESETS: `idea callers` sends `direction: "incoming"`); not flags. */
  fixed?: Record<string, string>;
  /**
   * A required params field takes JSON (edit/apply's `changes`): the params may come as a JSON file, its
   * name (or `-`, stdin) the one argument: `idea apply edit.json --dry-run` (flags given win over it).
   */
  paramsFile?: true;
  /** A flag that makes this command another (SWITCHES): `idea symbols --workspace` is workspaceSymbols. */
  switchTo?: { flag: string; name: string; action: string; words: string };
  schema: JsonSchema;
}

/** The spec's type of a file path a client gives (defs FilePath), known by its title once inlined. */
const FILE_PATH_TITLE = 'FilePath';

/**
 * Short and familiar spellings (grep's) of params, by field name: the flag, and the value it stands
 * for. Derived per field, never per topic: any topic with such a field gets them.
 */
export const PARAM_ALIASES: Readonly<Record<string, readonly { flag: string; value: string }[]>> = {
  isRegex: [
    { flag: '-E', value: 'true' },
    { flag: '--regex', value: 'true' },
  ],
  isCaseSensitive: [
    { flag: '-i', value: 'false' },
    { flag: '--ignore-case', value: 'false' },
  ],
  includeBody: [{ flag: '--body', value: 'true' }],
};

/**
 * Short and familiar spellings of params that take a value, by field name: `--kind class` for
 * `--include-kinds class` (findSymbol) and `--kinds class` (workspaceSymbols).
 */
export const VALUE_ALIASES: Readonly<Record<string, readonly string[]>> = {
  includeKinds: ['--kind'],
  kinds: ['--kind'],
};

/** More names of a command, by action (kept only where the name is free): `idea def` = `idea definition`. */
export const ACTION_ALIASES: Readonly<Record<string, readonly string[]>> = {
  definition: ['def'],
  references: ['refs'],
  findSymbol: ['symbol'],
  move: ['mv'],
};

/**
 * Commands that are an action with some params fixed, by action: `idea callers NAME_PATH` is
 * callHierarchy with `direction: "incoming"`. Present where the spec has the action and its field.
 */
export const PRESETS: readonly { name: string; action: string; fixed: Record<string, string>; description: string }[] =
  [
    {
      name: 'callers',
      action: 'callHierarchy',
      fixed: { direction: 'incoming' },
      description: 'Who calls a function: its callers, to a bounded depth (callHierarchy, direction incoming).',
    },
    {
      name: 'callees',
      action: 'callHierarchy',
      fixed: { direction: 'outgoing' },
      description: 'What a function calls: its callees, to a bounded depth (callHierarchy, direction outgoing).',
    },
  ];

/**
 * A flag that makes a command another, by action: `idea symbols --workspace QUERY` (a search of the
 * whole workspace) is `idea workspaceSymbols QUERY`, where `idea symbols FILE` is a file's outline.
 */
export const SWITCHES: readonly { action: string; flag: string; to: string }[] = [
  { action: 'symbols', flag: '--workspace', to: 'workspaceSymbols' },
];

/** Flags the CLI itself takes; a params field may not collide with them. */
export const GLOBAL_FLAGS = [
  '--json',
  '--url',
  '--token',
  '--timeout',
  '--color',
  '--no-color',
  '--help',
  '--params',
  '--version',
  '--headless',
] as const;

const TOPIC_PREFIX = '/app/vscode/';

export function kebab(name: string): string {
  return name.replace(/([a-z0-9])([A-Z])/g, '$1-$2').toLowerCase();
}

/** How names are compared: case and "-" ignored. */
function normName(s: string): string {
  return s.replace(/-/g, '').toLowerCase();
}

const SCALARS: readonly string[] = ['string', 'integer', 'number', 'boolean'];

function scalarOf(s: JsonSchema | undefined): ScalarType | undefined {
  if (!s) return undefined;
  if (typeof s.type === 'string' && SCALARS.includes(s.type)) return s.type as ScalarType;
  if (s.type === undefined && Array.isArray(s.enum) && s.enum.length > 0 && s.enum.every((v) => typeof v === 'string'))
    return 'string';
  return undefined;
}

/** Type, repeatability and enum of one property schema. */
function shapeOf(
  s: JsonSchema,
): Pick<ParamSpec, 'type' | 'repeatable' | 'acceptsScalar' | 'enum' | 'minimum' | 'file'> {
  const scalar = scalarOf(s);
  const pick = (x: JsonSchema) => ({
    ...(Array.isArray(x.enum) ? { enum: x.enum as (string | number)[] } : {}),
    ...(typeof x.minimum === 'number' ? { minimum: x.minimum } : {}),
    file: x.title === FILE_PATH_TITLE,
  });
  if (scalar) return { type: scalar, repeatable: false, acceptsScalar: true, ...pick(s) };
  const arrayItems = (x: JsonSchema) => (x.type === 'array' ? scalarOf(x.items as JsonSchema | undefined) : undefined);
  const items = arrayItems(s);
  if (items) return { type: items, repeatable: true, acceptsScalar: false, ...pick(s.items as JsonSchema) };
  // anyOf/oneOf of a scalar and an array of the same scalar: one value or several.
  const alts = (s.anyOf ?? s.oneOf) as JsonSchema[] | undefined;
  if (Array.isArray(alts) && alts.length === 2) {
    const one = alts.find((a) => scalarOf(a));
    const many = alts.find((a) => arrayItems(a));
    if (one && many && scalarOf(one) === arrayItems(many))
      return { type: scalarOf(one)!, repeatable: true, acceptsScalar: true, ...pick(one) };
  }
  return { type: 'json', repeatable: false, acceptsScalar: true, file: false };
}

/**
 * The name path standing for line and character (since 0.1.8, clause T44): the one string field an
 * `anyOf` branch requires where another requires exactly line and character.
 */
function locatorOf(
  schema: JsonSchema,
  params: readonly ParamSpec[],
  file: ParamSpec | undefined,
): CommandSpec['locator'] | undefined {
  const branches = Array.isArray(schema.anyOf) ? (schema.anyOf as JsonSchema[]) : [];
  const requires = (b: JsonSchema) => (Array.isArray(b.required) ? (b.required as string[]) : []);
  const position = branches.some((b) => [...requires(b)].sort().join() === 'character,line');
  const byName = (n: string | undefined) => params.find((p) => p.name === n && !p.required);
  const line = byName('line');
  const character = byName('character');
  const namePath = branches
    .map((b) => requires(b))
    .filter((r) => r.length === 1 && r[0] !== 'line' && r[0] !== 'character')
    .map((r) => byName(r[0]))
    .find((p) => p?.type === 'string');
  if (!position || !file || !line || !character || !namePath) return undefined;
  if (line.type !== 'integer' || character.type !== 'integer') return undefined;
  return { file, line, character, namePath };
}

function commandOf(t: TopicSpec, actionCount: Map<string, number>, fixed: Record<string, string> = {}): CommandSpec {
  if (!t.topic.startsWith(TOPIC_PREFIX)) throw new Error(`topic ${t.topic} does not start with ${TOPIC_PREFIX}`);
  const name = t.topic.slice(TOPIC_PREFIX.length);
  const parts = name.split('/');
  if (parts.length !== 2 || parts.some((p) => !p))
    throw new Error(`topic ${t.topic} is not ${TOPIC_PREFIX}<category>/<action>`);
  const [category, action] = parts as [string, string];
  // A preset's fixed fields are no flags or arguments of it.
  const props = Object.fromEntries(
    Object.entries((t.params.properties ?? {}) as Record<string, JsonSchema>).filter(([f]) => !(f in fixed)),
  );
  const required = (Array.isArray(t.params.required) ? (t.params.required as string[]) : []).filter(
    (f) => !(f in fixed),
  );
  const params: ParamSpec[] = Object.entries(props).map(([field, s]) => {
    const flag = `--${kebab(field)}`;
    if ((GLOBAL_FLAGS as readonly string[]).includes(flag))
      throw new Error(`${t.topic}: param ${field} collides with the CLI's own flag ${flag}`);
    return {
      name: field,
      flag,
      ...shapeOf(s),
      ...(s.default !== undefined ? { default: s.default } : {}),
      required: required.includes(field),
      description: typeof s.description === 'string' ? s.description : '',
    };
  });
  // The client's own param of this topic, unless the spec has one of that name (the server's wins).
  const c = CHANGED_FILES_PARAM;
  if (t.topic === c.topic && !params.some((p) => p.name === c.name))
    params.push({
      name: c.name,
      flag: `--${kebab(c.name)}`,
      type: 'boolean',
      repeatable: false,
      acceptsScalar: true,
      required: false,
      file: false,
      description: c.description.replace(c.fills, `--${kebab(c.fills)}`),
      client: true,
    });
  const positionals: ParamSpec[] = [];
  for (const field of required) {
    const p = params.find((q) => q.name === field);
    if (p && p.type !== 'json' && p.type !== 'boolean' && !p.repeatable) positionals.push(p);
  }
  // A position given as line and character or a name path: LINE CHARACTER follow the file, as they did
  // when they were required (FILE NAME_PATH and NAME_PATH alone are read by args.ts).
  const locator = locatorOf(
    t.params,
    params,
    positionals.find((q) => q.file),
  );
  if (locator) positionals.splice(positionals.indexOf(locator.file) + 1, 0, locator.line, locator.character);
  // Files are what one names on a command line: the one optional file param, when there is exactly one.
  const files = params.filter((p) => p.file && !p.required && p.type === 'string');
  if (files.length === 1) positionals.push(files[0]!);
  positionals.forEach((p, i) => {
    p.position = i;
  });
  const optionalInt = (field: string) =>
    params.find((q) => q.name === field && !q.required && q.type === 'integer' && q.position === undefined);
  const file = positionals.find((q) => q.file && !q.repeatable);
  const line = optionalInt('line');
  const character = optionalInt('character');
  const [p0, p1, p2] = positionals;
  const positionAt = p0?.file === true && p1?.name === 'line' && p2?.name === 'character';
  const paramsFile = params.some((p) => p.required && p.type === 'json');
  return {
    ...(paramsFile ? { paramsFile: true as const } : {}),
    ...(file && line ? { fileAt: { file, line, ...(character ? { character } : {}) } } : {}),
    ...(positionAt ? { positionAt: true as const } : {}),
    ...(locator ? { locator } : {}),
    ...(Object.keys(fixed).length > 0 ? { fixed } : {}),
    topic: t.topic,
    name,
    category,
    action,
    ...(actionCount.get(normName(action)) === 1 ? { alias: action } : {}),
    description: t.description,
    params,
    positionals,
    schema: t.params,
  };
}

/**
 * One command per topic of `spec`, in the index's order, then the presets (`idea callers`); topics the
 * session serves itself (events/subscribe, /unsubscribe) are not commands: `idea watch` subscribes and
 * unsubscribes. A short name, preset or switch is kept only where the spec has what it names and its
 * name is no other command's.
 */
export function commandsFromSpec(spec: SpecBundle): CommandSpec[] {
  const topics = spec.topics.filter((t) => t.servedBy !== 'session');
  const actionCount = new Map<string, number>();
  for (const t of topics) {
    const action = normName(t.topic.split('/').pop() ?? '');
    actionCount.set(action, (actionCount.get(action) ?? 0) + 1);
  }
  const cmds = topics.map((t) => commandOf(t, actionCount));
  const categories = new Set(cmds.map((c) => normName(c.category)));
  // An alias that is also a category name would make `idea <category> <action>` ambiguous.
  for (const c of cmds) if (c.alias && categories.has(normName(c.alias))) delete c.alias;
  const taken = new Set([...categories, ...cmds.flatMap((c) => [normName(c.name), normName(c.alias ?? '')])]);
  /** Whether `n` names no command yet; it then does. */
  const free = (n: string) => {
    if (taken.has(normName(n))) return false;
    taken.add(normName(n));
    return true;
  };
  // The command of an action no other topic has (the one that got the action as its alias).
  const unique = (action: string) => cmds.find((x) => x.alias !== undefined && normName(x.action) === normName(action));
  for (const [action, names] of Object.entries(ACTION_ALIASES)) {
    const c = unique(action);
    const short = c ? names.filter(free) : [];
    if (c && short.length > 0) c.shortNames = short;
  }
  for (const s of SWITCHES) {
    const from = unique(s.action);
    const to = unique(s.to);
    if (from && to && !from.params.some((p) => p.flag === s.flag)) {
      const words = to.positionals.map((p) => p.name.replace(/([a-z0-9])([A-Z])/g, '$1_$2').toUpperCase()).join(' ');
      from.switchTo = { flag: s.flag, name: to.name, action: to.action, words };
    }
  }
  for (const p of PRESETS) {
    const base = unique(p.action);
    const t = base && topics.find((x) => x.topic === base.topic);
    const props = (t?.params.properties ?? {}) as Record<string, JsonSchema>;
    if (!t || !Object.keys(p.fixed).every((f) => f in props) || !free(p.name)) continue;
    cmds.push({ ...commandOf(t, actionCount, p.fixed), alias: p.name, description: p.description });
  }
  return cmds;
}

/** The command `words` name, and how many words it took (0 when none). */
export function findCommand(
  cmds: readonly CommandSpec[],
  words: readonly string[],
): { command: CommandSpec; used: number } | undefined {
  const [a, b] = words.map(normName);
  if (a !== undefined && b !== undefined) {
    const c = cmds.find((x) => normName(x.category) === a && normName(x.action) === b && !x.fixed);
    if (c) return { command: c, used: 2 };
  }
  if (a === undefined) return undefined;
  const full = a.startsWith(normName(TOPIC_PREFIX)) ? a.slice(normName(TOPIC_PREFIX).length) : a.replace(/^\//, '');
  const c = cmds.find(
    (x) =>
      (normName(x.name) === full && !x.fixed) ||
      (x.alias !== undefined && normName(x.alias) === a) ||
      x.shortNames?.some((n) => normName(n) === a),
  );
  return c ? { command: c, used: 1 } : undefined;
}
