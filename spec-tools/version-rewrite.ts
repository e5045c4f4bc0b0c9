// Moves a spec document from one protocol version to another: `$id`s, "v<version>" mentions in
// prose and string values equal to the version itself (the index's version, handshake examples).
// A `since` is history (the version a topic or error code appeared in) and stays as it is.
import { isObject, type Json } from './spec-repo';

function escape(s: string): string {
  return s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}

export function rewriteVersion<T extends Json>(doc: T, from: string, to: string): T {
  const mention = new RegExp(`(?<![\\w.])v${escape(from)}(?!\\d)`, "g");
  const walk = (x: Json): Json => {
    if (typeof x === 'string') return x === from ? to : x.replace(mention, `v${to}`);
    if (Array.isArray(x)) return x.map(walk);
    if (isObject(x)) return Object.fromEntries(Object.entries(x).map(([k, v]) => [k, k === 'since' ? v : walk(v)]));
    return x;
  };
  return walk(doc) as T;
}

/** The repository's JSON formatting: two-space indentation and a final newline. */
export function formatJson(x: unknown): string {
  return `${JSON.stringify(x, null, 2)}\n`;
}
