// The clauses the suite enforces (the served version's spec/<v>/clauses.json, rendered with anchors into
// generated/<v>/protocol.md): every case cites one, and its layer gives the case's profile and level.
import { fileURLToPath } from 'node:url';
import { CURRENT_CLAUSES, CURRENT_FOLDER } from '../../generated/current';

/** Set by scripts/build.ts in the packaged bin, where protocol.md sits beside it (dist/). */
declare const __IDEA_PACKAGED__: boolean | undefined;

type Layer = 'text' | 'reading' | 'hardening';
export type Profile = 'core' | 'readings' | 'security';
export type Level = 'must' | 'should';

export interface Clause {
  id: string;
  layer: Layer;
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
/** Where the clauses are rendered (relative to the repository root). */
export const PROTOCOL_MD = `generated/${CURRENT_FOLDER}/protocol.md`;
/** The clauses file every fixture's `spec` is read against (relative to the repository root). */
export const CLAUSES_JSON = `spec/${CURRENT_FOLDER}/clauses.json`;

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

/** What clause links point at: repository-relative in a clone; from the package, the absolute path of its own copy. */
const LINKED_DOC =
  typeof __IDEA_PACKAGED__ !== 'undefined' && __IDEA_PACKAGED__
    ? fileURLToPath(new URL('./protocol.md', import.meta.url))
    : PROTOCOL_MD;

export function clauseLink(id: string): string {
  return `${LINKED_DOC}#${clauseAnchor(id)}`;
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
