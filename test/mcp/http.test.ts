// The Streamable HTTP transport: loopback Host and Origin only, a bearer token on every request,
// then a normal MCP session for the SDK's own client.
import { request } from 'node:http';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { IdeaConnection } from '../../mcp/src/connection';
import { type RunningHttpServer, startHttpServer } from '../../mcp/src/http';
import { createMcpServer } from '../../mcp/src/server';
import { startTestServer, type TestServer, TOKEN } from '../robustness/harness';

const BEARER = 'test-bearer-token-0123456789abcdef';
let idea: TestServer;
let conn: IdeaConnection;
let http: RunningHttpServer;

beforeAll(async () => {
  idea = await startTestServer();
  conn = new IdeaConnection({ url: idea.url, token: TOKEN });
  http = await startHttpServer({ port: 0, token: BEARER, createServer: () => createMcpServer(conn), maxSessions: 4 });
});
afterAll(async () => {
  await http.close();
  await conn.close();
  await idea.close();
});

const INIT = JSON.stringify({
  jsonrpc: '2.0',
  id: 1,
  method: 'initialize',
  params: { protocolVersion: '2025-11-25', capabilities: {}, clientInfo: { name: 'raw', version: '1' } },
});

/** A raw POST with exactly these headers (fetch would not let us set Host). */
function post(
  headers: Record<string, string | undefined>,
  body = INIT,
  path = '/mcp',
): Promise<{ status: number; body: string; headers: Record<string, unknown> }> {
  return new Promise((resolve, reject) => {
    const req = request(
      {
        host: '127.0.0.1',
        port: http.port,
        path,
        method: 'POST',
        setHost: false,
        headers: Object.fromEntries(
          Object.entries({
            'content-type': 'application/json',
            accept: 'application/json, text/event-stream',
            ...headers,
          }).filter(([, v]) => v !== undefined),
        ) as Record<string, string>,
      },
      (res) => {
        let data = '';
        res.on('data', (c: Buffer) => (data += c.toString()));
        res.on('end', () => resolve({ status: res.statusCode ?? 0, body: data, headers: res.headers }));
      },
    );
    req.on('error', reject);
    req.end(body);
  });
}

const host = () => `127.0.0.1:${http.port}`;
const auth = { authorization: `Bearer ${BEARER}` };

describe('HTTP transport checks', () => {
  it('accepts a loopback Host, no Origin or a loopback one, and the right token', async () => {
    for (const h of [
      { host: host() },
      { host: `localhost:${http.port}`, origin: `http://localhost:${http.port}` },
      { host: `[::1]:${http.port}`, origin: 'http://127.0.0.1:3000' },
    ]) {
      const r = await post({ ...h, ...auth });
      expect(r.status, JSON.stringify(h)).toBe(200);
      expect(r.headers['mcp-session-id']).toBeTruthy();
    }
  });

  it('refuses a foreign Host (DNS rebinding) and a foreign Origin with 403, whatever the token', async () => {
    for (const h of [
      { host: 'evil.example.com' },
      { host: `evil.example.com:${http.port}`, origin: 'http://evil.example.com' },
      { host: host(), origin: 'http://evil.example.com' },
      { host: host(), origin: 'null' },
    ]) {
      const r = await post({ ...h, ...auth });
      expect(r.status, JSON.stringify(h)).toBe(403);
      expect(r.body).toMatch(/Forbidden/);
    }
  });

  it('refuses a missing or wrong bearer token with 401 and WWW-Authenticate', async () => {
    for (const [h, why] of [
      [{}, 'missing'],
      [{ authorization: 'Bearer wrong-token-0123456789abcdef' }, 'wrong'],
      [{ authorization: `Basic ${BEARER}` }, 'missing'],
      [{ authorization: `Bearer ${BEARER}x` }, 'wrong'],
    ] as const) {
      const r = await post({ host: host(), ...h });
      expect(r.status, JSON.stringify(h)).toBe(401);
      expect(r.body).toContain(`${why} bearer token`);
      expect(r.headers['www-authenticate']).toBe('Bearer realm="idea-mcp"');
    }
  });

  it('answers unknown paths 404, unknown sessions 404, bad JSON 400, a request before initialize 400', async () => {
    expect((await post({ host: host(), ...auth }, INIT, '/other')).status).toBe(404);
    expect((await post({ host: host(), ...auth, 'mcp-session-id': 'nope' })).status).toBe(404);
    expect((await post({ host: host(), ...auth }, '{not json')).status).toBe(400);
    expect(
      (await post({ host: host(), ...auth }, JSON.stringify({ jsonrpc: '2.0', id: 2, method: 'tools/list' }))).status,
    ).toBe(400);
  });

  it('serves the SDK client: tools/list and tools/call', async () => {
    const client = new Client({ name: 'sdk', version: '1' });
    await client.connect(new StreamableHTTPClientTransport(new URL(http.url), { requestInit: { headers: auth } }));
    const { tools } = await client.listTools();
    expect(tools.length).toBe(13);
    const r = await client.callTool({ name: 'edit_find', arguments: { pattern: 'x' } });
    expect(r.isError).toBeFalsy();
    expect(r.structuredContent).toHaveProperty('matches');
    await client.close();
  });

  it('keeps at most maxSessions sessions, closing the least recently used for a new one', async () => {
    const ids: string[] = [];
    for (let i = 0; i < 5; i++) ids.push(String((await post({ host: host(), ...auth })).headers['mcp-session-id']));
    const ping = (id: string) =>
      post(
        { host: host(), ...auth, 'mcp-session-id': id, 'mcp-protocol-version': '2025-11-25' },
        JSON.stringify({ jsonrpc: '2.0', id: 9, method: 'ping' }),
      );
    expect((await ping(ids[0]!)).status).toBe(404); // the oldest of the 5 went when the 5th came (cap 4)
    expect((await ping(ids[4]!)).status).toBe(200);
  });

  it('listens on loopback only and wants a real token', async () => {
    await expect(
      startHttpServer({ port: 0, host: '0.0.0.0', token: BEARER, createServer: () => createMcpServer(conn) }),
    ).rejects.toThrow(/loopback addresses only/);
    await expect(
      startHttpServer({ port: 0, token: 'short', createServer: () => createMcpServer(conn) }),
    ).rejects.toThrow(/at least 16/);
  });
});
