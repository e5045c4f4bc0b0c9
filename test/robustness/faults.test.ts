// Faults: the server vanishes mid-request (closed, or killed outright), the server restarts, a slow
// handler among fast ones, handlers that throw, and a client that vanishes. Every wait is bounded, so
// "nothing hangs" is a failure, not a stuck run.
import { spawn } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { connect, IdeaClosedError, IdeaProtocolError, IdeaTimeoutError } from '../../generated/v0.1.6/client';
import { ProtocolError, type RequestContext } from '../../generated/v0.1.6/server';
import { sleep, until } from '../support/wait';
import { validRequests } from './bad-frames';
import { flush, generatedValidator, spec, startTestServer, type TestServer, TOKEN, trivialHandlers } from './harness';
import { RawClient } from './raw-client';

const o = spec();
const valid = validRequests(o);
const FIND = '/app/vscode/edit/find';
const findParams = valid.find((v) => v.topic === FIND)!.params as any;
const others = valid.filter((v) => v.topic !== FIND);

/** Rejects if `p` has not settled within `ms`: the "nothing hangs" guard. */
function within<T>(p: Promise<T>, ms: number, what: string): Promise<T> {
  let t: NodeJS.Timeout;
  return Promise.race([
    p,
    new Promise<T>((_, rej) => {
      t = setTimeout(() => rej(new Error(`${what}: still pending after ${ms} ms`)), ms);
    }),
  ]).finally(() => clearTimeout(t));
}
const settle = <T>(p: Promise<T>) =>
  p.then(
    (v) => ({ ok: true as const, v }),
    (e: unknown) => ({ ok: false as const, e }),
  );

const escaped: unknown[] = [];
const onEscape = (e: unknown) => escaped.push(e);
beforeAll(() => {
  process.on('uncaughtException', onEscape);
  process.on('unhandledRejection', onEscape);
});
afterAll(() => {
  process.off('uncaughtException', onEscape);
  process.off('unhandledRejection', onEscape);
});
afterEach(() => {
  expect(escaped).toEqual([]);
});

const servers: TestServer[] = [];
afterEach(async () => {
  await Promise.all(servers.splice(0).map((s) => s.close()));
});
async function server(opts: Parameters<typeof startTestServer>[0] = {}): Promise<TestServer> {
  const s = await startTestServer(opts);
  servers.push(s);
  return s;
}

describe('the server disappears mid-request', () => {
  it('closed by its owner: every pending request fails with IdeaClosedError, new ones fail at once', async () => {
    const srv = await server({
      handlers: trivialHandlers((topic, run) => (topic === FIND ? new Promise(() => {}) : run())),
    });
    const c = await connect({ url: srv.url, token: TOKEN, validate: true, timeoutMs: 60_000 });
    const pending = Array.from({ length: 25 }, () => settle(c.editFind(findParams)));
    await within(
      (async () => {
        while (srv.sessions[0]!.pendingRequests < 25) await flush();
      })(),
      5000,
      'requests reaching the server',
    );
    expect(c.inFlight).toBe(25);
    await srv.close();
    const results = await within(Promise.all(pending), 5000, 'pending requests after the server closed');
    for (const r of results) {
      expect(r.ok).toBe(false);
      expect(r.ok === false && r.e).toBeInstanceOf(IdeaClosedError);
      expect(String((r as { e: Error }).e.message)).toMatch(/connection closed/);
    }
    expect(c.inFlight).toBe(0);
    expect(c.isClosed).toBe(true);
    await within(c.closed, 1000, 'client.closed');
    await expect(within(c.editFind(findParams), 1000, 'request after close')).rejects.toBeInstanceOf(IdeaClosedError);
  });

  it('killed outright (SIGKILL of the server process): pending requests fail with IdeaClosedError', async () => {
    const child = spawn(
      process.execPath,
      ['--import', 'tsx', fileURLToPath(new URL('./fault-server.ts', import.meta.url)), '0'],
      { stdio: ['ignore', 'pipe', 'inherit'] },
    );
    try {
      const port = await within(
        new Promise<number>((resolve, reject) => {
          let out = '';
          child.stdout!.on('data', (d) => {
            out += d;
            const m = /PORT (\d+)/.exec(out);
            if (m) resolve(Number(m[1]));
          });
          child.once('exit', (code) => reject(new Error(`fault server exited (${code})`)));
        }),
        30_000,
        'fault server start',
      );
      const c = await connect({ url: `ws://127.0.0.1:${port}`, token: TOKEN, validate: true, timeoutMs: 60_000 });
      // A round trip first, so the hanging requests below have certainly reached the server.
      await c.request(others[0]!.topic as any, others[0]!.params as any);
      const pending = Array.from({ length: 10 }, () => settle(c.editFind(findParams)));
      await c.request(others[1]!.topic as any, others[1]!.params as any);
      child.kill('SIGKILL');
      const results = await within(Promise.all(pending), 5000, 'pending requests after SIGKILL');
      expect(results.every((r) => !r.ok && r.e instanceof IdeaClosedError)).toBe(true);
      expect(c.inFlight).toBe(0);
    } finally {
      if (child.exitCode === null) child.kill('SIGKILL');
    }
  }, 60_000);
});

