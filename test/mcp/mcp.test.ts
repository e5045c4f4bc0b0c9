// The MCP server against in-process IDEA servers (the generated session on the runtime ws binding),
// driven by the MCP SDK's own client: tools from the spec, results as structuredContent, protocol
// errors as tool errors with the code, no window said plainly, a window that comes back on a new port
// with a new token (a reload) found again.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { formatResult } from '@idea-kit/result-text/format';
import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { ToolListChangedNotificationSchema } from '@modelcontextprotocol/sdk/types.js';
import { afterEach, describe, expect, it } from 'vitest';
import { CURRENT_VERSION } from '../../generated/current';
import { MCP_TOOLS } from '../../generated/v0.1.6/mcp-tools';
import { loadMcpTools } from '../../generated/versions';
import { version as MCP_PACKAGE_VERSION } from '../../mcp/package.json';
import { STRICT_RULE } from '../../mcp/src/arguments';
import { parseArgs } from '../../mcp/src/cli';
import { IdeaConnection } from '../../mcp/src/connection';
import { poll } from '../../runtime/poll';
import { removeRegistryEntry, writeRegistryEntry } from '../../runtime/registry';
import { startTestServer, type TestServer, TOKEN, trivialHandlers } from '../robustness/harness';
import { inProcessMcp } from './support/in-process';

/** The wire's rule in every params description, which idea-mcp's listing replaces. */
const WIRE_RULE = ' Unknown params fields are accepted and ignored (forward compatibility).';

const cleanup: (() => Promise<unknown> | void)[] = [];
afterEach(async () => {
  for (const f of cleanup.splice(0).reverse()) await f();
});

async function server(opts: Parameters<typeof startTestServer>[0] = {}): Promise<TestServer> {
  const s = await startTestServer(opts);
  cleanup.push(() => s.close());
  return s;
}

async function mcpClient(conn: IdeaConnection): Promise<Client> {
  const { client, close } = await inProcessMcp(conn);
  cleanup.push(close);
  return client;
}

const text = (r: unknown) => (r as { content: { type: string; text: string }[] }).content[0]!.text;

