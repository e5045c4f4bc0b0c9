// Tool sets an agent can be trusted with (issue 34): --read-only, --enable-tools, --disable-tools and
// their environment variables, checked as pure functions, through the official SDK client in-process,
// and against the built idea-mcp over stdio and HTTP: a hidden tool is absent from tools/list and
// refused by tools/call.
import { spawnSync } from 'node:child_process';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { MCP_TOOLS as V016_TOOLS } from '../../generated/v0.1.6/mcp-tools';
import { parseArgs } from '../../mcp/src/cli';
import { IdeaConnection } from '../../mcp/src/connection';
import { toolFilter, toolFilterEnv } from '../../mcp/src/tool-filter';
import { knownTools } from '../../mcp/src/tools';
import { startTestServer, type TestServer, TOKEN } from '../robustness/harness';
import { within } from '../support/processes';
import { buildMcp, IDEA_MCP, startHttpMcp } from './support/idea-mcp';
import { inProcessMcp } from './support/in-process';

/** The tools of the test server's version that write, by their annotations (not a list kept here). */
const WRITES = V016_TOOLS.filter((t) => !t.annotations.readOnlyHint).map((t) => t.name);
const READS = V016_TOOLS.filter((t) => t.annotations.readOnlyHint).map((t) => t.name);

describe('toolFilter', () => {
  it('--read-only keeps exactly the tools whose annotations say they change nothing', async () => {
    const known = await knownTools();
    const f = toolFilter({ readOnly: true }, known);
    const kept = known.filter(f.allows).map((t) => t.name);
    expect(kept.length).toBeGreaterThan(0);
    expect(kept).not.toContain('edit_replace');
    for (const t of known) expect(f.allows(t), t.name).toBe(t.annotations.readOnlyHint);
    expect(f.why('edit_replace')).toMatch(/read-only/);
  });

  it('--enable-tools keeps only those named, --disable-tools drops them', async () => {
    const known = await knownTools();
    const only = toolFilter({ enable: ['edit_find', 'nav_hover'] }, known);
    expect(known.filter(only.allows).map((t) => t.name)).toEqual(['edit_find', 'nav_hover']);
    const but = toolFilter({ disable: ['edit_replace'] }, known);
    expect(known.filter(but.allows).map((t) => t.name)).toEqual(
      known.map((t) => t.name).filter((n) => n !== 'edit_replace'),
    );
    expect(but.why('edit_replace')).toMatch(/disabled/);
  });

  it('an unknown name is an error listing the valid ones; a write tool enabled under --read-only too', async () => {
    const known = await knownTools();
    expect(() => toolFilter({ enable: ['edit_fnd'] }, known)).toThrow(
      /--enable-tools: unknown tool edit_fnd \(the tools are: .*edit_find/,
    );
    expect(() => toolFilter({ disable: ['nope'] }, known)).toThrow(/--disable-tools: unknown tool nope/);
    expect(() => toolFilter({ readOnly: true, enable: ['edit_replace'] }, known)).toThrow(/write.*edit_replace/);
  });

  it('reads the environment; the flags take its place', () => {
    expect(toolFilterEnv({ IDEA_MCP_READ_ONLY: '1', IDEA_MCP_DISABLE_TOOLS: 'edit_find, nav_hover' })).toEqual({
      readOnly: true,
      disable: ['edit_find', 'nav_hover'],
    });
    expect(toolFilterEnv({ IDEA_MCP_READ_ONLY: 'false' })).toEqual({ readOnly: false });
    const env = { IDEA_MCP_ENABLE_TOOLS: 'edit_find' };
    expect(parseArgs(['--enable-tools', 'nav_hover,nav_symbols', '--read-only'], env).tools).toEqual({
      enable: ['nav_hover', 'nav_symbols'],
      readOnly: true,
    });
    expect(parseArgs([], env).tools).toEqual({ enable: ['edit_find'] });
    expect(() => parseArgs(['--enable-tools', ' , '], {})).toThrow(/needs at least one tool name/);
  });
});

let idea: TestServer;
beforeAll(async () => {
  idea = await startTestServer();
  await buildMcp();
}, 120_000);
afterAll(() => idea?.close());

/** What an agent sees: the listed names, and what calling a write tool and a read tool does. */
async function agentView(client: Client): Promise<{ listed: string[]; write: string; read: boolean }> {
  const listed = (await client.listTools()).tools.map((t) => t.name);
  const write = await client.callTool({ name: 'edit_replace', arguments: { pattern: 'x', replacement: 'y' } }).then(
    (r) => `answered (isError ${r.isError === true})`,
    (e: Error) => e.message,
  );
  const r = await client.callTool({ name: 'edit_find', arguments: { pattern: 'x' } });
  return { listed, write, read: !r.isError && r.structuredContent !== undefined };
}

function expectReadOnly(view: Awaited<ReturnType<typeof agentView>>): void {
  expect(WRITES.length).toBeGreaterThan(0);
  expect(view.listed.sort()).toEqual([...READS].sort());
  expect(view.write).toMatch(/edit_replace is not available here: .*read-only/);
  expect(view.read).toBe(true);
}

describe('idea-mcp --read-only, through the official SDK client', () => {
  it('in-process: write tools neither listed nor callable', async () => {
    const { client, close } = await inProcessMcp(
      new IdeaConnection({ url: idea.url, token: TOKEN }),
      toolFilter({ readOnly: true }, await knownTools()),
    );
    try {
      expectReadOnly(await agentView(client));
    } finally {
      await close();
    }
  });

  it('the built idea-mcp over stdio', async () => {
    const client = new Client({ name: 'agent', version: '1' });
    const transport = new StdioClientTransport({
      command: process.execPath,
      args: [IDEA_MCP, '--read-only', '--url', idea.url],
      env: { ...(process.env as Record<string, string>), IDEA_TOKEN: TOKEN },
      stderr: 'pipe',
    });
    await within(client.connect(transport), 20_000, 'idea-mcp over stdio: initialize');
    try {
      expectReadOnly(await agentView(client));
    } finally {
      await client.close();
    }
  }, 60_000);

  it('the built idea-mcp --http, read-only from IDEA_MCP_READ_ONLY', async () => {
    const http = await startHttpMcp(process.cwd(), { IDEA_URL: idea.url, IDEA_TOKEN: TOKEN, IDEA_MCP_READ_ONLY: '1' });
    const client = new Client({ name: 'agent', version: '1' });
    try {
      expect(http.stderr()).toMatch(/tools: \d+ of \d+ \(read-only\)/);
      await client.connect(
        new StreamableHTTPClientTransport(new URL(http.url), {
          requestInit: { headers: { authorization: `Bearer ${http.token}` } },
        }),
      );
      expectReadOnly(await agentView(client));
    } finally {
      await client.close();
      await http.stop();
    }
  }, 60_000);

  it('a misspelt tool name stops it at start-up, listing the valid names', () => {
    const r = spawnSync(process.execPath, [IDEA_MCP, '--disable-tools', 'edit_replce', '--url', idea.url], {
      env: { ...process.env, IDEA_TOKEN: TOKEN },
      encoding: 'utf8',
      timeout: 20_000,
      input: '',
    });
    expect(r.status, r.stderr).toBe(2);
    expect(r.stderr).toMatch(/--disable-tools: unknown tool edit_replce \(the tools are: .*edit_replace/);
  });
});
