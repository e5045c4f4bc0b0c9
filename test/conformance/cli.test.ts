import { execFile } from 'node:child_process';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { parse as parseJUnit } from 'junit2json';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildFixtureWorkspace } from '../../conformance/workspace';
import { startInTestServer, TEST_TOKEN } from './in-test-server';

const run = promisify(execFile);
const CLI = new URL('../../conformance/cli.ts', import.meta.url).pathname;
const TSX = new URL('../../node_modules/.bin/tsx', import.meta.url).pathname;
let tmp: string;
let ws: string;
beforeAll(() => {
  tmp = mkdtempSync(join(tmpdir(), 'conformance-cli-'));
  ws = buildFixtureWorkspace(join(tmp, 'ws')).dir;
});
afterAll(() => rmSync(tmp, { recursive: true, force: true }));

async function cli(args: string[]): Promise<{ code: number; stdout: string; stderr: string }> {
  try {
    const r = await run(TSX, [CLI, ...args], {
      cwd: tmp,
      env: { ...process.env, IDEA_TOKEN: TEST_TOKEN, NO_COLOR: '1' },
    });
    return { code: 0, stdout: r.stdout, stderr: r.stderr };
  } catch (e) {
    const err = e as { code: number; stdout: string; stderr: string };
    return { code: err.code, stdout: err.stdout, stderr: err.stderr };
  }
}

describe('idea-conformance CLI', () => {
  it('exit codes, junit output, --last-failed and the expected-failures list', { timeout: 60_000 }, async () => {
    const flawed = await startInTestServer(ws, { escapeIsHandlerError: true });
    const good = await startInTestServer(ws);
    try {
      const sel = ['--id', 'security/path-escape-history-list', '--id', 'history-list/readme'];
      const state = join(tmp, 'state.json');
      const r1 = await cli([
        'run',
        '--workspace',
        ws,
        '--url',
        flawed.url,
        ...sel,
        '--state',
        state,
        '--reporter',
        'console',
        '--reporter',
        `junit:${join(tmp, 'out.xml')}`,
      ]);
      expect(r1.stderr + r1.code).toBe('1');
      expect(r1.stdout).toContain('FAIL          security/path-escape-history-list');
      expect(r1.stdout).toContain('+    "code": "HANDLER_ERROR",');
      expect(readFileSync(join(tmp, 'out.xml'), 'utf8')).toContain('tests="2" failures="1"');
      expect(JSON.parse(readFileSync(state, 'utf8')).failed).toEqual(['security/path-escape-history-list']);

      const r2 = await cli(['run', '--workspace', ws, '--url', good.url, '--last-failed', '--state', state]);
      expect(r2.code).toBe(0);
      expect(r2.stdout).toContain('1 cases in');

      const xf = join(tmp, 'xf.json');
      writeFileSync(
        xf,
        JSON.stringify({ expectedFailures: [{ id: 'security/path-escape-history-list', reason: 'known bug' }] }),
      );
      expect(
        (
          await cli([
            'run',
            '--workspace',
            ws,
            '--url',
            flawed.url,
            ...sel,
            '--state',
            state,
            '--expected-failures',
            xf,
          ])
        ).code,
      ).toBe(0);
      const stale = await cli([
        'run',
        '--workspace',
        ws,
        '--url',
        good.url,
        ...sel,
        '--state',
        state,
        '--expected-failures',
        xf,
      ]);
      expect(stale.code).toBe(1);
      expect(stale.stdout).toContain('listed as an expected failure but passes');

      expect((await cli(['run', '--workspace', ws, '--url', good.url, '--id', 'no-such/*'])).code).toBe(2);
    } finally {
      await flawed.close();
      await good.close();
    }
  });
});

