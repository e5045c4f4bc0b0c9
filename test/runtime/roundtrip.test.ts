// Generated client ↔ generated ServerSession over a real `ws` server on 127.0.0.1 (port 0), with
// in-test handlers for every topic of v0.1.6 answering the result examples of the spec.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { connect as connectV010 } from '../../generated/v0.1.0/client';
import { ServerSession as ServerSessionV010 } from '../../generated/v0.1.0/server';
import {
  connect,
  type IdeaClient,
  IdeaClosedError,
  IdeaProtocolError,
  IdeaTimeoutError,
  IdeaValidationError,
} from '../../generated/v0.1.6/client';
import { type Handlers, type RequestContext, ServerSession } from '../../generated/v0.1.6/server';
import { TOPICS } from '../../generated/v0.1.6/topics';
import { type RunningWebSocketServer, startWebSocketServer } from '../../runtime/ws-server';
import { sleep, until } from '../support/wait';

const SPEC = join(import.meta.dirname, '..', '..', 'spec', 'v0.1.6');
const index = JSON.parse(readFileSync(join(SPEC, 'index.json'), 'utf8')) as {
  topics: { topic: string; method: string; params: string; result: string }[];
};
const examples = (path: string) =>
  (JSON.parse(readFileSync(join(SPEC, path), 'utf8')) as { examples: unknown[] }).examples;

const TOKEN = '0b8f3c4e-2a1d-4f6e-9b7c-5d4e3f2a1b0c';
const calls: { topic: string; params: unknown }[] = [];
/** Per-test behaviour override of editFind (delays, hangs, bad results). */
let findOverride: ((params: { pattern: string }, ctx: RequestContext) => Promise<unknown>) | undefined;
const aborted: string[] = [];

const handlers = Object.fromEntries(
  index.topics.map((t) => [
    t.method,
    async (params: Record<string, unknown>, ctx: RequestContext) => {
      calls.push({ topic: ctx.topic, params });
      ctx.signal.addEventListener('abort', () => aborted.push(ctx.requestId));
      if (t.method === 'editFind' && findOverride) return findOverride(params as { pattern: string }, ctx);
      return examples(t.result)[0];
    },
  ]),
) as unknown as Handlers;

let server: RunningWebSocketServer;
let url: string;
const clients: IdeaClient[] = [];

beforeAll(async () => {
  server = await startWebSocketServer({
    host: '127.0.0.1',
    port: 0,
    createSession: (io) =>
      new ServerSession({
        handlers,
        auth: { required: true, token: TOKEN },
        workspaces: () => ['/home/user/project'],
        send: io.send,
        close: io.close,
        validateResults: true,
      }),
  });
  url = `ws://127.0.0.1:${server.port}`;
});
afterAll(async () => {
  await Promise.all(clients.map((c) => c.close()));
  await server.close();
});

async function client(opts: { validate?: boolean; timeoutMs?: number } = {}) {
  const c = await connect({ url, token: TOKEN, validate: true, ...opts });
  clients.push(c);
  return c;
}

