// The view model every template renders from: derived once from the spec so that types, validators,
// server, client and docs cannot disagree.

import type { RefResolver } from '@idea-kit/spec-lib/refs';
import { type FieldRow, SchemaWalker } from '@idea-kit/spec-lib/schema-walk';
import { type ClauseEntry, clauseSide, type ErrorCodeEntry, type JsonSchema, type Spec } from '@idea-kit/spec-lib/spec';
import type { FieldHistory } from './field-history';

/** Message schemas the server and client templates rely on, by index.messages key. */
const REQUIRED_MESSAGES = [
  'handshakeRequest',
  'handshakeSuccess',
  'handshakeFailure',
  'request',
  'responseSuccess',
  'responseError',
  'errorCode',
] as const;
type MessageKey = (typeof REQUIRED_MESSAGES)[number];

interface TopicModel {
  topic: string;
  method: string;
  typeName: string;
  since: string;
  description: string;
  errors: string[];
  paramsType: string;
  resultType: string;
  validateParams: string;
  validateResult: string;
  /** True when no param is required (the client method's params argument is optional). */
  paramsOptional: boolean;
  /** Top-level params defaults, JSON object literal. */
  defaultsJson: string;
  /** The type handlers receive: params with defaulted keys made non-optional. */
  handlerParamsType: string;
  /** Names of the generated handler types, e.g. EditFindHandlerParams / EditFindHandler. */
  handlerParamsName: string;
  handlerName: string;
  /** The defaulted params keys, for the docs ("include, isRegex"); "" when none. */
  defaultKeys: string;
  /** The params / result schemas' own descriptions (rules spanning fields live there). */
  paramsNote: string;
  resultNote: string;
  paramsRows: FieldRow[];
  resultRows: FieldRow[];
  exampleRequest: string;
  exampleResponse: string;
  /** Served by the session engine (events/subscribe, events/unsubscribe): no handler. */
  session: boolean;
}

interface EventModel {
  event: string;
  name: string;
  typeName: string;
  since: string;
  description: string;
  dataType: string;
  validateData: string;
  coalesce: string;
  dataNote: string;
  dataRows: FieldRow[];
  exampleFrame: string;
}

interface FrameMessage {
  name: string;
  validator: string;
  rows: FieldRow[];
  example: string;
}

export interface Model {
  folder: string;
  version: string;
  released: string;
  hash: string;
  tsHeader: string;
  mdHeader: string;
  transport: { defaultPort: number; portAttempts: number };
  /** Token auth exists in this version (handshake success has authRequired; UNAUTHORIZED exists). */
  auth: boolean;
  errorCodes: ErrorCodeEntry[];
  roots: { name: string; validator: string }[];
  msg: Record<MessageKey, { name: string; validator: string; rows: FieldRow[]; example: string }>;
  topics: TopicModel[];
  /** Topics a handler serves (all but the session's own). */
  handlerTopics: TopicModel[];
  /** Since 0.1.7: events, and the event / cancel frames (undefined before). */
  events: EventModel[];
  eventFrame: FrameMessage | undefined;
  cancelFrame: FrameMessage | undefined;
  /** The session-served topics by method ("" when the version has none). */
  subscribeTopic: string;
  unsubscribeTopic: string;
  /** Not in spec/releases.json yet: a draft (the handshake says so). */
  draft: boolean;
  /** Type declarations from json-schema-to-typescript (filled by the types generator). */
  declarations: string;
  /**
   * clauses.json by layer, for the docs (empty lists when the version has none); the clauses binding
   * clients only (`C<n>`) apart, in `client`.
   */
  clauses: { any: boolean; text: ClauseView[]; reading: ClauseView[]; hardening: ClauseView[]; client: ClauseView[] };
}

interface ClauseView extends ClauseEntry {
  /** HTML anchor, `clause-<id in lower case>` (conformance/lib/clauses.ts links to it). */
  anchorId: string;
  levelLabel: string;
  /** Set for a clause that binds both sides (clients too); nothing is said of the server-only ones. */
  bindsBoth: boolean;
  /** A client clause's layer as the docs name it (`protocol text`, `reading`, `hardening`). */
  layerLabel: string;
}

const LAYER_LABEL = { text: 'protocol text', reading: 'reading', hardening: 'hardening' } as const;

function clauseViews(clauses: ClauseEntry[], pick: (c: ClauseEntry) => boolean): ClauseView[] {
  return clauses.filter(pick).map((c) => ({
    ...c,
    anchorId: `clause-${c.id.toLowerCase()}`,
    levelLabel: c.level ?? (c.layer === 'reading' ? 'should' : 'must'),
    bindsBoth: clauseSide(c) === 'both',
    layerLabel: LAYER_LABEL[c.layer],
  }));
}

/** The clauses of one layer that bind servers (or both sides). */
const serverLayer = (layer: ClauseEntry['layer']) => (c: ClauseEntry) =>
  c.layer === layer && clauseSide(c) !== 'client';

function capitalise(text: string): string {
  return text.charAt(0).toUpperCase() + text.slice(1);
}

const EXAMPLE_REQUEST_ID = '550e8400-e29b-41d4-a716-446655440000';

function firstExample(schema: JsonSchema): unknown {
  return Array.isArray(schema.examples) && schema.examples.length > 0 ? schema.examples[0] : undefined;
}

/** A schema's description without a "Params of <topic>: " lead-in (the heading says that already). */
function note(schema: JsonSchema, topic: string): string {
  if (typeof schema.description !== 'string') return '';
  const lead = new RegExp(`^(Params|Result) of ${topic.replace(/[.*+?^${}()|[\]\\/]/g, '\\$&')}:\\s*`);
  const text = schema.description.replace(lead, '');
  return text.charAt(0).toUpperCase() + text.slice(1);
}

