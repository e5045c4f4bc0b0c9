// runtime/admission + its wiring in runtime/ws-server: pending sockets capped (oldest dropped) and
// deadlined, connected clients capped (503), failed handshakes rate-limited, and a real client still
// served while thousands of silent sockets arrive.
import { type Socket, connect as tcpConnect } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import { WebSocket } from 'ws';
import { ServerSession } from '../../generated/v0.1.6/server';
import { HandshakeThrottle, PendingSockets, Progress } from '../../runtime/admission';
import { type RunningWebSocketServer, startWebSocketServer } from '../../runtime/ws-server';
import { until } from '../support/wait';

// clause H8: the admission limits — pending sockets capped and deadlined, clients capped (503), failed
// handshakes held to a rate (the unit below and its ws binding further down).
describe('PendingSockets', () => {
  it('over the cap drops the oldest sockets, two event-loop turns after they arrived', async () => {
    const dropped: [string, string][] = [];
    const p = new PendingSockets<string>({ maxPending: 3, pendingDeadlineMs: 1000 }, (s, r) => dropped.push([s, r]));
    for (const s of ['a', 'b', 'c', 'd', 'e']) p.add(s);
    expect(dropped).toEqual([]); // not yet: a socket accepted in this burst may already have data waiting
    await new Promise((r) => setImmediate(() => setImmediate(r)));
    expect(dropped).toEqual([
      ['a', 'evicted'],
      ['b', 'evicted'],
    ]);
    expect(p.size).toBe(3);
    expect(p.has('e')).toBe(true);
    p.stop();
  });
  it('drops sockets past their deadline, oldest first, and keeps young ones', () => {
    let now = 0;
    const dropped: string[] = [];
    const p = new PendingSockets<string>(
      { maxPending: 10, pendingDeadlineMs: 100 },
      (s) => dropped.push(s),
      () => now,
    );
    p.add('old');
    now = 60;
    p.add('young');
    now = 120;
    p.sweep();
    expect(dropped).toEqual(['old']);
    expect(p.has('young')).toBe(true);
    p.delete('young');
    expect(p.size).toBe(0);
  });
});

describe('HandshakeThrottle', () => {
  it('lets a burst through, then holds failures to the refill rate', () => {
    let now = 0;
    const t = new HandshakeThrottle(3, 10, () => now);
    for (let i = 0; i < 3; i++) {
      expect(t.tryPermit()).toBe(true);
      t.settle(true);
    }
    expect(t.tryPermit()).toBe(false);
    now = 100; // one token per 100 ms
    expect(t.tryPermit()).toBe(true);
    t.settle(true);
    expect(t.tryPermit()).toBe(false);
  });
  it('returns the token of a successful handshake', () => {
    const t = new HandshakeThrottle(1, 1, () => 0);
    expect(t.tryPermit()).toBe(true);
    t.settle(false);
    expect(t.tryPermit()).toBe(true);
  });
  it('serves waiters in order as tokens come back, skipping those that gave up', async () => {
    const t = new HandshakeThrottle(1, 50);
    expect(t.tryPermit()).toBe(true);
    t.settle(true);
    const order: string[] = [];
    const gaveUp = new AbortController();
    void t.permit(gaveUp.signal).then(() => order.push('quitter'));
    const a = t.permit().then(() => {
      order.push('a');
      t.settle(true);
    });
    const b = t.permit().then(() => {
      order.push('b');
      t.settle(true);
    });
    gaveUp.abort();
    await Promise.all([a, b]);
    expect(order).toEqual(['a', 'b']);
    expect(t.waiting).toBe(0);
  });
});

const TOKEN = 'secret-token';
const running: RunningWebSocketServer[] = [];
const sockets: Socket[] = [];
afterEach(async () => {
  for (const s of sockets.splice(0)) s.destroy();
  await Promise.all(running.splice(0).map((s) => s.close()));
});

async function startServer(limits: Parameters<typeof startWebSocketServer>[0]['limits'], refusals: string[] = []) {
  const server = await startWebSocketServer({
    host: '127.0.0.1',
    port: 0,
    limits,
    onRefused: (r) => refusals.push(r),
    createSession: (io) =>
      new ServerSession({
        handlers: { editFind: async () => ({ matches: [], totalCount: 0 }) },
        auth: { required: true, token: TOKEN },
        workspaces: () => [],
        send: io.send,
        close: io.close,
        admit: io.admit,
      }),
  });
  running.push(server);
  return server;
}

