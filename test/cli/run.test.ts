// The CLI end to end in-process (run()), against a fake server found through its registry entry.
import { execFileSync } from 'node:child_process';
import { mkdirSync, realpathSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type Io, run } from '../../cli/src/main';
import { ProtocolError } from '../../generated/v0.1.6/server';
import type { EditFindResult } from '../../generated/v0.1.6/types';
import { FAKE_TOKEN, type FakeServer, startFakeServer } from './fake-server';
import { SPEC } from './spec';

let srv: FakeServer;

beforeAll(async () => {
  srv = await startFakeServer({
    async editFind({ pattern }): Promise<EditFindResult> {
      return {
        matches: [{ filePath: join(srv.workspace, 'src/a.ts'), line: 2, character: 4, lineText: `  x ${pattern}` }],
        totalCount: 3,
      };
    },
    async navSymbols() {
      throw new ProtocolError('INVALID_REQUEST', `no such file (token was ${FAKE_TOKEN})`);
    },
  });
  mkdirSync(join(srv.workspace, 'src'), { recursive: true });
});
afterAll(() => srv.close());

async function idea(argv: string[], opts: { cwd?: string; env?: NodeJS.ProcessEnv } = {}) {
  let stdout = '';
  let stderr = '';
  const io: Io = {
    env: { IDEA_REGISTRY_DIR: srv.registry, ...opts.env },
    cwd: opts.cwd ?? join(srv.workspace, 'src'),
    stdout: (t) => void (stdout += t),
    stderr: (t) => void (stderr += t),
    stdoutIsTTY: false,
  };
  const code = await run(argv, SPEC, io);
  return { code, stdout, stderr };
}