describe('a partial server through the CLI', () => {
  it('exit 0, unimplemented cases skipped in JUnit, and an independent JUnit parser counts what the console says', {
    timeout: 90_000,
  }, async () => {
    const server = await startInTestServer(ws, {}, { only: ['historyList', 'fsFindFiles'] });
    try {
      const xmlPath = join(tmp, 'partial.xml');
      const r = await cli([
        'run',
        '--workspace',
        ws,
        '--url',
        server.url,
        '--state',
        join(tmp, 'partial-state.json'),
        '--reporter',
        'console',
        '--reporter',
        `junit:${xmlPath}`,
      ]);
      expect(r.stderr + r.code).toBe('0');
      expect(r.stdout).toContain('CONFORMANT: conformant on 2 of 13 topics (core, readings, security)');
      const m =
        /(\d+) cases in [\d.]+ s: (\d+) passed, (\d+) failed, (\d+) warnings, (\d+) errors, (\d+) skipped, (\d+) unimplemented/.exec(
          r.stdout,
        );
      expect(m).not.toBeNull();
      const [total, pass, failed, warn, errors, skip, unimpl] = m!.slice(1).map(Number) as number[];
      expect(failed! + errors!).toBe(0);
      expect(unimpl).toBeGreaterThan(100);
      // junit2json (npm) reads the report as any JUnit consumer would; count the testcases' own children too
      const doc = (await parseJUnit(readFileSync(xmlPath, 'utf8'))) as {
        tests: number;
        failures: number;
        errors: number;
        skipped: number;
        testsuite: { testcase?: { skipped?: unknown[]; failure?: unknown[]; error?: unknown[] }[] }[];
      };
      const tcs = doc.testsuite.flatMap((t) => t.testcase ?? []);
      expect({ tests: doc.tests, failures: doc.failures, errors: doc.errors, skipped: doc.skipped }).toEqual({
        tests: total,
        failures: 0,
        errors: 0,
        skipped: skip! + unimpl!,
      });
      expect({
        tests: tcs.length,
        failures: tcs.filter((t) => t.failure).length,
        errors: tcs.filter((t) => t.error).length,
        skipped: tcs.filter((t) => t.skipped).length,
        passed: tcs.filter((t) => !t.failure && !t.error && !t.skipped).length,
      }).toEqual({ tests: total, failures: 0, errors: 0, skipped: skip! + unimpl!, passed: pass! + warn! });
      // --last-failed leaves unimplemented cases out
      expect(JSON.parse(readFileSync(join(tmp, 'partial-state.json'), 'utf8')).failed).toEqual([]);
      // --require-topics all makes them failures
      const req = await cli([
        'run',
        '--workspace',
        ws,
        '--url',
        server.url,
        '--id',
        'edit-find/no-match',
        '--require-topics',
        'all',
        '--state',
        join(tmp, 'partial-state.json'),
      ]);
      expect(req.code).toBe(1);
      expect(req.stdout).toContain("not in the server's capabilities (required by --require-topics)");
    } finally {
      await server.close();
    }
  });

  it('no server to judge is exit 3, as idea says it, never the usage error 2', async () => {
    // A url nothing listens on (port 9: discard, refused here), and a workspace no registered server serves.
    const refused = await cli([
      'run',
      '--workspace',
      ws,
      '--url',
      'ws://127.0.0.1:9',
      '--id',
      'protocol/unknown-topic',
    ]);
    expect(refused.stderr).toMatch(/ECONNREFUSED/);
    expect(refused.code).toBe(3);
    const none = await run(TSX, [CLI, 'run', '--workspace', ws], {
      cwd: tmp,
      env: { ...process.env, IDEA_REGISTRY_DIR: join(tmp, 'empty-registry'), IDEA_URL: '', IDEA_TOKEN: '' },
    }).then(
      () => ({ code: 0, stderr: '' }),
      (e: { code: number; stderr: string }) => e,
    );
    expect(none.stderr).toMatch(/no IDEA server serves/);
    expect(none.code).toBe(3);
  });

  it('numeric options take whole numbers or are usage errors', async () => {
    for (const [flag, value, min] of [
      ['--settle-timeout', 'soon', 0],
      ['--settle-timeout', '-1', 0],
      ['--concurrency', '0', 1],
      ['--concurrency', '2.5', 1],
    ] as const) {
      const r = await cli(['run', '--workspace', ws, '--url', 'ws://127.0.0.1:9', `${flag}=${value}`]);
      expect(r.code, r.stderr).toBe(2);
      expect(r.stderr).toContain(`${flag} needs a whole number ≥ ${min}, got "${value}"`);
    }
  });

  it('a folder that is not a fixture workspace is a clear usage error; a workspace the server does not have open is a warning', {
    timeout: 60_000,
  }, async () => {
    const server = await startInTestServer(ws);
    try {
      const plain = join(tmp, 'plain');
      mkdirSync(plain, { recursive: true });
      const r = await cli(['run', '--workspace', plain, '--url', server.url, '--id', 'protocol/unknown-topic']);
      expect(r.code).toBe(2);
      expect(r.stderr).toContain(`is not a fixture workspace (no git tag`);
      expect(r.stderr).not.toMatch(/fatal:/);
      const other = buildFixtureWorkspace(join(tmp, 'other')).dir;
      const w = await cli([
        'run',
        '--workspace',
        other,
        '--url',
        server.url,
        '--id',
        'protocol/unknown-topic',
        '--state',
        join(tmp, 's2.json'),
      ]);
      expect(w.code).toBe(0);
      expect(w.stdout).toMatch(/WARNING\s+the server's workspaces \(.*\) do not contain .*other/);
    } finally {
      await server.close();
    }
  });
});
