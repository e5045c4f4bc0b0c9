// Main-thread cost of starting git: directly (child_process.spawn on this thread, what server-core did)
// vs through server-core/spawn's spawner process, in the same run, interleaved in blocks. The process
// first grows its heap by --heap MB of touched pages (default 200: about the extension host's size),
// since the time spawn() blocks grows with the caller's memory.
// Two figures per side, both p50 per git run (`git --version`, one at a time):
// - blocked: the synchronous time of the start call (spawn() waits for the child's exec there);
// - busy: the event loop's active time over a whole run (performance.eventLoopUtilization), i.e. the
//   start plus the IPC messages, output and exit handled on this thread.
//   npx tsx bench/core/spawn.bench.ts [--heap MB] [--rounds N] [--json out.json]
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import { parseArgs } from 'node:util';
import { buildSync } from 'esbuild';
import { bundleOptions, EXTENSION_BUNDLES } from '../../scripts/build';
import {
  configureSpawner,
  disposeSpawner,
  execProcess,
  spawnerState,
  startProcess,
} from '../../server-core/spawn/processes';
import { type BenchRow, emit } from '../lib/contract';
import { summarize } from '../lib/stats';

const { values } = parseArgs({
  options: { heap: { type: 'string' }, rounds: { type: 'string' }, json: { type: 'string' } },
});
const HEAP_MB = Number(values.heap ?? 200);
const ROUNDS = Number(values.rounds ?? 6);
const BLOCK = 20;

const keep: Buffer[] = [];
for (let i = 0; i < HEAP_MB; i++) keep.push(Buffer.alloc(1024 * 1024, 1)); // touched pages, as a real heap
const spawnerJs = join(mkdtempSync(join(tmpdir(), 'idea-spawn-bench-')), 'spawner.cjs');
buildSync({ ...bundleOptions(EXTENSION_BUNDLES.spawner), outfile: spawnerJs });
configureSpawner({ script: spawnerJs, log: (m) => console.error(m) });
const req = { file: 'git', args: ['--version'], cwd: tmpdir() };

/** One git run: the start call's synchronous time and the loop's active time over the whole run. */
async function once(): Promise<{ blocked: number; busy: number }> {
  const elu0 = performance.eventLoopUtilization();
  let blocked = 0;
  await new Promise<void>((resolve, reject) => {
    const t0 = performance.now();
    startProcess(req, { stdout: () => {}, stderr: () => {}, exit: () => resolve(), error: reject });
    blocked = performance.now() - t0;
  });
  return { blocked, busy: performance.eventLoopUtilization(elu0).active };
}

const side = {
  direct: { blocked: [] as number[], busy: [] as number[] },
  spawner: { blocked: [] as number[], busy: [] as number[] },
};
await execProcess(req, { maxBuffer: 1 << 20 }); // the spawner forked and warm
if (spawnerState().mode !== 'spawner') throw new Error(`the spawner is not in use: ${JSON.stringify(spawnerState())}`);
for (let r = 0; r < ROUNDS; r++) {
  for (const mode of ['direct', 'spawner'] as const) {
    if (mode === 'direct') process.env.IDEA_SPAWN = 'direct';
    else delete process.env.IDEA_SPAWN;
    for (let i = 0; i < BLOCK; i++) {
      const t = await once();
      side[mode].blocked.push(t.blocked);
      side[mode].busy.push(t.busy);
    }
  }
}
disposeSpawner();
const rss = Math.round(process.memoryUsage().rss / 1e6);
const p50 = (a: number[]) => summarize(a).p50;
const rows: BenchRow[] = [
  {
    metric: `main thread blocked per git spawn, p50 of ${ROUNDS * BLOCK}, spawner (baseline: direct spawn) at ${rss} MB RSS`,
    value: p50(side.spawner.blocked),
    unit: 'ms',
    baseline: p50(side.direct.blocked),
    ratio: p50(side.spawner.blocked) / p50(side.direct.blocked),
  },
  {
    metric: `main thread busy per git run (start, output, exit), p50, spawner (baseline: direct) at ${rss} MB RSS`,
    value: p50(side.spawner.busy),
    unit: 'ms',
    baseline: p50(side.direct.busy),
    ratio: p50(side.spawner.busy) / p50(side.direct.busy),
  },
];
emit({ name: 'spawn', rows });
void keep;
