// `idea --headless`: with no server for the folder, idea-server serves it in-process for the one
// command (found by nobody else: not registered) and is gone when the command returns; the same flag
// with a server registered for the folder uses that server.
import { mkdirSync, mkdtempSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type Io, run } from '../../cli/src/main';
import { buildFixtureWorkspace, firedTraps, trapMarkerDir } from '../../conformance/workspace';
import { buildTarget } from '../../scripts/build';
import { startFakeServer } from './fake-server';
import { SPEC } from './spec';

let tmp: string;
let ws: string;
let registry: string;
let home: string;

beforeAll(async () => {
  tmp = mkdtempSync(join(tmpdir(), 'idea-headless-'));
  ws = join(tmp, 'ws');
  mkdirSync(ws);
  writeFileSync(
    join(ws, 'shapes.ts'),
    'export interface Shape {\n  area(): number;\n}\nexport function unit(): number {\n  return 1;\n}\n',
  );
  registry = join(tmp, 'registry');
  home = join(tmp, 'home');
  mkdirSync(home);
  await buildTarget('server'); // the CLI imports @idea-kit/server's built entry, as installed
}, 120_000);
afterAll(() => rmSync(tmp, { recursive: true, force: true }));

async function idea(argv: string[], cwd = ws, reg = registry) {
  let stdout = '';
  let stderr = '';
  const io: Io = {
    env: { IDEA_REGISTRY_DIR: reg, HOME: home, PATH: process.env.PATH },
    cwd,
    stdout: (t) => void (stdout += t),
    stderr: (t) => void (stderr += t),
    stdoutIsTTY: false,
  };
  return { code: await run(argv, SPEC, io), stdout, stderr };
}

describe('idea --headless', () => {
  it('without it, no server is found (exit 3)', async () => {
    expect((await idea(['symbols', 'shapes.ts'])).code).toBe(3);
  });

  it('serves the folder in-process for the command, over the language server, and stops after it', async () => {
    const r = await idea(['symbols', 'shapes.ts', '--headless', '--json']);
    expect(r.stderr).toBe('');
    expect(r.code).toBe(0);
    const result = JSON.parse(r.stdout) as { symbols: { name: string; kind: string }[] };
    expect(result.symbols.map((s) => [s.name, s.kind])).toEqual([
      ['Shape', 'interface'],
      ['area', 'method'],
      ['unit', 'function'],
    ]);
    // Not registered, and nothing is left listening or registered once the command returned.
    expect(readdirSync(tmp)).not.toContain('registry');
  }, 120_000);

  it('uses the server that serves the folder when there is one', async () => {
    const srv = await startFakeServer({
      async navSymbols() {
        return { symbols: [], totalCount: 0 };
      },
    });
    try {
      const r = await idea(['symbols', 'x.ts', '--headless', '--json'], srv.workspace, srv.registry);
      expect(r.code).toBe(0);
      expect(JSON.parse(r.stdout)).toEqual({ symbols: [], totalCount: 0 });
      expect(srv.received.at(-1)?.topic).toBe('/app/vscode/nav/symbols');
    } finally {
      await srv.close();
    }
  });

  it('on a hostile repository runs nothing it planted, flags before the command (issue 30, 34)', async () => {
    // The conformance fixture with its traps (conformance/workspace/traps.ts) and a PATH whose relative
    // entries would find the workspace's own git, rg and node: hover goes through the language server,
    // diag list --changed through git status (filters, fsmonitor) and the language server.
    const hostile = buildFixtureWorkspace(join(tmp, 'hostile')).dir;
    let stdout = '';
    let stderr = '';
    const io: Io = {
      env: { IDEA_REGISTRY_DIR: registry, HOME: home, PATH: `node_modules/.bin:.:${process.env.PATH}` },
      cwd: hostile,
      stdout: (t) => void (stdout += t),
      stderr: (t) => void (stderr += t),
      stdoutIsTTY: false,
    };
    expect(await run(['--headless', '--json', 'hover', 'src/main.ts:8:13'], SPEC, io)).toBe(0);
    expect(JSON.stringify(JSON.parse(stdout))).toMatch(/totalArea/);
    stdout = '';
    expect(await run(['--headless', 'diag', 'list', '--changed', '--json'], SPEC, io)).toBe(0);
    const diags = JSON.parse(stdout) as { diagnostics: { filePath: string }[] };
    // The fixture's uncommitted change (src/config.ts) and untracked file (src/polygon.ts) were asked.
    expect(stderr).toBe('');
    expect(Array.isArray(diags.diagnostics)).toBe(true);
    expect(firedTraps(trapMarkerDir(hostile))).toEqual([]);
  }, 120_000);
});
