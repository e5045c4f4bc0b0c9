// Unit tests run the TypeScript sources; the spawner is a process of its own and needs JavaScript, so
// it is bundled once per test process (with scripts/build.ts's options for the extension's bundle) and
// server-core/spawn pointed at it.
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { buildSync } from 'esbuild';
import { bundleOptions, EXTENSION_BUNDLES } from '../../../scripts/build';
import { configureSpawner, spawnerState } from '../../../server-core/spawn/processes';

let built: string | undefined;

export function testSpawnerScript(): string {
  if (!built) {
    const out = join(mkdtempSync(join(tmpdir(), 'idea-spawner-')), 'spawner.cjs');
    buildSync({ ...bundleOptions(EXTENSION_BUNDLES.spawner), outfile: out });
    built = out;
  }
  return built;
}

/** Points server-core's processes at the test build (call before the first process starts). */
export function useTestSpawner(): void {
  configureSpawner({ script: testSpawnerScript() });
}

/** For tests that must run through the spawner: fails when processes are started directly. */
export function expectThroughSpawner(): void {
  const s = spawnerState();
  if (s.mode !== 'spawner' || s.pid === undefined)
    throw new Error(`processes are not started through the spawner: ${JSON.stringify(s)}`);
}
