// Unit tests run the TypeScript sources; the regex worker thread needs JavaScript, so it is bundled
// once per test process (with scripts/build.ts's options for the extension's worker bundle) and the pool pointed at it.

import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { buildSync } from 'esbuild';
import { bundleOptions, EXTENSION_BUNDLES } from '../../../scripts/build';
import { setRegexWorkerScript } from '../../../server-core/search/regex-pool';

let built: string | undefined;

export function testRegexWorkerScript(): string {
  if (!built) {
    const out = join(mkdtempSync(join(tmpdir(), 'idea-regex-worker-')), 'regex-worker.cjs');
    buildSync({ ...bundleOptions(EXTENSION_BUNDLES.regexWorker), outfile: out });
    built = out;
  }
  return built;
}

/** Points the extension's shared pool at the test build (call before the first search). */
export function useTestRegexWorker(): void {
  setRegexWorkerScript(testRegexWorkerScript());
}
