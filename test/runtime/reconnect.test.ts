// Opt-in reconnect of the client engine: backoff arithmetic, then against real servers that go away
// and come back (the same port, a new token, as a reloaded VS Code window does).
import { afterEach, describe, expect, it } from 'vitest';
import { connect, type IdeaClient, IdeaClosedError, IdeaTimeoutError } from '../../generated/v0.1.6/client';
import { backoffDelay, type ConnectionStateEvent, reconnectPolicy } from '../../runtime/reconnect';
import { startTestServer, type TestServer, TOKEN, trivialHandlers } from '../robustness/harness';
import { sleep, until } from '../support/wait';

const FIND = '/app/vscode/edit/find';

describe('backoff', () => {
  it('grows by the factor from the initial delay, is capped, and jitter only shortens it', () => {
    const p = reconnectPolicy({ initialDelayMs: 100, maxDelayMs: 1000, factor: 2, jitter: 0 })!;
    expect([1, 2, 3, 4, 5, 6].map((n) => backoffDelay(p, n))).toEqual([100, 200, 400, 800, 1000, 1000]);
    const j = reconnectPolicy({ initialDelayMs: 100, maxDelayMs: 1000, jitter: 0.5 })!;
    expect(backoffDelay(j, 1, () => 0)).toBe(100);
    expect(backoffDelay(j, 1, () => 0.999)).toBe(50);
  });

  it('is off unless asked for, and refuses nonsense', () => {
    expect(reconnectPolicy(undefined)).toBeUndefined();
    expect(reconnectPolicy(false)).toBeUndefined();
    expect(reconnectPolicy(true)).toMatchObject({
      initialDelayMs: 100,
      maxDelayMs: 5000,
      factor: 2,
      maxAttempts: Infinity,
    });
    expect(() => reconnectPolicy({ initialDelayMs: -1 })).toThrow(RangeError);
    expect(() => reconnectPolicy({ jitter: 2 })).toThrow(/jitter/);
    expect(() => reconnectPolicy({ initialDelayMs: 500, maxDelayMs: 100 })).toThrow(/maxDelayMs/);
    expect(() => reconnectPolicy({ maxAttempts: 0 })).toThrow(/maxAttempts/);
  });
});

