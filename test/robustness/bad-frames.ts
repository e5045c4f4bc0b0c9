// Generates invalid frames from the JSON Schemas of spec/<version>/ (never from a hand-written list of
// fields): for every topic, wrong types for every param, missing required params, out-of-range and
// unknown params, params of the wrong type; envelopes with missing or mistyped topic/requestId; unknown
// topics; frames that are not JSON or not objects; huge strings and arrays; deep nesting. Each frame
// carries the error code the spec prescribes (computed by SpecOracle, and checked against the intent of
// the mutation so a generator bug cannot silently produce valid frames).
import { randomUUID } from 'node:crypto';
import { echoed, type Json, type Schema, type SpecOracle } from './spec-oracle';

export interface BadFrame {
  kind: string; // e.g. "params.wrong-type", used in failure messages and counts
  text: string; // the frame as sent
  code: string; // expected error code
  topic: string; // expected echoed topic
  requestId: string; // expected echoed requestId
}

type JsonType = 'string' | 'integer' | 'number' | 'boolean' | 'null' | 'object' | 'array';
const SAMPLE: Record<JsonType, Json> = {
  string: 'x',
  integer: 7,
  number: 1.5,
  boolean: true,
  null: null,
  object: {},
  array: [],
};

function typeOfJson(v: unknown): JsonType {
  if (v === null) return 'null';
  if (Array.isArray(v)) return 'array';
  if (typeof v === 'number') return Number.isInteger(v) ? 'integer' : 'number';
  return typeof v as JsonType;
}

/** Builds schema-conforming values and mutations of them. */
export class InstanceBuilder {
  constructor(private readonly o: SpecOracle) {}

  /** JSON types a (sub)schema admits, or undefined when it does not say. */
  allowedTypes(schema: Schema, baseId: string): Set<JsonType> | undefined {
    const { schema: s, baseId: b } = this.o.deref(schema, baseId);
    if (typeof s !== 'object') return undefined;
    if ('const' in s) return new Set([typeOfJson(s.const)]);
    if (Array.isArray(s.enum)) return new Set(s.enum.map(typeOfJson));
    if (s.type) {
      const t = new Set<JsonType>([s.type].flat());
      if (t.has('number')) t.add('integer');
      return t;
    }
    const branches: Schema[] | undefined = s.oneOf ?? s.anyOf;
    if (branches) {
      const all = new Set<JsonType>();
      for (const br of branches) {
        const t = this.allowedTypes(br, b);
        if (!t) return undefined;
        for (const x of t) all.add(x);
      }
      return all;
    }
    if (s.allOf)
      for (const br of s.allOf) {
        const t = this.allowedTypes(br, b);
        if (t) return t;
      }
    return undefined;
  }

  /** A minimal value valid against the schema (examples first, then required parts only). */
  valid(schema: Schema, baseId: string, depth = 0): Json {
    const { schema: s, baseId: b } = this.o.deref(schema, baseId);
    if (s === true || s === false || depth > 20) return null;
    if (Array.isArray(s.examples) && s.examples.length) return s.examples[0];
    if ('const' in s) return s.const;
    if ('default' in s && s.default !== undefined) return s.default;
    if (Array.isArray(s.enum)) return s.enum[0];
    const branches: Schema[] | undefined = s.oneOf ?? s.anyOf;
    if (branches) return this.valid(branches[0]!, b, depth + 1);
    if (s.allOf) {
      let out: Json = {};
      for (const br of s.allOf) {
        const v = this.valid(br, b, depth + 1);
        out = typeof v === 'object' && v && !Array.isArray(v) && typeof out === 'object' && out ? { ...out, ...v } : v;
      }
      return out;
    }
    const t: string = [s.type].flat()[0] ?? (s.properties ? 'object' : 'string');
    switch (t) {
      case 'object': {
        const out: Record<string, Json> = {};
        for (const k of (s.required as string[] | undefined) ?? [])
          out[k] = this.valid(s.properties?.[k] ?? {}, b, depth + 1);
        return out;
      }
      case 'array':
        return Array.from({ length: s.minItems ?? 0 }, () => this.valid(s.items ?? {}, b, depth + 1));
      case 'integer':
      case 'number': {
        if (typeof s.minimum === 'number') return s.minimum;
        if (typeof s.exclusiveMinimum === 'number') return Math.floor(s.exclusiveMinimum) + 1;
        return 0;
      }
      case 'boolean':
        return false;
      case 'null':
        return null;
      default: {
        if (s.format === 'uuid') return randomUUID();
        return 'a'.repeat(Math.max(1, s.minLength ?? 1));
      }
    }
  }