describe('the server restarts', () => {
  it('a client can reconnect to the same port and handshake again; the old one stays closed', async () => {
    const first = await server();
    const port = first.server.port;
    const c1 = await connect({ url: first.url, token: TOKEN, validate: true });
    await c1.request(others[0]!.topic as any, others[0]!.params as any);
    await first.close();
    await within(c1.closed, 2000, 'old client noticing the close');
    await expect(connect({ url: first.url, token: TOKEN, timeoutMs: 2000 })).rejects.toBeInstanceOf(IdeaClosedError);
    const second = await server({ port });
    const c2 = await connect({ url: `ws://127.0.0.1:${port}`, token: TOKEN, validate: true });
    expect(c2.handshake.version).toBe(o.index.version);
    expect(c2.handshake.capabilities).toEqual(o.index.topics.map((t) => t.topic));
    for (const v of valid) await c2.request(v.topic as any, v.params as any);
    await expect(c1.request(others[0]!.topic as any, others[0]!.params as any)).rejects.toBeInstanceOf(IdeaClosedError);
    await c2.close();
    expect(second.server.clientCount).toBe(0);
  });
});

describe('slow and failing handlers', () => {
  it('a slow handler does not block other requests on the same connection', async () => {
    let release!: () => void;
    const gate = new Promise<void>((r) => (release = r));
    const srv = await server({ handlers: trivialHandlers((topic, run) => (topic === FIND ? gate.then(run) : run())) });
    const c = await connect({ url: srv.url, token: TOKEN, validate: true });
    let slowDone = false;
    const slow = c.editFind(findParams).then((r) => {
      slowDone = true;
      return r;
    });
    const fast = await within(
      Promise.all(
        Array.from({ length: 200 }, (_, i) =>
          c.request(others[i % others.length]!.topic as any, others[i % others.length]!.params as any),
        ),
      ),
      5000,
      'fast requests behind a slow one',
    );
    expect(fast.length).toBe(200);
    expect(slowDone).toBe(false);
    release();
    expect((await within(slow, 2000, 'slow request after release')).totalCount).toBeTypeOf('number');
    await c.close();
  });

  it('handlers that throw (sync, async, non-Error, ProtocolError) answer structured errors and nothing escapes', async () => {
    const throwers: Record<string, () => unknown> = {
      '/app/vscode/edit/find': () => {
        throw new Error('boom sync');
      },
      '/app/vscode/edit/replace': () => Promise.reject(new Error('boom async')),
      '/app/vscode/nav/definition': () => {
        throw 'a string, not an Error';
      },
      '/app/vscode/nav/references': () => Promise.reject(undefined),
      '/app/vscode/diag/list': () => {
        throw new ProtocolError('INVALID_REQUEST', 'path outside the workspace');
      },
      '/app/vscode/nav/symbols': () => Promise.resolve(null),
      '/app/vscode/history/list': () => Promise.resolve({ entries: 'not an array', totalCount: -1 }),
    };
    const expected: Record<string, string> = { '/app/vscode/diag/list': 'INVALID_REQUEST' };
    const seen: unknown[] = [];
    const srv = await server({
      validateResults: true,
      onHandlerError: (e) => {
        seen.push(e);
        throw new Error('a throwing logger must not matter either');
      },
      handlers: trivialHandlers((topic, run) => (throwers[topic] ? (throwers[topic]!() as Promise<unknown>) : run())),
    });
    // A short timeout: a handler error that escapes instead of being answered fails fast, not at 30 s.
    const c = await connect({ url: srv.url, token: TOKEN, validate: true, timeoutMs: 5000 });
    const validateResponseError = generatedValidator('ResponseError');
    const raw: string[] = [];
    c.onFrame((t) => raw.push(t));
    for (const topic of Object.keys(throwers)) {
      const params = valid.find((v) => v.topic === topic)!.params as any;
      const r = await settle(c.request(topic as any, params));
      expect(r.ok, topic).toBe(false);
      const e = (r as { e: unknown }).e;
      expect(e, topic).toBeInstanceOf(IdeaProtocolError);
      expect((e as IdeaProtocolError).code, topic).toBe(expected[topic] ?? 'HANDLER_ERROR');
    }
    expect(raw.map((t) => validateResponseError(JSON.parse(t)))).toEqual(Object.keys(throwers).map(() => true));
    expect(seen.length).toBeGreaterThanOrEqual(4);
    for (const v of valid) if (!throwers[v.topic]) await c.request(v.topic as any, v.params as any);
    await c.close();
  });

  it('a request the server never answers times out on the client; the late reply is ignored', async () => {
    let release!: () => void;
    const gate = new Promise<void>((r) => (release = r));
    const srv = await server({ handlers: trivialHandlers((topic, run) => (topic === FIND ? gate.then(run) : run())) });
    const c = await connect({ url: srv.url, token: TOKEN, validate: true });
    const late: string[] = [];
    c.onFrame((t) => {
      if ((JSON.parse(t) as { topic?: string }).topic === FIND) late.push(t);
    });
    await expect(c.editFind(findParams, { timeoutMs: 100 })).rejects.toBeInstanceOf(IdeaTimeoutError);
    const ac = new AbortController();
    const aborted = settle(c.editFind(findParams, { signal: ac.signal }));
    ac.abort(new Error('caller gave up'));
    expect(((await aborted) as { e: Error }).e.message).toBe('caller gave up');
    expect(c.inFlight).toBe(0);
    release();
    await until('the two late replies to arrive', () => late.length === 2);
    await c.request(others[0]!.topic as any, others[0]!.params as any);
    await c.close();
  });
});

