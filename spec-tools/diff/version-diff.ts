// Compares two protocol versions: the topic index (transport, error codes, topics) and every
// message and topic schema, each in the direction its values travel.
import type { Json, Spec as SpecVersion, TopicEntry } from '@idea-kit/spec-lib/spec';
import { groupByDef } from './group';
import { inlineSchema } from './inline';
import { canonical } from './keywords';
import { diffSchemas, type SchemaChange, UNPROVEN } from './schema-diff';
import type { Change, DiffReport, Direction } from './types';

/** Messages a client sends; every other message is sent by the server. */
const CLIENT_MESSAGES = new Set(['handshakeRequest', 'request', 'cancel']);
/** Server messages sent only to a client that asked for them (event frames: after a subscribe). */
const OPT_IN_MESSAGES = new Set(['event']);

const MESSAGE_NAMES: Record<string, string> = {
  handshakeRequest: 'handshake request',
  handshakeSuccess: 'handshake response',
  handshakeFailure: 'handshake failure',
  request: 'request envelope',
  responseSuccess: 'success response',
  responseError: 'error response',
  errorCode: 'error code',
};

export function diffVersions(a: SpecVersion, b: SpecVersion): DiffReport {
  const changes: SchemaChange[] = [];
  const emit = (c: SchemaChange) => changes.push(c);
  unclassified(
    'index',
    a.index as unknown as Record<string, Json>,
    b.index as unknown as Record<string, Json>,
    INDEX_KEYS,
    'index-changed',
    emit,
  );
  diffTransport(a, b, emit);
  diffErrorCodes(a, b, emit);
  diffMessages(a, b, emit);
  diffTopics(a, b, emit);
  diffEvents(a, b, emit);
  return { from: a.version, to: b.version, changes: groupByDef(changes) };
}

function diffTransport(a: SpecVersion, b: SpecVersion, emit: (c: Change) => void): void {
  const ta = a.index.transport;
  const tb = b.index.transport;
  const location = 'transport';
  if (ta.defaultPort !== tb.defaultPort) {
    emit({
      level: 'ERR',
      kind: 'default-port-changed',
      location,
      path: 'defaultPort',
      message: `default port ${ta.defaultPort} → ${tb.defaultPort}: existing clients look for the server on the old port`,
    });
  }
  if (ta.portAttempts !== tb.portAttempts) {
    const more = tb.portAttempts > ta.portAttempts;
    emit({
      level: more ? 'WARN' : 'INFO',
      kind: 'port-attempts-changed',
      location,
      path: 'portAttempts',
      message: more
        ? `port attempts ${ta.portAttempts} → ${tb.portAttempts}: when the default port is taken the server now listens on a later one (up to ${tb.defaultPort + tb.portAttempts - 1}); clients must read the bound port (idea.server.port in .vscode/settings.json) instead of assuming ${tb.defaultPort}`
        : `port attempts ${ta.portAttempts} → ${tb.portAttempts}: the server tries fewer ports`,
    });
  }
  unclassified(location, ta, tb, new Set(['defaultPort', 'portAttempts']), 'transport-changed', emit);
}

/** What the index diff classifies of each entry; `description` is prose (an annotation). */
const INDEX_KEYS = new Set([
  '$schema',
  'version',
  'released',
  'description',
  'transport',
  'messages',
  'errorCodes',
  'topics',
  'events',
]);
const ERROR_CODE_KEYS = new Set(['code', 'since', 'description']);
const TOPIC_KEYS = new Set(['topic', 'method', 'typeName', 'since', 'params', 'result', 'errors', 'description']);
const EVENT_KEYS = new Set(['event', 'name', 'typeName', 'since', 'data', 'description']);

/**
 * Keys of an index entry beside `known` that changed: the diff proves nothing about them (a new field
 * of the index format, `coalesce`, `servedBy`, …), so each is WARN, unproven, never passed over.
 */
function unclassified(
  location: string,
  a: Readonly<Record<string, Json | undefined>>,
  b: Readonly<Record<string, Json | undefined>>,
  known: ReadonlySet<string>,
  kind: string,
  emit: (c: Change) => void,
): void {
  for (const k of new Set([...Object.keys(a), ...Object.keys(b)])) {
    if (known.has(k) || canonical(a[k]) === canonical(b[k])) continue;
    emit({
      level: 'WARN',
      kind,
      location,
      path: k,
      message: `${k} ${JSON.stringify(a[k]) ?? '(none)'} → ${JSON.stringify(b[k]) ?? '(none)'}: ${UNPROVEN}: not classified; review by hand`,
    });
  }
}

