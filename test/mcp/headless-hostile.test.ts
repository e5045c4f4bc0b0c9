// `idea-mcp --headless` on a hostile repository (issue 30): the built idea-mcp, driven by the official
// SDK client over stdio, serves the conformance fixture with its traps through idea-server in-process;
// hover goes through the language server, diag_list with changed: true through git status and the
// language server, and none of the programs the repository planted runs — with relative PATH entries
// that would find the workspace's own git, rg and node.
import { mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildFixtureWorkspace, firedTraps, trapMarkerDir } from '../../conformance/workspace';
import { buildTarget } from '../../scripts/build';
import { within } from '../support/processes';
import { buildMcp, IDEA_MCP } from './support/idea-mcp';

const tmp = mkdtempSync(join(tmpdir(), 'idea-mcp-hostile-'));
afterAll(() => rmSync(tmp, { recursive: true, force: true }));

beforeAll(async () => {
  await Promise.all([buildMcp(), buildTarget('server')]); // idea-mcp imports @idea-kit/server's built entry
}, 120_000);

const text = (r: unknown) => (r as { content: { text: string }[] }).content.map((c) => c.text).join('\n');

describe('idea-mcp --headless on a hostile repository', () => {
  it('answers hover and changed diagnostics; no planted program runs', async () => {
    const ws = buildFixtureWorkspace(join(tmp, 'ws')).dir;
    const home = join(tmp, 'home');
    mkdirSync(home);
    const client = new Client({ name: 'agent', version: '1' });
    const transport = new StdioClientTransport({
      command: process.execPath,
      args: [IDEA_MCP, '--headless', '--cwd', ws],
      env: {
        HOME: home,
        IDEA_REGISTRY_DIR: join(tmp, 'registry'),
        PATH: `node_modules/.bin:.:${process.env.PATH}`,
      },
      stderr: 'pipe',
    });
    await within(client.connect(transport), 30_000, 'idea-mcp --headless: initialize');
    try {
      const hover = await client.callTool({
        name: 'nav_hover',
        arguments: { filePath: 'src/main.ts', line: 7, character: 12 },
      });
      expect(hover.isError, text(hover)).toBeFalsy();
      expect(text(hover)).toMatch(/totalArea/);
      const changed = await client.callTool({ name: 'diag_list', arguments: { changed: true } });
      expect(changed.isError, text(changed)).toBeFalsy();
      expect(changed.structuredContent).toHaveProperty('totalCount');
    } finally {
      await client.close();
    }
    expect(firedTraps(trapMarkerDir(ws))).toEqual([]);
  }, 120_000);
});
