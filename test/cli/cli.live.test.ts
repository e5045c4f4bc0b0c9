// The compiled `idea` CLI as a process against real VS Code windows: every subcommand of all 13 topics
// (text and --json, the JSON compared with what the typed client gets), the exit codes, `servers`,
// two windows on two folders sharing one registry (the CLI run inside each folder picks its own
// window), and no token ever printed.
import { execFile } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildFixtureWorkspace, type FixtureWorkspaceInfo } from '../../conformance/workspace';
import { connect, type IdeaClient } from '../../generated/v0.1.6/client';
import { type LiveHost, launchHost } from '../../livehost';
import { buildTarget } from '../../scripts/build';
import { col, EXTENSION_DIR } from '../extension/helpers';

let cli: string;
let base: string;
let registry: string;
let ws: FixtureWorkspaceInfo;
let dirB: string;
let hostA: LiveHost;
let hostB: LiveHost;
let client: IdeaClient;
/** Everything any CLI run printed, checked for tokens at the end. */
const printed: string[] = [];

interface Run {
  code: number;
  stdout: string;
  stderr: string;
}

function idea(args: string[], opts: { cwd?: string; env?: Record<string, string> } = {}): Promise<Run> {
  const env: NodeJS.ProcessEnv = { ...process.env, IDEA_REGISTRY_DIR: registry, NO_COLOR: '1', ...opts.env };
  delete env.IDEA_TOKEN;
  if (opts.env?.IDEA_TOKEN) env.IDEA_TOKEN = opts.env.IDEA_TOKEN;
  return new Promise((resolve) => {
    execFile(
      process.execPath,
      [cli, ...args],
      { cwd: opts.cwd ?? ws.dir, env, timeout: 90_000 },
      (err, stdout, stderr) => {
        printed.push(stdout, stderr);
        const code = err ? (typeof err.code === 'number' ? err.code : -1) : 0;
        resolve({ code, stdout, stderr });
      },
    );
  });
}

async function ok(args: string[], opts?: Parameters<typeof idea>[1]): Promise<string> {
  const r = await idea(args, opts);
  // Since 0.1.8 a write says how to undo it, by its transaction, on stderr.
  expect(r.stderr.replace(/^idea: undo it with: idea undo [\w-]+\n$/, '')).toBe('');
  expect(r.code).toBe(0);
  return r.stdout;
}

async function json(args: string[], opts?: Parameters<typeof idea>[1]): Promise<unknown> {
  return JSON.parse(await ok([...args, '--json'], opts));
}

beforeAll(async () => {
  await buildTarget('extension');
  cli = await buildTarget('cli');
  base = mkdtempSync(join(tmpdir(), 'idea-cli-live-'));
  registry = join(base, 'registry');
  mkdirSync(registry, { mode: 0o700 });
  ws = buildFixtureWorkspace(join(base, 'a'));
  dirB = join(base, 'b');
  mkdirSync(join(dirB, 'src'), { recursive: true });
  writeFileSync(join(dirB, 'notes.txt'), 'bravo-only needle\n');
  // No token in the folders' settings files: the CLI must find each window, and its token, in the registry.
  const userSettings = { 'workbench.localHistory.mergeWindow': 0, 'idea.server.exposeToken': false };
  hostA = await launchHost({ workspace: ws.dir, extensionDevPath: EXTENSION_DIR, userSettings, registryDir: registry });
  hostB = await launchHost({ workspace: dirB, extensionDevPath: EXTENSION_DIR, userSettings, registryDir: registry });
  client = await connect({ url: hostA.url, token: hostA.token, timeoutMs: 60_000 });
});

afterAll(async () => {
  client?.close();
  await hostB?.close();
  await hostA?.close();
  if (base) rmSync(base, { recursive: true, force: true });
});

