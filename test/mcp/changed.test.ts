// idea-mcp's `changed: true` on diag_list (issue 34, "the check loop in one call"): the diagnostics of
// the files git reports as changed in the folder idea-mcp serves, through the official SDK client.
import { execFileSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, realpathSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { IdeaConnection } from '../../mcp/src/connection';
import { startTestServer, type TestServer, TOKEN, trivialHandlers } from '../robustness/harness';
import { inProcessMcp } from './support/in-process';

let idea: TestServer;
const asked: unknown[] = [];
let noDiagnostics = false; // the server answers an empty list
const ws = realpathSync(mkdtempSync(join(tmpdir(), 'idea-mcp-changed-')));

beforeAll(async () => {
  idea = await startTestServer({
    handlers: trivialHandlers((topic, run, params) => {
      if (topic === '/app/vscode/diag/list') asked.push(params);
      return noDiagnostics && topic === '/app/vscode/diag/list'
        ? Promise.resolve({ diagnostics: [], totalCount: 0 })
        : run();
    }),
  });
  const git = (...args: string[]) =>
    execFileSync('git', ['-c', 'user.name=t', '-c', 'user.email=t@example.invalid', ...args], {
      cwd: ws,
      env: { ...process.env, GIT_CONFIG_NOSYSTEM: '1', GIT_CONFIG_GLOBAL: '/dev/null' },
    });
  mkdirSync(join(ws, 'src'));
  writeFileSync(join(ws, 'src/a.ts'), 'export const a = 1;\n');
  git('init', '-q');
  git('add', '-A');
  git('commit', '-q', '-m', 'base');
});
afterAll(async () => {
  await idea?.close();
  rmSync(ws, { recursive: true, force: true });
});

describe('diag_list with changed: true', () => {
  it('is in the tool schema, answers a clean repository without asking, then asks for the changed files', async () => {
    const { client, close } = await inProcessMcp(
      new IdeaConnection({ url: idea.url, token: TOKEN, cwd: join(ws, 'src') }),
    );
    try {
      const tool = (await client.listTools()).tools.find((t) => t.name === 'diag_list')!;
      expect(tool.inputSchema.properties).toHaveProperty('changed.type', 'boolean');
      const clean = await client.callTool({ name: 'diag_list', arguments: { changed: true } });
      expect(clean.isError).toBeFalsy();
      expect(clean.structuredContent).toEqual({ diagnostics: [], totalCount: 0 });
      expect((clean.content as { text: string }[])[0]!.text).toMatch(/git reports no changed files/);
      expect(asked).toEqual([]);
      writeFileSync(join(ws, 'src/a.ts'), 'export const a: number = "x";\n');
      const r = await client.callTool({ name: 'diag_list', arguments: { changed: true, severity: 'error' } });
      expect(r.isError).toBeFalsy();
      expect(asked).toEqual([{ filePath: [join(ws, 'src/a.ts')], severity: 'error' }]);
      const both = await client.callTool({ name: 'diag_list', arguments: { changed: true, filePath: 'src/a.ts' } });
      expect(both.isError).toBe(true);
      expect((both.content as { text: string }[])[0]!.text).toMatch(/not both/);
      // None in the changed files: the text says so, and whose (an empty text reads as nothing done).
      writeFileSync(join(ws, 'src/b.ts'), 'export const b = 2;\n');
      noDiagnostics = true;
      const none = await client.callTool({ name: 'diag_list', arguments: { changed: true } });
      expect(none.structuredContent).toEqual({ diagnostics: [], totalCount: 0 });
      expect((none.content as { text: string }[])[0]!.text).toBe(
        'No diagnostics in the 2 files git reports as changed.',
      );
      expect(asked.at(-1)).toMatchObject({ filePath: [join(ws, 'src/a.ts'), join(ws, 'src/b.ts')] });
    } finally {
      await close();
    }
  });
});
