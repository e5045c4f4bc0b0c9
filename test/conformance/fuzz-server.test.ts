// A bounded fuzz run (fixed seed) against the built idea-server bin on a fixture workspace, found through
// the per-user registry as `idea-conformance fuzz` finds it: no findings, its frame bound found where
// serve.ts puts it, and the bin's process still running after every failure (as `fuzz --launch` checks).
import type { ChildProcess } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { fuzz } from '../../conformance/fuzz/run';
import { buildFixtureWorkspace } from '../../conformance/workspace';
import type { RegistryEntry } from '../../runtime/registry';
import { buildTarget } from '../../scripts/build';
import { IDEA_SERVER_BIN, startServer } from '../idea-server/start-bin';
import { soak } from '../support/soak';

// A count of trials, not a time budget: a loaded machine takes longer instead of trying less (a 6 s
// budget ran no trial at all once, the frame bound search having used it). 40 reach every topic.
const FUZZ_RUNS = soak(40, 200);

let tmp: string;
let ws: string;
let child: ChildProcess | undefined;
let entry: RegistryEntry;
let start: () => ReturnType<typeof startServer>;

beforeAll(async () => {
  tmp = mkdtempSync(join(tmpdir(), 'conformance-fuzz-server-'));
  const home = join(tmp, 'home');
  const registry = join(tmp, 'registry');
  mkdirSync(home);
  ws = buildFixtureWorkspace(join(tmp, 'ws')).dir;
  await buildTarget('server');
  start = async () => {
    const s = await startServer(
      IDEA_SERVER_BIN,
      ['--workspace', ws, '--port', '0'],
      {
        PATH: process.env.PATH,
        HOME: home,
        IDEA_REGISTRY_DIR: registry,
      },
      registry,
    );
    child = s.child;
    entry = s.entry;
    return s;
  };
  await start();
}, 180_000);

afterAll(() => {
  if (child?.exitCode === null) child.kill('SIGKILL');
  rmSync(tmp, { recursive: true, force: true });
});

it(`idea-server: ${FUZZ_RUNS} fuzz trials with seed 31 find nothing, the process alive after every failure`, async () => {
  const s = await fuzz({
    url: entry.url,
    token: entry.token,
    workspace: ws,
    seed: 31,
    runs: FUZZ_RUNS,
    shrinkMs: 15_000,
    // The "server alive" oracle on the bin's process, restarted (and the finding shrunk) should it die.
    server: {
      describe: 'the idea-server bin',
      alive: () => child?.exitCode === null && child.signalCode === null,
      restart: async () => {
        const r = await start();
        return { url: r.entry.url, token: r.entry.token };
      },
    },
  });
  expect(s.findings.map((f) => `${f.signature}: ${f.problems[0]!.detail} ${JSON.stringify(f.input)}`)).toEqual([]);
  expect(s.topics.length).toBeGreaterThanOrEqual(17);
  expect(s.trials).toBe(FUZZ_RUNS);
  expect(s.frameBound).toMatchObject({ under: 4 * 1024 * 1024, over: 4 * 1024 * 1024 + 1 }); // serve.ts MAX_FRAME_BYTES
  expect(s.restarts).toBe(0);
}, 240_000);
