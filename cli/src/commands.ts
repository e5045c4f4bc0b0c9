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
//   output prints them: `idea open src/a.ts:12:5` (`--line 11 --character 4`).
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
};

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

function commandOf(t: TopicSpec, actionCount: Map<string, number>): CommandSpec {
  if (!t.topic.startsWith(TOPIC_PREFIX)) throw new Error(`topic ${t.topic} does not start with ${TOPIC_PREFIX}`);
  const name = t.topic.slice(TOPIC_PREFIX.length);
  const parts = name.split('/');
  if (parts.length !== 2 || parts.some((p) => !p))
    throw new Error(`topic ${t.topic} is not ${TOPIC_PREFIX}<category>/<action>`);
  const [category, action] = parts as [string, string];
  const props = (t.params.properties ?? {}) as Record<string, JsonSchema>;
  const required = Array.isArray(t.params.required) ? (t.params.required as string[]) : [];
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
  // Since 0.1.8 a position is line and character or a name path (`anyOf`): line and character still
  // follow the required params as positionals (FILE LINE CHARACTER as before), optional ones.
  const first = (t.params.anyOf as JsonSchema[] | undefined)?.[0]?.required;
  const alternative = JSON.stringify(first) === '["line","character"]' ? ['line', 'character'] : [];
  let n = 0;
  const positionals: ParamSpec[] = [];
  for (const field of [...required, ...alternative]) {
    const p = params.find((q) => q.name === field);
    if (p && p.type !== 'json' && p.type !== 'boolean' && !p.repeatable) {
      p.position = n++;
      positionals.push(p);
    }
  }
  // Files are what one names on a command line: the one optional file param, when there is exactly one.
  const files = params.filter((p) => p.file && !p.required && p.type === 'string');
  if (files.length === 1) {
    files[0]!.position = n++;
    positionals.push(files[0]!);
  }
  const optionalInt = (field: string) =>
    params.find((q) => q.name === field && !q.required && q.type === 'integer' && q.position === undefined);
  const file = positionals.find((q) => q.file && !q.repeatable);
  const line = optionalInt('line');
  const character = optionalInt('character');
  const [p0, p1, p2] = positionals;
  const positionAt = p0?.file === true && p1?.name === 'line' && p2?.name === 'character';
  return {
    ...(file && line ? { fileAt: { file, line, ...(character ? { character } : {}) } } : {}),
    ...(positionAt ? { positionAt: true as const } : {}),
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
 * One command per topic of `spec`, in the index's order; topics the session serves itself
 * (events/subscribe, /unsubscribe) are not commands: `idea watch` subscribes and unsubscribes.
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
  return cmds;
}

/** The command `words` name, and how many words it took (0 when none). */
export function findCommand(
  cmds: readonly CommandSpec[],
  words: readonly string[],
): { command: CommandSpec; used: number } | undefined {
  const [a, b] = words.map(normName);
  if (a !== undefined && b !== undefined) {
    const c = cmds.find((x) => normName(x.category) === a && normName(x.action) === b);
    if (c) return { command: c, used: 2 };
  }
  if (a === undefined) return undefined;
  const full = a.startsWith(normName(TOPIC_PREFIX)) ? a.slice(normName(TOPIC_PREFIX).length) : a.replace(/^\//, '');
  const c = cmds.find((x) => normName(x.name) === full || (x.alias !== undefined && normName(x.alias) === a));
  return c ? { command: c, used: 1 } : undefined;
}
