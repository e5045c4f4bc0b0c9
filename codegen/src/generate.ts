// Generates the files of one spec version in memory: file name → content.
import { generateTypeDeclarations } from "./gen-types";
import { generateValidators } from "./gen-validators";
import { buildModel } from "./model";
import { RefResolver } from "./refs";
import { render } from "./render";
import { buildManifest, MANIFEST } from "./manifest";
import { loadSpec } from "./spec";
import { GENERATED_FILES } from "./files";
import { loadTopicAnnotations } from "./annotations";
import { generateMcpTools, MCP_TOOLS_FILE } from "./gen-mcp-tools";

export async function generateVersion(specRoot: string, folder: string): Promise<Map<string, string>> {
  const spec = loadSpec(specRoot, folder);
  const refs = new RefResolver(spec);
  const model = buildModel(spec, refs, await generateTypeDeclarations(refs));
  const annotations = loadTopicAnnotations(specRoot);
  const out = new Map<string, string>();
  for (const file of GENERATED_FILES) {
    if (file === MANIFEST) continue;
    if (file === MCP_TOOLS_FILE) out.set(file, generateMcpTools(refs, annotations, model.tsHeader));
    else if (file === "validators.js") out.set(file, render(file, { ...model, code: await generateValidators(refs) }));
    else out.set(file, render(file, model));
  }
  out.set(MANIFEST, buildManifest(spec.folder, spec.hash, annotations.hash, out));
  return out;
}
export { GENERATED_FILES } from "./files";