/** Connects and handshakes; resolves with the handshake reply (or the close code / HTTP status). */
function handshake(port: number, token: string): Promise<{ ok: boolean; detail: string; ms: number }> {
  const t0 = Date.now();
  return new Promise((resolve) => {
    const ws = new WebSocket(`ws://127.0.0.1:${port}`);
    const done = (ok: boolean, detail: string) => {
      resolve({ ok, detail, ms: Date.now() - t0 });
      ws.terminate();
    };
    ws.once('open', () => ws.send(JSON.stringify({ type: 'handshake', token })));
    ws.once('message', (m) => {
      const reply = JSON.parse(String(m)) as { error?: { code: string }; version?: string };
      done(!reply.error, reply.error?.code ?? `version ${reply.version}`);
    });
    ws.once('unexpected-response', (_req, res) => done(false, `HTTP ${res.statusCode}`));
    ws.once('error', (e) => done(false, `error ${e.message}`));
    ws.once('close', (code) => done(false, `close ${code}`));
  });
}

function silentSocket(port: number): Promise<Socket> {
  return new Promise((resolve) => {
    const s = tcpConnect(port, '127.0.0.1', () => resolve(s));
    s.on('error', () => resolve(s));
    sockets.push(s);
  });
}

describe('admission in the ws binding', () => {
  it('a flood of silent sockets is capped and a real client is still served', async () => {
    const refusals: string[] = [];
    const server = await startServer({ maxPending: 32 }, refusals);
    let maxPending = 0;
    const watch = setInterval(() => {
      maxPending = Math.max(maxPending, server.pendingCount);
    }, 1);
    // Flood in waves while a real client connects in the middle of it.
    const flood = (async () => {
      for (let wave = 0; wave < 10; wave++)
        await Promise.all(Array.from({ length: 200 }, () => silentSocket(server.port)));
    })();
    // The real client comes in the middle of it: once the flood has filled the cap.
    await until('the flood to fill the pending cap', () => refusals.includes('evicted'));
    const real = await handshake(server.port, TOKEN);
    await flood;
    clearInterval(watch);
    expect(real).toMatchObject({ ok: true });
    // Over the cap only between a burst and its trim two event-loop turns later, and never beyond 4×.
    expect(maxPending).toBeLessThanOrEqual(4 * 32);
    // The client's last connect callback can run before the server accepted every socket (a loaded
    // machine): the cap holds two turns after the last one arrives there, so wait for the trim, bounded.
    await until('the trim to the cap', () => server.pendingCount <= 32, {
      timeoutMs: 2000,
      detail: () => server.pendingCount,
    });
    expect(refusals.filter((r) => r === 'evicted').length).toBeGreaterThan(1000);
    expect(server.clientCount).toBe(0); // the real client left
  });

  it('drops a socket that does not complete the handshake within the deadline', async () => {
    const refusals: string[] = [];
    const server = await startServer({ pendingDeadlineMs: 150 }, refusals);
    const s = await silentSocket(server.port);
    const closedAt = await new Promise<number>((r) => {
      const t0 = Date.now();
      s.once('close', () => r(Date.now() - t0));
    });
    expect(closedAt).toBeGreaterThanOrEqual(100);
    expect(closedAt).toBeLessThan(2000);
    expect(refusals).toContain('deadline');
    // An upgraded but silent WebSocket is pending too.
    const ws = new WebSocket(`ws://127.0.0.1:${server.port}`);
    const code = await new Promise<number>((r) => ws.once('close', (c) => r(c)));
    expect(code).toBe(1006);
  });

  it('refuses upgrades beyond maxClients with 503 and admits again when one leaves', async () => {
    const server = await startServer({ maxClients: 2 });
    const open: WebSocket[] = [];
    for (let i = 0; i < 2; i++) {
      const ws = new WebSocket(`ws://127.0.0.1:${server.port}`);
      await new Promise<void>((r) => {
        ws.once('open', () => ws.send(JSON.stringify({ type: 'handshake', token: TOKEN })));
        ws.once('message', () => r());
      });
      open.push(ws);
    }
    expect(server.clientCount).toBe(2);
    expect(await handshake(server.port, TOKEN)).toMatchObject({ ok: false, detail: 'HTTP 503' });
    open[0]!.close();
    await until('the server to see the client leave', () => server.clientCount === 1);
    expect(await handshake(server.port, TOKEN)).toMatchObject({ ok: true });
    open[1]!.close();
  });

  it('holds token guessing to the failed-handshake rate, then serves the right token', async () => {
    const server = await startServer({ failedHandshakeBurst: 2, failedHandshakesPerSecond: 20, maxPending: 200 });
    const t0 = Date.now();
    const guesses = await Promise.all(Array.from({ length: 12 }, (_, i) => handshake(server.port, `guess-${i}`)));
    const elapsed = Date.now() - t0;
    expect(guesses.every((g) => g.detail === 'UNAUTHORIZED')).toBe(true);
    // 2 at once, then 10 more at 20/s: at least ~500 ms; unthrottled this takes a few ms.
    expect(elapsed).toBeGreaterThanOrEqual(400);
    // No pause for the bucket to refill: the right token waits for its token like any handshake.
    expect(await handshake(server.port, TOKEN)).toMatchObject({ ok: true });
  });
});

