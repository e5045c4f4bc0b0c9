// runtime/ws-server: loopback-only binding, Origin/Host refusal before the upgrade, 1009 on oversize
// frames, port fallback, client tracking, close().
import { createServer, request, type Server } from 'node:http';
import { afterEach, describe, expect, it } from 'vitest';
import { WebSocket } from 'ws';
import { type RunningWebSocketServer, type SessionLike, startWebSocketServer } from '../../runtime/ws-server';
import { until } from '../support/wait';

const running: RunningWebSocketServer[] = [];
const blockers: Server[] = [];
afterEach(async () => {
  await Promise.all(running.splice(0).map((s) => s.close()));
  await Promise.all(blockers.splice(0).map((b) => new Promise((r) => b.close(r))));
});

/** A session that echoes every frame back. */
function echo(log: string[] = []): (io: { send(f: string): void }) => SessionLike {
  return (io) => ({
    onFrame: (text) => {
      log.push(text);
      io.send(`echo:${text}`);
    },
    onClose: () => log.push('<closed>'),
  });
}

async function start(opts: Partial<Parameters<typeof startWebSocketServer>[0]> = {}) {
  const server = await startWebSocketServer({ host: '127.0.0.1', port: 0, createSession: echo(), ...opts });
  running.push(server);
  return server;
}

/** Upgrade status (101 accepted) for a handshake with the given headers. */
function upgradeStatus(port: number, headers: Record<string, string>): Promise<number> {
  return new Promise((resolve, reject) => {
    const req = request({
      host: '127.0.0.1',
      port,
      headers: {
        Connection: 'Upgrade',
        Upgrade: 'websocket',
        'Sec-WebSocket-Version': '13',
        'Sec-WebSocket-Key': 'dGhlIHNhbXBsZSBub25jZQ==',
        ...headers,
      },
    });
    req.on('upgrade', (res, socket) => {
      socket.destroy();
      resolve(res.statusCode ?? 0);
    });
    req.on('response', (res) => {
      res.resume();
      resolve(res.statusCode ?? 0);
    });
    req.on('error', reject);
    req.end();
  });
}

function open(url: string, options?: ConstructorParameters<typeof WebSocket>[2]): Promise<WebSocket> {
  return new Promise((resolve, reject) => {
    const ws = new WebSocket(url, options);
    ws.once('open', () => resolve(ws));
    ws.once('error', reject);
  });
}

const closed = (ws: WebSocket) => new Promise<number>((r) => ws.once('close', (code) => r(code)));

async function busyPort(): Promise<number> {
  const b = createServer();
  await new Promise<void>((r) => b.listen(0, '127.0.0.1', r));
  blockers.push(b);
  return (b.address() as { port: number }).port;
}

describe('startWebSocketServer', () => {
  it('refuses to bind to a non-loopback host', async () => {
    await expect(startWebSocketServer({ host: '0.0.0.0', port: 0, createSession: echo() })).rejects.toThrow(
      /non-loopback/,
    );
  });

  it('carries frames both ways and tracks clients', async () => {
    const counts: number[] = [];
    const log: string[] = [];
    const server = await start({ createSession: echo(log), onClientsChanged: (n) => counts.push(n) });
    const ws = await open(`ws://127.0.0.1:${server.port}`);
    const reply = new Promise<string>((r) => ws.once('message', (d) => r(String(d))));
    ws.send('hello');
    expect(await reply).toBe('echo:hello');
    expect(server.clientCount).toBe(1);
    const done = closed(ws);
    ws.close();
    await done;
    await until('the server to see the close', () => server.clientCount === 0);
    expect(counts).toEqual([1, 0]);
    expect(log).toEqual(['hello', '<closed>']);
  });

  it.each([
    ['a web page Origin', { Origin: 'https://evil.example' }, 403],
    ['a null Origin', { Origin: 'null' }, 403],
    ['a non-http Origin', { Origin: 'vscode-webview://abc' }, 403],
    ['a loopback-looking but foreign Origin', { Origin: 'http://127.0.0.1.evil.example' }, 403],
    ['a foreign Host (DNS rebinding)', { Host: 'evil.example:7200' }, 403],
    ['a loopback Origin', { Origin: 'http://localhost:3000' }, 101],
    ['a [::1] Origin', { Origin: 'http://[::1]:8080' }, 101],
    ['no Origin (CLI)', {}, 101],
  ])('upgrade with %s → %i', async (_w, headers, status) => {
    const server = await start();
    const h: Record<string, string> = { Host: `127.0.0.1:${server.port}`, ...headers };
    expect(await upgradeStatus(server.port, h)).toBe(status);
  });

  it('answers plain HTTP with 426', async () => {
    const server = await start();
    const status = await new Promise<number>((resolve, reject) => {
      request({ host: '127.0.0.1', port: server.port, path: '/' }, (res) => {
        res.resume();
        resolve(res.statusCode ?? 0);
      })
        .on('error', reject)
        .end();
    });
    expect(status).toBe(426);
  });

  it('closes the connection with 1009 on a frame over maxPayload, and still serves small ones', async () => {
    const server = await start({ maxPayload: 1024 });
    const small = await open(`ws://127.0.0.1:${server.port}`);
    const reply = new Promise<string>((r) => small.once('message', (d) => r(String(d))));
    small.send('x'.repeat(1000));
    expect((await reply).length).toBe(1005);
    const big = await open(`ws://127.0.0.1:${server.port}`);
    const code = closed(big);
    big.send('x'.repeat(2048));
    expect(await code).toBe(1009);
    small.close();
  });

  it('tries the next port when one is taken (EADDRINUSE only)', async () => {
    const taken = await busyPort();
    // taken+1 is very likely free; other engineers' processes may hold it, hence the range.
    const server = await start({ port: taken, portAttempts: 5 });
    expect(server.port).toBeGreaterThan(taken);
    expect(server.port).toBeLessThanOrEqual(taken + 4);
  });

  it('reports when every attempted port is taken', async () => {
    const taken = await busyPort();
    await expect(
      startWebSocketServer({ host: '127.0.0.1', port: taken, portAttempts: 1, createSession: echo() }),
    ).rejects.toMatchObject({
      code: 'EADDRINUSE',
    });
  });

  it('reports other bind errors instead of trying further ports', async () => {
    await expect(
      startWebSocketServer({ host: '127.0.0.1', port: 70000, portAttempts: 3, createSession: echo() }),
    ).rejects.toThrow();
  });

  it('close() terminates live connections', async () => {
    const server = await startWebSocketServer({ host: '127.0.0.1', port: 0, createSession: echo() });
    const ws = await open(`ws://127.0.0.1:${server.port}`);
    const code = closed(ws);
    await server.close();
    expect(await code).toBe(1006);
    await expect(open(`ws://127.0.0.1:${server.port}`)).rejects.toThrow();
  });

  it('closes with 1011 when the session cannot be created', async () => {
    const server = await start({
      createSession: () => {
        throw new Error('no session');
      },
    });
    const ws = await open(`ws://127.0.0.1:${server.port}`);
    expect(await closed(ws)).toBe(1011);
  });
});
