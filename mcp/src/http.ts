// Streamable HTTP transport (MCP 2025-11-25) on loopback only. Before anything else every request is
// held to the same rules as the IDEA WebSocket server (runtime/loopback.ts): a Host header naming a
// loopback host (DNS rebinding) and no Origin but a loopback one (web pages); then a bearer token,
// compared in constant time. Each MCP session gets its own SDK transport and Server; sessions are
// capped, the oldest dropped first.
import { randomUUID } from 'node:crypto';
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { Server } from '@modelcontextprotocol/sdk/server/index.js';
import { StreamableHTTPServerTransport } from '@modelcontextprotocol/sdk/server/streamableHttp.js';
import { isAllowedOrigin, isLoopbackAddress, isLoopbackHost } from '../../runtime/loopback';
import { tokensEqual } from '../../runtime/token';
import { isInitializeRequest, isRequest } from './jsonrpc';

const MCP_PATH = '/mcp';
const MAX_BODY = 4 * 1024 * 1024;

export interface HttpServerOptions {
  /** Port on 127.0.0.1 (0: any free one). */
  port: number;
  /** Loopback address to bind (default 127.0.0.1). */
  host?: string;
  /** Bearer token every request must carry. */
  token: string;
  /** A new MCP server for a new session. */
  createServer: () => Server;
  /** Most sessions kept at once (default 64); a new one beyond closes the least recently used. */
  maxSessions?: number;
}

export interface RunningHttpServer {
  url: string;
  port: number;
  close(): Promise<void>;
}

interface Session {
  transport: StreamableHTTPServerTransport;
  server: Server;
  lastUsed: number;
}

function reject(res: ServerResponse, status: number, message: string, headers: Record<string, string> = {}): void {
  res.writeHead(status, { 'content-type': 'application/json', ...headers });
  res.end(JSON.stringify({ jsonrpc: '2.0', error: { code: -32000, message }, id: null }));
}

function readBody(req: IncomingMessage): Promise<string> {
  return new Promise((resolve, rejectBody) => {
    const chunks: Buffer[] = [];
    let size = 0;
    req.on('data', (c: Buffer) => {
      size += c.length;
      if (size > MAX_BODY) {
        rejectBody(new Error('body too large'));
        req.destroy();
      } else chunks.push(c);
    });
    req.on('end', () => resolve(Buffer.concat(chunks).toString('utf8')));
    req.on('error', rejectBody);
  });
}

function bearer(req: IncomingMessage): string | undefined {
  const m = /^Bearer\s+(\S+)\s*$/i.exec(req.headers.authorization ?? '');
  return m?.[1];
}

export async function startHttpServer(options: HttpServerOptions): Promise<RunningHttpServer> {
  const host = options.host ?? '127.0.0.1';
  if (!isLoopbackAddress(host))
    throw new Error(`refusing to listen on ${host}: loopback addresses only (127.0.0.1, ::1, localhost)`);
  if (options.token.length < 16) throw new Error('the HTTP bearer token must be at least 16 characters');
  const maxSessions = options.maxSessions ?? 64;
  const sessions = new Map<string, Session>();

  const closeSession = (id: string) => {
    const s = sessions.get(id);
    if (!s) return;
    sessions.delete(id);
    void s.transport.close().catch(() => undefined);
    void s.server.close().catch(() => undefined);
  };

  const handle = async (req: IncomingMessage, res: ServerResponse): Promise<void> => {
    if (!isLoopbackHost(req.headers.host)) return reject(res, 403, 'Forbidden: Host is not a loopback host');
    if (!isAllowedOrigin(req.headers.origin)) return reject(res, 403, 'Forbidden: Origin is not a loopback origin');
    const path = new URL(req.url ?? '/', 'http://127.0.0.1').pathname;
    if (path !== MCP_PATH) return reject(res, 404, `Not found: the MCP endpoint is ${MCP_PATH}`);
    const given = bearer(req);
    if (given === undefined || !tokensEqual(options.token, given)) {
      return reject(
        res,
        401,
        given === undefined ? 'Unauthorized: missing bearer token' : 'Unauthorized: wrong bearer token',
        {
          'www-authenticate': 'Bearer realm="idea-mcp"',
        },
      );
    }
    let body: unknown;
    if (req.method === 'POST') {
      try {
        body = JSON.parse(await readBody(req));
      } catch (e) {
        res.writeHead(400, { 'content-type': 'application/json' });
        res.end(
          JSON.stringify({
            jsonrpc: '2.0',
            error: { code: -32700, message: `Parse error: ${e instanceof Error ? e.message : String(e)}` },
            id: null,
          }),
        );
        return;
      }
    }
    const sessionId = req.headers['mcp-session-id'];
    if (typeof sessionId === 'string') {
      const s = sessions.get(sessionId);
      if (!s) return reject(res, 404, 'Session not found (it ended or was dropped): initialize a new one');
      s.lastUsed = Date.now();
      return s.transport.handleRequest(req, res, body);
    }
    if (req.method !== 'POST' || !isInitializeRequest(body)) {
      return reject(
        res,
        400,
        isRequest(body)
          ? 'Bad request: no Mcp-Session-Id (send initialize first)'
          : 'Bad request: expected an initialize request',
      );
    }
    if (sessions.size >= maxSessions) {
      const oldest = [...sessions].sort(([, a], [, b]) => a.lastUsed - b.lastUsed)[0];
      if (oldest) closeSession(oldest[0]);
    }
    const server = options.createServer();
    const transport: StreamableHTTPServerTransport = new StreamableHTTPServerTransport({
      sessionIdGenerator: () => randomUUID(),
      onsessioninitialized: (id) => void sessions.set(id, { transport, server, lastUsed: Date.now() }),
    });
    transport.onclose = () => {
      if (transport.sessionId) sessions.delete(transport.sessionId);
    };
    await server.connect(transport);
    await transport.handleRequest(req, res, body);
  };

  const http = createServer((req, res) => {
    handle(req, res).catch((e: unknown) => {
      if (!res.headersSent) reject(res, 500, `Internal error: ${e instanceof Error ? e.message : String(e)}`);
      else res.end();
    });
  });
  await new Promise<void>((resolve, rejectListen) => {
    http.once('error', rejectListen);
    http.listen(options.port, host, () => resolve());
  });
  const port = (http.address() as AddressInfo).port;
  const shownHost = host.includes(':') ? `[${host}]` : host;
  return {
    url: `http://${shownHost}:${port}${MCP_PATH}`,
    port,
    close: async () => {
      for (const id of [...sessions.keys()]) closeSession(id);
      http.closeAllConnections();
      await new Promise<void>((resolve) => http.close(() => resolve()));
    },
  };
}
