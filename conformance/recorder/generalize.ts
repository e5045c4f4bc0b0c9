// Turns recorded values into fixture expectations: workspace paths → ${workspace}, commit hashes →
// ${commit.<name>} when known (else a 40-hex rule), timestamps and labels → type/regex rules, the token
// → never written. Used on both the request (params) and the response (expected result).

export interface GeneralizeContext {
  workspace: string;
  /** Known hash → variable name (e.g. "commit.docs"), from the fixture workspace. */
  hashes: Map<string, string>;
  /** The handshake token: any string containing it is replaced. */
  token?: string;
}

const HASH40 = /^[0-9a-f]{40}$/;
const HASH7 = /^[0-9a-f]{7}$/;
const LABEL = /^\d{4}-\d{2}-\d{2} \d{2}:\d{2}:\d{2}$/;
const ISO = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(\.\d+)?(Z|[+-]\d{2}:\d{2})$/;
const TIMESTAMP_KEYS = new Set(['timestamp']);
const LOCAL_ID_KEYS = new Set(['id', 'restoredId', 'fromId', 'toId']);

function escapeRegex(s: string): string {
  return s.replace(/[.*+?^${}()|[\]\\/]/g, '\\$&');
}

function generalizeString(s: string, ctx: GeneralizeContext, key?: string): unknown {
  if (ctx.token && ctx.token.length > 0 && s.includes(ctx.token)) return s.split(ctx.token).join('${token}');
  if (HASH40.test(s)) {
    const name = ctx.hashes.get(s);
    return name ? `\${${name}}` : { $match: '^[0-9a-f]{40}$' };
  }
  if (HASH7.test(s) && key && /hash|ref/i.test(key)) {
    for (const [h, name] of ctx.hashes) if (h.startsWith(s)) return `\${${name.replace(/^commit\./, 'short.')}}`;
    return { $match: '^[0-9a-f]{7}$' };
  }
  if (LABEL.test(s)) return { $match: '^\\d{4}-\\d{2}-\\d{2} \\d{2}:\\d{2}:\\d{2}$' };
  if (ISO.test(s) && key && /date/i.test(key)) return { $match: `^${escapeRegex(s.slice(0, 19))}` };
  if (key && LOCAL_ID_KEYS.has(key)) return { $type: 'string' };
  if (ctx.workspace && s.includes(ctx.workspace)) return s.split(ctx.workspace).join('${workspace}');
  return s;
}

export function generalize(value: unknown, ctx: GeneralizeContext, key?: string): unknown {
  if (typeof value === 'string') return generalizeString(value, ctx, key);
  if (typeof value === 'number' && key && TIMESTAMP_KEYS.has(key)) return { $type: 'integer' };
  if (Array.isArray(value)) return value.map((v) => generalize(v, ctx, key));
  if (value && typeof value === 'object') {
    const out: Record<string, unknown> = {};
    for (const [k, v] of Object.entries(value)) out[k] = generalize(v, ctx, k);
    return out;
  }
  return value;
}
