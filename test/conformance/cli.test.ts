import { execFile } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadCases } from '../../conformance/lib/load';
import { selectCases } from '../../conformance/lib/select';
import { runAgainstServer } from '../../conformance/lib/session';
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
    const r = await run(TSX, [CLI, ...args], { cwd: tmp, env: { ...process.env, IDEA_TOKEN: TEST_TOKEN, NO_COLOR: '1' } });
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
      const r1 = await cli(['run', '--workspace', ws, '--url', flawed.url, ...sel, '--state', state, '--reporter', 'console', '--reporter', `junit:${join(tmp, 'out.xml')}`]);
      expect(r1.stderr + r1.code).toBe('1');
      expect(r1.stdout).toContain('FAIL          security/path-escape-history-list');
      expect(r1.stdout).toContain('+    "code": "HANDLER_ERROR",');
      expect(readFileSync(join(tmp, 'out.xml'), 'utf8')).toContain('tests="2" failures="1"');
      expect(JSON.parse(readFileSync(state, 'utf8')).failed).toEqual(['security/path-escape-history-list']);

      const r2 = await cli(['run', '--workspace', ws, '--url', good.url, '--last-failed', '--state', state]);
      expect(r2.code).toBe(0);
      expect(r2.stdout).toContain('1 cases in');

      const xf = join(tmp, 'xf.json');
      writeFileSync(xf, JSON.stringify({ expectedFailures: [{ id: 'security/path-escape-history-list', reason: 'known bug' }] }));
      expect((await cli(['run', '--workspace', ws, '--url', flawed.url, ...sel, '--state', state, '--expected-failures', xf])).code).toBe(0);
      const stale = await cli(['run', '--workspace', ws, '--url', good.url, ...sel, '--state', state, '--expected-failures', xf]);
      expect(stale.code).toBe(1);
      expect(stale.stdout).toContain('listed as an expected failure but passes');

      expect((await cli(['run', '--workspace', ws, '--url', good.url, '--id', 'no-such/*'])).code).toBe(2);
    } finally {
      await flawed.close();
      await good.close();
    }
  });
});

describe('version and capabilities', () => {
  it('skips cases newer than the server version and reports topics it does not serve as unimplemented', async () => {
    const server = await startInTestServer(ws, {}, { version: '0.1.3', without: ['editFind'] });
    try {
      const cases = selectCases(loadCases(), { ids: ['history-list/file-history', 'fs-findfiles/by-name', 'edit-find/no-match', 'protocol/unknown-topic'] });
      const s = await runAgainstServer({ url: server.url, token: TEST_TOKEN, workspace: ws, cases });
      const v = Object.fromEntries(s.results.map((r) => [r.id, r.verdict]));
      expect(v).toEqual({ 'history-list/file-history': 'skip', 'fs-findfiles/by-name': 'skip', 'edit-find/no-match': 'unimplemented', 'protocol/unknown-topic': 'pass' });
      expect(s.results.find((r) => r.id === 'history-list/file-history')?.reason).toBe('not applicable: since 0.1.4, server speaks 0.1.3');
      expect(s.ok).toBe(false);
    } finally {
      await server.close();
    }
  });
});