describe('idea: read-only topics, text and --json', () => {
  it('find and findFiles: grep-like lines, JSON exactly the result', async () => {
    const text = await ok(['find', 'needle', '--include', 'docs/**']);
    expect(text).toMatch(/^docs\/release notes\.md:\d+:\d+: .*needle/m);
    expect(await json(['edit/find', '--pattern', 'needle', '--include', 'docs/**'])).toEqual(
      await client.editFind({ pattern: 'needle', include: 'docs/**' }),
    );
    expect(
      await json(['call', '/app/vscode/edit/find', '--params', '{"pattern":"needle","include":"docs/**"}']),
    ).toEqual(await client.editFind({ pattern: 'needle', include: 'docs/**' }));
    expect(await ok(['findFiles', 'shapes'])).toBe('src/shapes.ts\n');
    expect(await json(['fs', 'find-files', 'shapes', '--max-results', '5'])).toEqual(
      await client.fsFindFiles({ query: 'shapes', maxResults: 5 }),
    );
  });

  it('definition and references: path:line:col 1-based, the definition with its code', async () => {
    const c = col(ws.dir, 'src/main.ts', 7, 'totalArea') + 2;
    const text = await ok(['definition', 'src/main.ts', '7', String(c)]);
    expect(text.split('\n')[0]).toBe('src/shapes.ts:24:1');
    expect(text.split('\n')[1]).toBe('    export function totalArea(shapes: Shape[]): number {');
    expect(await json(['nav', 'definition', 'src/main.ts', '7', String(c)])).toEqual(
      await client.navDefinition({ filePath: 'src/main.ts', line: 7, character: c }),
    );
    const refs = await ok(['references', 'src/main.ts', '7', String(c)]);
    expect(refs.trim().split('\n')).toEqual(
      expect.arrayContaining([`src/main.ts:8:${String(c - 1)}`, 'src/shapes.ts:24:17']),
    );
    expect(await json(['references', 'src/main.ts', '7', String(c), '--no-include-declaration'])).toEqual(
      await client.navReferences({ filePath: 'src/main.ts', line: 7, character: c, includeDeclaration: false }),
    );
  });

  it('diag list: tsc-like lines; symbols: an outline', async () => {
    const diag = await ok(['diag', 'list', '--file-path', 'src/broken.ts', '--file-path', 'src/unused.ts']);
    expect(diag).toContain("src/broken.ts:4:7: error ts 2322: Type 'string' is not assignable to type 'number'.");
    expect(diag).toMatch(/^src\/unused\.ts:2:9: warning ts 6133: /m);
    expect(await json(['diag/list', '--file-path', 'src/broken.ts', '--severity', 'error'])).toEqual(
      await client.diagList({ filePath: 'src/broken.ts', severity: 'error' }),
    );
    const outline = await ok(['symbols', 'src/shapes.ts']);
    expect(outline).toMatch(/^class Circle {2}13:14$/m);
    expect(outline).toMatch(/^ {2}method scale {2}19:\d+$/m);
    expect(outline).toMatch(/^function totalArea {2}24:\d+$/m);
    expect(await json(['nav/symbols', 'src/shapes.ts', '--query', 'area'])).toEqual(
      await client.navSymbols({ filePath: 'src/shapes.ts', query: 'area' }),
    );
  });

  it('history list as a table, history diff coloured', async () => {
    const table = (await ok(['history', 'list', 'src/shapes.ts'])).trim().split('\n');
    expect(table[0]).toMatch(/^INDEX +COMMIT +DATE +AUTHOR +MESSAGE$/);
    expect(table).toHaveLength(4);
    expect(table[3]).toMatch(new RegExp(`^3 +${ws.commits.initial!.slice(0, 7)} +2026-01-05 +Ada Lovelace +`));
    expect(await json(['history/list', 'src/shapes.ts', '--max-count', '2'])).toEqual(
      await client.historyList({ filePath: 'src/shapes.ts', maxCount: 2 }),
    );
    const diff = await ok(['history', 'diff', 'src/shapes.ts', '--from-index', '2', '--to-index', '3', '--color']);
    expect(diff).toContain('\x1b[36m@@');
    expect(diff).toMatch(/\x1b\[3[12]m[-+]/);
    expect(await json(['history', 'diff', 'src/shapes.ts', '--from-index', '2', '--to-index', '3'])).toEqual(
      await client.historyDiff({ filePath: 'src/shapes.ts', fromIndex: 2, toIndex: 3 }),
    );
  });
});

describe('idea: writing topics say what they changed', () => {
  it('replace, then local history list, diff and rollback', async () => {
    expect(await ok(['replace', 'draft-0', 'draft-1', '--include', 'notes/**'])).toBe(
      'replaced 1 occurrence in 1 file:\n  notes/journal.md\n',
    );
    expect(await json(['edit', 'replace', 'draft-1', 'draft-2', '--include', 'notes/**'])).toEqual({
      replacedCount: 1,
      affectedFiles: [join(ws.dir, 'notes/journal.md')],
      transactionId: expect.any(String),
    });
    expect(await ok(['replace', 'zzz-not-there', 'x'])).toBe('nothing replaced: no match\n');

    const list = await client.localhistoryList({ filePath: 'notes/journal.md' });
    const [newest, older] = list.entries;
    const table = (await ok(['localhistory', 'list', 'notes/journal.md'])).trim().split('\n');
    expect(table[0]).toMatch(/^ID +SAVED +SOURCE$/);
    expect(table[1]).toMatch(new RegExp(`^${newest!.id.replace('.', '\\.')} +${newest!.timestampLabel}`));
    expect(await json(['localhistory/list', 'notes/journal.md'])).toEqual(list);
    const diff = await ok(['localhistory', 'diff', 'notes/journal.md', '--from-id', older!.id, '--to-id', newest!.id]);
    expect(diff).toMatch(/-status: draft-1\n\+status: draft-2/);
    expect(await json(['localhistory', 'diff', 'notes/journal.md', '--from-id', older!.id])).toEqual(
      await client.localhistoryDiff({ filePath: 'notes/journal.md', fromId: older!.id }),
    );
    expect(await ok(['localhistory', 'rollback', 'notes/journal.md', older!.id])).toBe(
      `restored notes/journal.md to local history entry ${older!.id} (${older!.timestampLabel}) and saved it to disk\n`,
    );
    expect(await json(['localhistory', 'rollback', 'notes/journal.md', '--to-id', older!.id])).toEqual({
      filePath: join(ws.dir, 'notes/journal.md'),
      restoredId: older!.id,
      restoredLabel: older!.timestampLabel,
      transactionId: expect.any(String),
    });
  });

  it('history rollback', async () => {
    const initial = ws.commits.initial!;
    expect(await ok(['history', 'rollback', 'src/shapes.ts', '3'])).toBe(
      `restored src/shapes.ts to commit ${initial.slice(0, 7)} (history index 3) and saved it to disk\n`,
    );
    expect(await json(['history/rollback', 'src/shapes.ts', '--to-index', '3'])).toEqual({
      filePath: join(ws.dir, 'src/shapes.ts'),
      toRef: initial,
      restoredIndex: 3,
      transactionId: expect.any(String),
    });
  });
});

describe('idea: exit codes', () => {
  it('1 with the code on stderr for a protocol error, 2 naming the flag for bad input, 3 with a listing when no server serves the folder', async () => {
    const bad = await idea(['symbols', 'src/nope.ts']);
    expect([bad.code, bad.stdout]).toEqual([1, '']);
    expect(bad.stderr).toMatch(/^idea: HANDLER_ERROR: /);
    const usage = await idea(['history', 'list', 'src/shapes.ts', '--max-count', '0']);
    expect(usage.code).toBe(2);
    expect(usage.stderr).toContain('--max-count must be ≥ 1');
    const none = await idea(['find', 'needle'], { cwd: base });
    expect(none.code).toBe(3);
    expect(none.stderr).toContain(`no IDEA server serves ${base}`);
    expect(none.stderr).toContain(hostA.url);
    expect(none.stderr).toContain(hostB.url);
    const unauthorized = await idea(['find', 'needle', '--url', hostA.url, '--token', 'not-the-token-0123456789']);
    expect(unauthorized.code).toBe(1);
    expect(unauthorized.stderr).toMatch(/^idea: UNAUTHORIZED: /);
  });
});

describe('idea: two windows on two folders', () => {
  it('the CLI run inside each folder talks to its own window; servers marks it', async () => {
    expect(await ok(['find', 'needle'], { cwd: join(dirB, 'src') })).toBe(
      `${join(dirB, 'notes.txt')}:1:12: bravo-only needle\n`,
    );
    expect(await ok(['find', 'bravo-only'], { cwd: join(ws.dir, 'src') })).toBe('');
    expect(await idea(['find', 'bravo-only', '--url', hostB.url], { cwd: ws.dir })) // token from the registry entry of that url
      .toEqual({ code: 0, stdout: `${join(dirB, 'notes.txt')}:1:1: bravo-only needle\n`, stderr: '' });
    const fromA = (await ok(['servers'], { cwd: join(ws.dir, 'src') })).trim().split('\n');
    expect(fromA).toHaveLength(2);
    expect(fromA.find((l) => l.startsWith('*'))).toContain(hostA.url);
    const fromB = (await json(['servers'], { cwd: dirB })) as { url: string; servesCwd: boolean; token?: unknown }[];
    expect(fromB.filter((s) => s.servesCwd).map((s) => s.url)).toEqual([hostB.url]);
    expect(fromB.every((s) => !('token' in s))).toBe(true);
  });
});

describe('idea: the token is never printed', () => {
  it('not by any run of this file, nor when given explicitly and the request fails', async () => {
    const r = await idea(['symbols', 'src/nope.ts', '--url', hostA.url, '--token', hostA.token]);
    expect(r.code).toBe(1);
    expect(r.stderr).toMatch(/^idea: HANDLER_ERROR: /);
    const viaEnv = await idea(['find', 'needle', '--url', hostB.url, '--json'], {
      cwd: base,
      env: { IDEA_TOKEN: hostB.token, IDEA_REGISTRY_DIR: join(base, 'nowhere') },
    });
    expect([viaEnv.code, viaEnv.stderr]).toEqual([0, '']);
    expect(JSON.parse(viaEnv.stdout).matches).toHaveLength(1);
    expect(printed.length).toBeGreaterThan(40);
    for (const out of printed) {
      expect(out).not.toContain(hostA.token);
      expect(out).not.toContain(hostB.token);
    }
  });
});