const entry = (x: object) => x as Readonly<Record<string, Json | undefined>>;

function diffErrorCodes(a: SpecVersion, b: SpecVersion, emit: (c: Change) => void): void {
  const ca = new Set(a.index.errorCodes.map((e) => e.code));
  const cb = new Set(b.index.errorCodes.map((e) => e.code));
  for (const e of b.index.errorCodes) {
    if (!ca.has(e.code)) {
      // A code answering only a client frame the older version lacks reaches only clients that send it.
      const optIn = e.answers !== undefined && a.index.messages[e.answers] === undefined;
      if (optIn) {
        emit({
          level: 'INFO',
          kind: 'error-code-added',
          location: 'error codes',
          path: e.code,
          message: `new error code ${e.code}, sent only in answer to the new ${e.answers} frame: existing clients never see it`,
        });
        continue;
      }
      emit({
        level: 'WARN',
        kind: 'error-code-added',
        location: 'error codes',
        path: e.code,
        message: `new error code ${e.code}${e.description ? ` (${e.description.replace(/\.$/, '')})` : ''}: clients must handle it`,
      });
    }
  }
  const since = new Map(b.index.errorCodes.map((e) => [e.code, e.since]));
  const now = new Map(b.index.errorCodes.map((e) => [e.code, e]));
  for (const e of a.index.errorCodes) {
    const n = now.get(e.code);
    if (n) unclassified('error codes', entry(e), entry(n), ERROR_CODE_KEYS, 'error-code-changed', emit);
    if (!cb.has(e.code)) {
      emit({
        level: 'INFO',
        kind: 'error-code-removed',
        location: 'error codes',
        path: e.code,
        message: `error code ${e.code} is no longer returned`,
      });
    } else if (since.get(e.code) !== e.since) {
      emit({
        level: 'WARN',
        kind: 'since-changed',
        location: 'error codes',
        path: e.code,
        message: sinceMessage(e.since, since.get(e.code)),
      });
    }
  }
}

function diffMessages(a: SpecVersion, b: SpecVersion, emit: (c: Change) => void): void {
  const names = new Set([...Object.keys(a.index.messages), ...Object.keys(b.index.messages)]);
  for (const name of names) {
    const pa = a.index.messages[name];
    const pb = b.index.messages[name];
    const direction: Direction = CLIENT_MESSAGES.has(name) ? 'request' : 'response';
    const location = MESSAGE_NAMES[name] ?? `message ${name}`;
    if (pa === undefined || pb === undefined) {
      // A whole new message kind from the server is something clients must be ready for, unless the
      // server sends it only to clients that asked for it (events: after a subscribe).
      const level =
        pa === undefined ? (direction === 'response' && !OPT_IN_MESSAGES.has(name) ? 'WARN' : 'INFO') : 'ERR';
      emit({
        level,
        kind: pa === undefined ? 'message-added' : 'message-removed',
        location,
        path: '',
        message: pa === undefined ? `new message ${name}` : `message ${name} removed`,
      });
      continue;
    }
    diffSchemaFiles(a, pa, b, pb, direction, location, emit);
  }
}

/** Events (0.1.7 on): server-sent data, so judged like results (widening breaks clients). */
function diffEvents(a: SpecVersion, b: SpecVersion, emit: (c: Change) => void): void {
  const ea = new Map((a.index.events ?? []).map((e) => [e.event, e]));
  const eb = new Map((b.index.events ?? []).map((e) => [e.event, e]));
  for (const [name, e] of eb) {
    const before = ea.get(name);
    const location = `event ${name}`;
    if (!before) {
      emit({
        level: 'INFO',
        kind: 'event-added',
        location,
        path: '',
        message: `new event ${name} (server → client, sent only to subscribers): ${e.description}`,
      });
      continue;
    }
    if (before.since !== e.since)
      emit({
        level: 'WARN',
        kind: 'since-changed',
        location,
        path: 'since',
        message: sinceMessage(before.since, e.since),
      });
    for (const key of ['name', 'typeName'] as const) {
      if (before[key] !== e[key]) {
        emit({
          level: 'WARN',
          kind: 'generated-name-changed',
          location,
          path: key,
          message: `${key} ${before[key]} → ${e[key]}: the wire is unchanged but code using the generated API must be renamed`,
        });
      }
    }
    unclassified(location, entry(before), entry(e), EVENT_KEYS, 'event-changed', emit);
    diffSchemaFiles(a, before.data, b, e.data, 'response', location, emit);
  }
  for (const name of ea.keys()) {
    if (!eb.has(name)) {
      emit({
        level: 'ERR',
        kind: 'event-removed',
        location: `event ${name}`,
        path: '',
        message: `event ${name} removed: subscribing to it now fails`,
      });
    }
  }
}

