// The clauses the suite enforces (the served version's spec/<v>/clauses.json, rendered with anchors into
// generated/<v>/protocol.md): every case cites one, and its layer gives the case's profile and level.
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { normalizeVersion, versionFolder } from '@idea-kit/spec-lib/version';
import { CURRENT_CLAUSES, CURRENT_FOLDER, CURRENT_VERSION } from '../../generated/current';
// The clauses binding clients arrived in the v0.1.8 draft (a released folder is frozen): the client suite
// reads them from there until that version is served (test/conformance/client/clauses.test.ts fails
// when a newer spec folder exists, so this import moves with the spec).
import clientSpec from '../../spec/v0.1.8/clauses.json';
import { PACKAGED } from './clone';

type Layer = 'text' | 'reading' | 'hardening';
export type Profile = 'core' | 'readings' | 'security';
export type Level = 'must' | 'should';

export interface Clause {
  id: string;
  layer: Layer;
  /** Which side it binds (v0.1.8 on): server, client (ids C<n>) or both. Absent: servers. */
  binds?: 'server' | 'client' | 'both';
  since: string;
  title: string;
  text: string;
  /** Readings: why the text needed one. */
  why?: string;
  /** Results clauses: the topic they describe. */
  topic?: string;
  /** A reading the text forces is `must`; otherwise readings are `should`, text and hardening `must`. */
  level?: Level;
}

export const PROFILES: readonly Profile[] = ['core', 'readings', 'security'];
const PROFILE_OF: Record<Layer, Profile> = { text: 'core', reading: 'readings', hardening: 'security' };

export const CLAUSES: ReadonlyMap<string, Clause> = new Map((CURRENT_CLAUSES as Clause[]).map((c) => [c.id, c]));

/** The spec folder the client clauses are read from. */
export const CLIENT_CLAUSES_FOLDER = 'v0.1.8';
/** The clauses `idea-conformance client` judges: those binding clients, or both sides. */
export const CLIENT_CLAUSES: ReadonlyMap<string, Clause> = new Map(
  (clientSpec.clauses as Clause[]).filter((c) => c.binds === 'client' || c.binds === 'both').map((c) => [c.id, c]),
);

/** A clause of either suite by id: the served version's, else a client clause. */
export function clauseOf(id: string): Clause | undefined {
  return CLAUSES.get(id) ?? CLIENT_CLAUSES.get(id);
}

/**
 * The version clause `id` applies from: its `since` in the clauses file. The runner's and the fuzzer's
 * version gates read it here rather than naming a version; an id no clause has is a bug of theirs.
 */
export function clauseSince(id: string): string {
  const c = CLAUSES.get(id);
  if (!c) throw new Error(`no clause ${id} in ${CLAUSES_JSON}`);
  return c.since;
}

/** Where the clauses are rendered (relative to the repository root). */
export const PROTOCOL_MD = `generated/${CURRENT_FOLDER}/protocol.md`;
/** The clauses file every fixture's `spec` is read against (relative to the repository root). */
export const CLAUSES_JSON = `spec/${CURRENT_FOLDER}/clauses.json`;

/**
 * The clauses of `version`: the served one's are built in (the package carries no spec); another
 * version's are read from spec/ of the clone at `root`.
 */
export function clausesOf(version: string, root: string | undefined): Clause[] {
  const v = normalizeVersion(version);
  if (v === CURRENT_VERSION) return [...CLAUSES.values()];
  if (!root)
    throw new Error(
      `this package carries the clauses of ${CURRENT_VERSION} only (the served version); ${v}'s need a clone of idea-kit`,
    );
  const rel = `spec/${versionFolder(v)}/clauses.json`;
  if (!existsSync(join(root, rel))) throw new Error(`protocol ${v} has no clauses (no ${rel})`);
  const list = (JSON.parse(readFileSync(join(root, rel), 'utf8')) as { clauses?: unknown }).clauses;
  if (!Array.isArray(list)) throw new Error(`${rel}: expected {"clauses": [...]}`);
  return list as Clause[];
}

export function profileOf(c: Clause): Profile {
  return PROFILE_OF[c.layer];
}

export function levelOf(c: Clause): Level {
  return c.level ?? (c.layer === 'reading' ? 'should' : 'must');
}

/** The HTML anchor codegen gives the clause in protocol.md (codegen/templates/protocol.md.hbs). */
export function clauseAnchor(id: string): string {
  return `clause-${id.toLowerCase()}`;
}

/** What clause links point at: repository-relative in a clone; from the package (protocol.md beside the bin), the absolute path of its own copy. */
const LINKED_DOC = PACKAGED ? fileURLToPath(new URL('./protocol.md', import.meta.url)) : PROTOCOL_MD;
/** Where the client clauses are rendered (the package carries that protocol.md as protocol-<folder>.md). */
const CLIENT_DOC = PACKAGED
  ? fileURLToPath(new URL(`./protocol-${CLIENT_CLAUSES_FOLDER}.md`, import.meta.url))
  : `generated/${CLIENT_CLAUSES_FOLDER}/protocol.md`;

export function clauseLink(id: string): string {
  return `${!CLAUSES.has(id) && CLIENT_CLAUSES.has(id) ? CLIENT_DOC : LINKED_DOC}#${clauseAnchor(id)}`;
}

/** `core,security` → profiles; throws on an unknown name. */
export function parseProfiles(list: string): Profile[] {
  const out = list
    .split(',')
    .map((s) => s.trim())
    .filter(Boolean);
  for (const p of out)
    if (!PROFILES.includes(p as Profile)) throw new Error(`unknown profile "${p}" (known: ${PROFILES.join(', ')})`);
  if (out.length === 0) throw new Error(`--profile needs at least one of ${PROFILES.join(', ')}`);
  return out as Profile[];
}
