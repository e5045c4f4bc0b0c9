// How schema values and paths read in a change's message.
import { isObject, type Json } from '@idea-kit/spec-lib/spec';

/** A field path one step further: "a" → "a.b", "a" → "a[]". */
export function join(path: string, key: string): string {
  if (key.startsWith('[')) return `${path}${key}`;
  return path ? `${path}.${key}` : key;
}

/** A value as JSON in a code span (Markdown renders it verbatim; text output keeps the backticks). */
export function show(x: Json | undefined): string {
  return x === undefined ? '(none)' : `\`${JSON.stringify(x)}\``;
}

/** Long constraints (conditionals, unions) abbreviated for one-line messages; a one-value enum (the
 *  normal form of `const`) is shown as `const`, an enum without the type it implies. */
export function brief(x: Json | undefined, max = 100): string {
  const s =
    x === undefined
      ? ''
      : JSON.stringify(x, (_k, v: Json) => {
          if (!isObject(v) || !Array.isArray(v.enum)) return v;
          const { enum: values, type: _t, ...rest } = v;
          return values.length === 1 ? { const: values[0]!, ...rest } : { enum: values, ...rest };
        });
  return x === undefined ? show(x) : `\`${s.length > max ? `${s.slice(0, max - 1)}…` : s}\``;
}
