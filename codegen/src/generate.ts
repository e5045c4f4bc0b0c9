// Generates the files of one spec version in memory: file name → content. The spec lint runs first,
// so a schema the tests would reject fails here, with the file, JSON pointer and rule.

import { assertSpecClean } from '@idea-kit/spec-lib/lint';
import { RefResolver } from '@idea-kit/spec-lib/refs';
import { releaseOf } from '@idea-kit/spec-lib/releases';
import { loadSpec } from '@idea-kit/spec-lib/spec';
import { loadTopicAnnotations } from './annotations';
import { FieldHistory } from './field-history';
import { GENERATED_FILES } from './files';
import { generateMcpTools, MCP_TOOLS_FILE } from './gen-mcp-tools';
import { generateTypeDeclarations } from './gen-types';
import { createGeneratorAjv, generateValidators } from './gen-validators';
import { buildManifest, earlierSpecsHash, MANIFEST } from './manifest';
import { buildModel } from './model';
import { render } from './render';

/** `version`: "0.1.6" or "v0.1.6". The release date shown comes from spec/releases.json. */
export async function generateVersion(specRoot: string, version: string): Promise<Map<string, string>> {
  const spec = loadSpec(specRoot, version);
  const released = releaseOf(specRoot, spec.version)?.released;
  const ajv = createGeneratorAjv();
  assertSpecClean(specRoot, spec, ajv); // leaves every schema added to (and compiled by) ajv
  const refs = new RefResolver(spec);
  const history = new FieldHistory(specRoot, spec);
  const model = buildModel(spec, refs, history, await generateTypeDeclarations(refs, history), released);
  const annotations = loadTopicAnnotations(specRoot);
  const out = new Map<string, string>();
  for (const file of GENERATED_FILES) {
    if (file === MANIFEST) continue;
    if (file === MCP_TOOLS_FILE) out.set(file, generateMcpTools(refs, annotations, model.tsHeader));
    else if (file === 'validators.js') out.set(file, render(file, { ...model, code: generateValidators(refs, ajv) }));
    else out.set(file, render(file, model));
  }
  out.set(
    MANIFEST,
    buildManifest(spec.folder, spec.hash, earlierSpecsHash(history.earlier), released, annotations.hash, out),
  );
  return out;
}
export { GENERATED_FILES } from './files';
