// An independent reading of spec/<version>/: every schema loaded into a fresh Ajv (not the generated
// validators under test), $ref resolution for the frame generator, and the expected error code of a
// request frame. The order of checks is the protocol's: frame → envelope → topic → params.

import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join, relative } from 'node:path';
import Ajv2020, { type ValidateFunction } from 'ajv/dist/2020';
import addFormats from 'ajv-formats';

export type Json = null | boolean | number | string | Json[] | { [k: string]: Json };
export type Schema = { [k: string]: any } | boolean;

export interface TopicEntry {
  topic: string;
  method: string;
  typeName: string;
  params: string;
  result: string;
  errors?: string[];
}
export interface SpecIndex {
  version: string;
  messages: Record<string, string>;
  errorCodes: { code: string }[];
  topics: TopicEntry[];
}

const SPEC_BASE = (v: string) => `https://idea-protocol.invalid/spec/v${v}/`;

function* schemaFiles(dir: string): Generator<string> {
  for (const f of readdirSync(dir)) {
    const p = join(dir, f);
    if (statSync(p).isDirectory()) yield* schemaFiles(p);
    else if (f.endsWith('.schema.json')) yield p;
  }
}

export class SpecOracle {
  readonly index: SpecIndex;
  readonly base: string;
  private readonly ajv: Ajv2020;
  private readonly byId = new Map<string, Schema>();
  private readonly compiled = new Map<string, ValidateFunction>();

  constructor(readonly dir: string) {
    this.index = JSON.parse(readFileSync(join(dir, 'index.json'), 'utf8'));
    this.base = SPEC_BASE(this.index.version);
    this.ajv = new Ajv2020({ strict: false, allErrors: false });
    addFormats(this.ajv);
    for (const file of schemaFiles(dir)) {
      const schema = JSON.parse(readFileSync(file, 'utf8'));
      const id: string = schema.$id ?? this.base + relative(dir, file).split('\\').join('/');
      this.byId.set(id, schema);
      this.ajv.addSchema(schema, id);
    }
  }

  idOf(path: string): string {
    return new URL(path, this.base).href;
  }
  schema(path: string): Schema {
    const s = this.byId.get(this.idOf(path));
    if (s === undefined) throw new Error(`no schema ${path}`);
    return s;
  }

  validator(path: string): ValidateFunction {
    const id = this.idOf(path);
    let v = this.compiled.get(id);
    if (!v) {
      v = this.ajv.getSchema(id);
      if (!v) throw new Error(`no schema ${id}`);
      this.compiled.set(id, v);
    }
    return v;
  }

  /** Follows `$ref` (relative to `baseId`) until a schema without one; returns it with its own base. */
  deref(schema: Schema, baseId: string): { schema: Schema; baseId: string } {
    for (let hops = 0; typeof schema === 'object' && typeof schema.$ref === 'string'; hops++) {
      if (hops > 32) throw new Error('ref loop');
      const url = new URL(schema.$ref, baseId);
      const docId = url.href.split('#')[0]!;
      let target = this.byId.get(docId);
      if (target === undefined) throw new Error(`unresolved $ref ${url.href}`);
      const frag = decodeURIComponent(url.hash.slice(1));
      for (const part of frag.split('/').filter(Boolean))
        target = (target as any)[part.replace(/~1/g, '/').replace(/~0/g, '~')];
      if (target === undefined) throw new Error(`unresolved $ref ${url.href}`);
      schema = target;
      baseId = docId;
    }
    return { schema, baseId };
  }

  topic(topic: string): TopicEntry | undefined {
    return this.index.topics.find((t) => t.topic === topic);
  }

  /**
   * The error code the spec prescribes for one text frame sent after a successful handshake, or
   * undefined when the frame is a valid request.
   */
  expectedCode(text: string): string | undefined {
    let msg: unknown;
    try {
      msg = JSON.parse(text);
    } catch {
      return 'PARSE_ERROR';
    }
    if (typeof msg !== 'object' || msg === null || Array.isArray(msg)) return 'PARSE_ERROR';
    if (!this.validator(this.index.messages.request!)(msg)) {
      // A well-formed envelope except for an unknown topic is UNKNOWN_TOPIC, not INVALID_REQUEST.
      const m = msg as Record<string, unknown>;
      if (typeof m.topic === 'string' && !this.topic(m.topic) && this.envelopeOkIgnoringTopic(m))
        return 'UNKNOWN_TOPIC';
      return 'INVALID_REQUEST';
    }
    const m = msg as { topic: string; params?: unknown };
    const entry = this.topic(m.topic);
    if (!entry) return 'UNKNOWN_TOPIC';
    return this.validator(entry.params)(m.params ?? {}) ? undefined : 'INVALID_REQUEST';
  }

  /** The envelope is valid apart from the topic naming something unserved (the topic itself is well-formed). */
  private envelopeOkIgnoringTopic(m: Record<string, unknown>): boolean {
    const known = this.index.topics[0]!.topic;
    const topicSchema = this.ajv.getSchema(`${this.idOf(this.index.messages.request!)}#/properties/topic`);
    if (!topicSchema) throw new Error('request schema has no properties.topic');
    return (
      topicSchema(m.topic) === true && this.validator(this.index.messages.request!)({ ...m, topic: known }) === true
    );
  }
}

/** The topic and requestId an error reply must echo: the request's own when they were strings. */
export function echoed(text: string): { topic: string; requestId: string } {
  let msg: any;
  try {
    msg = JSON.parse(text);
  } catch {
    return { topic: '', requestId: '' };
  }
  const obj = typeof msg === 'object' && msg !== null && !Array.isArray(msg);
  return {
    topic: obj && typeof msg.topic === 'string' ? msg.topic : '',
    requestId: obj && typeof msg.requestId === 'string' ? msg.requestId : '',
  };
}