describe('client ↔ ServerSession over ws', () => {
  it('handshakes and exposes version, capabilities and workspaces', async () => {
    const c = await client();
    expect(c.handshake).toEqual({
      type: 'handshake',
      version: '0.1.6',
      authRequired: true,
      capabilities: TOPICS.map((t) => t.topic),
      workspaces: ['/home/user/project'],
    });
    expect(c.supports('/app/vscode/localhistory/list')).toBe(true);
    expect(c.supports('/app/vscode/nope')).toBe(false);
  });

  it.each(index.topics.map((t) => [t.topic, t] as const))(
    'round trip %s through its typed method',
    async (_topic, t) => {
      const c = await client();
      for (const params of examples(t.params)) {
        calls.length = 0;
        const method = (c as unknown as Record<string, (p: unknown) => Promise<unknown>>)[t.method]!.bind(c);
        expect(await method(params)).toEqual(examples(t.result)[0]);
        expect(calls).toHaveLength(1);
        expect(calls[0]!.topic).toBe(t.topic);
        // The handler sees the wire params plus the schema defaults.
        expect(calls[0]!.params).toMatchObject(params as object);
      }
    },
  );

  it('fills defaults before the handler runs (typed call)', async () => {
    const c = await client();
    calls.length = 0;
    const result = await c.editFind({ pattern: 'x' });
    expect(result.totalCount).toBeGreaterThanOrEqual(0);
    expect(calls[0]!.params).toEqual({ pattern: 'x', include: '**/*', isRegex: false, isCaseSensitive: false });
    calls.length = 0;
    await c.diagList();
    expect(calls[0]!.params).toEqual({ severity: 'all' });
  });

  it('rejects protocol errors with IdeaProtocolError carrying code, topic and requestId', async () => {
    const c = await client();
    const err = await c
      .request('/app/vscode/nav/definition', { filePath: 'a.ts', line: -1, character: 0 })
      .catch((e: unknown) => e);
    expect(err).toBeInstanceOf(IdeaProtocolError);
    expect(err).toMatchObject({
      code: 'INVALID_REQUEST',
      message: 'params.line must be >= 0',
      topic: '/app/vscode/nav/definition',
    });
    expect((err as IdeaProtocolError).requestId).toMatch(/^[0-9a-f-]{36}$/);
    const unknown = await c
      .request('/app/vscode/nope' as '/app/vscode/edit/find', { pattern: 'x' })
      .catch((e: unknown) => e);
    expect(unknown).toMatchObject({ code: 'UNKNOWN_TOPIC' });
  });

  it('answers concurrent requests as they complete, matched by requestId', async () => {
    const c = await client();
    findOverride = async (p) => {
      await new Promise((r) => setTimeout(r, p.pattern === 'slow' ? 150 : 10));
      return { matches: [], totalCount: p.pattern.length };
    };
    try {
      const order: string[] = [];
      const slow = c.editFind({ pattern: 'slow' }).then((r) => (order.push('slow'), r));
      const many = Array.from({ length: 20 }, (_, i) =>
        c.editFind({ pattern: 'f'.repeat(i + 1) }).then((r) => (order.push('fast'), r)),
      );
      expect(c.inFlight).toBe(21);
      const results = await Promise.all([slow, ...many]);
      expect(results.map((r) => r.totalCount)).toEqual([4, ...Array.from({ length: 20 }, (_, i) => i + 1)]);
      expect(order.at(-1)).toBe('slow');
    } finally {
      findOverride = undefined;
    }
  });

  it('times out per request, and aborts by signal', async () => {
    const c = await client();
    findOverride = () => new Promise(() => undefined);
    try {
      await expect(c.editFind({ pattern: 'hang' }, { timeoutMs: 50 })).rejects.toBeInstanceOf(IdeaTimeoutError);
      const ac = new AbortController();
      const pending = c.editFind({ pattern: 'hang' }, { signal: ac.signal });
      ac.abort(new Error('user gave up'));
      await expect(pending).rejects.toThrow('user gave up');
      const already = new AbortController();
      already.abort(new Error('before sending'));
      await expect(c.editFind({ pattern: 'x' }, { signal: already.signal })).rejects.toThrow('before sending');
      expect(c.inFlight).toBe(0);
    } finally {
      findOverride = undefined;
    }
  });

  it('times out each request at its own deadline with one shared timer, whatever the order of the deadlines', async () => {
    const c = await client();
    // "hang" never answers; any other pattern answers after 10 ms.
    findOverride = async (p) => {
      if (p.pattern.startsWith('hang')) return new Promise(() => undefined);
      await sleep(10); // answered while the shared timer is armed, well before any deadline
      return { matches: [], totalCount: 1 };
    };
    try {
      const t0 = performance.now();
      const settledAt = (p: Promise<unknown>) =>
        p.then(
          () => ({ ok: true, ms: performance.now() - t0 }),
          (e: unknown) => ({ ok: false, timeout: e instanceof IdeaTimeoutError, ms: performance.now() - t0 }),
        );
      // A long deadline first, then a shorter one (the timer must be re-armed earlier), then one in
      // between, and a request that is answered before any deadline.
      const long = settledAt(c.editFind({ pattern: 'hang-long' }, { timeoutMs: 400 }));
      const short = settledAt(c.editFind({ pattern: 'hang-short' }, { timeoutMs: 60 }));
      const mid = settledAt(c.editFind({ pattern: 'hang-mid' }, { timeoutMs: 200 }));
      const answered = settledAt(c.editFind({ pattern: 'x' }, { timeoutMs: 100 }));
      const [l, s, m, a] = await Promise.all([long, short, mid, answered]);
      expect(a).toMatchObject({ ok: true });
      expect(s).toMatchObject({ ok: false, timeout: true });
      expect(m).toMatchObject({ ok: false, timeout: true });
      expect(l).toMatchObject({ ok: false, timeout: true });
      // Each at (not before, nor long after) its own deadline.
      expect(s.ms).toBeGreaterThanOrEqual(59);
      expect(s.ms).toBeLessThan(190);
      expect(m.ms).toBeGreaterThanOrEqual(199);
      expect(m.ms).toBeLessThan(390);
      expect(l.ms).toBeGreaterThanOrEqual(399);
      expect(c.inFlight).toBe(0);
    } finally {
      findOverride = undefined;
    }
  });

  it('rejects pending requests with IdeaClosedError on close and aborts the server-side signal', async () => {
    const c = await client();
    let reached = false;
    findOverride = () => ((reached = true), new Promise(() => undefined));
    try {
      aborted.length = 0;
      const pending = c.editFind({ pattern: 'hang' });
      await until('the request to reach its handler', () => reached);
      await c.close();
      await expect(pending).rejects.toBeInstanceOf(IdeaClosedError);
      await expect(c.editFind({ pattern: 'x' })).rejects.toBeInstanceOf(IdeaClosedError);
      await until('the server to abort the handler', () => aborted.length > 0);
      expect(aborted).toHaveLength(1);
    } finally {
      findOverride = undefined;
    }
  });

  it('validate: true rejects a non-conforming reply with IdeaValidationError; raw frames via sendRaw/onFrame', async () => {
    const c = await client();
    const frames: string[] = [];
    const off = c.onFrame((f) => frames.push(f));
    c.sendRaw('{not json');
    await until("the server's answer", () => frames.length > 0);
    expect(JSON.parse(frames[0]!)).toEqual({
      topic: '',
      requestId: '',
      error: { code: 'PARSE_ERROR', message: 'frame is not valid JSON' },
    });
    off();
    // A server that answers a result missing a field: the server-side validateResults is what the
    // session test covers; here a stand-alone server without it shows the client-side check.
    const lax = await startWebSocketServer({
      host: '127.0.0.1',
      port: 0,
      createSession: (io) =>
        new ServerSession({
          handlers: { editFind: async () => ({ matches: [] }) as never },
          auth: { required: false },
          workspaces: () => [],
          send: io.send,
          close: io.close,
        }),
    });
    try {
      const strict = await connect({ url: `ws://127.0.0.1:${lax.port}`, validate: true });
      const err = await strict.editFind({ pattern: 'x' }).catch((e: unknown) => e);
      expect(err).toBeInstanceOf(IdeaValidationError);
      expect((err as Error).message).toContain('result.totalCount is required');
      await strict.close();
      const trusting = await connect({ url: `ws://127.0.0.1:${lax.port}` });
      expect(await trusting.editFind({ pattern: 'x' })).toEqual({ matches: [] });
      await trusting.close();
    } finally {
      await lax.close();
    }
  });

  it('rejects a wrong token with UNAUTHORIZED and the server closes with 1008', async () => {
    const err = await connect({ url, token: 'wrong' }).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(IdeaProtocolError);
    expect(err).toMatchObject({ code: 'UNAUTHORIZED' });
  });

  it('rejects connecting to a closed port with IdeaClosedError', async () => {
    const probe = await startWebSocketServer({
      host: '127.0.0.1',
      port: 0,
      createSession: () => ({ onFrame() {}, onClose() {} }),
    });
    const port = probe.port;
    await probe.close();
    await expect(connect({ url: `ws://127.0.0.1:${port}`, timeoutMs: 2000 })).rejects.toBeInstanceOf(IdeaClosedError);
  });

  it('a v0.1.6 client with validation talks to an older (v0.1.0) server', async () => {
    const old = await startWebSocketServer({
      host: '127.0.0.1',
      port: 0,
      createSession: (io) =>
        new ServerSessionV010({
          handlers: { editFind: async () => ({ matches: [], totalCount: 0 }) },
          workspaces: () => ['/home/user/project'],
          send: io.send,
          close: io.close,
        }),
    });
    try {
      const c = await connect({ url: `ws://127.0.0.1:${old.port}`, token: TOKEN, validate: true });
      expect(c.handshake.version).toBe('0.1.0');
      expect('authRequired' in c.handshake).toBe(false);
      expect(c.supports('/app/vscode/edit/find')).toBe(true);
      expect(c.supports('/app/vscode/localhistory/list')).toBe(false);
      expect(await c.editFind({ pattern: 'x' })).toEqual({ matches: [], totalCount: 0 });
      await expect(c.localhistoryList({ filePath: 'a.ts' })).rejects.toMatchObject({ code: 'UNKNOWN_TOPIC' });
      await c.close();
    } finally {
      await old.close();
    }
  });

  it('an older (v0.1.0) client talks to the v0.1.6 server', async () => {
    const old = await connectV010({ url, token: TOKEN, validate: true });
    try {
      expect(old.handshake.version).toBe('0.1.6');
      expect(old.supports('/app/vscode/edit/find')).toBe(true);
      const r = await old.editFind({ pattern: 'x' });
      expect(Array.isArray(r.matches)).toBe(true);
    } finally {
      await old.close();
    }
  });
});
