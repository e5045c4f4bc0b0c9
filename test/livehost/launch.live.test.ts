// Live test of the launcher: a real code-server + headless Chromium with the fixture extension
// (livehost/test-fixture-ext) on a temp TypeScript workspace. Prints the measured figures.

import { spawn } from 'node:child_process';
import {
  existsSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  rmSync,
  utimesSync,
  writeFileSync,
} from 'node:fs';
import { get } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  freePort,
  hostGroupPids,
  isPortOpen,
  type LiveHost,
  launchHost,
  parseJsonc,
  REPO_ROOT,
} from '../../livehost/index';

const FIXTURE_EXT = join(REPO_ROOT, 'livehost', 'test-fixture-ext');

function getJson(port: number, path: string, token?: string): Promise<{ status: number; body: any }> {
  return new Promise((res, rej) => {
    const req = get(
      { host: '127.0.0.1', port, path, headers: token ? { authorization: `Bearer ${token}` } : {}, timeout: 60_000 },
      (r) => {
        let data = '';
        r.setEncoding('utf8');
        r.on('data', (c) => (data += c));
        r.on('end', () => {
          try {
            res({ status: r.statusCode ?? 0, body: JSON.parse(data) });
          } catch (e) {
            rej(e);
          }
        });
      },
    );
    req.once('error', rej);
    req.once('timeout', () => req.destroy(new Error('timeout')));
  });
}

/** Processes whose command line mentions `needle` (our run folders live under a unique temp root). */
function processesMentioning(needle: string): number[] {
  const out: number[] = [];
  for (const d of readdirSync('/proc')) {
    if (!/^\d+$/.test(d) || Number(d) === process.pid) continue;
    try {
      if (readFileSync(`/proc/${d}/cmdline`, 'utf8').includes(needle)) out.push(Number(d));
    } catch {
      /* exited */
    }
  }
  return out;
}

const alive = (pid: number) => {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
};

let tmp: string;
const savedRuns = process.env.IDEA_KIT_RUNS;
const savedKeep = process.env.IDEA_KEEP_RUNS;

beforeAll(() => {
  tmp = mkdtempSync(join(tmpdir(), 'idea-livehost-test-'));
  process.env.IDEA_KIT_RUNS = join(tmp, 'runs');
  delete process.env.IDEA_KEEP_RUNS;
});
afterAll(() => {
  if (savedRuns === undefined) delete process.env.IDEA_KIT_RUNS;
  else process.env.IDEA_KIT_RUNS = savedRuns;
  if (savedKeep !== undefined) process.env.IDEA_KEEP_RUNS = savedKeep;
  rmSync(tmp, { recursive: true, force: true });
});

function makeWorkspace(name: string): string {
  const ws = join(tmp, name);
  mkdirSync(join(ws, 'src'), { recursive: true });
  writeFileSync(join(ws, 'tsconfig.json'), JSON.stringify({ compilerOptions: { strict: true, target: 'ES2022' } }));
  writeFileSync(
    join(ws, 'src', 'shapes.ts'),
    [
      'export interface Shape { area(): number }',
      'export class Circle implements Shape {',
      '  constructor(private readonly r: number) {}',
      '  area(): number { return Math.PI * this.r ** 2; }',
      '}',
      'export function totalArea(shapes: Shape[]): number { return shapes.reduce((s, x) => s + x.area(), 0); }',
      '',
    ].join('\n'),
  );
  return ws;
}

