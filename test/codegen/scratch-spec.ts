// Scratch spec roots for codegen tests: version folders plus the version-independent files codegen
// reads beside them (spec/topic-annotations.json and its schema, for the MCP tools).
import { cpSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

const REPO_SPEC = fileURLToPath(new URL('../../spec', import.meta.url));
const SHARED_SPEC_FILES = ['topic-annotations.json', 'topic-annotations.schema.json'] as const;

/** Copies `versions` ("v0.1.6", …) and the shared files from the repository's spec/ into `specRoot`. */
export function scratchSpec(specRoot: string, versions: readonly string[]): string {
  for (const v of versions) cpSync(join(REPO_SPEC, v), join(specRoot, v), { recursive: true });
  for (const f of SHARED_SPEC_FILES) cpSync(join(REPO_SPEC, f), join(specRoot, f));
  return specRoot;
}