/** `released`: the version's date in spec/releases.json (undefined while unreleased). */
export function buildModel(
  spec: Spec,
  refs: RefResolver,
  history: FieldHistory,
  declarations: string,
  released?: string,
): Model {
  const walker = new SchemaWalker(refs, history);
  const root = (path: string) => {
    const r = refs.roots.find((x) => x.path === path)!;
    return { ...r, located: { schema: spec.byPath.get(path)!.schema, baseId: r.id } };
  };
  const header = `Generated by codegen from spec/${spec.folder} (spec hash sha256:${spec.hash}). Do not edit: change the spec and run \`npm run codegen\`.`;

  const msg = {} as Model['msg'];
  for (const key of REQUIRED_MESSAGES) {
    const path = spec.index.messages[key];
    if (!path) throw new Error(`${spec.folder}: index.messages.${key} is missing`);
    const r = root(path);
    const ex = firstExample(r.located.schema);
    msg[key] = {
      name: r.name,
      validator: r.validator,
      rows: walker.isObject(r.located) ? walker.rows(r.located) : [],
      example: ex === undefined ? '' : JSON.stringify(ex),
    };
  }

  const topics = spec.index.topics.map((t): TopicModel => {
    const p = root(t.params);
    const r = root(t.result);
    const defaults = walker.defaults(p.located);
    const shape = walker.objectShape(p.located);
    const keys = defaults.map(([k]) => JSON.stringify(k)).join(' | ');
    const exParams = firstExample(p.located.schema) ?? {};
    const exResult = firstExample(r.located.schema);
    return {
      topic: t.topic,
      method: t.method,
      typeName: t.typeName,
      since: t.since,
      description: t.description,
      errors: t.errors,
      paramsType: p.name,
      resultType: r.name,
      validateParams: p.validator,
      validateResult: r.validator,
      paramsOptional: shape.required.size === 0,
      defaultsJson: JSON.stringify(Object.fromEntries(defaults)),
      handlerParamsType: defaults.length > 0 ? `WithDefaults<${p.name}, ${keys}>` : p.name,
      handlerParamsName: `${t.typeName}HandlerParams`,
      handlerName: `${t.typeName}Handler`,
      defaultKeys: defaults.map(([k]) => k).join(', '),
      paramsNote: note(p.located.schema, t.topic),
      resultNote: note(r.located.schema, t.topic),
      paramsRows: walker.rows(p.located),
      resultRows: walker.rows(r.located),
      exampleRequest: JSON.stringify({ topic: t.topic, requestId: EXAMPLE_REQUEST_ID, params: exParams }, null, 2),
      exampleResponse:
        exResult === undefined
          ? ''
          : JSON.stringify({ topic: t.topic, requestId: EXAMPLE_REQUEST_ID, result: exResult }, null, 2),
      session: t.servedBy === 'session',
    };
  });

  const frameMessage = (key: string): FrameMessage | undefined => {
    const path = spec.index.messages[key];
    if (!path) return undefined;
    const r = root(path);
    const ex = firstExample(r.located.schema);
    return {
      name: r.name,
      validator: r.validator,
      rows: walker.isObject(r.located) ? walker.rows(r.located) : [],
      example: ex === undefined ? '' : JSON.stringify(ex),
    };
  };
  const events = (spec.index.events ?? []).map((e): EventModel => {
    const d = root(e.data);
    const ex = firstExample(d.located.schema);
    const desc = typeof d.located.schema.description === 'string' ? d.located.schema.description : '';
    return {
      event: e.event,
      name: e.name,
      typeName: e.typeName,
      since: e.since,
      description: e.description,
      dataType: d.name,
      validateData: d.validator,
      coalesce: e.coalesce,
      dataNote: capitalise(desc.replace(/^Data of \S+:\s*/, '')),
      dataRows: walker.rows(d.located),
      exampleFrame: ex === undefined ? '' : JSON.stringify({ type: 'event', event: e.event, data: ex }, null, 2),
    };
  });

  return {
    folder: spec.folder,
    version: spec.index.version,
    released: released ?? '',
    hash: spec.hash,
    tsHeader: `// ${header}`,
    mdHeader: `<!-- ${header} -->`,
    transport: spec.index.transport,
    auth:
      msg.handshakeSuccess.rows.some((r) => r.name === 'authRequired') &&
      spec.index.errorCodes.some((e) => e.code === 'UNAUTHORIZED'),
    errorCodes: spec.index.errorCodes,
    roots: refs.roots.map((r) => ({ name: r.name, validator: r.validator })),
    msg,
    topics,
    handlerTopics: topics.filter((t) => !t.session),
    events,
    eventFrame: frameMessage('event'),
    cancelFrame: frameMessage('cancel'),
    draft: released === undefined,
    subscribeTopic: topics.find((t) => t.session && t.method === 'eventsSubscribe')?.topic ?? '',
    unsubscribeTopic: topics.find((t) => t.session && t.method === 'eventsUnsubscribe')?.topic ?? '',
    declarations,
    clauses: {
      any: spec.clauses.length > 0,
      text: clauseViews(spec.clauses, serverLayer('text')),
      reading: clauseViews(spec.clauses, serverLayer('reading')),
      hardening: clauseViews(spec.clauses, serverLayer('hardening')),
      client: clauseViews(spec.clauses, (c) => clauseSide(c) === 'client'),
    },
  };
}
