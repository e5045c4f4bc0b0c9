// Request frames for the validator bench, from each topic's params example (bench/lib/server.ts): the
// valid request, and mutations a server must refuse: each params field of the wrong JSON type, each
// required one missing, each string 1,024 characters longer, each array 100 items longer, params
// nested 50 deep, and the envelope broken (no topic, an empty one, a numeric requestId, params as an
// array). Inputs to measure the cost of saying no, not a test oracle: test/robustness has that.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { exampleParams, INDEX_TOPICS } from './server';

const SPEC_DIR = fileURLToPath(new URL('../../spec/v0.1.6/', import.meta.url));

export interface Frame {
  topic: string;
  requestId: string;
  params: unknown;
}

export function validRequests(): Frame[] {
  return [...exampleParams()].map(([topic, params]) => ({ topic, requestId: crypto.randomUUID(), params }));
}

/** A value of another JSON type than `v`. */
const otherType = (v: unknown): unknown =>
  typeof v === 'string'
    ? 7
    : typeof v === 'number'
      ? 'seven'
      : typeof v === 'boolean'
        ? 'true'
        : Array.isArray(v)
          ? {}
          : v === null
            ? []
            : [];

export function mutatedRequests(): Frame[] {
  const out: Frame[] = [];
  const params = exampleParams();
  for (const t of INDEX_TOPICS) {
    const p = params.get(t.topic)!;
    const required: string[] = JSON.parse(readFileSync(join(SPEC_DIR, t.params), 'utf8')).required ?? [];
    const frame = (q: unknown): Frame => ({ topic: t.topic, requestId: crypto.randomUUID(), params: q });
    for (const [k, v] of Object.entries(p)) {
      out.push(frame({ ...p, [k]: otherType(v) }));
      if (typeof v === 'string') out.push(frame({ ...p, [k]: v + 'x'.repeat(1024) }));
      if (Array.isArray(v) && v.length) out.push(frame({ ...p, [k]: [...v, ...Array(100).fill(v[0])] }));
    }
    for (const k of required) {
      const { [k]: _, ...rest } = p;
      out.push(frame(rest));
    }
    let deep: unknown = 1;
    for (let i = 0; i < 50; i++) deep = { a: deep };
    out.push(frame({ ...p, nested: deep }), frame([p]));
    out.push(
      { requestId: crypto.randomUUID(), params: p } as Frame,
      { ...frame(p), topic: '' },
      { ...frame(p), requestId: 42 as unknown as string },
    );
  }
  return out;
}