  /** Values of the allowed type(s) that still break the schema: below minimum, outside an enum, empty, too long… */
  outOfRange(schema: Schema, baseId: string): Json[] {
    const { schema: s } = this.o.deref(schema, baseId);
    if (typeof s !== 'object') return [];
    const out: Json[] = [];
    if (typeof s.minimum === 'number') out.push(s.minimum - 1, s.minimum - 0.5);
    if (typeof s.exclusiveMinimum === 'number') out.push(s.exclusiveMinimum);
    if (typeof s.maximum === 'number') out.push(s.maximum + 1);
    if (Array.isArray(s.enum) || 'const' in s) out.push('definitely-not-allowed', 123456789);
    if (typeof s.minLength === 'number' && s.minLength > 0) out.push('');
    if (typeof s.maxLength === 'number') out.push('m'.repeat(s.maxLength + 1));
    if (typeof s.pattern === 'string') out.push('\u0000', '-not-matching-\n');
    if (typeof s.minItems === 'number' && s.minItems > 0) out.push([]);
    if ([s.type].flat().includes('integer')) out.push(1.25, 1e300);
    return out;
  }
}

export interface GenOptions {
  /** Size of the "huge" strings and arrays (chars / items). Default 64 KiB / 10 000. */
  hugeChars?: number;
  hugeItems?: number;
  /** Nesting depth of the deep values. Default 2 000. */
  depth?: number;
}

/** Deep nesting built as text (JSON.stringify would recurse). */
function deepText(depth: number, leaf = '1'): string {
  return '{"a":'.repeat(depth) + leaf + '}'.repeat(depth);
}
function deepArrayText(depth: number): string {
  return '['.repeat(depth) + ']'.repeat(depth);
}

/**
 * Every invalid frame of the catalogue, for frames sent after a successful handshake. The list is
 * deterministic except for requestIds (fresh UUIDs), so callers can cycle through it.
 */
