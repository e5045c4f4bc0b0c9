// Reconstructs the released versions before v0.1.6 from the v0.1.6 spec and the changelog facts:
// each keeps the topics and error codes whose `since` it reaches, and undoes the later wire changes
// (token auth and port auto-increment from 0.1.3, relative paths from 0.1.2, history/diff's 0.1.4
// index restriction). The output is committed as plain schema files and frozen in releases.json.
import { isObject, type Json, type JsonObject, type Spec, type SpecIndex } from '@idea-kit/spec-lib/spec';
import { compareVersions } from '@idea-kit/spec-lib/version';
import {
  AUTH_SINCE,
  HISTORY_DIFF_RESTRICTED,
  LOCAL_HISTORY_SINCE,
  RELATIVE_PATHS_SINCE,
  type VersionFacts,
} from './facts';

const clone = <T extends Json>(x: T): T => JSON.parse(JSON.stringify(x)) as T;
const before = (v: string, since: string): boolean => compareVersions(v, since) < 0;

function obj(x: Json | undefined, what: string): JsonObject {
  if (!isObject(x)) throw new Error(`derive: ${what} is not an object`);
  return x;
}

/**
 * The files (path relative to the version folder → document, index.json included) of `facts.version`,
 * released on `released` (its date in spec/releases.json: these folders predate the rule that
 * index.json carries no date, and keep the one they were frozen with).
 */
export function deriveVersion(base: Spec, facts: VersionFacts, released: string): Map<string, Json> {
  const v = facts.version;
  const index = clone(base.index as unknown as JsonObject) as unknown as SpecIndex;
  index.version = v;
  index.released = released;
  index.topics = index.topics.filter((t) => !before(v, t.since));
  index.errorCodes = index.errorCodes.filter((e) => !before(v, e.since));
  if (before(v, LOCAL_HISTORY_SINCE)) {
    for (const e of index.errorCodes) e.description = e.description?.replace(/, an unknown local-history id/, '');
  }
  if (before(v, AUTH_SINCE)) index.transport.portAttempts = 1;

  const files = new Map<string, Json>();
  const schemaAt = (p: string): JsonObject | undefined => base.byPath.get(p)?.schema;
  for (const p of Object.values(index.messages)) files.set(p, clone(schemaAt(p)!));
  for (const t of index.topics) {
    for (const p of [t.params, t.result]) {
      const doc = schemaAt(p);
      if (!doc) throw new Error(`derive: ${p} missing from v${base.version}`);
      files.set(p, clone(doc));
    }
  }
  const codes = index.errorCodes.map((e) => e.code);
  const errorCode = obj(files.get(index.messages.errorCode!), 'error-code schema');
  errorCode.enum = codes;
  if (Array.isArray(errorCode.examples))
    errorCode.examples = errorCode.examples.filter((c) => codes.includes(c as string));

  if (before(v, AUTH_SINCE)) withoutAuth(files, index.messages);
  const defs = obj(clone(schemaAt('defs.schema.json')!), 'defs.schema.json');
  if (before(v, RELATIVE_PATHS_SINCE)) {
    absoluteFilePaths(defs);
    for (const doc of files.values())
      rewriteDescriptions(doc, (d) => d.replaceAll('(absolute or relative to the workspace root)', '(absolute path)'));
  }
  if (v === HISTORY_DIFF_RESTRICTED) restrictHistoryDiff(files);
  files.set('defs.schema.json', pruneDefs(defs, [...files.values()]));

  const out = new Map<string, Json>([['index.json', rewriteVersion(index as unknown as JsonObject, base.version, v)]]);
  for (const [p, doc] of [...files].sort(([a], [b]) => a.localeCompare(b)))
    out.set(p, rewriteVersion(doc, base.version, v));
  return out;
}

/** Before 0.1.3: no token in the handshake, no authRequired in its answer, no UNAUTHORIZED. */
function withoutAuth(files: Map<string, Json>, messages: Record<string, string>): void {
  const req = obj(files.get(messages.handshakeRequest!), 'handshake request');
  delete obj(req.properties, 'handshake request properties').token;
  if (Array.isArray(req.examples)) req.examples = dedupe(req.examples.map((e) => omit(e, 'token')));

  const ok = obj(files.get(messages.handshakeSuccess!), 'handshake success');
  delete obj(ok.properties, 'handshake success properties').authRequired;
  if (Array.isArray(ok.required)) ok.required = ok.required.filter((r) => r !== 'authRequired');
  if (Array.isArray(ok.examples)) ok.examples = ok.examples.map((e) => omit(e, 'authRequired'));

  const fail = obj(files.get(messages.handshakeFailure!), 'handshake failure');
  fail.description =
    "Server's answer to a refused handshake (a first frame that is not a handshake: INVALID_REQUEST). The server then closes the connection.";
  fail.examples = [{ type: 'handshake', error: { code: 'INVALID_REQUEST', message: 'Expected a handshake' } }];
}

