// Results for the trivial in-process handlers, taken from the spec (each result schema's first example),
// and a per-request marker so a reply delivered to the wrong request is detected: results that carry
// `totalCount` get totalCount = marker(params), which the client recomputes from what it sent.
import { InstanceBuilder } from './bad-frames';
import type { Json, SpecOracle } from './spec-oracle';

export function exampleResults(o: SpecOracle): Map<string, Record<string, Json>> {
  const b = new InstanceBuilder(o);
  const out = new Map<string, Record<string, Json>>();
  for (const t of o.index.topics) {
    const r = b.valid(o.schema(t.result), o.idOf(t.result)) as Record<string, Json>;
    if (o.validator(t.result)(r) !== true) throw new Error(`no valid example result for ${t.topic}`);
    out.set(t.topic, r);
  }
  return out;
}

/** FNV-1a of the params' JSON, as a Count (0 … 999 999). */
export function marker(params: unknown): number {
  const s = JSON.stringify(params ?? {});
  let h = 0x811c9dc5;
  for (let i = 0; i < s.length; i++) {
    h ^= s.charCodeAt(i);
    h = Math.imul(h, 0x01000193) >>> 0;
  }
  return h % 1_000_000;
}

/** The example result for `topic`, marked with the params when it has a totalCount. */
export function markedResult(
  examples: Map<string, Record<string, Json>>,
  topic: string,
  params: unknown,
): Record<string, Json> {
  const r = examples.get(topic);
  if (!r) throw new Error(`no example result for ${topic}`);
  return 'totalCount' in r ? { ...r, totalCount: marker(params) } : r;
}