export function generateBadFrames(o: SpecOracle, opts: GenOptions = {}): BadFrame[] {
  const hugeChars = opts.hugeChars ?? 64 * 1024;
  const hugeItems = opts.hugeItems ?? 10_000;
  const depth = opts.depth ?? 2_000;
  const b = new InstanceBuilder(o);
  const frames: BadFrame[] = [];
  const add = (kind: string, text: string, intended: string | string[]) => {
    const code = o.expectedCode(text);
    const ok = [intended].flat();
    if (code === undefined || !ok.includes(code)) {
      // Mutations that the schema happens to accept are dropped; other disagreements are generator bugs.
      if (code === undefined) return;
      throw new Error(`generator: ${kind} intended ${ok.join('|')} but the spec says ${code}: ${text.slice(0, 200)}`);
    }
    frames.push({ kind, text, code, ...echoed(text) });
  };
  const req = (topic: unknown, params: unknown, extra: Record<string, unknown> = {}) =>
    JSON.stringify({ topic, requestId: randomUUID(), params, ...extra });

  // 1. Not JSON / not an object.
  for (const t of [
    '',
    ' ',
    '{',
    '}',
    '{"topic":',
    'nul',
    'undefined',
    "{'topic':'x'}",
    '{"a":1,}',
    '\u0000',
    '\ud800',
    'NaN',
    '{"topic":"/app/vscode/edit/find","requestId":"1"',
    '\u00ff\u00fe{}',
    '['.repeat(50),
  ])
    add('frame.not-json', t, 'PARSE_ERROR');
  for (const t of [
    'null',
    'true',
    '0',
    '-1.5e300',
    '"string"',
    '[]',
    '[{"topic":"/app/vscode/edit/find"}]',
    deepArrayText(depth),
    JSON.stringify('q'.repeat(hugeChars)),
  ])
    add('frame.not-object', t, 'PARSE_ERROR');

  // 2. Envelope: topic/requestId missing or of the wrong type, params of the wrong type.
  const t0 = o.index.topics[0]!;
  const p0 = b.valid(o.schema(t0.params), o.idOf(t0.params));
  add('envelope.no-topic', JSON.stringify({ requestId: randomUUID(), params: p0 }), 'INVALID_REQUEST');
  add('envelope.no-requestId', JSON.stringify({ topic: t0.topic, params: p0 }), 'INVALID_REQUEST');
  add('envelope.empty', '{}', 'INVALID_REQUEST');
  add('envelope.requestId-empty', JSON.stringify({ topic: t0.topic, requestId: '', params: p0 }), 'INVALID_REQUEST');
  for (const [ty, v] of Object.entries(SAMPLE)) {
    if (ty === 'string') continue;
    add(`envelope.topic-${ty}`, req(v, p0), 'INVALID_REQUEST');
    add(`envelope.requestId-${ty}`, JSON.stringify({ topic: t0.topic, requestId: v, params: p0 }), 'INVALID_REQUEST');
  }
  add(
    'envelope.topic-huge-array',
    req(
      Array.from({ length: hugeItems }, (_, i) => i),
      p0,
    ),
    'INVALID_REQUEST',
  );
  add(
    'envelope.requestId-deep',
    `{"topic":${JSON.stringify(t0.topic)},"requestId":${deepText(depth)},"params":{}}`,
    'INVALID_REQUEST',
  );

  // 3. Unknown topics (well-formed otherwise).
  add('envelope.topic-empty', req('', p0), 'INVALID_REQUEST');
  for (const t of [
    '/app/vscode/edit/nope',
    '/app/vscode/EDIT/find',
    `${t0.topic}/`,
    ` ${t0.topic}`,
    '/app/vscode/',
    'edit/find',
    '/app/vscode/edit/find\u0000',
    `/app/vscode/${'z'.repeat(hugeChars)}`,
    '/app/vscode/__proto__/constructor',
    'toString',
  ])
    add('topic.unknown', req(t, p0), 'UNKNOWN_TOPIC');

  // 4. Per topic, everything derived from its params schema.
  for (const entry of o.index.topics) {
    const baseId = o.idOf(entry.params);
    const root = o.deref(o.schema(entry.params), baseId);
    const s = root.schema as Record<string, any>;
    const valid = b.valid(s, root.baseId) as Record<string, Json>;
    if (o.validator(entry.params)(valid) !== true)
      throw new Error(`generator: cannot build valid params for ${entry.topic}: ${JSON.stringify(valid)}`);
    const T = entry.topic;
    for (const [ty, v] of Object.entries(SAMPLE))
      if (ty !== 'object') add(`params.not-object`, req(T, v), 'INVALID_REQUEST');
    for (const k of (s.required as string[] | undefined) ?? []) {
      const { [k]: _gone, ...rest } = valid;
      add('params.missing-required', req(T, rest), 'INVALID_REQUEST');
    }
    if (s.additionalProperties === false || s.unevaluatedProperties === false) {
      add('params.unknown-field', req(T, { ...valid, zzUnknown: 1 }), 'INVALID_REQUEST');
      add(
        'params.unknown-field-deep',
        `{"topic":${JSON.stringify(T)},"requestId":"${randomUUID()}","params":${JSON.stringify({ ...valid }).slice(
          0,
          -1,
        )}${Object.keys(valid).length ? ',' : ''}"zzDeep":${deepText(depth)}}}`,
        'INVALID_REQUEST',
      );
    }
    for (const [k, ps] of Object.entries((s.properties ?? {}) as Record<string, Schema>)) {
      const allowed = b.allowedTypes(ps, root.baseId);
      if (allowed) {
        for (const [ty, v] of Object.entries(SAMPLE) as [JsonType, Json][]) {
          if (allowed.has(ty) || (ty === 'integer' && allowed.has('number'))) continue;
          add(`params.wrong-type`, req(T, { ...valid, [k]: v }), 'INVALID_REQUEST');
        }
        // Huge and deep values of a wrong type.
        if (!allowed.has('string'))
          add('params.huge-string', req(T, { ...valid, [k]: 'h'.repeat(hugeChars) }), 'INVALID_REQUEST');
        if (!allowed.has('array'))
          add(
            'params.huge-array',
            req(T, { ...valid, [k]: Array.from({ length: hugeItems }, () => 'x') }),
            'INVALID_REQUEST',
          );
        if (!allowed.has('object')) {
          const body = JSON.stringify({ ...valid, [k]: 0 }).replace(
            `${JSON.stringify(k)}:0`,
            `${JSON.stringify(k)}:${deepText(depth)}`,
          );
          add(
            'params.deep',
            `{"topic":${JSON.stringify(T)},"requestId":"${randomUUID()}","params":${body}}`,
            'INVALID_REQUEST',
          );
        }
        if (allowed.has('array')) {
          // An array whose items are of the wrong type (e.g. diag/list filePath: string[]).
          add(
            'params.array-items-wrong',
            req(T, { ...valid, [k]: Array.from({ length: hugeItems }, (_, i) => i) }),
            'INVALID_REQUEST',
          );
        }
      }
      for (const v of b.outOfRange(ps, root.baseId))
        add('params.out-of-range', req(T, { ...valid, [k]: v }), 'INVALID_REQUEST');
    }
  }
  return frames;
}

