// `${name}` placeholders in requests and expectations, and `bind` paths that capture response values.

export type Vars = Record<string, string>;

// `$${x}` is the escape for a literal `${x}` (e.g. a template literal in source code).
const PLACEHOLDER = /\$?\$\{([A-Za-z0-9_.:-]+)\}/g;

export class UnknownVariableError extends Error {}

function escapeRegex(s: string): string {
  return s.replace(/[.*+?^${}()|[\]\\/]/g, '\\$&');
}

function substituteString(s: string, vars: Vars, inRegex: boolean): string {
  return s.replace(PLACEHOLDER, (whole: string, name: string) => {
    if (whole.startsWith('$$')) return whole.slice(1);
    const v = vars[name];
    if (v === undefined) throw new UnknownVariableError(`unknown variable \${${name}}`);
    return inRegex ? escapeRegex(v) : v;
  });
}

/** The variables the placeholders in a value name (keys included; `$${x}` escapes name none). */
export function placeholdersIn(value: unknown): string[] {
  const names = new Set<string>();
  const visit = (v: unknown): void => {
    if (typeof v === 'string') {
      for (const m of v.matchAll(PLACEHOLDER)) if (!m[0].startsWith('$$')) names.add(m[1]!);
    } else if (Array.isArray(v)) v.forEach(visit);
    else if (v && typeof v === 'object')
      for (const [k, x] of Object.entries(v)) {
        visit(k);
        visit(x);
      }
  };
  visit(value);
  return [...names];
}

/** Replaces placeholders in every string (keys included); inside `$match` values they are regex-escaped. */
export function substitute<T>(value: T, vars: Vars, inRegex = false): T {
  if (typeof value === 'string') return substituteString(value, vars, inRegex) as T;
  if (Array.isArray(value)) return value.map((v) => substitute(v, vars, inRegex)) as T;
  if (value && typeof value === 'object') {
    const out: Record<string, unknown> = {};
    for (const [k, v] of Object.entries(value))
      out[substituteString(k, vars, false)] = substitute(v, vars, inRegex || k === '$match');
    return out as T;
  }
  return value;
}

/** Reads `$.a.b[0].c` from a value; undefined when the path does not exist. */
export function readPath(value: unknown, path: string): unknown {
  if (!path.startsWith('$')) throw new Error(`bind path must start with "$": ${path}`);
  const tokens = path.slice(1).match(/\.[^.[\]]+|\[\d+\]/g) ?? [];
  if (tokens.join('') !== path.slice(1)) throw new Error(`unsupported bind path: ${path}`);
  let cur: unknown = value;
  for (const t of tokens) {
    if (cur === null || typeof cur !== 'object') return undefined;
    cur = t.startsWith('[') ? (cur as unknown[])[Number(t.slice(1, -1))] : (cur as Record<string, unknown>)[t.slice(1)];
  }
  return cur;
}

/** Applies a `bind` map to a response; returns the new variables or a problem. */
export function bindFrom(
  frame: unknown,
  bind: Readonly<Record<string, string | undefined>> | undefined,
): { vars: Vars; problem?: string } {
  const vars: Vars = {};
  for (const [name, path] of Object.entries(bind ?? {})) {
    if (path === undefined) continue;
    const v = readPath(frame, path);
    if (v === undefined || v === null || typeof v === 'object')
      return { vars, problem: `bind ${name}: ${path} is ${JSON.stringify(v)} in the response` };
    vars[name] = String(v);
  }
  return { vars };
}
