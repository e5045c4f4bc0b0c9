// Generates the files of one spec version in memory: file name → content.
import { generateTypeDeclarations } from "./gen-types";
import { generateValidators } from "./gen-validators";
import { buildModel } from "./model";
import { RefResolver } from "./refs";
import { render } from "./render";
import { buildManifest, MANIFEST } from "./manifest";
import { releaseOf } from "./releases";
import { loadSpec } from "./spec";
import { GENERATED_FILES } from "./files";

/** `version`: "0.1.6" or "v0.1.6". The release date shown comes from spec/releases.json. */
export async function generateVersion(specRoot: string, version: string): Promise<Map<string, string>> {
  const spec = loadSpec(specRoot, version);
  const released = releaseOf(specRoot, spec.version)?.released;
  const refs = new RefResolver(spec);
  const model = buildModel(spec, refs, await generateTypeDeclarations(refs), released);
  const out = new Map<string, string>();
  for (const file of GENERATED_FILES) {
    if (file === MANIFEST) continue;
    if (file === "validators.js") out.set(file, render(file, { ...model, code: await generateValidators(refs) }));
    else out.set(file, render(file, model));
  }
  out.set(MANIFEST, buildManifest(spec.folder, spec.hash, released, out));
  return out;
}
export { GENERATED_FILES } from "./files";
