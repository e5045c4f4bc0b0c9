// The spec tests' view of spec/<version>/: the same loader and the same strict ajv as the generator
// and its lint (spec-lib/lint.ts), so the tests cannot accept or reject what codegen does not.
import { dirname, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { createStrictAjv, specAjv } from '@idea-kit/spec-lib/lint';
import { ID_BASE, loadSpec, readJson as readSpecJson, specVersions } from '@idea-kit/spec-lib/spec';
import { versionFolder } from '@idea-kit/spec-lib/version';
import type { Ajv2020 } from 'ajv/dist/2020';

export const SPEC_ROOT = resolve(dirname(fileURLToPath(import.meta.url)), '../../spec');

/** Version folders ("v0.1.6"), oldest first. */
export function versions(): string[] {
  return specVersions(SPEC_ROOT).map(versionFolder);
}

/** Any JSON file, untyped for the assertions. */
export function readJson<T = any>(path: string): T {
  return readSpecJson(path) as T;
}

export function newAjv(): Ajv2020 {
  return createStrictAjv();
}

/** A strict ajv holding every schema of one version, addressable by `$id`. */
export function loadVersion(versionDir: string): { ajv: Ajv2020; base: string } {
  const ajv = specAjv(loadSpec(SPEC_ROOT, versionDir));
  return { ajv, base: `${ID_BASE}${versionDir}/` };
}
