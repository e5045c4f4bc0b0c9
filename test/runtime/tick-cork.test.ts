// runtime/tick-cork: every frame sent in one tick leaves in one socket write, on the server binding
// (runtime/ws-server) and the client transport; nothing changes for sockets it cannot cork.
import { Socket } from 'node:net';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { connect } from '../../generated/v0.1.6/client';
import { ServerSession } from '../../generated/v0.1.6/server';
import { corkPerTick } from '../../runtime/tick-cork';
import { type RunningWebSocketServer, startWebSocketServer } from '../../runtime/ws-server';

const N = 50;
const running: RunningWebSocketServer[] = [];
afterEach(async () => {
  vi.restoreAllMocks();
  await Promise.all(running.splice(0).map((s) => s.close()));
});

/** Counts the socket writes (what reaches the kernel: _write or _writev calls) of every net.Socket. */
function countSocketWrites(): () => number {
  const proto = Socket.prototype as unknown as {
    _write: (...a: unknown[]) => void;
    _writev: (...a: unknown[]) => void;
  };
  const w = vi.spyOn(proto, '_write');
  const wv = vi.spyOn(proto, '_writev');
  return () => w.mock.calls.length + wv.mock.calls.length;
}

describe('corkPerTick', () => {
  it('lets the first send of a tick through, corks from the second until the next tick', async () => {
    const calls: string[] = [];
    const ws = { _socket: { cork: () => calls.push('cork'), uncork: () => calls.push('uncork') } };
    const cork = corkPerTick(ws);
    cork();
    expect(calls).toEqual([]); // a lone frame is never held
    cork();
    cork();
    expect(calls).toEqual(['cork']);
    await new Promise((r) => process.nextTick(r));
    expect(calls).toEqual(['cork', 'uncork']);
    cork();
    expect(calls).toEqual(['cork', 'uncork']);
    cork();
    expect(calls).toEqual(['cork', 'uncork', 'cork']);
    await new Promise((r) => process.nextTick(r));
    expect(calls).toEqual(['cork', 'uncork', 'cork', 'uncork']);
    await new Promise((r) => process.nextTick(r));
    cork(); // a tick with one send corks nothing
    await new Promise((r) => process.nextTick(r));
    expect(calls).toEqual(['cork', 'uncork', 'cork', 'uncork']);
  });

  it('does nothing for a socket it cannot cork (another WebSocket class, not connected yet)', async () => {
    for (const ws of [{}, { _socket: null }, { _socket: { cork: 1 } }]) {
      const cork = corkPerTick(ws);
      expect(() => cork()).not.toThrow();
    }
  });
});

describe('one socket write per tick', () => {
  it('server: N replies produced in one tick leave in one write', async () => {
    const server = await startWebSocketServer({
      host: '127.0.0.1',
      port: 0,
      createSession: (io) => ({
        onFrame: () => {
          for (let i = 0; i < N; i++) io.send(JSON.stringify({ i }));
        },
        onClose: () => undefined,
      }),
    });
    running.push(server);
    const { WebSocket } = await import('ws');
    const ws = new WebSocket(`ws://127.0.0.1:${server.port}`);
    await new Promise((r) => ws.once('open', r));
    let got = 0;
    const all = new Promise<void>((r) => ws.on('message', () => ++got === N && r()));
    const writes = countSocketWrites();
    ws.send('burst');
    await all;
    // One write for the client's frame, two for the N replies (the first at once, the rest together;
    // N + 1 without the cork).
    expect(writes()).toBeLessThanOrEqual(4);
    ws.close();
  });

  it('server: a lone frame reaches the socket at once, not at the end of a long tick', async () => {
    let wroteBeforeTickEnd = -1;
    let writes = () => 0;
    const server = await startWebSocketServer({
      host: '127.0.0.1',
      port: 0,
      createSession: (io) => ({
        onFrame: () => {
          const before = writes();
          io.send('{"event":"x"}');
          wroteBeforeTickEnd = writes() - before; // the rest of this tick could be long (other listeners)
        },
        onClose: () => undefined,
      }),
    });
    running.push(server);
    const { WebSocket } = await import('ws');
    const ws = new WebSocket(`ws://127.0.0.1:${server.port}`);
    await new Promise((r) => ws.once('open', r));
    writes = countSocketWrites();
    const got = new Promise((r) => ws.once('message', r));
    ws.send('go');
    await got;
    expect(wroteBeforeTickEnd).toBe(1);
    ws.close();
  });

  it('client: N requests made in one tick leave in one write, and all are answered', async () => {
    const server = await startWebSocketServer({
      host: '127.0.0.1',
      port: 0,
      createSession: (io) =>
        new ServerSession({
          handlers: { editFind: async () => ({ matches: [], totalCount: 0 }) },
          auth: { required: false },
          workspaces: () => [],
          send: io.send,
          close: io.close,
        }),
    });
    running.push(server);
    const client = await connect({ url: `ws://127.0.0.1:${server.port}` });
    const writes = countSocketWrites();
    const answers = Promise.all(Array.from({ length: N }, () => client.editFind({ pattern: 'x' })));
    // The first request left at once; the others go out together at the tick's end.
    expect(writes()).toBe(1);
    expect(await answers).toHaveLength(N);
    // One write for the requests; the server's replies may span a few ticks (handlers are async).
    const clientAndServer = writes();
    expect(clientAndServer).toBeLessThan(N / 2);
    await client.close();
  });
});