describe('reconnect against a server that goes away and comes back', () => {
  const servers: TestServer[] = [];
  const clients: IdeaClient[] = [];
  afterEach(async () => {
    await Promise.all(clients.splice(0).map((c) => c.close()));
    await Promise.all(servers.splice(0).map((s) => s.close()));
  });
  const findParams = { pattern: 'x' };
  let hang = false;
  let hung = 0;
  const handlers = () =>
    trivialHandlers((topic, run) => (topic === FIND && hang ? (hung++, new Promise(() => {})) : run()));
  async function server(port = 0, token = TOKEN): Promise<TestServer> {
    const s = await startTestServer({ port, handlers: handlers(), auth: { required: true, token } });
    servers.push(s);
    return s;
  }
  const portOf = (s: TestServer) => Number(new URL(s.url).port);

  it('rejects what was in flight, then serves again on the new connection with the token asked for anew', async () => {
    const first = await server();
    const port = portOf(first);
    let token = TOKEN;
    let asked = 0;
    const events: ConnectionStateEvent['state'][] = [];
    const c = await connect({
      url: first.url,
      token,
      validate: true,
      reconnect: {
        initialDelayMs: 20,
        maxDelayMs: 50,
        endpoint: () => {
          asked++;
          return { url: `ws://127.0.0.1:${port}`, token };
        },
      },
    });
    clients.push(c);
    c.onStateChange((e) => events.push(e.state));
    hang = true;
    hung = 0;
    const inFlight = c.editFind(findParams).then(
      () => 'answered',
      (e: unknown) => e,
    );
    await until('the request to reach the server', () => hung === 1);
    await first.close();
    servers.splice(servers.indexOf(first), 1);
    expect(await inFlight).toBeInstanceOf(IdeaClosedError);
    expect(c.state).toBe('reconnecting');
    expect(c.isClosed).toBe(false);

    // Made while nobody listens: waits for the next connection.
    hang = false;
    const waiting = c.editFind(findParams, { timeoutMs: 10_000 });
    const attempts = events.length;
    await until('a reconnect attempt to fail while the request waits', () => events.length > attempts, {
      detail: () => events,
    });
    token = 'b1c2d3e4-0000-4000-8000-000000000002';
    await server(port, token);
    const result = await waiting;
    expect(result.totalCount).toBeTypeOf('number');
    expect(c.state).toBe('open');
    expect(asked).toBeGreaterThanOrEqual(1);
    expect(events[0]).toBe('reconnecting');
    expect(events.at(-1)).toBe('open');
    expect((await c.editFind(findParams)).totalCount).toBeTypeOf('number');
  });

  it('a request waiting for a connection that does not come back times out with IdeaTimeoutError', async () => {
    const s = await server();
    const c = await connect({ url: s.url, token: TOKEN, reconnect: { initialDelayMs: 20, maxDelayMs: 40 } });
    clients.push(c);
    await s.close();
    servers.length = 0;
    await until('the client to notice the drop', () => c.state === 'reconnecting');
    const t0 = performance.now();
    await expect(c.editFind(findParams, { timeoutMs: 200 })).rejects.toBeInstanceOf(IdeaTimeoutError);
    expect(performance.now() - t0).toBeLessThan(2000);
  });

  it('gives up after maxAttempts: closed for good, waiting requests rejected, `closed` resolves', async () => {
    const s = await server();
    const c = await connect({
      url: s.url,
      token: TOKEN,
      reconnect: { initialDelayMs: 10, maxDelayMs: 10, maxAttempts: 3 },
    });
    const events: ConnectionStateEvent[] = [];
    c.onStateChange((e) => events.push(e));
    await s.close();
    servers.length = 0;
    await until('the client to notice the drop', () => c.state === 'reconnecting');
    const waiting = c.editFind(findParams, { timeoutMs: 10_000 }).catch((e: unknown) => e);
    await c.closed;
    expect(c.state).toBe('closed');
    const e = await waiting;
    expect(e).toBeInstanceOf(IdeaClosedError);
    expect(String((e as Error).message)).toMatch(/gave up reconnecting after 3 attempt/);
    expect(events.map((x) => x.state)).toEqual(['reconnecting', 'reconnecting', 'reconnecting', 'closed']);
    expect(events.slice(1, 3).every((x) => x.error instanceof Error)).toBe(true);
    await expect(c.editFind(findParams)).rejects.toBeInstanceOf(IdeaClosedError);
  });

  it('close() while reconnecting stops the attempts', async () => {
    const s = await server();
    let asked = 0;
    const DELAY_MS = 30;
    const c = await connect({
      url: s.url,
      token: TOKEN,
      reconnect: {
        initialDelayMs: DELAY_MS,
        maxDelayMs: DELAY_MS,
        endpoint: () => {
          asked++;
          return { url: s.url, token: TOKEN };
        },
      },
    });
    await s.close();
    servers.length = 0;
    await until('a reconnect attempt', () => asked > 0);
    const before = asked;
    await c.close();
    expect(c.state).toBe('closed');
    await sleep(4 * DELAY_MS); // time itself: the next attempts would have been due by now
    expect(asked).toBe(before);
  });

  it('without reconnect a drop closes the client as before', async () => {
    const s = await server();
    const c = await connect({ url: s.url, token: TOKEN });
    await s.close();
    servers.length = 0;
    await c.closed;
    expect(c.state).toBe('closed');
    await expect(c.editFind(findParams)).rejects.toBeInstanceOf(IdeaClosedError);
  });
});
