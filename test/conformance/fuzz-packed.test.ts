// Issue 31: `npx idea-conformance fuzz` works from the packed tarball against a server it did not start.
// The conformance package is built and packed as it is published (scripts/build.ts conformance --pack),
// installed into an empty project in the temp folder (which resolves nothing from this repository), and
// there, as a user would: `npx idea-conformance workspace ws`, the built idea-server bin started on it
// (HOME empty, its own registry), then 20 s of `npx idea-conformance fuzz`, which finds the server
// through the registry alone: no findings, the frame bound found (idea-server's 4 MiB), the JSON report
// written. `fuzz --launch` from the package says it needs a clone. No VS Code.
import { type ChildProcess, execFileSync, type SpawnSyncReturns, spawnSync } from 'node:child_process';
import { lstatSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, expect, it } from 'vitest';
import type { RegistryEntry } from '../../runtime/registry';
import { buildTarget, ROOT } from '../../scripts/build';
import { IDEA_SERVER_BIN, startServer } from '../idea-server/start-bin';

// A count of trials, not a time budget (load would choose how many ran): 40 reach every topic.
const FUZZ_RUNS = 40;
let base: string;
let project: string;
let home: string;
let registry: string;
let child: ChildProcess | undefined;
let entry: RegistryEntry;

/** A command run in the outside project, with nothing of this repository on its paths. */
function inProject(cmd: string, args: string[], env: Record<string, string> = {}): SpawnSyncReturns<string> {
  return spawnSync(cmd, args, {
    cwd: project,
    encoding: 'utf8',
    timeout: 180_000,
    env: {
      PATH: process.env.PATH!,
      HOME: home,
      IDEA_REGISTRY_DIR: registry,
      npm_config_update_notifier: 'false',
      npm_config_fund: 'false',
      npm_config_audit: 'false',
      ...env,
    },
  });
}
const out = (r: SpawnSyncReturns<string>) => `exit ${r.status}\n${r.stdout}\n${r.stderr}`.slice(-4000);

beforeAll(async () => {
  base = mkdtempSync(join(tmpdir(), 'idea-fuzz-packed-'));
  home = join(base, 'home');
  registry = join(base, 'registry');
  mkdirSync(home);
  const packs = join(base, 'packs');
  const json = join(base, 'packs.json');
  execFileSync(
    process.execPath,
    ['--import', 'tsx', join(ROOT, 'scripts', 'build.ts'), 'conformance', '--pack', packs, '--json', json],
    { cwd: ROOT, stdio: 'pipe' },
  );
  const [tarball] = (JSON.parse(readFileSync(json, 'utf8')) as { file: string }[]).map((a) => a.file);
  project = join(base, 'project');
  mkdirSync(project);
  writeFileSync(
    join(project, 'package.json'),
    JSON.stringify({ name: 'outside', version: '1.0.0', private: true, type: 'module' }, null, 2),
  );
  const install = inProject('npm', ['install', '--no-audit', '--no-fund', '--prefer-offline', tarball!]);
  if (install.status !== 0) throw new Error(`npm install of the tarball failed: ${out(install)}`);
  const ws = inProject('npx', ['--no-install', 'idea-conformance', 'workspace', 'ws']);
  if (ws.status !== 0) throw new Error(`idea-conformance workspace failed: ${out(ws)}`);
  // The server: the idea-server bin, started here and found by the fuzzer only through the registry.
  await buildTarget('server');
  const s = await startServer(
    IDEA_SERVER_BIN,
    ['--workspace', join(project, 'ws'), '--port', '0'],
    { PATH: process.env.PATH, HOME: home, IDEA_REGISTRY_DIR: registry },
    registry,
  );
  child = s.child;
  entry = s.entry;
}, 240_000);

afterAll(() => {
  if (child?.exitCode === null) child.kill('SIGKILL');
  if (base) rmSync(base, { recursive: true, force: true });
});

it(`npx idea-conformance fuzz, installed from the tarball, fuzzes idea-server for ${FUZZ_RUNS} trials and finds nothing`, () => {
  const installed = join(project, 'node_modules', '@idea-kit', 'conformance');
  expect(lstatSync(installed).isSymbolicLink(), 'an installed tarball, not a link').toBe(false);
  const r = inProject('npx', [
    '--no-install',
    'idea-conformance',
    'fuzz',
    '--workspace',
    'ws',
    '--seed',
    '31',
    '--runs',
    String(FUZZ_RUNS),
    '--reporter',
    'console',
    '--reporter',
    'json:fuzz.json',
    '--out',
    'findings',
  ]);
  expect(r.status, out(r)).toBe(0);
  expect(r.stderr).toMatch(/^idea-conformance fuzz: seed 31$/m);
  expect(r.stdout).toMatch(/no findings/);
  const report = JSON.parse(readFileSync(join(project, 'fuzz.json'), 'utf8')) as {
    url: string;
    topics: string[];
    trials: number;
    trialsPerSecond: number;
    frameBound: { under: number; over: number };
    findings: unknown[];
  };
  console.log(`packed fuzz: ${report.trials} trials (${report.trialsPerSecond}/s) on ${report.topics.length} topics`);
  expect(report.url).toBe(entry.url); // found through the registry
  expect(report.findings).toEqual([]);
  expect(report.topics.length).toBeGreaterThanOrEqual(17);
  expect(report.trials).toBe(FUZZ_RUNS);
  expect(report.frameBound).toMatchObject({ under: 4 * 1024 * 1024, over: 4 * 1024 * 1024 + 1 });
}, 120_000);

it('fuzz --launch from the package says it needs a clone of idea-kit', () => {
  const r = inProject('npx', ['--no-install', 'idea-conformance', 'fuzz', '--launch', '--time', '1']);
  expect(r.status, out(r)).toBe(2);
  expect(r.stderr).toMatch(/--launch starts our extension in a live VS Code and needs a clone of idea-kit/);
});