/** A valid request for every topic, for "the session still serves" checks. */
export function validRequests(o: SpecOracle): { topic: string; params: Json }[] {
  const b = new InstanceBuilder(o);
  return o.index.topics.map((t) => ({ topic: t.topic, params: b.valid(o.schema(t.params), o.idOf(t.params)) }));
}

/** Whether a property schema is (or offers, through anyOf/oneOf) the shared definition `def`. */
function refersTo(schema: Schema, def: string): boolean {
  if (typeof schema !== 'object') return false;
  if (typeof schema.$ref === 'string' && schema.$ref.endsWith(`#/$defs/${def}`)) return true;
  return (
    [...(schema.anyOf ?? []), ...(schema.oneOf ?? []), ...(schema.allOf ?? [])].some((s: Schema) => refersTo(s, def)) ||
    (schema.items !== undefined && refersTo(schema.items, def))
  );
}

/**
 * Schema-valid frames a server must still refuse (spec: "Paths outside every workspace folder are
 * refused with INVALID_REQUEST"; "an unknown local-history id" is INVALID_REQUEST): every FilePath
 * param pointed outside the workspace, every LocalHistoryId param set to an id that does not exist.
 * `insideFile` is a real workspace file (relative) used where another param needs a valid path.
 */
export function semanticBadFrames(o: SpecOracle, workspace: string, insideFile: string): BadFrame[] {
  const b = new InstanceBuilder(o);
  const outside = [
    '/etc/passwd',
    '../outside.ts',
    `${insideFile}/../../../etc/hosts`,
    `${workspace}/../escape.ts`,
    '/',
    '..',
  ];
  const frames: BadFrame[] = [];
  for (const t of o.index.topics) {
    const root = o.deref(o.schema(t.params), o.idOf(t.params));
    const props = Object.entries(((root.schema as any).properties ?? {}) as Record<string, Schema>);
    const base = b.valid(root.schema, root.baseId) as Record<string, Json>;
    for (const [k] of props) if (refersTo(props.find(([p]) => p === k)![1], 'FilePath')) base[k] = insideFile;
    const add = (kind: string, params: Record<string, Json>) => {
      const text = JSON.stringify({ topic: t.topic, requestId: randomUUID(), params });
      if (o.expectedCode(text) !== undefined) throw new Error(`generator: ${kind} for ${t.topic} is not schema-valid`);
      frames.push({ kind, text, code: 'INVALID_REQUEST', ...echoed(text) });
    };
    for (const [k, ps] of props) {
      if (refersTo(ps, 'FilePath')) for (const p of outside) add('semantic.path-outside', { ...base, [k]: p });
      if (refersTo(ps, 'LocalHistoryId'))
        add('semantic.unknown-local-history-id', { ...base, [k]: 'zz-no-such-entry.md' });
    }
  }
  return frames;
}