describe('a client that never handshakes', () => {
  it('is refused after handshakeTimeoutMs (INVALID_REQUEST, close 1002) and leaves nothing behind', async () => {
    const HANDSHAKE_MS = 150;
    const srv = await server({ handshakeTimeoutMs: HANDSHAKE_MS });
    const silent = await RawClient.open(srv.url);
    const reply = await silent.next((f) => f.type === 'handshake', 5000);
    expect(generatedValidator('HandshakeFailure')(reply)).toBe(true);
    expect(reply.error.code).toBe('INVALID_REQUEST');
    expect((await within(silent.closed, 2000, 'close after handshake timeout')).code).toBe(1002);
    await until('the server to drop the silent client', () => srv.server.clientCount === 0, { timeoutMs: 2000 });
    // A prompt client on the same server is unaffected, past the deadline: time itself must pass.
    const c = await connect({ url: srv.url, token: TOKEN, validate: true });
    await sleep(2 * HANDSHAKE_MS);
    await c.request(others[0]!.topic as any, others[0]!.params as any);
    await c.close();
  });
});

describe('a client that vanishes', () => {
  it('leaks nothing: client count back to 0, handler signals aborted, no pending requests or timers', async () => {
    const timersBefore = process.getActiveResourcesInfo().filter((r) => r === 'Timeout').length;
    const signals: AbortSignal[] = [];
    // Handlers that would take a minute, but stop (and clear their timer) when ctx.signal aborts.
    const slowHandlers = Object.fromEntries(
      o.index.topics.map((t) => [
        t.method,
        (_p: unknown, ctx: RequestContext) => {
          signals.push(ctx.signal);
          return new Promise((_, reject) => {
            const timer = setTimeout(() => reject(new Error('too late')), 60_000);
            ctx.signal.addEventListener(
              'abort',
              () => {
                clearTimeout(timer);
                reject(ctx.signal.reason);
              },
              { once: true },
            );
          });
        },
      ]),
    );
    const srv2 = await server({ handlers: slowHandlers as any });
    const clients = await Promise.all(Array.from({ length: 5 }, () => RawClient.open(srv2.url)));
    for (const c of clients) await c.handshake(TOKEN);
    for (const c of clients)
      for (const v of valid)
        c.send(JSON.stringify({ topic: v.topic, requestId: crypto.randomUUID(), params: v.params }));
    await until('the handlers to start', () => signals.length === 5 * valid.length, {
      detail: () => signals.length,
    });
    expect(srv2.server.clientCount).toBe(5);
    expect(signals.some((s) => s.aborted)).toBe(false);
    clients[0]!.close(); // polite close
    for (const c of clients.slice(1)) c.terminate(); // vanished: TCP reset, no close frame
    await until('the server to notice the clients are gone', () => srv2.server.clientCount === 0);
    await flush();
    await flush();
    expect(signals.every((s) => s.aborted)).toBe(true);
    expect(srv2.sessions.map((s) => [s.state, s.pendingRequests])).toEqual(srv2.sessions.map(() => ['closed', 0]));
    const timersAfter = process.getActiveResourcesInfo().filter((r) => r === 'Timeout').length;
    expect(timersAfter).toBeLessThanOrEqual(timersBefore);
    // And the server still takes newcomers; their work is aborted when they leave, too.
    const c = await connect({ url: srv2.url, token: TOKEN, validate: true });
    const late = settle(c.request(others[0]!.topic as any, others[0]!.params as any));
    await until('the newcomer to be served', () => signals.length === 5 * valid.length + 1);
    await c.close();
    expect(((await late) as { e: unknown }).e).toBeInstanceOf(IdeaClosedError);
    await until('the newcomer to be gone', () => srv2.server.clientCount === 0);
    expect(signals.at(-1)!.aborted).toBe(true);
    expect(process.getActiveResourcesInfo().filter((r) => r === 'Timeout').length).toBeLessThanOrEqual(timersBefore);
  });
});

