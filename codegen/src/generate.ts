// Generates the files of one spec version in memory: file name → content.
import { generateTypeDeclarations } from "./gen-types";
import { generateValidators } from "./gen-validators";
import { buildModel } from "./model";
import { RefResolver } from "./refs";
import { render } from "./render";
import { loadSpec } from "./spec";

/** Files of generated/<v>/, in the order they are listed. */
export const GENERATED_FILES = [
  "client.ts",
  "protocol.md",
  "server.ts",
  "topics.ts",
  "types.ts",
  "validators.d.ts",
  "validators.js",
] as const;

export async function generateVersion(specRoot: string, folder: string): Promise<Map<string, string>> {
  const spec = loadSpec(specRoot, folder);
  const refs = new RefResolver(spec);
  const model = buildModel(spec, refs, await generateTypeDeclarations(refs));
  const out = new Map<string, string>();
  for (const file of GENERATED_FILES) {
    if (file === "validators.js") out.set(file, render(file, { ...model, code: generateValidators(refs) }));
    else out.set(file, render(file, model));
  }
  return out;
}