describe('idea, in-process against a registered server', () => {
  it('finds the server serving the cwd, sends the params, prints grep-like lines relative to the cwd', async () => {
    const r = await idea(['find', 'needle', '--include', 'src/**', '--is-regex']);
    expect(r).toEqual({ code: 0, stdout: 'a.ts:3:5:   x needle\n(showing 1 of 3 matches)\n', stderr: '' });
    expect(srv.received.at(-1)).toEqual({
      topic: '/app/vscode/edit/find',
      params: { pattern: 'needle', include: 'src/**', isRegex: true, isCaseSensitive: false },
    });
  });

  it('--json prints exactly the result; call takes any topic', async () => {
    const r = await idea(['edit/find', '--pattern', 'x', '--json']);
    expect(JSON.parse(r.stdout)).toEqual({
      matches: [{ filePath: join(srv.workspace, 'src/a.ts'), line: 2, character: 4, lineText: '  x x' }],
      totalCount: 3,
    });
    const c = await idea(['call', '/app/vscode/edit/find', '--params', '{"pattern":"x"}', '--json']);
    expect(c.stdout).toBe(r.stdout);
  });

  it('exit 1 with the code on stderr, and the token scrubbed from whatever is printed', async () => {
    const r = await idea(['symbols', 'src/a.ts']);
    expect(r).toEqual({ code: 1, stdout: '', stderr: 'idea: INVALID_REQUEST: no such file (token was ***)\n' });
    const wrong = await idea(['find', 'x', '--url', srv.url, '--token', 'wrong-token-value']);
    expect(wrong.code).toBe(1);
    expect(wrong.stderr).toMatch(/^idea: UNAUTHORIZED: /);
    expect(wrong.stderr).not.toContain('wrong-token-value');
  });

  it('exit 2 for bad input before any connection, naming the flag', async () => {
    const before = srv.received.length;
    const r = await idea(['history', 'list', 'a.ts', '--max-count', 'many']);
    expect(r.code).toBe(2);
    expect(r.stderr).toBe(
      "idea: --max-count expects an integer, got 'many'\n(idea history/list --help lists its flags)\n",
    );
    expect((await idea(['localhistory', 'diff', 'a.ts'])).stderr).toMatch(/^idea: give --from-id or --to-id\n/);
    // A LINE without its CHARACTER (where, since 0.1.8, a NAME_PATH may stand): the forms are said.
    expect((await idea(['nav', 'definition', 'a.ts', '1'])).stderr).toMatch(
      /^idea: 1 stands where NAME_PATH goes, but it is a number: give FILE_PATH LINE CHARACTER, /,
    );
    expect((await idea(['nav', 'definition', 'a.ts', '--line', '1'])).stderr).toMatch(
      /^idea: give a position, as FILE_PATH LINE CHARACTER, or FILE_PATH:LINE:COL, /,
    );
    expect((await idea(['frobnicate'])).code).toBe(2);
    expect(await idea(['find', 'x', '--url', 'ws://example.com:7200'])).toMatchObject({
      code: 2,
      stderr: expect.stringMatching(/^idea: --url must be a loopback WebSocket url/),
    });
    expect(srv.received.length).toBe(before);
  });

  it('exit 3 with the listing when no server serves the cwd, or the url does not answer', async () => {
    const r = await idea(['find', 'x'], { cwd: '/' });
    expect(r.code).toBe(3);
    expect(r.stderr).toContain('no IDEA server serves /');
    expect(r.stderr).toContain(srv.url);
    expect(r.stderr).not.toContain(FAKE_TOKEN);
    const gone = await idea(['find', 'x', '--url', 'ws://127.0.0.1:1']);
    expect(gone.code).toBe(3);
    expect(gone.stderr).toMatch(/^idea: cannot reach the IDEA server at ws:\/\/127\.0\.0\.1:1/);
  });

  it('--url takes the token from $IDEA_TOKEN or from the registry entry of that url', async () => {
    expect((await idea(['find', 'x', '--url', srv.url], { cwd: '/' })).code).toBe(0);
    expect(
      (
        await idea(['find', 'x', '--url', srv.url], {
          cwd: '/',
          env: { IDEA_TOKEN: FAKE_TOKEN, IDEA_REGISTRY_DIR: '/nonexistent' },
        })
      ).code,
    ).toBe(0);
    expect(
      (await idea(['find', 'x', '--url', srv.url], { cwd: '/', env: { IDEA_REGISTRY_DIR: '/nonexistent' } })).stderr,
    ).toMatch(/UNAUTHORIZED/);
  });

  it("follows the clients' one rule: $IDEA_TOKEN beats the registry, --token beats $IDEA_TOKEN, $IDEA_URL is loopback only", async () => {
    expect((await idea(['find', 'x'], { env: { IDEA_TOKEN: 'not-the-token-at-all' } })).stderr).toMatch(/UNAUTHORIZED/);
    expect(
      (await idea(['find', 'x', '--token', FAKE_TOKEN], { env: { IDEA_TOKEN: 'not-the-token-at-all' } })).code,
    ).toBe(0);
    expect((await idea(['find', 'x'], { cwd: '/', env: { IDEA_URL: srv.url } })).code).toBe(0);
    expect(await idea(['find', 'x'], { env: { IDEA_URL: 'ws://example.com:7200' } })).toMatchObject({
      code: 2,
      stderr: expect.stringMatching(/^idea: IDEA_URL must be a loopback WebSocket url/),
    });
  });

  it('servers lists the registry without the token, marking the one serving the cwd', async () => {
    const r = await idea(['servers']);
    expect(r.code).toBe(0);
    expect(r.stdout).toMatch(
      new RegExp(`^\\* ${srv.url}  pid ${process.pid}  protocol 0\\.1\\.6  fake  ${srv.workspace}\\n$`),
    );
    const j = JSON.parse((await idea(['servers', '--json'], { cwd: '/' })).stdout);
    expect(j).toEqual([expect.objectContaining({ url: srv.url, servesCwd: false, workspaces: [srv.workspace] })]);
    expect(JSON.stringify(j)).not.toContain(FAKE_TOKEN);
    expect((await idea(['servers'], { env: { IDEA_REGISTRY_DIR: '/nonexistent' } })).code).toBe(3);
  });

  it("help: the commands, and a command's flags with types, enums and defaults", async () => {
    const h = await idea(['--help']);
    expect(h.code).toBe(0);
    expect(h.stdout).toContain('history list FILE_PATH [flags]');
    const d = await idea(['diag', 'list', '--help']);
    expect(d.stdout).toContain('--severity <error|warning|information|hint|all>');
    expect(d.stdout).toContain('[default "all"]');
    expect(d.stdout).toMatch(/^usage: idea diag list \[FILE_PATH\.\.\.\] \[flags\]$/m);
  });

  it('diag list: files as arguments; with none named and nothing known, says why and what to do (stderr, exit 0)', async () => {
    const diag = await startFakeServer({
      async diagList() {
        return { diagnostics: [], totalCount: 0 };
      },
    });
    try {
      const run = (argv: string[]) => idea(argv, { cwd: diag.workspace, env: { IDEA_REGISTRY_DIR: diag.registry } });
      const none = await run(['diag', 'list']);
      expect(none.code).toBe(0);
      expect(none.stdout).toBe('');
      expect(none.stderr).toMatch(
        /^idea: nothing to show: without FILE_PATH, 'diag list' answers only from what the server already knows\.\n.*files never opened are not included.*\n {2}Name the files to look at: idea diag list FILE_PATH\.\.\.\n$/,
      );
      const named = await run(['diag', 'list', 'src/a.ts', 'src/b.ts']);
      expect(named).toEqual({ code: 0, stdout: '', stderr: '' }); // named and clean: nothing to say
      expect(diag.received.map((r) => r.params)).toEqual([
        { severity: 'all' },
        { filePath: ['src/a.ts', 'src/b.ts'], severity: 'all' },
      ]);
      expect((await run(['diag', 'list', '--json'])).stderr).toBe('');
    } finally {
      await diag.close();
    }
  });

  it('diag list --changed: the files git reports as changed, asked by their absolute paths; none: nothing asked', async () => {
    const diag = await startFakeServer({
      async diagList() {
        return { diagnostics: [], totalCount: 0 };
      },
    });
    try {
      const ws = diag.workspace;
      const git = (...args: string[]) =>
        execFileSync('git', ['-c', 'user.name=t', '-c', 'user.email=t@example.invalid', ...args], {
          cwd: ws,
          env: { ...process.env, GIT_CONFIG_NOSYSTEM: '1', GIT_CONFIG_GLOBAL: '/dev/null' },
        });
      mkdirSync(join(ws, 'src'), { recursive: true });
      writeFileSync(join(ws, 'src/a.ts'), 'export const a = 1;\n');
      writeFileSync(join(ws, 'src/b.ts'), 'export const b = 1;\n');
      git('init', '-q');
      git('add', '-A');
      git('commit', '-q', '-m', 'base');
      const run = (argv: string[]) => idea(argv, { cwd: join(ws, 'src'), env: { IDEA_REGISTRY_DIR: diag.registry } });
      // Clean: nothing is asked (an omitted filePath would mean "every known diagnostic").
      const clean = await run(['diag', 'list', '--changed']);
      expect(clean).toEqual({ code: 0, stdout: '', stderr: 'idea: git reports no changed files: nothing to ask\n' });
      expect((await run(['--json', 'diag', 'list', '--changed'])).stdout).toBe(
        '{\n  "diagnostics": [],\n  "totalCount": 0\n}\n',
      );
      expect(diag.received).toEqual([]);
      writeFileSync(join(ws, 'src/b.ts'), 'export const b: number = "x";\n');
      writeFileSync(join(ws, 'src/c.ts'), 'export {};\n');
      expect(await run(['diag', 'list', '--changed', '--severity', 'error'])).toEqual({
        code: 0,
        stdout: '',
        stderr: '',
      });
      expect(diag.received.map((r) => r.params)).toEqual([
        { filePath: [join(realpathSync(ws), 'src/b.ts'), join(realpathSync(ws), 'src/c.ts')], severity: 'error' },
      ]);
      const both = await run(['diag', 'list', '--changed', 'src/a.ts']);
      expect(both.code).toBe(2);
      expect(both.stderr).toMatch(/--changed: give changed or filePath, not both/);
    } finally {
      await diag.close();
    }
  });
});