describe('a client floods requests that do not finish', () => {
  it('over the in-flight bound (default 1000) it gets HANDLER_ERROR at once; nothing queues; its leaving frees everything', async () => {
    const signals: AbortSignal[] = [];
    // A handler that only ends when ctx.signal aborts (reading it gives each request its controller).
    const hang = (_p: unknown, ctx: RequestContext) => {
      signals.push(ctx.signal);
      return new Promise((_, rej) =>
        ctx.signal.addEventListener('abort', () => rej(ctx.signal.reason), { once: true }),
      );
    };
    const srv2 = await server({ handlers: { editFind: hang } as any });
    const c = await connect({ url: srv2.url, token: TOKEN, validate: true, timeoutMs: 60_000 });
    const results = Array.from({ length: 1050 }, () => settle(c.editFind(findParams)));
    const refused = await within(Promise.all(results.slice(1000)), 5000, 'answers over the bound');
    for (const r of refused) {
      expect(r.ok).toBe(false);
      const e = (r as { e: unknown }).e;
      expect(e).toBeInstanceOf(IdeaProtocolError);
      expect((e as IdeaProtocolError).code).toBe('HANDLER_ERROR');
      expect((e as IdeaProtocolError).message).toMatch(/too many requests in flight/);
    }
    expect(srv2.sessions[0]!.pendingRequests).toBe(1000);
    expect(signals).toHaveLength(1000);
    expect(c.inFlight).toBe(1000);
    await c.close();
    await within(
      (async () => {
        while (srv2.server.clientCount > 0) await flush();
      })(),
      5000,
      'server noticing the client left',
    );
    expect(signals.every((s) => s.aborted)).toBe(true);
    expect(srv2.sessions[0]!.pendingRequests).toBe(0);
    await within(Promise.all(results.slice(0, 1000)), 5000, 'pending requests after the close');
  });
});
