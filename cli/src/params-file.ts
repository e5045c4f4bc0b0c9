// A command's params from a JSON file (commands.ts `paramsFile`: `idea apply edit.json`, `-` for stdin):
// read bounded, parsed, and checked against the topic's schema with any mistake named by the file and
// the JSON path inside it ($.changes[0].edits[1].line), not by a flag the person never typed. A file
// that cannot be read is exit 1 (ParamsFileError); one that holds the wrong thing, exit 2 (UsageError).
import { open } from 'node:fs/promises';
import { resolve } from 'node:path';
import type { Validate } from '../../runtime/frames';
import { fieldPath, type SchemaError } from '../../runtime/validation-message';
import { UsageError } from './args';
import type { CommandSpec } from './commands';
import { checkParams } from './validate';

/**
 * A params file that cannot be read (exit 1, as a file a server cannot find is): the command line was
 * right, the file is not there. What it holds being wrong is a UsageError (exit 2).
 */
export class ParamsFileError extends Error {
  override readonly name = 'ParamsFileError';
}

/** The largest params file read: far over any edit a server takes in one frame, and bounded. */
export const MAX_PARAMS_FILE_BYTES = 64 * 1024 * 1024;

/** How a file is named in messages: `-` is stdin. */
const shown = (name: string) => (name === '-' ? 'stdin' : name);

async function readBounded(path: string): Promise<string> {
  const f = await open(path, 'r');
  try {
    const size = (await f.stat()).size;
    if (size > MAX_PARAMS_FILE_BYTES) throw new Error(`it holds ${size} bytes, over ${MAX_PARAMS_FILE_BYTES}`);
    return await f.readFile('utf8');
  } finally {
    await f.close();
  }
}

/** `line:col` (1-based) of offset `at` in `text`. */
function lineCol(text: string, at: number): string {
  const before = text.slice(0, at).split('\n');
  return `${before.length}:${before.at(-1)!.length + 1}`;
}

/**
 * The params `name` holds (a path relative to `cwd`, or `-`: `stdin()`): a JSON object, or an array,
 * which is the first required field that takes JSON (`changes`). Every mistake is a UsageError naming it.
 */
export async function readParamsFile(
  name: string,
  cmd: CommandSpec,
  io: { cwd: string; stdin?: () => Promise<string> },
): Promise<Record<string, unknown>> {
  let text: string;
  try {
    if (name === '-') {
      if (!io.stdin) throw new Error('no standard input');
      text = await io.stdin();
      if (Buffer.byteLength(text) > MAX_PARAMS_FILE_BYTES) throw new Error(`over ${MAX_PARAMS_FILE_BYTES} bytes`);
    } else text = await readBounded(resolve(io.cwd, name));
  } catch (e) {
    throw new ParamsFileError(`cannot read ${shown(name)}: ${(e as Error).message}`);
  }
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch (e) {
    const m = /at position (\d+)/.exec((e as Error).message);
    const where = m ? ` at ${lineCol(text, Number(m[1]))}` : '';
    throw new UsageError(
      `${shown(name)} is not JSON${where}: ${(e as Error).message.replace(/\s+/g, ' ').slice(0, 200)}`,
      cmd,
    );
  }
  if (Array.isArray(value)) {
    const list = cmd.params.find((p) => p.required && p.type === 'json');
    if (list) return { [list.name]: value };
  }
  if (typeof value !== 'object' || value === null || Array.isArray(value))
    throw new UsageError(
      `${shown(name)} must hold a JSON object (the params of ${cmd.topic}), got ${typeof value}`,
      cmd,
    );
  return value as Record<string, unknown>;
}

/** The error to name: the deepest one (a union's branches say less than the field that failed). */
function deepest(errors: readonly SchemaError[]): SchemaError {
  const depth = (e: SchemaError) => e.instancePath.split('/').length;
  const union = (e: SchemaError) => e.keyword === 'oneOf' || e.keyword === 'anyOf';
  return [...errors].sort((a, b) => depth(b) - depth(a) || Number(union(a)) - Number(union(b)))[0]!;
}

/** What `e` wants, with every value the branches at its path allow when it is an enum or a constant. */
function wanted(e: SchemaError, errors: readonly SchemaError[]): string {
  if (e.keyword === 'required') return `needs ${JSON.stringify(e.params.missingProperty)}`;
  if (e.keyword !== 'enum' && e.keyword !== 'const') return e.message ?? `fails ${e.keyword}`;
  const allowed = errors
    .filter((x) => x.instancePath === e.instancePath)
    .flatMap((x) =>
      x.keyword === 'enum'
        ? (x.params.allowedValues as unknown[])
        : x.keyword === 'const'
          ? [x.params.allowedValue]
          : [],
    );
  return `must be one of ${[...new Set(allowed.map((v) => JSON.stringify(v)))].join(', ')}`;
}

/**
 * Throws a UsageError when `params` (the file's, with the flags' over them) do not conform: a field the
 * flags gave is named by its flag, anything else by the file and its JSON path.
 */
export function checkParamsFile(
  validate: Validate | undefined,
  params: Record<string, unknown>,
  fromFlags: Record<string, unknown>,
  name: string,
  cmd: CommandSpec,
): void {
  if (!validate || validate(params)) return;
  const errors = (validate.errors ?? []) as SchemaError[];
  if (errors.length === 0) throw new UsageError(`${shown(name)}: the params do not conform to the schema`, cmd);
  const e = deepest(errors);
  const top = e.instancePath.split('/')[1];
  if (top !== undefined && top in fromFlags) checkParams(validate, params, cmd);
  throw new UsageError(`${shown(name)}: ${fieldPath('$', e.instancePath)} ${wanted(e, errors)}`, cmd);
}
