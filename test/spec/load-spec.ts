// The spec tests' view of spec/: the spec library's loader (codegen/src/spec.ts) plus one strict ajv
// 2020 instance per version holding every schema, addressable by `$id`.
import { dirname, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import Ajv2020 from "ajv/dist/2020";
import { ID_BASE, loadSpec, readJson as readSpecJson, specVersions } from "../../codegen/src/spec";
import { versionFolder } from "../../codegen/src/version";

export const SPEC_ROOT = resolve(dirname(fileURLToPath(import.meta.url)), "../../spec");
export { ID_BASE };

export interface SchemaFile {
  /** Path relative to spec/<version>/, "/"-separated. */
  rel: string;
  schema: Record<string, unknown> & { $id: string; title?: string; examples?: unknown[] };
}

/** Version folders ("v0.1.6"), oldest first. */
export function versions(): string[] {
  return specVersions(SPEC_ROOT).map(versionFolder);
}

/** Any JSON file, untyped for the assertions. */
export function readJson<T = any>(path: string): T {
  return readSpecJson(path) as T;
}

export function newAjv(): Ajv2020 {
  return new Ajv2020({ strict: true, allErrors: true });
}

/** A strict ajv holding every schema of one version (folder name), addressable by `$id`. */
export function loadVersion(versionDir: string): { ajv: Ajv2020; files: SchemaFile[]; base: string } {
  const ajv = newAjv();
  const files = loadSpec(SPEC_ROOT, versionDir).docs.map((d) => ({ rel: d.path, schema: d.schema as SchemaFile["schema"] }));
  for (const f of files) ajv.addSchema(f.schema);
  return { ajv, files, base: `${ID_BASE}${versionDir}/` };
}
