// The built `idea-server` as users run it: a process on the conformance fixture workspace, with HOME an
// empty folder (no VS Code build, no user settings reachable), found by idea-conformance through the
// per-user registry with no --url or --token, the whole suite run against it (nothing failed, warned or
// unimplemented but the editor's own topics; the events/ cases passed), and again with no ripgrep reachable (the JavaScript search); then a language server
// that does not exist, and a clean stop (registry entry removed, language servers gone). Last, the write
// path's crash test against the bin: SIGKILL during an edit/replace, then a restart that recovers.
import { type ChildProcess, execFile } from 'node:child_process';
import {
  existsSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  rmSync,
  symlinkSync,
  writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { fixturesFor, loadCases } from '../../conformance/lib/load';
import { buildFixtureWorkspace, firedTraps, plantTraps, trapMarkerDir } from '../../conformance/workspace';
import { CURRENT_VERSION, connect } from '../../generated/current';
import { poll } from '../../runtime/poll';
import { buildTarget, ROOT } from '../../scripts/build';
import { exited } from '../support/processes';
import { type Aim, aimKill } from './kill-aim';
import { descendants, running } from './lsp/processes';
import { type Started, startServer } from './start-bin';

const TSX = join(ROOT, 'node_modules', '.bin', 'tsx');

/** The bin's exit code once it has gone, bounded (test/support/processes.ts says why a signal matters). */
async function exitOf(child: ChildProcess, what = 'idea-server'): Promise<number | null> {
  return (await exited(child, what)).code;
}

/** Topics only an editor can serve (v0.1.7 on): idea-server never advertises them. */
const EDITOR_ONLY = ['/app/vscode/editor/context', '/app/vscode/editor/open'];
/** Cases that subscribe to editor/changed, which idea-server (no editor) does not advertise (T40). */
const EDITOR_EVENT_CASES = new Set(
  loadCases(fixturesFor(CURRENT_VERSION))
    .filter((lc) => lc.case.kind === 'exchange' && lc.case.events?.includes('/app/vscode/editor/changed'))
    .map((lc) => lc.case.id),
);

/** Runs the whole suite (found through the registry) and wants every case of the topics it serves passed. */
async function passesTheSuite(ws: string, env: NodeJS.ProcessEnv, report: string): Promise<void> {
  const code = await new Promise<number | null>((done) => {
    const p = execFile(
      TSX,
      [join(ROOT, 'conformance', 'cli.ts'), 'run', '--workspace', ws, '--reporter', `json:${report}`],
      { cwd: dirname(report), env, timeout: 240_000, maxBuffer: 16 * 1024 * 1024 },
      () => done(p.exitCode),
    );
  });
  const summary = JSON.parse(readFileSync(report, 'utf8')) as {
    counts: Record<string, number>;
    cases: {
      id: string;
      topic?: string;
      verdict: string;
      reason?: string;
      checks?: { ok?: boolean; message?: string }[];
    }[];
  };
  // Warnings too: a "should" the extension meets is one idea-server must meet. And nothing
  // unimplemented but the editor's own topics: with no editor, idea-server does not advertise them
  // (the suite then reports their cases unimplemented by capability); every other topic it serves.
  const editorOnly = (r: { id: string; topic?: string }) =>
    (r.topic !== undefined && EDITOR_ONLY.includes(r.topic)) || EDITOR_EVENT_CASES.has(r.id);
  // Events too: it pushes files/changed and diagnostics/changed, so every other events/ case must pass.
  const bad = summary.cases.filter(
    (r) => ['fail', 'error', 'warn'].includes(r.verdict) || (r.verdict === 'unimplemented' && !editorOnly(r)),
  );
  expect(summary.cases.filter((r) => r.verdict === 'pass' && editorOnly(r))).toEqual([]);
  const events = summary.cases.filter((r) => r.id.startsWith('events/'));
  expect(events.length).toBeGreaterThanOrEqual(2);
  expect(EDITOR_EVENT_CASES.size).toBeGreaterThan(0);
  expect(events.filter((r) => r.verdict !== 'pass' && !editorOnly(r)).map((r) => r.id)).toEqual([]);
  const why = (r: (typeof bad)[number]) =>
    r.reason ??
    (r.checks ?? [])
      .filter((c) => c.ok === false)
      .map((c) => c.message)
      .join('; ');
  expect(bad.map((r) => `${r.id}: ${r.verdict} ${why(r)}`)).toEqual([]);
  expect(code).toBe(0);
  expect(summary.counts.pass).toBeGreaterThan(0);
}

/** The H19 case alone (found through the registry): its verdict and the checks that failed. */
async function hostileCase(
  ws: string,
  env: NodeJS.ProcessEnv,
  report: string,
): Promise<{ verdict: string; failed: string }> {
  await new Promise<void>((done) => {
    execFile(
      TSX,
      [
        join(ROOT, 'conformance', 'cli.ts'),
        'run',
        '--workspace',
        ws,
        '--id',
        HOSTILE_CASE,
        '--reporter',
        `json:${report}`,
      ],
      { cwd: dirname(report), env, timeout: 120_000, maxBuffer: 16 * 1024 * 1024 },
      () => done(),
    );
  });
  const r = (
    JSON.parse(readFileSync(report, 'utf8')) as {
      cases: { id: string; verdict: string; checks?: { ok?: boolean; detail?: string; name?: string }[] }[];
    }
  ).cases.find((c) => c.id === HOSTILE_CASE);
  if (!r) throw new Error(`${HOSTILE_CASE} is not in ${report}`);
  const failed = (r.checks ?? [])
    .filter((c) => c.ok === false)
    .map((c) => `${c.name}: ${c.detail ?? ''}`)
    .join('\n');
  return { verdict: r.verdict, failed };
}

const HOSTILE_CASE = 'security/repository-runs-nothing';

let building: Promise<void> | undefined;
/** The server build, once per file (both describes use it). */
function builtServer(): Promise<void> {
  building ??= buildTarget('server').then(() => undefined);
  return building;
}

function which(tool: string): string {
  for (const dir of (process.env.PATH ?? '').split(':')) if (dir && existsSync(join(dir, tool))) return join(dir, tool);
  throw new Error(`${tool} is not on PATH`);
}

describe('idea-server, the built bin', () => {
  let tmp: string;
  let bin: string;
  let home: string;
  let registry: string;
  let ws: string;
  let env: NodeJS.ProcessEnv;
  let server: Started;

  beforeAll(async () => {
    tmp = mkdtempSync(join(tmpdir(), 'idea-server-bin-'));
    home = join(tmp, 'home');
    mkdirSync(home);
    registry = join(tmp, 'registry');
    ws = buildFixtureWorkspace(join(tmp, 'ws')).dir;
    // Only the registry leads clients to this server; HOME holds nothing (no VS Code, no history).
    env = { PATH: process.env.PATH, HOME: home, IDEA_REGISTRY_DIR: registry };
    bin = join(ROOT, 'idea-server', 'dist', 'idea-server.mjs');
    await builtServer();
    server = await startServer(bin, ['--workspace', ws, '--port', '0'], env, registry);
  }, 120_000);

  afterAll(async () => {
    if (server?.child.exitCode === null) server.child.kill('SIGKILL');
    rmSync(tmp, { recursive: true, force: true });
  });

  it('registers its workspace, says which ripgrep it uses and how long it took to be ready', () => {
    expect(server.entry.workspaces).toEqual([resolve(ws)]);
    expect(server.entry.authRequired).toBe(true);
    expect(server.entry.ide).toMatch(/^idea-server /);
    expect(server.stderr()).toMatch(/ripgrep: \S+ \((PATH|VS Code at .*|none: the JavaScript search)\)/);
    // How fast is bench/idea-server's figure (cold start, target 1 s), not a timed test: a shared
    // machine under a parallel suite says nothing about it. Here: the log reports it.
    const ready = Number(/ready in (\d+) ms/.exec(server.stderr())?.[1]);
    expect(Number.isFinite(ready) && ready > 0).toBe(true);
  });

  it('passes the conformance suite, found through the registry with no --url or --token', async () => {
    await passesTheSuite(ws, env, join(tmp, 'conformance.json'));
  }, 300_000);

  it('passes it without ripgrep too: the JavaScript search, said in the log', async () => {
    // PATH holds node and git only (HOME is empty: no VS Code's rg either).
    const noRg = join(tmp, 'no-rg-bin');
    mkdirSync(noRg);
    for (const tool of ['node', 'git']) symlinkSync(which(tool), join(noRg, tool));
    const reg2 = join(tmp, 'registry-no-rg');
    const ws2 = buildFixtureWorkspace(join(tmp, 'ws-no-rg')).dir;
    const env2 = { ...env, PATH: noRg, IDEA_REGISTRY_DIR: reg2 };
    const other = await startServer(bin, ['--workspace', ws2, '--port', '0'], env2, reg2);
    try {
      expect(other.stderr()).toMatch(/ripgrep: - \(none: the JavaScript search\)/);
      await passesTheSuite(ws2, { ...env2, PATH: process.env.PATH }, join(tmp, 'conformance-no-rg.json'));
    } finally {
      other.child.kill('SIGTERM');
      await exitOf(other.child);
    }
  }, 300_000);

  it('answers files whose language server is missing with nothing but why (T48), logs it, and keeps serving', async () => {
    const small = join(tmp, 'small');
    mkdirSync(small);
    writeFileSync(join(small, 'a.ts'), 'export const a = 1;\n');
    writeFileSync(join(small, 'b.py'), 'def f():\n    return 1\n');
    const reg2 = join(tmp, 'registry-2');
    const other = await startServer(
      bin,
      [
        '--workspace',
        small,
        '--port',
        '0',
        '--lsp',
        'typescript=/nonexistent/tsls --stdio',
        '--lsp',
        'python=/nonexistent/pyls',
      ],
      { ...env, IDEA_REGISTRY_DIR: reg2 },
      reg2,
    );
    const client = await connect({ url: other.entry.url, token: other.entry.token! });
    try {
      // server-core's rule (host.ts `Unavailable`): no provider for the file is an empty answer saying
      // why (T48: its server is down) and a log line naming the language server.
      for (const file of ['a.ts', 'b.py', 'a.ts']) {
        const unavailable = { kind: 'down', reason: expect.stringMatching(/^language server unavailable for /) };
        expect(await client.navSymbols({ filePath: join(small, file) })).toEqual({
          symbols: [],
          totalCount: 0,
          unavailable,
        });
        expect(await client.diagList({ filePath: join(small, file) })).toEqual({
          diagnostics: [],
          totalCount: 0,
          unavailable,
        });
      }
      expect(other.stderr()).toMatch(/language server unavailable for typescript: .*\/nonexistent\/tsls/);
      expect(other.stderr()).toMatch(/language server unavailable for python: .*\/nonexistent\/pyls/);
      // The connection and the process are still there.
      expect(client.supports('/app/vscode/nav/symbols')).toBe(true);
      expect(other.child.exitCode).toBeNull();
    } finally {
      client.close();
      other.child.kill('SIGTERM');
      expect(await exitOf(other.child)).toBe(0);
    }
  }, 120_000);

  it('runs nothing a hostile repository planted, with relative PATH entries too; --trust-workspace does', async () => {
    // The fixture with the full trap set (a tsconfig plugin, .gitattributes on every file) and a PATH
    // whose relative entries would find the workspace's own git, rg, node and typescript-language-server.
    const hostile = (name: string) => {
      const dir = buildFixtureWorkspace(join(tmp, name)).dir;
      plantTraps(dir, { markerDir: trapMarkerDir(dir), full: true });
      return dir;
    };
    const relPath = { ...env, PATH: `node_modules/.bin:.::${process.env.PATH}` };
    const safe = hostile('ws-hostile');
    const reg = join(tmp, 'registry-hostile');
    const a = await startServer(bin, ['--workspace', safe, '--port', '0'], { ...relPath, IDEA_REGISTRY_DIR: reg }, reg);
    try {
      const got = await hostileCase(safe, { ...env, IDEA_REGISTRY_DIR: reg }, join(tmp, 'hostile.json'));
      expect(got.failed).toBe('');
      expect(got.verdict).toBe('pass');
      expect(firedTraps(trapMarkerDir(safe))).toEqual([]);
    } finally {
      a.child.kill('SIGTERM');
      await exitOf(a.child, 'idea-server on the hostile repository');
    }
    // The control: the opt-in runs the workspace's TypeScript, and the same case says so by name.
    const trusting = hostile('ws-hostile-trusted');
    const reg2 = join(tmp, 'registry-hostile-trusted');
    const b = await startServer(
      bin,
      ['--workspace', trusting, '--port', '0', '--trust-workspace'],
      { ...relPath, IDEA_REGISTRY_DIR: reg2 },
      reg2,
    );
    try {
      expect(b.stderr()).toMatch(/trust-workspace/);
      const got = await hostileCase(trusting, { ...env, IDEA_REGISTRY_DIR: reg2 }, join(tmp, 'hostile-trusted.json'));
      expect(got.verdict).toBe('fail');
      expect(got.failed).toMatch(/workspace-tsserver/);
    } finally {
      b.child.kill('SIGTERM');
      await exitOf(b.child, 'idea-server --trust-workspace');
    }
  }, 300_000);

  it('stops on SIGTERM: registry entry removed, language servers gone, exit 0', async () => {
    const children = descendants(server.child.pid!);
    server.child.kill('SIGTERM');
    expect(await exitOf(server.child)).toBe(0);
    expect(readdirSync(registry).filter((n) => n.startsWith(`${server.child.pid}-`))).toEqual([]);
    expect(await poll(() => children.every((pid) => !running(pid)) || undefined, { timeoutMs: 10_000 })).toBe(true);
  }, 30_000);
});

// clause H12: a write interrupted by a crash is undone at the next start.
describe('idea-server killed (SIGKILL) in the middle of an edit/replace', () => {
  const RUNS = 10;
  // Many small files: each is written, fsynced and renamed on its own (plus a folder fsync), so the span
  // between the first and the last rename — where only the journal can make it all or nothing — is long
  // enough for kills aimed at it from the disk (kill-aim.ts) to land inside it.
  const FILES = 60;
  // Runs that must have been killed with some files new and some old (before the restart), or the test
  // did not prove that recovery ran: without recovery those runs stay mixed.
  const MIN_MID_TRANSACTION = 3;

  it(`leaves every file old or new, and after a restart (recovery) all old or all new (${RUNS} kills)`, async () => {
    await builtServer();
    const bin = join(ROOT, 'idea-server', 'dist', 'idea-server.mjs');
    const tmp = mkdtempSync(join(tmpdir(), 'idea-server-kill-'));
    try {
      const home = join(tmp, 'home');
      mkdirSync(home);
      const registry = join(tmp, 'registry');
      const env = { PATH: process.env.PATH, HOME: home, IDEA_REGISTRY_DIR: registry };
      const ws = join(tmp, 'ws');
      mkdirSync(ws);
      const files = Array.from({ length: FILES }, (_, i) => {
        const name = `f${String(i).padStart(3, '0')}.txt`;
        const old = Buffer.from(`old line ${i} of ${name}\n`.repeat(50));
        return { name, path: join(ws, name), old, new: Buffer.from(old.toString().replaceAll('old', 'NEW')) };
      });
      const names = new Set(files.map((f) => f.name));
      const reset = () => {
        for (const f of files) writeFileSync(f.path, f.old);
      };
      /** How many files hold the new bytes; every one must hold the old or the new (never a mix or a cut). */
      const newCount = (run: string) => {
        let n = 0;
        for (const f of files) {
          const now = readFileSync(f.path);
          expect(now.equals(f.old) || now.equals(f.new), `${run}: ${f.name} is neither old nor new`).toBe(true);
          if (now.equals(f.new)) n++;
        }
        return n;
      };
      const start = () => startServer(bin, ['--workspace', ws, '--port', '0'], env, registry);
      const stop = async (s: Started) => {
        s.child.kill('SIGTERM');
        await exitOf(s.child, 'idea-server after SIGTERM');
      };

      // First a whole replace, not killed: its duration is reported, and it makes the server's journal
      // folder (left empty after the commit) that the first kill watches.
      reset();
      let server = await start();
      let client = await connect({ url: server.entry.url, token: server.entry.token! });
      let t0 = performance.now();
      await client.editReplace({ pattern: 'old', replacement: 'NEW', isCaseSensitive: true });
      const span = performance.now() - t0;
      client.close();
      await stop(server);
      expect(newCount('unkilled replace')).toBe(FILES);
      const stateRoot = join(home, '.idea-protocol', 'idea-server');
      const stateDirs = readdirSync(stateRoot);
      expect(stateDirs).toHaveLength(1);
      const journalDir = join(stateRoot, stateDirs[0]!, 'journal');
      expect(readdirSync(journalDir)).toEqual([]);

      // Run 0: as the journal is begun (no file touched yet); then after k renamed files, spread over the
      // span; last, after the answer (committed: recovery must leave it new).
      const aims: (Aim | 'answered')[] = [
        { kind: 'journal' },
        ...Array.from({ length: RUNS - 2 }, (_, j) => ({
          kind: 'renamed' as const,
          count: Math.max(1, Math.round(((j + 1) / (RUNS - 1)) * FILES)),
        })),
        'answered',
      ];
      const runs: { aim: string; killedAtMs: number; newBefore: number; after: 'old' | 'new' }[] = [];
      for (const [i, aim] of aims.entries()) {
        const run = `run ${i} (${aim === 'answered' ? aim : aim.kind === 'journal' ? 'journal' : `${aim.count} renamed`})`;
        reset();
        server = await start();
        client = await connect({ url: server.entry.url, token: server.entry.token! });
        const victim = server.child;
        let killedAt = Number.NaN;
        const kill = () => {
          killedAt = performance.now() - t0;
          victim.kill('SIGKILL');
        };
        const watcher = aim === 'answered' ? undefined : aimKill(aim, ws, journalDir, names, kill);
        t0 = performance.now();
        const call = client.editReplace({ pattern: 'old', replacement: 'NEW', isCaseSensitive: true });
        // A kill that never fires (the write finished first) must not hang the run: the answer ends it.
        const answered = await call.then(
          () => true,
          () => false, // the connection died with the server
        );
        watcher?.close();
        if (aim === 'answered') expect(answered, `${run}: no answer`).toBe(true);
        if (victim.exitCode === null && victim.signalCode === null) kill();
        await exitOf(victim, `${run}: the killed idea-server`);
        client.close();
        // Before the restart: what the kill left on disk.
        const newBefore = newCount(run);
        // The restart replays the journal before it serves (its registry entry means: recovered).
        await stop(await start());
        const newAfter = newCount(`${run}, after recovery`);
        expect([0, FILES], `${run}: ${newAfter} of ${FILES} files new after recovery`).toContain(newAfter);
        const after = newAfter === FILES ? 'new' : 'old';
        // A write the client was not answered for is undone; one it was answered for stays.
        if (newBefore > 0 && newBefore < FILES) expect(after, `${run}: mixed, then not undone`).toBe('old');
        if (answered) expect(after, `${run}: answered, then undone`).toBe('new');
        expect(readdirSync(ws).sort(), `${run}: temporary files left`).toEqual([...names].sort());
        runs.push({ aim: run, killedAtMs: Math.round(killedAt), newBefore, after });
      }
      const mid = runs.filter((r) => r.newBefore > 0 && r.newBefore < FILES).length;
      const summary = `full replace of ${FILES} files ${Math.round(span)} ms; ${mid} of ${RUNS} kills mid-transaction; ${runs
        .map((r) => `${r.aim}: killed at ${r.killedAtMs} ms, ${r.newBefore} new → ${r.after}`)
        .join('; ')}`;
      console.log(`idea-server SIGKILL: ${summary}`);
      // The kills must have landed before, inside and after the transaction, or the test proved little.
      expect(mid, summary).toBeGreaterThanOrEqual(MIN_MID_TRANSACTION);
      expect(runs.filter((r) => r.after === 'old').length, summary).toBeGreaterThan(0);
      expect(runs.filter((r) => r.after === 'new').length, summary).toBeGreaterThan(0);
    } finally {
      rmSync(tmp, { recursive: true, force: true });
    }
  }, 420_000); // ~12 starts of the bin: 156 s alone at load 20, so room for a busy CI machine
});