/** Before 0.1.2 a client's file path is absolute (relative paths came with diag/list). */
function absoluteFilePaths(defs: JsonObject): void {
  const all = obj(defs.$defs, '$defs');
  const filePath = obj(all.FilePath, 'FilePath');
  const absolute = obj(all.AbsolutePath, 'AbsolutePath');
  filePath.description =
    'An absolute file path given by a client. Paths outside every workspace folder are refused with INVALID_REQUEST.';
  filePath.pattern = absolute.pattern!;
  if (Array.isArray(filePath.examples))
    filePath.examples = filePath.examples.filter((e) => typeof e === 'string' && e.startsWith('/'));
}

/** In 0.1.4, fromIndex=0 (given, or omitted and so defaulting to 0) works only with toIndex=1. */
function restrictHistoryDiff(files: Map<string, Json>): void {
  const params = files.get('topics/history-diff.params.schema.json');
  if (!isObject(params)) throw new Error('derive: history-diff params missing in 0.1.4');
  const said = typeof params.description === 'string' ? params.description.replace(', any pair allowed', '') : '';
  params.description =
    `${said} In this version fromIndex=0 (given or defaulted) works only with toIndex=1 (HEAD).`.trim();
  params.if = {
    anyOf: [{ properties: { fromIndex: { const: 0 } }, required: ['fromIndex'] }, { not: { required: ['fromIndex'] } }],
  };
  params.then = { properties: { toIndex: { const: 1 } } };
  if (Array.isArray(params.examples)) {
    params.examples = params.examples.filter(
      (e) => !isObject(e) || e.fromIndex === undefined || e.fromIndex !== 0 || e.toIndex === 1,
    );
  }
}

/** Applies `edit` to every `description` string in a schema document (wording that a version's rules contradict). */
function rewriteDescriptions(x: Json, edit: (d: string) => string): void {
  if (Array.isArray(x)) {
    for (const y of x) rewriteDescriptions(y, edit);
    return;
  }
  if (!isObject(x)) return;
  for (const [k, v] of Object.entries(x)) {
    if (k === 'description' && typeof v === 'string') x[k] = edit(v);
    else rewriteDescriptions(v, edit);
  }
}

/** Keeps the shared definitions some kept schema still uses (directly or through another definition). */
function pruneDefs(defs: JsonObject, docs: Json[]): JsonObject {
  const all = obj(defs.$defs, '$defs');
  const used = new Set<string>();
  const queue: Json[] = [...docs];
  while (queue.length > 0) {
    for (const ref of refsOf(queue.pop()!)) {
      const m = /\$defs\/([^/]+)$/.exec(ref);
      if (m && !used.has(m[1]!) && all[m[1]!] !== undefined) {
        used.add(m[1]!);
        queue.push(all[m[1]!]!);
      }
    }
  }
  defs.$defs = Object.fromEntries(Object.entries(all).filter(([k]) => used.has(k)));
  return defs;
}

function refsOf(x: Json): string[] {
  if (Array.isArray(x)) return x.flatMap(refsOf);
  if (!isObject(x)) return [];
  return Object.entries(x).flatMap(([k, v]) => (k === '$ref' && typeof v === 'string' ? [v] : refsOf(v)));
}

function omit(x: Json, key: string): Json {
  if (!isObject(x)) return x;
  const { [key]: _dropped, ...rest } = x;
  return rest;
}

function dedupe(xs: Json[]): Json[] {
  const seen = new Set<string>();
  return xs.filter((x) => {
    const k = JSON.stringify(x);
    if (seen.has(k)) return false;
    seen.add(k);
    return true;
  });
}

/**
 * Moves a document of the base version to an older one: `$id`s, "v<version>" mentions in prose and
 * string values equal to the version (the index's version, handshake examples). Only right here: the
 * derived versions drop every topic and error code whose `since` is the base version, so no `since`
 * value can equal it. `idea-spec bump` changes the version identity alone (spec-tools/bump.ts).
 */
function rewriteVersion<T extends Json>(doc: T, from: string, to: string): T {
  const mention = new RegExp(`(?<![\\w.])v${from.replace(/\./g, '\\.')}(?!\\d)`, 'g');
  const walk = (x: Json): Json => {
    if (typeof x === 'string') return x === from ? to : x.replace(mention, `v${to}`);
    if (Array.isArray(x)) return x.map(walk);
    if (isObject(x)) return Object.fromEntries(Object.entries(x).map(([k, v]) => [k, walk(v)]));
    return x;
  };
  return walk(doc) as T;
}