describe('MCP server over an IDEA connection', () => {
  it('lists one tool per advertised topic with the generated schemas and hints', async () => {
    const s = await server();
    const client = await mcpClient(new IdeaConnection({ url: s.url, token: TOKEN }));
    // It announces itself with its package's version, as --version prints it.
    expect(client.getServerVersion()).toMatchObject({ name: 'idea-mcp', version: MCP_PACKAGE_VERSION });
    const { tools } = await client.listTools();
    expect(tools.map((t) => t.name)).toEqual(MCP_TOOLS.map((t) => t.name));
    for (const t of tools) {
      const d = MCP_TOOLS.find((x) => x.name === t.name)!;
      // The generated schema; diag_list also takes the client's own `changed` (test/mcp/changed.test.ts).
      // Closed to other arguments, its description saying so instead of the wire's rule (agent-text.test.ts).
      const { changed, ...props } = (t.inputSchema.properties ?? {}) as Record<string, unknown>;
      expect({ ...t.inputSchema, properties: props }).toEqual({
        ...d.inputSchema,
        description: `${String(d.inputSchema.description).replace(WIRE_RULE, '')} ${STRICT_RULE}`,
        additionalProperties: false,
      });
      expect(changed !== undefined).toBe(t.name === 'diag_list');
      expect(t.outputSchema).toEqual(d.outputSchema);
      expect(t.annotations).toEqual(d.annotations);
      expect(t.title).toBe(d.title);
    }
  });

  it('lists only what the server advertises', async () => {
    const all = trivialHandlers() as unknown as Record<string, unknown>;
    const s = await server({ handlers: { editFind: all.editFind, fsFindFiles: all.fsFindFiles } as never });
    const client = await mcpClient(new IdeaConnection({ url: s.url, token: TOKEN }));
    expect((await client.listTools()).tools.map((t) => t.name)).toEqual(['edit_find', 'fs_findFiles']);
    const r = await client.callTool({ name: 'nav_symbols', arguments: { filePath: 'a.ts' } });
    expect(r.isError).toBe(true);
    expect(text(r)).toMatch(/^UNKNOWN_TOPIC/);
  });

  it('a call answers the protocol result as structuredContent (checked by the SDK against outputSchema) with a text rendering', async () => {
    let seen: unknown;
    const s = await server({ handlers: trivialHandlers((_topic, run, params) => ((seen = params), run())) });
    const client = await mcpClient(new IdeaConnection({ url: s.url, token: TOKEN }));
    await client.listTools(); // the SDK validates structuredContent of listed tools
    const r = await client.callTool({ name: 'edit_find', arguments: { pattern: 'TODO', isRegex: false } });
    expect(r.isError).toBeFalsy();
    expect(seen).toMatchObject({ pattern: 'TODO', isRegex: false });
    expect(r.structuredContent).toHaveProperty('matches');
    // The text is the CLI's human output for the same result: grep-like lines, no colour.
    expect(text(r)).toBe(formatResult('/app/vscode/edit/find', r.structuredContent, { color: false }));
    expect(text(r)).toMatch(/^\/.+:\d+:\d+: /m);
    expect(text(r)).not.toContain('\x1b[');
  });

  it('protocol errors are tool errors carrying the code; an unknown tool is an MCP error', async () => {
    const s = await server();
    const client = await mcpClient(new IdeaConnection({ url: s.url, token: TOKEN }));
    const r = await client.callTool({ name: 'edit_find', arguments: {} }); // pattern is required
    expect(r.isError).toBe(true);
    expect(text(r)).toMatch(/^INVALID_REQUEST: .*pattern/);
    expect(r._meta).toEqual({ 'idea-kit/errorCode': 'INVALID_REQUEST' });
    await expect(client.callTool({ name: 'no_such_tool', arguments: {} })).rejects.toThrow(
      /unknown tool: no_such_tool/,
    );
  });

  it('a refused handshake is a tool error carrying its code, UNAUTHORIZED (clause C5)', async () => {
    const s = await server();
    const client = await mcpClient(new IdeaConnection({ url: s.url, token: 'not-the-token' }));
    const r = await client.callTool({ name: 'edit_find', arguments: { pattern: 'x' } });
    expect(r.isError).toBe(true);
    expect(text(r)).toMatch(/^UNAUTHORIZED: /);
    expect(r._meta).toEqual({ 'idea-kit/errorCode': 'UNAUTHORIZED' });
  });

  it('with no window open: the newest tools are listed, and a call says no window is open', async () => {
    const registry = mkdtempSync(join(tmpdir(), 'idea-mcp-reg-'));
    const cwd = mkdtempSync(join(tmpdir(), 'idea-mcp-cwd-'));
    cleanup.push(
      () => rmSync(registry, { recursive: true, force: true }),
      () => rmSync(cwd, { recursive: true, force: true }),
    );
    const client = await mcpClient(new IdeaConnection({ cwd, registry }));
    // no server to ask: the served version's tools (the test servers here speak v0.1.6)
    const served = (await loadMcpTools(CURRENT_VERSION))!;
    expect((await client.listTools()).tools.map((t) => t.name)).toEqual(served.map((t) => t.name));
    const r = await client.callTool({ name: 'edit_find', arguments: { pattern: 'x' } });
    expect(r.isError).toBe(true);
    expect(text(r)).toMatch(
      /^No VS Code window with the IDEA extension is open for this folder\. no IDEA server serves /,
    );
  });

  it('finds the window again after it comes back on another port with a new token (a reload)', async () => {
    const registry = mkdtempSync(join(tmpdir(), 'idea-mcp-reg-'));
    const cwd = mkdtempSync(join(tmpdir(), 'idea-mcp-ws-'));
    cleanup.push(
      () => rmSync(registry, { recursive: true, force: true }),
      () => rmSync(cwd, { recursive: true, force: true }),
    );
    const register = (s: TestServer, token: string) => {
      const port = Number(new URL(s.url).port);
      writeRegistryEntry(
        {
          registry: 1,
          pid: process.pid,
          port,
          url: s.url,
          protocolVersion: '0.1.6',
          workspaces: [cwd],
          token,
          authRequired: true,
          startedAt: new Date().toISOString(),
        },
        registry,
      );
      return () => removeRegistryEntry(process.pid, port, registry);
    };
    const first = await startTestServer();
    const unregister = register(first, TOKEN);
    const conn = new IdeaConnection({ cwd, registry });
    const client = await mcpClient(conn);
    expect((await client.callTool({ name: 'edit_find', arguments: { pattern: 'a' } })).isError).toBeFalsy();

    unregister();
    await first.close(); // the window reloads: its server goes away …
    const token2 = 'a-new-token-after-the-reload-0123';
    const second = await server({ auth: { required: true, token: token2 } });
    register(second, token2); // … and comes back elsewhere with a new token
    const r = await client.callTool({ name: 'edit_find', arguments: { pattern: 'b' } });
    expect(text(r)).not.toMatch(/lost|No VS Code/);
    expect(r.isError).toBeFalsy();
    expect(second.sessions.length).toBeGreaterThan(0);
  });

  it('a call in flight when the window goes away: sent again when idempotent, reported as maybe-applied when not', async () => {
    const registry = mkdtempSync(join(tmpdir(), 'idea-mcp-reg-'));
    const cwd = mkdtempSync(join(tmpdir(), 'idea-mcp-ws-'));
    cleanup.push(
      () => rmSync(registry, { recursive: true, force: true }),
      () => rmSync(cwd, { recursive: true, force: true }),
    );
    const register = (s: TestServer) =>
      writeRegistryEntry(
        {
          registry: 1,
          pid: process.pid,
          port: Number(new URL(s.url).port),
          url: s.url,
          protocolVersion: '0.1.6',
          workspaces: [cwd],
          token: TOKEN,
          authRequired: true,
          startedAt: new Date().toISOString(),
        },
        registry,
      );
    let started!: () => void;
    const hang = () => trivialHandlers((_topic, run) => (started(), new Promise(() => void run)));
    for (const [tool, args, retried] of [
      ['edit_find', { pattern: 'a' }, true],
      ['edit_replace', { pattern: 'a', replacement: 'b' }, false],
    ] as const) {
      const first = await startTestServer({ handlers: hang() });
      register(first);
      const client = await mcpClient(new IdeaConnection({ cwd, registry }));
      const inHandler = new Promise<void>((r) => (started = r));
      const answer = client.callTool({ name: tool, arguments: args });
      await inHandler;
      removeRegistryEntry(process.pid, Number(new URL(first.url).port), registry);
      const second = await server(); // answers at once
      register(second);
      await first.close(); // drops the connection with the call in flight
      const r = await answer;
      if (retried) {
        expect(r.isError, text(r)).toBeFalsy();
        expect(second.sessions.length).toBe(1);
      } else {
        expect(r.isError).toBe(true);
        expect(text(r)).toMatch(
          /^the connection to VS Code was lost while edit_replace was in flight .*: it may or may not have been applied; check before calling again$/,
        );
      }
      removeRegistryEntry(process.pid, Number(new URL(second.url).port), registry);
    }
  });

  it('a reconnection to a window with another tool set sends tools/list_changed', async () => {
    const registry = mkdtempSync(join(tmpdir(), 'idea-mcp-reg-'));
    const cwd = mkdtempSync(join(tmpdir(), 'idea-mcp-ws-'));
    cleanup.push(
      () => rmSync(registry, { recursive: true, force: true }),
      () => rmSync(cwd, { recursive: true, force: true }),
    );
    const register = (s: TestServer) =>
      writeRegistryEntry(
        {
          registry: 1,
          pid: process.pid,
          port: Number(new URL(s.url).port),
          url: s.url,
          protocolVersion: '0.1.6',
          workspaces: [cwd],
          token: TOKEN,
          authRequired: true,
          startedAt: new Date().toISOString(),
        },
        registry,
      );
    const first = await startTestServer();
    register(first);
    const client = await mcpClient(new IdeaConnection({ cwd, registry }));
    let changed = 0;
    client.setNotificationHandler(ToolListChangedNotificationSchema, () => void changed++);
    expect((await client.listTools()).tools).toHaveLength(13);
    removeRegistryEntry(process.pid, Number(new URL(first.url).port), registry);
    const all = trivialHandlers() as unknown as Record<string, unknown>;
    const second = await server({ handlers: { editFind: all.editFind } as never });
    register(second);
    await first.close();
    await poll(async () => (changed > 0 ? true : undefined), { timeoutMs: 10_000, intervalMs: 20 });
    expect(changed).toBe(1);
    expect((await client.listTools()).tools.map((t) => t.name)).toEqual(['edit_find']);
  });

  it('parses its arguments and refuses bad ones clearly', () => {
    expect(parseArgs(['--http', '--port', '0'], {})).toMatchObject({ http: true, port: 0 });
    expect(parseArgs(['--headless'], {})).toMatchObject({ headless: true });
    expect(parseArgs([], {})).toMatchObject({ headless: false });
    expect(parseArgs(['--url', 'ws://127.0.0.1:7200'], { IDEA_TOKEN: 't' })).toMatchObject({
      url: 'ws://127.0.0.1:7200',
    });
    expect(() => parseArgs(['--port', '70000'], {})).toThrow(/--port must be an integer in \[0, 65535\]/);
    expect(() => parseArgs(['--port'], {})).toThrow(/--port needs a value/);
    expect(() => parseArgs(['--bogus'], {})).toThrow(/unknown argument --bogus/);
  });

  it("finds the server and token by the clients' one rule, and refuses a non-loopback url before connecting", async () => {
    const env = { IDEA_TOKEN: 'env-token', IDEA_REGISTRY_DIR: '/nonexistent' };
    expect(await new IdeaConnection(parseArgs(['--url', 'ws://127.0.0.1:7200'], env)).endpoint()).toEqual({
      url: 'ws://127.0.0.1:7200',
      token: 'env-token',
    });
    expect(await new IdeaConnection(parseArgs([], { ...env, IDEA_URL: 'ws://127.0.0.1:7201' })).endpoint()).toEqual({
      url: 'ws://127.0.0.1:7201',
      token: 'env-token',
    });
    expect(() => parseArgs(['--url', 'ws://example.com:7200'], env)).toThrow(/^--url must be a loopback WebSocket url/);
    expect(() => parseArgs([], { ...env, IDEA_URL: 'ws://192.168.1.2:7200' })).toThrow(
      /^IDEA_URL must be a loopback WebSocket url/,
    );
  });
});
