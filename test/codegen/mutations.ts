// Invalid instances derived from a schema and one valid example: per required field, drop it; per
// property, a value of a type the schema does not allow; below minimum; outside the enum; not
// matching the pattern. Derived from the schema text alone (never by asking a validator), so the
// validators under test cannot shape their own test cases.

import type { RefResolver } from '@idea-kit/spec-lib/refs';
import type { JsonSchema } from '@idea-kit/spec-lib/spec';

export interface Mutation {
  /** What was changed, e.g. "drop required params.pattern". */
  label: string;
  value: unknown;
  /** Field path the error message must name, e.g. "matches[0].line". */
  field: string;
}

type Located = { schema: JsonSchema; baseId: string };

const clone = <T>(v: T): T => structuredClone(v);

function typesAllowed(l: Located, refs: RefResolver): Set<string> {
  const s = refs.deref(l.schema, l.baseId);
  const out = new Set<string>();
  const add = (t: unknown) => {
    if (Array.isArray(t)) t.forEach(add);
    else if (typeof t === 'string') out.add(t === 'integer' ? 'number' : t);
  };
  add(s.schema.type);
  for (const v of [...((s.schema.enum as unknown[]) ?? []), ...('const' in s.schema ? [s.schema.const] : [])]) {
    out.add(v === null ? 'null' : Array.isArray(v) ? 'array' : typeof v);
  }
  for (const branch of ((s.schema.anyOf ?? s.schema.oneOf) as JsonSchema[] | undefined) ?? []) {
    for (const t of typesAllowed({ schema: branch, baseId: s.baseId }, refs)) out.add(t);
  }
  if (out.size === 0 && (s.schema.properties || s.schema.allOf)) out.add('object');
  return out;
}

const CANDIDATES: [string, unknown][] = [
  ['string', 'zz-wrong-type'],
  ['number', 12345],
  ['boolean', true],
  ['object', { wrong: 'type' }],
  ['array', ['wrong', 'type']],
  ['null', null],
];

function merged(l: Located, refs: RefResolver): { props: [string, Located][]; required: string[] } {
  const props: [string, Located][] = [];
  const required: string[] = [];
  const visit = (n: Located) => {
    const d = refs.deref(n.schema, n.baseId);
    for (const part of (d.schema.allOf as JsonSchema[] | undefined) ?? []) visit({ schema: part, baseId: d.baseId });
    for (const [k, v] of Object.entries((d.schema.properties as Record<string, JsonSchema>) ?? {}))
      props.push([k, { schema: v, baseId: d.baseId }]);
    required.push(...((d.schema.required as string[] | undefined) ?? []));
  };
  visit(l);
  return { props, required };
}

const join = (path: string, key: string) => (path === '' ? key : `${path}.${key}`);

/** Mutations of `example` (valid for `schema`), recursing into present objects and first array items. */
export function mutations(l: Located, example: unknown, refs: RefResolver, path = ''): Mutation[] {
  if (typeof example !== 'object' || example === null || Array.isArray(example)) return [];
  const obj = example as Record<string, unknown>;
  const { props, required } = merged(l, refs);
  const out: Mutation[] = [];
  const set = (key: string, v: unknown) => ({ ...clone(obj), [key]: v });
  for (const key of new Set(required)) {
    if (!(key in obj)) continue;
    const { [key]: _dropped, ...rest } = clone(obj);
    out.push({ label: `drop required ${join(path, key)}`, value: rest, field: join(path, key) });
  }
  for (const [key, p] of props) {
    const field = join(path, key);
    const allowed = typesAllowed(p, refs);
    const wrong = CANDIDATES.find(([t]) => !allowed.has(t) && !(t === 'number' && allowed.has('integer')));
    if (allowed.size > 0 && wrong)
      out.push({ label: `wrong type (${wrong[0]}) ${field}`, value: set(key, wrong[1]), field });
    const d = refs.deref(p.schema, p.baseId).schema;
    const min = typeof p.schema.minimum === 'number' ? p.schema.minimum : d.minimum;
    if (typeof min === 'number') out.push({ label: `below minimum ${field}`, value: set(key, min - 1), field });
    const en = (p.schema.enum ?? d.enum) as unknown[] | undefined;
    if (Array.isArray(en) && en.every((v) => typeof v === 'string')) {
      out.push({ label: `enum miss ${field}`, value: set(key, 'zz-not-in-enum'), field });
    }
    const pattern = (p.schema.pattern ?? d.pattern) as string | undefined;
    if (typeof pattern === 'string') {
      const re = new RegExp(pattern, 'u');
      const miss = ['-', '', ' ', 'zz', 'ZZ!', '/'].find((c) => !re.test(c));
      if (miss !== undefined) out.push({ label: `pattern miss ${field}`, value: set(key, miss), field });
    }
    // Recurse into nested objects and the first item of arrays present in the example.
    const v = obj[key];
    if (typeof v === 'object' && v !== null && !Array.isArray(v) && d.type === 'object') {
      for (const m of mutations({ schema: d, baseId: refs.deref(p.schema, p.baseId).baseId }, v, refs, field)) {
        out.push({ ...m, value: set(key, m.value) });
      }
    } else if (Array.isArray(v) && v.length > 0 && d.items) {
      const itemsBase = refs.deref(p.schema, p.baseId).baseId;
      for (const m of mutations({ schema: d.items as JsonSchema, baseId: itemsBase }, v[0], refs, `${field}[0]`)) {
        out.push({ ...m, value: set(key, [m.value, ...v.slice(1)]) });
      }
    }
  }
  return out;
}
