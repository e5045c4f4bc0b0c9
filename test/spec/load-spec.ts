// Loads every schema of spec/<version>/ into one strict ajv 2020 instance, for the spec tests.
import { readFileSync, readdirSync, statSync } from "node:fs";
import { dirname, join, relative, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import Ajv2020 from "ajv/dist/2020";

export const SPEC_ROOT = resolve(dirname(fileURLToPath(import.meta.url)), "../../spec");
export const ID_BASE = "https://idea-protocol.invalid/spec/";

export interface SchemaFile {
  /** Path relative to spec/<version>/, "/"-separated. */
  rel: string;
  schema: Record<string, unknown> & { $id: string; title?: string; examples?: unknown[] };
}

export function versions(): string[] {
  return readdirSync(SPEC_ROOT).filter((d) => /^v\d+\.\d+\.\d+$/.test(d) && statSync(join(SPEC_ROOT, d)).isDirectory());
}

export function readJson<T = any>(path: string): T {
  return JSON.parse(readFileSync(path, "utf8")) as T;
}

function walk(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const p = join(dir, name);
    return statSync(p).isDirectory() ? walk(p) : [p];
  });
}

export function schemaFiles(versionDir: string): SchemaFile[] {
  const root = join(SPEC_ROOT, versionDir);
  return walk(root)
    .filter((p) => p.endsWith(".schema.json"))
    .sort()
    .map((p) => ({ rel: relative(root, p).split("\\").join("/"), schema: readJson(p) }));
}

export function newAjv(): Ajv2020 {
  return new Ajv2020({ strict: true, allErrors: true });
}

/** A strict ajv holding every schema of one version, addressable by `$id`. */
export function loadVersion(versionDir: string): { ajv: Ajv2020; files: SchemaFile[]; base: string } {
  const ajv = newAjv();
  const files = schemaFiles(versionDir);
  for (const f of files) ajv.addSchema(f.schema);
  return { ajv, files, base: `${ID_BASE}${versionDir}/` };
}
