// Runs once in vitest's main process before any test file (vitest.config.ts `globalSetup`): builds the
// bins and bundles the tests start, then names them in IDEA_KIT_PREBUILT, which the workers inherit,
// so `buildTarget` in a test returns the built file instead of building it again. Test files run in
// parallel, and two of them rebuilding one target at once deleted and rewrote files the other was
// loading (a bin test failed with "Cannot find module …/idea-server.mjs").
import { buildTarget, PREBUILT_ENV, prebuiltValue, type TargetName } from '../scripts/build';

const TARGETS: TargetName[] = ['extension', 'cli', 'mcp', 'server', 'conformance', 'spec-tools'];

export default async function setup(): Promise<void> {
  const t0 = Date.now();
  for (const t of TARGETS) await buildTarget(t);
  process.env[PREBUILT_ENV] = prebuiltValue(TARGETS);
  console.log(`global setup: built ${TARGETS.join(', ')} in ${Date.now() - t0} ms`);
}
