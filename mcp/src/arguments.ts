// Strict tool arguments. The IDEA wire protocol ignores unknown params fields on purpose (a client and
// a server of different versions keep working), but an MCP tool's schema is read by a model, and an
// argument ignored in silence changes the answer without a word: `filePaths` for diag_list's `filePath`
// answers every known diagnostic instead of one file's. idea-mcp lists the schemas of the version it
// speaks with the server, so an argument they do not name has no newer meaning to pass through: it is
// a mistake. The listed schema says so (`additionalProperties: false`), and a call is checked here
// before anything is sent, since MCP clients send arguments without checking them against the schema.
import type { Tool } from '@modelcontextprotocol/sdk/types.js';

type InputSchema = Tool['inputSchema'];

/** The wire's rule as the spec words it in every params description; not what an MCP caller gets. */
const WIRE_RULE = / ?Unknown params fields are accepted and ignored \(forward compatibility\)\./;
export const STRICT_RULE = 'Unknown arguments are refused with a tool error naming them; nothing is sent.';

const BRANCHES = ['anyOf', 'oneOf', 'allOf'] as const;

/**
 * The argument names `schema` takes, or undefined when it is open to others: it says something of its
 * own about extra properties, or a branch (anyOf…) names one its top level does not (closing the top
 * level would refuse it).
 */
function argumentNames(schema: InputSchema): string[] | undefined {
  const s = schema as Record<string, unknown>;
  const names = Object.keys(schema.properties ?? {});
  if (s.additionalProperties === false) return names; // closed already (by strictInputSchema, or the spec)
  if (s.additionalProperties !== undefined || s.patternProperties !== undefined) return undefined;
  if (s.unevaluatedProperties !== undefined) return undefined;
  for (const k of BRANCHES) {
    const branches = Array.isArray(s[k]) ? (s[k] as { properties?: object }[]) : [];
    if (branches.some((b) => Object.keys(b?.properties ?? {}).some((n) => !names.includes(n)))) return undefined;
  }
  return names;
}

/** `schema` as idea-mcp lists it: closed (`additionalProperties: false`), its description saying so. */
export function strictInputSchema(schema: InputSchema): InputSchema {
  if (!argumentNames(schema) || schema.additionalProperties === false) return schema;
  const d = schema.description;
  const description = typeof d === 'string' ? `${d.replace(WIRE_RULE, '')} ${STRICT_RULE}`.trim() : undefined;
  return { ...schema, ...(description ? { description } : {}), additionalProperties: false };
}

const norm = (s: string) => s.toLowerCase().replace(/[\s_-]/g, '');

function distance(a: string, b: string): number {
  let prev = Array.from({ length: b.length + 1 }, (_, j) => j);
  for (let i = 1; i <= a.length; i++) {
    const row = [i];
    for (let j = 1; j <= b.length; j++)
      row[j] = Math.min(prev[j]! + 1, row[j - 1]! + 1, prev[j - 1]! + (a[i - 1] === b[j - 1] ? 0 : 1));
    prev = row;
  }
  return prev[b.length]!;
}

/** The name `given` most likely meant: same but for case and separators, a typo away, or one inside the other. */
export function closestName(given: string, names: readonly string[]): string | undefined {
  const g = norm(given);
  let best: { name: string; score: number } | undefined;
  for (const name of names) {
    const n = norm(name);
    const d = distance(g, n);
    const typo = d <= (n.length >= 4 ? Math.max(1, Math.floor(n.length / 4)) : 0);
    const inside = Math.min(g.length, n.length) >= 4 && (g.includes(n) || n.includes(g));
    // A typo (`filePaths`, `severty`) beats a name inside the other (`path` in `filePath`).
    const score = typo ? d : inside ? 100 + d : undefined;
    if (score !== undefined && (!best || score < best.score)) best = { name, score };
  }
  return best?.name;
}

/**
 * Why `args` do not fit `tool`'s listed schema, or undefined when they do: every argument it does not
 * name, each with the name it probably meant, then the ones it takes.
 */
export function unknownArguments(tool: string, schema: InputSchema, args: Record<string, unknown>): string | undefined {
  const names = argumentNames(schema);
  if (!names) return undefined;
  const unknown = Object.keys(args).filter((k) => !names.includes(k));
  if (unknown.length === 0) return undefined;
  const each = unknown.map((k) => {
    const meant = closestName(k, names);
    return meant ? `${k} (did you mean ${meant}?)` : k;
  });
  const takes = names.length > 0 ? `${tool} takes ${names.join(', ')}` : `${tool} takes no arguments`;
  return `unknown argument${unknown.length > 1 ? 's' : ''} ${each.join(', ')}: ${takes}. Nothing was sent.`;
}