/** What one client of a burst ended with: "ok", a handshake error code + close status, an HTTP status, … */
interface BurstClient {
  ws: WebSocket;
  opened: Promise<boolean>;
  outcome: Promise<string>;
  /** The close status (and reason) whenever the connection ends. */
  closed: Promise<string>;
  handshake(): void;
}

function burstClient(port: number, token: string): BurstClient {
  const ws = new WebSocket(`ws://127.0.0.1:${port}`);
  let reply = '';
  const opened = new Promise<boolean>((resolve) => {
    ws.once('open', () => resolve(true));
    ws.once('close', () => resolve(false));
    ws.once('error', () => resolve(false));
  });
  const outcome = new Promise<string>((resolve) => {
    ws.on('message', (m) => {
      const r = JSON.parse(String(m)) as { error?: { code: string; message: string } };
      reply = r.error ? `${r.error.code}: ${r.error.message}` : 'ok';
      if (!r.error) resolve('ok');
    });
    ws.once('unexpected-response', (_req, res) => resolve(`HTTP ${res.statusCode}`));
    ws.once('close', (code, why) => resolve(`${reply || 'no reply'} / close ${code}${why.length ? ` ${why}` : ''}`));
    ws.on('error', () => undefined);
  });
  const closed = new Promise<string>((resolve) => ws.once('close', (code, why) => resolve(`${code} ${why}`)));
  return { ws, opened, outcome, closed, handshake: () => ws.send(JSON.stringify({ type: 'handshake', token })) };
}

function tally(outcomes: string[]): Record<string, number> {
  const t: Record<string, number> = {};
  for (const o of outcomes) t[o] = (t[o] ?? 0) + 1;
  return t;
}

