// spec/topic-annotations.json: titles and behaviour hints of every topic (the MCP tools' annotations).
// Version-independent, beside the version folders, because released folders are frozen and what a
// topic does to the workspace has not changed across versions. Validated here against its schema; a
// topic some version lists without an entry is an error at generation, never a silent default.
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { JsonSchema } from '@idea-kit/spec-lib/spec';
import { Ajv2020 } from 'ajv/dist/2020';
import { sha256 } from '../../runtime/hash';

const ANNOTATIONS_FILE = 'topic-annotations.json';
const ANNOTATIONS_SCHEMA = 'topic-annotations.schema.json';

export interface TopicAnnotation {
  title: string;
  readOnly: boolean;
  destructive: boolean;
  idempotent: boolean;
}

export interface TopicAnnotations {
  /** sha256 of the file's bytes, recorded in every version's manifest (the fast --check compares it). */
  hash: string;
  byTopic: ReadonlyMap<string, TopicAnnotation>;
}

/** sha256 of spec/topic-annotations.json, or "absent". Cheap: the fast --check path uses it. */
export function annotationsHash(specRoot: string): string {
  const path = join(specRoot, ANNOTATIONS_FILE);
  return existsSync(path) ? sha256(readFileSync(path)) : 'absent';
}

export function loadTopicAnnotations(specRoot: string): TopicAnnotations {
  const path = join(specRoot, ANNOTATIONS_FILE);
  const schemaPath = join(specRoot, ANNOTATIONS_SCHEMA);
  if (!existsSync(path)) throw new Error(`${path} is missing (titles and hints of every topic, for the MCP tools)`);
  const data = JSON.parse(readFileSync(path, 'utf8')) as unknown;
  const schema = JSON.parse(readFileSync(schemaPath, 'utf8')) as JsonSchema;
  const ajv = new Ajv2020({ allErrors: true, strict: true });
  const validate = ajv.compile(schema);
  if (!validate(data)) {
    const problems = (validate.errors ?? []).map((e) => `${e.instancePath || '/'} ${e.message ?? ''}`.trim());
    throw new Error(`${ANNOTATIONS_FILE} does not match ${ANNOTATIONS_SCHEMA}: ${problems.join('; ')}`);
  }
  const topics = (data as { topics: Record<string, TopicAnnotation> }).topics;
  return { hash: annotationsHash(specRoot), byTopic: new Map(Object.entries(topics)) };
}
