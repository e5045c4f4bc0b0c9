// Loads fixture cases from conformance/fixtures/<version>/, validating each against fixture.schema.json.
import { readdirSync, readFileSync } from 'node:fs';
import { join, relative, resolve, sep } from 'node:path';
import { fileURLToPath } from 'node:url';
import { compareVersions, isVersion, versionFolder } from '@idea-kit/spec-lib/version';
import Ajv2020 from 'ajv/dist/2020';
import { CURRENT_VERSION } from '../../generated/current';
import fixtureSchema from '../fixture.schema.json';
import { CLAUSES, CLAUSES_JSON, levelOf, profileOf } from './clauses';
import { caseTopic } from './execute';
import { isKnownTopic } from './topics';
import type { FixtureCase, LoadedCase } from './types';

export const CONFORMANCE_DIR = resolve(fileURLToPath(new URL('..', import.meta.url)));
/**
 * The cases for `version`: fixtures/v<version>/, or, until that folder is written, the newest older
 * one (cases are cumulative: each one's `since` says from which version on it applies), so serving a
 * new version needs no fixture move first.
 */
export function fixturesFor(version: string): string {
  const root = join(CONFORMANCE_DIR, 'fixtures');
  let folders: string[] = [];
  try {
    folders = readdirSync(root)
      .filter((n) => n.startsWith('v') && isVersion(n) && compareVersions(n, version) <= 0)
      .sort(compareVersions);
  } catch {
    // no fixtures folder: the exact path, for the error that loading it gives
  }
  return join(root, folders.at(-1) ?? versionFolder(version));
}

/** The served version's cases. */
export const DEFAULT_FIXTURES = fixturesFor(CURRENT_VERSION);

// discriminator: a case is checked against the schema of its `kind` only (precise errors).
const ajv = new Ajv2020({ allErrors: false, strict: false, discriminator: true });
const validateFixture = ajv.compile(fixtureSchema);

class FixtureError extends Error {}

function walk(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((e) => {
    const p = join(dir, e.name);
    if (e.isDirectory()) return walk(p);
    return e.isFile() && e.name.endsWith('.json') && e.name !== 'manifest.json' ? [p] : [];
  });
}

/** Parses and checks one case file; the id's first segment is its area (the folder it lives in). */
export function parseCase(text: string, file: string): LoadedCase {
  let raw: unknown;
  try {
    raw = JSON.parse(text);
  } catch (err) {
    throw new FixtureError(`${file}: not JSON (${(err as Error).message})`);
  }
  if (!validateFixture(raw)) {
    const e = validateFixture.errors?.[0];
    throw new FixtureError(`${file}: ${e?.instancePath || '/'} ${e?.message ?? 'invalid'}`);
  }
  const { $schema: _ignored, ...c } = raw as unknown as FixtureCase & { $schema?: string };
  const area = c.id.split('/')[0]!;
  const folder = file.split(/[\\/]/).slice(-2, -1)[0];
  if (folder !== undefined && folder !== '.' && folder !== area)
    throw new FixtureError(`${file}: id ${c.id} must start with its folder name "${folder}/"`);
  const fc = c as FixtureCase;
  const clause = CLAUSES.get(fc.spec);
  if (!clause) throw new FixtureError(`${file}: spec "${fc.spec}" names no clause of ${CLAUSES_JSON}`);
  if (fc.kind === 'request' && fc.prefer && !CLAUSES.has(fc.prefer.spec))
    throw new FixtureError(`${file}: prefer.spec "${fc.prefer.spec}" names no clause of ${CLAUSES_JSON}`);
  const clauseLevel = levelOf(clause);
  if (fc.level === 'must' && clauseLevel === 'should')
    throw new FixtureError(`${file}: level "must" above its clause ${clause.id} (a ${clause.layer}: should)`);
  // These requests are skipped where their topic is not advertised: a misspelt topic would always be.
  const unknownTopics =
    fc.kind === 'transport' && fc.action === 'no-traps-fired'
      ? fc.requests.map((r) => r.request.topic).filter((t) => !isKnownTopic(t))
      : [];
  if (unknownTopics.length)
    throw new FixtureError(`${file}: requests to topics the suite does not know: ${unknownTopics.join(', ')}`);
  const sent = sentTopics(fc);
  return {
    case: fc,
    file,
    topic: caseTopic(fc),
    area,
    clause,
    profile: profileOf(clause),
    level: fc.level ?? clauseLevel,
    needs: [...new Set(sent.filter(isKnownTopic))],
    needsAdvertised: sent.some((t) => /\$\{advertised\.\d+\}/.test(t)),
    needsEvents: fc.kind === 'exchange' ? [...(fc.events ?? [])] : [],
  };
}

/** The topics a case sends requests to (its own, its setup's and follow-ups', its raw frames'). */
function sentTopics(c: FixtureCase): string[] {
  if (c.kind === 'request')
    return [
      c.request,
      ...(c.setup ?? []).map((s) => ('request' in s ? s.request : undefined)),
      ...(c.then ?? []).map((s) => s.request),
    ].flatMap((r) => (r ? [r.topic] : []));
  if (c.kind === 'exchange')
    return [c.topic, ...sentFrameTopics(c.steps)].filter((t): t is string => typeof t === 'string');
  return c.action === 'in-flight-bound' ? [c.request.topic] : [];
}

type ExchangeSteps = Extract<FixtureCase, { kind: 'exchange' }>['steps'];

/** The topics of an exchange's `send` frames, those of `expectOneOf` alternatives included. */
function sentFrameTopics(steps: ExchangeSteps): unknown[] {
  return steps.flatMap((s) => {
    if ('send' in s) return s.send && typeof s.send === 'object' ? [(s.send as { topic?: unknown }).topic] : [];
    if ('expectOneOf' in s)
      return s.expectOneOf.flatMap((alt) => (alt.then ? sentFrameTopics(alt.then as ExchangeSteps) : []));
    return [];
  });
}

export function loadCases(root = DEFAULT_FIXTURES): LoadedCase[] {
  const out: LoadedCase[] = [];
  const seen = new Map<string, string>();
  for (const abs of walk(root).sort()) {
    const file = relative(root, abs).split(sep).join('/');
    const lc = parseCase(readFileSync(abs, 'utf8'), file);
    const dup = seen.get(lc.case.id);
    if (dup) throw new FixtureError(`duplicate id ${lc.case.id} in ${dup} and ${file}`);
    seen.set(lc.case.id, file);
    out.push(lc);
  }
  return out;
}
