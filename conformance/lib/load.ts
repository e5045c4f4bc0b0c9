// Loads fixture cases from conformance/fixtures/<version>/, validating each against fixture.schema.json.
import { readdirSync, readFileSync } from 'node:fs';
import { join, relative, resolve, sep } from 'node:path';
import { fileURLToPath } from 'node:url';
import Ajv2020 from 'ajv/dist/2020';
import fixtureSchema from '../fixture.schema.json';
import { caseTopic } from './execute';
import type { FixtureCase, LoadedCase } from './types';

export const CONFORMANCE_DIR = resolve(fileURLToPath(new URL('..', import.meta.url)));
export const DEFAULT_FIXTURES = join(CONFORMANCE_DIR, 'fixtures', 'v0.1.6');

// discriminator: a case is checked against the schema of its `kind` only (precise errors).
const ajv = new Ajv2020({ allErrors: false, strict: false, discriminator: true });
const validateFixture = ajv.compile(fixtureSchema);

export class FixtureError extends Error {}

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
  if (folder !== undefined && folder !== '.' && folder !== area) throw new FixtureError(`${file}: id ${c.id} must start with its folder name "${folder}/"`);
  return { case: c as FixtureCase, file, topic: caseTopic(c as FixtureCase), area };
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