describe('the client cap under a burst', () => {
  const full =
    'HANDLER_ERROR: too many clients connected (limit 64); try again later / close 1013 too many clients connected (limit 64); try again later';

  it('200 clients upgraded first, then handshaking at once: 64 connected, the rest refused with a frame and 1013', async () => {
    const refusals: string[] = [];
    // Every upgrade reaches the handshake, however slow a loaded machine is.
    const server = await startServer({ maxPending: 256, pendingDeadlineMs: 60_000 }, refusals);
    const clients = Array.from({ length: 200 }, () => burstClient(server.port, TOKEN));
    try {
      expect((await Promise.all(clients.map((c) => c.opened))).every(Boolean)).toBe(true);
      for (const c of clients) c.handshake();
      const outcomes = await Promise.all(clients.map((c) => c.outcome));
      expect(tally(outcomes)).toEqual({ ok: 64, [full]: 136 });
      expect(server.clientCount).toBe(64);
      expect(refusals.filter((r) => r === 'too-many-clients')).toHaveLength(136);
      // Refusals for the cap are not failed guesses: the budget (20) is intact, a wrong token is answered at once.
      clients[0]!.ws.close();
      await until('the server to see the client leave', () => server.clientCount < 64);
      const guess = await handshake(server.port, 'wrong');
      expect(guess).toMatchObject({ ok: false, detail: 'UNAUTHORIZED' });
      expect(guess.ms).toBeLessThan(1000); // 136 spent tokens at 10/s would hold it ~12 s
    } finally {
      for (const c of clients) c.ws.terminate();
    }
  });

  it('200 clients connecting and handshaking at once with default caps: never more than 64, every one answered', async () => {
    const server = await startServer({ pendingDeadlineMs: 60_000 }); // the caps at their defaults; no deadline drops on a loaded machine
    let peak = 0;
    const watch = setInterval(() => {
      peak = Math.max(peak, server.clientCount);
    }, 1);
    const clients = Array.from({ length: 200 }, () => burstClient(server.port, TOKEN));
    try {
      for (const c of clients) void c.opened.then((open) => open && c.handshake());
      const outcomes = await Promise.all(clients.map((c) => c.outcome));
      clearInterval(watch);
      const t = tally(outcomes);
      expect(t.ok).toBe(64);
      expect(server.clientCount).toBe(64);
      expect(peak).toBeLessThanOrEqual(64);
      // The others: HTTP 503 at the upgrade, the handshake refusal above, or (over the 128 pending sockets) dropped.
      for (const o of Object.keys(t)) expect(['ok', 'HTTP 503', full, 'no reply / close 1006']).toContain(o);
    } finally {
      clearInterval(watch);
      for (const c of clients) c.ws.terminate();
    }
  });

  it('a session without admit (a custom one) is still held to the cap: closed 1013 after its handshake', async () => {
    const server = await startWebSocketServer({
      host: '127.0.0.1',
      port: 0,
      limits: { maxClients: 2 },
      createSession: (io) =>
        new ServerSession({
          handlers: {},
          auth: { required: true, token: TOKEN },
          workspaces: () => [],
          send: io.send,
          close: io.close,
        }),
    });
    running.push(server);
    const clients = Array.from({ length: 5 }, () => burstClient(server.port, TOKEN));
    try {
      await Promise.all(clients.map((c) => c.opened));
      for (const c of clients) c.handshake();
      expect(tally(await Promise.all(clients.map((c) => c.outcome)))).toEqual({ ok: 5 }); // its success was sent
      await until(
        'the server to close the three over the cap',
        () =>
          clients.every((c) => c.ws.readyState === WebSocket.OPEN || c.ws.readyState === WebSocket.CLOSED) &&
          clients.filter((c) => c.ws.readyState === WebSocket.CLOSED).length >= 3,
      );
      expect(server.clientCount).toBe(2);
      const open = clients.filter((c) => c.ws.readyState === WebSocket.OPEN);
      expect(open).toHaveLength(2);
      const closes = await Promise.all(clients.filter((c) => !open.includes(c)).map((c) => c.closed));
      expect(closes).toEqual(Array(3).fill('1013 too many clients connected (limit 2); try again later'));
    } finally {
      for (const c of clients) c.ws.terminate();
    }
  });
});

describe('PendingSockets by progress', () => {
  it('a burst beyond four times the cap is trimmed at once (descriptors stay bounded)', () => {
    const dropped: string[] = [];
    const p = new PendingSockets<string>({ maxPending: 2, pendingDeadlineMs: 1000 }, (s) => dropped.push(s));
    for (let i = 0; i < 9; i++) p.add(`s${i}`);
    expect(dropped).toEqual(['s0', 's1', 's2', 's3', 's4', 's5', 's6']);
    p.stop();
  });
  it('evicts sockets that sent nothing before those that asked to upgrade or sent a handshake', () => {
    const dropped: string[] = [];
    const p = new PendingSockets<string>({ maxPending: 3, pendingDeadlineMs: 1000 }, (s) => dropped.push(s));
    p.add('real'); // oldest, but it talks
    p.advance('real', Progress.Handshaking);
    p.add('upgrading');
    p.advance('upgrading', Progress.Upgrading);
    for (let i = 0; i < 5; i++) p.add(`silent-${i}`);
    p.trim();
    expect(dropped).toEqual(['silent-0', 'silent-1', 'silent-2', 'silent-3']);
    expect(p.has('real') && p.has('upgrading')).toBe(true);
    // With only talking sockets left, the least advanced goes first.
    p.advance('silent-4', Progress.Handshaking);
    p.add('late');
    p.advance('late', Progress.Upgrading);
    p.trim();
    expect(dropped.at(-1)).toBe('upgrading');
    p.stop();
  });
});
