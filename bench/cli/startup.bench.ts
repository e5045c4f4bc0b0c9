// CLI start-up: `idea find` from process start to its output, against a warm server, vs a bare
// `node -e` printing one line (same run, runs interleaved so machine noise hits both alike).
// Target: the CLI costs ≤ 150 ms more than the bare start.
// The server is the generated ServerSession in this process with a canned edit/find answer, found
// through a registry entry as VS Code's would be: its own time is ~0.1 ms (bench/core roundtrip), so
// the difference is the CLI's own work (load the bundle, locate, connect, handshake, request, print).
//   npx tsx bench/cli/startup.bench.ts [--runs N] [--json <file>]   (N default 20)
import { spawn } from 'node:child_process';
import { existsSync, mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { buildTarget } from '../../scripts/build';
import { type BenchResult, type BenchRow, jsonOutArg } from '../lib/contract';
import { machineLine } from '../lib/machine';
import { constantHandlers, startBenchServer } from '../lib/server';
import { summarize } from '../lib/stats';

const runsArg = process.argv.indexOf('--runs');
const RUNS = runsArg > 0 ? Number(process.argv[runsArg + 1]) : 20;
const TARGET_MS = 150;

/** ms from spawn to the first byte on stdout, and to exit. */
function timed(args: string[], cwd: string, env: NodeJS.ProcessEnv): Promise<{ outputMs: number; exitMs: number }> {
  return new Promise((resolve, reject) => {
    const t0 = performance.now();
    let outputMs = NaN;
    let out = '';
    const child = spawn(process.execPath, args, { cwd, env, stdio: ['ignore', 'pipe', 'pipe'] });
    child.stdout.on('data', (d: Buffer) => {
      if (Number.isNaN(outputMs)) outputMs = performance.now() - t0;
      out += d.toString();
    });
    let err = '';
    child.stderr.on('data', (d: Buffer) => void (err += d.toString()));
    child.on('error', reject);
    child.on('close', (code) => {
      const exitMs = performance.now() - t0;
      if (code !== 0 || out === '') reject(new Error(`${args.join(' ')} exited ${code}: ${err}`));
      else resolve({ outputMs, exitMs });
    });
  });
}

const server = await startBenchServer({
  registered: true,
  handlers: {
    ...constantHandlers(),
    async editFind({ pattern }) {
      return {
        matches: [
          { filePath: join(server.workspace!, 'src', 'a.ts'), line: 3, character: 2, lineText: `  ${pattern}` },
        ],
        totalCount: 1,
      };
    },
  },
});
try {
  const cli = await buildTarget('cli');
  if (!existsSync(cli)) throw new Error(`no bundle at ${cli}`);
  const cwd = join(server.workspace!, 'src');
  mkdirSync(cwd, { recursive: true });
  const env: NodeJS.ProcessEnv = { ...process.env, IDEA_REGISTRY_DIR: server.registry, NO_COLOR: '1' };
  delete env.IDEA_TOKEN;
  const bare = ['-e', 'process.stdout.write("x\\n")'];
  const find = [cli, 'find', 'needle'];
  for (let i = 0; i < 3; i++) {
    await timed(bare, cwd, env);
    await timed(find, cwd, env);
  } // warm the page cache
  const b: { outputMs: number; exitMs: number }[] = [];
  const c: { outputMs: number; exitMs: number }[] = [];
  for (let i = 0; i < RUNS; i++) {
    b.push(await timed(bare, cwd, env));
    c.push(await timed(find, cwd, env));
  }
  const p50 = (xs: number[]) => summarize(xs).p50;
  const bareOut = p50(b.map((x) => x.outputMs));
  const cliOut = p50(c.map((x) => x.outputMs));
  const bareExit = p50(b.map((x) => x.exitMs));
  const cliExit = p50(c.map((x) => x.exitMs));
  const overhead = cliOut - bareOut;
  console.log(`idea find, warm server, median of ${RUNS} interleaved runs (${machineLine()}):`);
  console.log(
    `  to output: idea ${cliOut.toFixed(1)} ms · bare node -e ${bareOut.toFixed(1)} ms → overhead ${overhead.toFixed(1)} ms (target ≤ ${TARGET_MS} ms) ${overhead <= TARGET_MS ? 'OK' : 'OVER'}`,
  );
  console.log(
    `  to exit:   idea ${cliExit.toFixed(1)} ms · bare node -e ${bareExit.toFixed(1)} ms → overhead ${(cliExit - bareExit).toFixed(1)} ms`,
  );
  const rows: BenchRow[] = [
    {
      metric: 'idea find, process start → output (baseline: bare node -e printing a line)',
      value: cliOut,
      unit: 'ms',
      baseline: bareOut,
      ratio: cliOut / bareOut,
    },
    {
      metric: 'idea find start-up overhead over bare node, to output',
      value: overhead,
      unit: 'ms',
      target: `≤ ${TARGET_MS} ms`,
      ok: overhead <= TARGET_MS,
    },
    {
      metric: 'idea find, process start → exit (baseline: bare node -e)',
      value: cliExit,
      unit: 'ms',
      baseline: bareExit,
      ratio: cliExit / bareExit,
    },
  ];
  const out = jsonOutArg();
  if (out) writeFileSync(out, JSON.stringify({ name: 'cli', rows } satisfies BenchResult, null, 2));
} finally {
  await server.close();
}
