// Steps are dispatched through a table keyed by their kind: the one key a step must have (`send`,
// `expect`, `writeFile`, …). A step of no kind the table knows, or of two, ends the case as an error
// naming it: the fixture is broken (or newer than this runner), and a step skipped in silence would let
// the case pass without checking what it says. The loader's schema refuses such steps too; the table
// holds for cases built in code.
import { isObject } from '../../runtime/frames';
import { Abort } from './case-context';

/** The keys a member of a union of step shapes must have: its kind. */
type RequiredKeys<T> = { [K in keyof T]-?: object extends Pick<T, K> ? never : K }[keyof T];
export type KindOf<Step> = Step extends unknown ? RequiredKeys<Step> & string : never;

/** The step of a union with the kind `K`. */
export type StepOf<Step, K extends string> = Extract<Step, Record<K, unknown>>;

/** A table entry: `modifiers` are the optional keys a step of that kind may carry beside it (`bind`, `withinMs`). */
export interface StepEntry {
  modifiers?: readonly string[];
}

/** The kind of `step` by `table`, or an Abort (setup: the case is an error) naming what is wrong with it. */
export function stepKind<Step extends object>(
  step: Step,
  table: Readonly<Record<string, StepEntry>>,
  label: string,
): KindOf<Step> {
  const keys = isObject(step) ? Object.keys(step) : [];
  const kinds = keys.filter((k) => Object.hasOwn(table, k));
  const known = Object.keys(table).join(', ');
  const fail = (detail: string) => new Abort({ name: label, ok: false, detail }, true);
  if (!isObject(step)) throw fail(`a step must be an object, got ${JSON.stringify(step)}`);
  if (kinds.length === 0)
    throw fail(
      `unknown step kind (keys ${JSON.stringify(keys)}): this runner knows ${known}; update it or fix the fixture`,
    );
  if (kinds.length > 1) throw fail(`a step has one kind, this one has ${kinds.length}: ${kinds.join(', ')}`);
  const kind = kinds[0]!;
  const allowed = new Set([kind, ...(table[kind]!.modifiers ?? [])]);
  const extra = keys.filter((k) => !allowed.has(k));
  if (extra.length)
    throw fail(`a ${kind} step does not take ${extra.join(', ')} (it takes ${[...allowed].join(', ')})`);
  return kind as KindOf<Step>;
}

/** `key` when `table` has it, else an Abort (setup) saying which `what` (case kind, action) this runner does not know. */
export function knownKey<T extends object>(table: T, key: unknown, name: string, what: string): keyof T {
  if (typeof key === 'string' && Object.hasOwn(table, key)) return key as keyof T;
  throw new Abort(
    {
      name,
      ok: false,
      detail: `unknown ${what} ${JSON.stringify(key)}: this runner knows ${Object.keys(table).join(', ')}; update it or fix the fixture`,
    },
    true,
  );
}
