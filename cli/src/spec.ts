// What the CLI knows of a protocol version: its topics, each with its params schema with every `$ref`
// inlined (so flags can be derived without a resolver at run time). Read from spec/<version>/ through
// the spec library (spec-lib/spec.ts, inline.ts) by the build (scripts/build.ts embeds it in the bundle)
// and by tests (any spec folder, scratch ones included); the bundle itself never loads a spec.
import { basename, dirname } from 'node:path';
import { inlineRefs } from '@idea-kit/spec-lib/inline';
import { loadSpec } from '@idea-kit/spec-lib/spec';

export type JsonSchema = { [key: string]: unknown };

export interface TopicSpec {
  /** e.g. "/app/vscode/edit/find". */
  topic: string;
  description: string;
  /** The params schema, `$ref`s inlined (sibling keywords such as description and default win). */
  params: JsonSchema;
  /** The protocol version the topic appeared in. */
  since?: string;
  /** Since 0.1.7: "session" when the session serves the topic itself (events/subscribe, …): no command. */
  servedBy?: 'session';
}

/** Since 0.1.7: an event a server may push (`idea watch`). */
export interface EventSpec {
  /** e.g. "/app/vscode/files/changed". */
  event: string;
  description: string;
}

export interface SpecBundle {
  version: string;
  topics: TopicSpec[];
  /** The version's events (absent before 0.1.7). */
  events?: EventSpec[];
}

/** Reads spec/<version>/ (the folder holding index.json). */
export function loadSpecDir(dir: string): SpecBundle {
  const spec = loadSpec(dirname(dir), basename(dir));
  const topics = spec.index.topics.map((t) => ({
    topic: t.topic,
    description: t.description,
    since: t.since,
    params: inlineRefs(spec, t.params, spec.byPath.get(t.params)!.schema) as JsonSchema,
    ...(t.servedBy ? { servedBy: t.servedBy } : {}),
  }));
  const events = spec.index.events?.map((e) => ({ event: e.event, description: e.description }));
  return { version: spec.index.version, topics, ...(events ? { events } : {}) };
}