function diffTopics(a: SpecVersion, b: SpecVersion, emit: (c: Change) => void): void {
  const ta = new Map(a.index.topics.map((t) => [t.topic, t]));
  const tb = new Map(b.index.topics.map((t) => [t.topic, t]));
  for (const t of b.index.topics) {
    if (!ta.has(t.topic)) {
      emit({
        level: 'INFO',
        kind: 'topic-added',
        location: `topic ${t.topic}`,
        path: '',
        message: `new topic ${t.topic} (${t.method})${t.description ? `: ${t.description}` : ''}`,
      });
    }
  }
  for (const t of a.index.topics) {
    const n = tb.get(t.topic);
    if (!n) {
      emit({
        level: 'ERR',
        kind: 'topic-removed',
        location: `topic ${t.topic}`,
        path: '',
        message: `topic ${t.topic} removed: existing clients calling it get UNKNOWN_TOPIC`,
      });
      continue;
    }
    diffTopic(a, t, b, n, emit);
  }
}

/** `since` is history, not wire: but the generated reference (protocol.md) and topic tables carry it. */
function sinceMessage(from: string | undefined, to: string | undefined): string {
  return `since ${from ?? '(none)'} → ${to ?? '(none)'}: the generated reference and topic tables now date it differently; confirm the correction is deliberate`;
}

function diffTopic(a: SpecVersion, t: TopicEntry, b: SpecVersion, n: TopicEntry, emit: (c: Change) => void): void {
  const location = `topic ${t.topic}`;
  unclassified(location, entry(t), entry(n), TOPIC_KEYS, 'topic-changed', emit);
  if (t.since !== n.since)
    emit({ level: 'WARN', kind: 'since-changed', location, path: 'since', message: sinceMessage(t.since, n.since) });
  for (const key of ['method', 'typeName'] as const) {
    if (t[key] !== n[key]) {
      emit({
        level: 'WARN',
        kind: 'generated-name-changed',
        location,
        path: key,
        message: `${key} ${t[key]} → ${n[key]}: the wire is unchanged but code using the generated API must be renamed`,
      });
    }
  }
  const ea = new Set(t.errors);
  const eb = new Set(n.errors);
  for (const code of n.errors) {
    if (!ea.has(code))
      emit({
        level: 'WARN',
        kind: 'topic-error-added',
        location,
        path: code,
        message: `may now fail with ${code}: clients must handle it`,
      });
  }
  for (const code of t.errors) {
    if (!eb.has(code))
      emit({
        level: 'INFO',
        kind: 'topic-error-removed',
        location,
        path: code,
        message: `no longer fails with ${code}`,
      });
  }
  diffSchemaFiles(a, t.params, b, n.params, 'request', `${location} params`, emit);
  diffSchemaFiles(a, t.result, b, n.result, 'response', `${location} result`, emit);
}

function diffSchemaFiles(
  a: SpecVersion,
  pa: string,
  b: SpecVersion,
  pb: string,
  direction: Direction,
  location: string,
  emit: (c: Change) => void,
): void {
  const load = (s: SpecVersion, p: string): Json => {
    const doc = s.byPath.get(p)?.schema;
    if (doc === undefined) throw new Error(`spec ${s.version}: schema ${p} listed in index.json is missing`);
    return inlineSchema(s, p, doc);
  };
  diffSchemas(load(a, pa), load(b, pb), { direction, location, emit, isIndexOwnedEnum: indexOwned(a, b) });
}

/** Enumerations of topic names or error codes mirror the index, whose diff reports them once. */
function indexOwned(a: SpecVersion, b: SpecVersion): (values: Json[]) => boolean {
  const owned = new Set<string>();
  for (const s of [a, b]) {
    for (const t of s.index.topics) owned.add(t.topic);
    for (const e of s.index.errorCodes) owned.add(e.code);
    owned.add(s.version);
  }
  return (values) => values.length > 0 && values.every((v) => typeof v === 'string' && owned.has(v));
}