describe('launchHost (live code-server + headless Chromium)', () => {
  it('starts VS Code 1.100.3 with the extension, answers, and tears everything down', async () => {
    const ws = makeWorkspace('ws-ok');
    // A signal left by an earlier run (JSONC, pointing at a closed port) must not count as ready, and must be
    // back, byte for byte, after close().
    const stalePort = await freePort();
    const stale = `// earlier run\n{ "idea.server.port": ${stalePort}, "idea.server.authToken": "stale", }\n`;
    mkdirSync(join(ws, '.vscode'));
    writeFileSync(join(ws, '.vscode', 'settings.json'), stale);
    utimesSync(join(ws, '.vscode', 'settings.json'), new Date(Date.now() - 60_000), new Date(Date.now() - 60_000));
    const host: LiveHost = await launchHost({ workspace: ws, extensionDevPath: FIXTURE_EXT, memorySampleMs: 250 });
    let closed = false;
    try {
      // Ready signal: the file the extension wrote names the port and token the launcher handed back.
      const signal = parseJsonc(readFileSync(join(ws, '.vscode', 'settings.json'), 'utf8')) as Record<string, unknown>;
      expect(signal['idea.server.port']).toBe(host.port);
      expect(signal['idea.server.authToken']).toBe(host.token);
      expect(host.url).toBe(`ws://127.0.0.1:${host.port}`);
      expect(host.token).toMatch(/^[0-9a-f]{48}$/);
      expect(host.token).not.toBe('stale');
      expect(host.extensionId).toBe('idea-kit-test.livehost-fixture');
      expect(await isPortOpen(host.codeServerPort)).toBe(true);

      // The token handed back is the one the extension checks.
      expect((await getJson(host.port, '/ping')).status).toBe(401);
      const ping = await getJson(host.port, '/ping?file=src/shapes.ts', host.token);
      expect(ping.status).toBe(200);
      expect(ping.body.vscode.version).toBe('1.100.3');
      expect(ping.body.workspaceFolders).toHaveLength(1);
      // Symbols come from the real TypeScript language server in this host.
      const names = (ping.body.symbols as { name: string; kind: string; children: { name: string }[] }[]).map(
        (s) => `${s.kind}:${s.name}`,
      );
      expect(names).toEqual(expect.arrayContaining(['Interface:Shape', 'Class:Circle', 'Function:totalArea']));
      const circle = ping.body.symbols.find((s: { name: string }) => s.name === 'Circle');
      expect(circle.children.map((c: { name: string }) => c.name)).toEqual(
        expect.arrayContaining(['constructor', 'area']),
      );

      const group = hostGroupPids(host);
      expect(group.length).toBeGreaterThanOrEqual(2); // code-server + extension host (+ tsserver ...)
      expect(group).toContain(host.codeServerPid);
      expect(host.chromiumPid).toBeDefined();
      expect(alive(host.chromiumPid!)).toBe(true);
      expect(existsSync(host.runDir)).toBe(true);

      const memory = host.peakMemory();
      const tClose = Date.now();
      await host.close();
      closed = true;
      const teardownMs = Date.now() - tClose;

      expect(hostGroupPids(host)).toEqual([]);
      expect(alive(host.chromiumPid!)).toBe(false);
      expect(await isPortOpen(host.port)).toBe(false);
      expect(await isPortOpen(host.codeServerPort)).toBe(false);
      expect(processesMentioning(tmp)).toEqual([]);
      expect(existsSync(host.runDir)).toBe(false);
      expect(readFileSync(join(ws, '.vscode', 'settings.json'), 'utf8')).toBe(stale);
      await host.close(); // idempotent

      const finalMemory = host.peakMemory() ?? memory;
      expect(finalMemory?.total?.rssMB).toBeGreaterThan(100);
      console.log(
        '[livehost figures]',
        JSON.stringify({
          timings: host.timings,
          teardownMs,
          symbolsMs: ping.body.symbolsMs,
          peakMemoryMB: finalMemory,
        }),
      );
    } finally {
      if (!closed) await host.close();
    }
  });

  it('fails with a clear, bounded error (logs included) when the extension never signals, leaving nothing behind', async () => {
    const ws = makeWorkspace('ws-silent');
    const ext = join(tmp, 'silent-ext');
    mkdirSync(ext);
    writeFileSync(
      join(ext, 'package.json'),
      JSON.stringify({
        name: 'silent',
        publisher: 'idea-kit-test',
        version: '0.0.1',
        engines: { vscode: '^1.80.0' },
        main: './extension.js',
        activationEvents: ['onStartupFinished'],
        extensionKind: ['workspace'],
      }),
    );
    writeFileSync(join(ext, 'extension.js'), 'exports.activate = () => {}; exports.deactivate = () => {};\n');
    const t0 = Date.now();
    const err = await launchHost({ workspace: ws, extensionDevPath: ext, timeoutMs: 15_000 }).then(
      () => undefined,
      (e: Error) => e,
    );
    const elapsed = Date.now() - t0;
    expect(err?.message).toMatch(/did not signal readiness/);
    expect(err?.message).toMatch(/--- code-server log/);
    // The extension host's section: its log, or word that none was written yet (a loaded machine can
    // take the whole bound to connect the workbench, and the host writes its log only after that).
    expect(err?.message).toMatch(/^--- (extension host log: none written|\S*exthost\S*)/im);
    expect(elapsed).toBeLessThan(15_000 + 20_000); // the bound, plus teardown
    expect(processesMentioning(tmp)).toEqual([]);
    expect(readdirSync(join(tmp, 'runs'))).toEqual([]); // run folder removed on failure too
  });

  it('tears the host down when the launching process gets SIGTERM (exit hooks), then dies of that signal', async () => {
    const ws = makeWorkspace('ws-sigterm');
    const script = join(tmp, 'launch-and-wait.mts');
    writeFileSync(
      script,
      [
        `import { launchHost } from ${JSON.stringify(join(REPO_ROOT, 'livehost', 'index.ts'))};`,
        `const host = await launchHost({ workspace: ${JSON.stringify(ws)}, extensionDevPath: ${JSON.stringify(FIXTURE_EXT)} });`,
        'console.log(JSON.stringify({ port: host.port, codeServerPort: host.codeServerPort, runDir: host.runDir }));',
        'setInterval(() => {}, 1000);',
      ].join('\n'),
    );
    const child = spawn(process.execPath, ['--import', 'tsx', script], {
      cwd: REPO_ROOT,
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let stderr = '';
    child.stderr!.on('data', (d) => (stderr += d));
    const exited = new Promise<NodeJS.Signals | number | null>((r) =>
      child.once('exit', (code, sig) => r(sig ?? code)),
    );
    const line = await new Promise<string>((res, rej) => {
      child.stdout!.once('data', (d) => res(String(d)));
      void exited.then((how) => rej(new Error(`child exited (${how}) before ready: ${stderr}`)));
    });
    const info = JSON.parse(line) as { port: number; codeServerPort: number; runDir: string };
    expect(await isPortOpen(info.port)).toBe(true);
    const t = Date.now();
    child.kill('SIGTERM');
    expect(await exited).toBe('SIGTERM');
    expect(Date.now() - t).toBeLessThan(20_000);
    expect(processesMentioning(tmp)).toEqual([]);
    expect(await isPortOpen(info.port)).toBe(false);
    expect(await isPortOpen(info.codeServerPort)).toBe(false);
    expect(existsSync(info.runDir)).toBe(false);
    expect(existsSync(join(ws, '.vscode'))).toBe(false); // the signal file it created is gone again
  });

  it('refuses an extension whose entry point is missing, before starting anything', async () => {
    const ext = join(tmp, 'unbuilt-ext');
    mkdirSync(ext);
    writeFileSync(
      join(ext, 'package.json'),
      JSON.stringify({ name: 'unbuilt', publisher: 'p', version: '1.0.0', main: './dist/extension.cjs' }),
    );
    await expect(launchHost({ workspace: makeWorkspace('ws-unbuilt'), extensionDevPath: ext })).rejects.toThrow(
      /entry point .*dist\/extension\.cjs does not exist/,
    );
    expect(processesMentioning(tmp)).toEqual([]);
  });
});
