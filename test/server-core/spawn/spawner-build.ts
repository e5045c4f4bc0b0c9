// The spawner is a process of its own: tests point server-core/spawn at a test build of its bundle.
import { configureSpawner, spawnerState } from '../../../server-core/spawn/processes';
import { testBundle } from '../test-bundle';

export function testSpawnerScript(): string {
  return testBundle('spawner');
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
