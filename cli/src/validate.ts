// Params checked against the topic's schema before anything is sent, the problem named by flag.
import type { Validate } from '../../runtime/frames';
import type { SchemaError } from '../../runtime/validation-message';
import { locatorForms, paramLabel, UsageError } from './args';
import type { CommandSpec } from './commands';

function label(cmd: CommandSpec | undefined, field: string): string {
  const p = cmd?.params.find((q) => q.name === field);
  // A locator's name path is a word of the command line too (FILE NAME_PATH), though no fixed positional.
  if (p && p === cmd?.locator?.namePath) return `NAME_PATH (${p.flag})`;
  return p ? paramLabel(p) : `params.${field}`;
}

/** One line for the first error, naming the flag. */
function describeParamsError(err: SchemaError, cmd: CommandSpec | undefined): string {
  const field = err.instancePath.split('/')[1]?.replace(/~1/g, '/').replace(/~0/g, '~');
  if (err.keyword === 'required') {
    const missing = (err.params as { missingProperty?: string }).missingProperty ?? '?';
    return `missing ${label(cmd, missing)}`;
  }
  if (cmd?.locator && field === undefined && (err.keyword === 'anyOf' || err.keyword === 'not')) {
    // The position: line and character, or a name path (dependentSchemas: never both).
    const l = cmd.locator;
    const how = `a position, as ${locatorForms(cmd).join(', or ')} (or ${l.line.flag} ${l.character.flag}, or ${l.namePath.flag})`;
    return err.keyword === 'not' ? `give either LINE CHARACTER or NAME_PATH, not both: ${how}` : `give ${how}`;
  }
  if (err.keyword === 'anyOf' && field === undefined && cmd) {
    // e.g. localhistory/diff: "at least one of fromId/toId"
    const alts = (cmd.schema.anyOf as { required?: string[] }[] | undefined) ?? [];
    const names = alts.map((a) => (a.required ?? []).map((f) => label(cmd, f)).join(' and ')).filter(Boolean);
    if (names.length > 0) return `give ${names.join(' or ')}`;
  }
  const where = field === undefined ? 'params' : label(cmd, field);
  return `${where}${err.instancePath.split('/').length > 2 ? ` (${err.instancePath})` : ''} ${err.message ?? 'is invalid'}`;
}

/** Throws a UsageError when `params` do not conform; no validator (a topic this build lacks): no check. */
export function checkParams(
  validate: Validate | undefined,
  params: Record<string, unknown>,
  cmd: CommandSpec | undefined,
): void {
  if (!validate || validate(params)) return;
  const errors = validate.errors ?? [];
  // anyOf reports its branches' errors first; the anyOf error itself says what is wanted.
  const err = errors.find((e) => (e.keyword === 'anyOf' || e.keyword === 'not') && e.instancePath === '') ?? errors[0];
  throw new UsageError(err ? describeParamsError(err, cmd) : 'params do not conform to the schema', cmd);
}
