// Unit tests run the TypeScript sources; the regex worker thread needs JavaScript, so it is bundled
// once per test process (as extension/build.mjs does for the extension) and the pool pointed at it.
import { buildSync } from 'esbuild';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { setRegexWorkerScript } from '../../extension/src/search/regexPool';

let built: string | undefined;

export function testRegexWorkerScript(): string {
  if (!built) {
    const out = join(mkdtempSync(join(tmpdir(), 'idea-regex-worker-')), 'regexWorker.cjs');
    const entry = resolve(dirname(fileURLToPath(import.meta.url)), '../../extension/src/search/regexWorker.ts');
    buildSync({ entryPoints: [entry], outfile: out, bundle: true, format: 'cjs', platform: 'node', target: 'node20', logLevel: 'error' });
    built = out;
  }
  return built;
}

/** Points the extension's shared pool at the test build (call before the first search). */
export function useTestRegexWorker(): void {
  setRegexWorkerScript(testRegexWorkerScript());
}
