// The spec tests' view of spec/<version>/: the same loader and the same strict ajv as the generator
// and its lint (codegen/src/lint.ts), so the tests cannot accept or reject what codegen does not.
import { readFileSync } from "node:fs";
import { dirname, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import type { Ajv2020 } from "ajv/dist/2020";
import { createStrictAjv, specAjv } from "../../codegen/src/lint";
import { listVersions, loadSpec } from "../../codegen/src/spec";

export const SPEC_ROOT = resolve(dirname(fileURLToPath(import.meta.url)), "../../spec");

export function versions(): string[] {
  return listVersions(SPEC_ROOT);
}

export function readJson<T = any>(path: string): T {
  return JSON.parse(readFileSync(path, "utf8")) as T;
}

export function newAjv(): Ajv2020 {
  return createStrictAjv();
}

/** A strict ajv holding every schema of one version, addressable by `$id`. */
export function loadVersion(versionDir: string): { ajv: Ajv2020; base: string } {
  const ajv = specAjv(loadSpec(SPEC_ROOT, versionDir));
  return { ajv, base: `https://idea-protocol.invalid/spec/${versionDir}/` };
}
