// ServerSession (runtime/server-session.ts, bound to v0.1.6 by generated/v0.1.6/server.ts): every path of the connection state machine, driven
// frame by frame with recording send/close callbacks.
import { describe, expect, it, vi } from 'vitest';
import {
  DEFAULT_MAX_IN_FLIGHT,
  type Handlers,
  ProtocolError,
  ServerSession,
  type ServerSessionOptions,
} from '../../generated/v0.1.6/server';
import { tick } from '../support/wait';

const TOKEN = '3f2b8c1e-5d4a-4e7b-9c1a-2b3c4d5e6f70';
const FIND = '/app/vscode/edit/find';
const DEF = '/app/vscode/nav/definition';

interface Recorder {
  session: ServerSession;
  sent: Record<string, unknown>[];
  closes: { code: number; reason: string }[];
  /**
   * Resolves once the answers of handlers that have settled are sent: one turn of the event loop (the
   * session sends from promise reactions, all run before it).
   */
  settle(): Promise<void>;
}

function makeSession(handlers: Partial<Handlers>, extra: Partial<ServerSessionOptions> = {}): Recorder {
  const sent: Record<string, unknown>[] = [];
  const closes: { code: number; reason: string }[] = [];
  const session = new ServerSession({
    handlers,
    auth: { required: true, token: TOKEN },
    workspaces: () => ['/work/ws'],
    send: (f) => sent.push(JSON.parse(f) as Record<string, unknown>),
    close: (code, reason) => closes.push({ code, reason }),
    ...extra,
  });
  return { session, sent, closes, settle: tick };
}

/** null: a handshake without a token. */
const hello = (token: string | null = TOKEN) =>
  JSON.stringify(token === null ? { type: 'handshake' } : { type: 'handshake', token });

function opened(handlers: Partial<Handlers>, extra: Partial<ServerSessionOptions> = {}): Recorder {
  const r = makeSession(handlers, extra);
  r.session.onFrame(hello());
  expect(r.sent.shift()).toMatchObject({ type: 'handshake', version: '0.1.6' });
  return r;
}

const findResult = { matches: [{ filePath: '/work/ws/a.ts', line: 0, character: 1, lineText: 'x' }], totalCount: 1 };

describe('handshake', () => {
  it('answers a valid handshake with version, authRequired, capabilities (topics with a handler) and workspaces', () => {
    const r = makeSession({ editFind: async () => findResult });
    r.session.onFrame(hello());
    expect(r.sent).toEqual([
      { type: 'handshake', version: '0.1.6', authRequired: true, capabilities: [FIND], workspaces: ['/work/ws'] },
    ]);
    expect(r.closes).toEqual([]);
    expect(r.session.state).toBe('open');
  });

  it.each([
    ['not JSON', '{nope'],
    ['an array', '[1]'],
    ['null', 'null'],
    ['a request', JSON.stringify({ topic: FIND, requestId: 'r1', params: { pattern: 'x' } })],
    ['a wrong type', JSON.stringify({ type: 'hello' })],
  ])('refuses a first frame that is %s: handshake failure INVALID_REQUEST, close 1002', (_what, frame) => {
    const r = makeSession({ editFind: async () => findResult });
    r.session.onFrame(frame);
    expect(r.sent).toHaveLength(1);
    expect(r.sent[0]).toMatchObject({ type: 'handshake', error: { code: 'INVALID_REQUEST' } });
    expect(r.closes).toHaveLength(1);
    expect(r.closes[0]!.code).toBe(1002);
    expect(r.session.state).toBe('closed');
  });

  it('refuses a schema-invalid handshake (token not a string) naming the field', () => {
    const r = makeSession({});
    r.session.onFrame(JSON.stringify({ type: 'handshake', token: 42 }));
    expect(r.sent[0]).toMatchObject({ type: 'handshake', error: { code: 'INVALID_REQUEST' } });
    expect(String((r.sent[0]!.error as { message: string }).message)).toContain('token must be string');
    expect(r.closes[0]!.code).toBe(1002);
  });

  it.each([
    ['missing', null, 'a token is required'],
    ['empty', '', 'a token is required'],
    ['wrong', 'not-the-token', 'invalid token'],
    ['a prefix of the right one', TOKEN.slice(0, 10), 'invalid token'],
  ])('refuses a %s token with UNAUTHORIZED and close 1008', (_what, token, message) => {
    const r = makeSession({ editFind: async () => findResult });
    r.session.onFrame(hello(token));
    expect(r.sent).toEqual([{ type: 'handshake', error: { code: 'UNAUTHORIZED', message } }]);
    expect(r.closes).toEqual([{ code: 1008, reason: message }]);
  });

  it('refuses everyone when auth is required but the server has no token', () => {
    const r = makeSession({}, { auth: { required: true } });
    r.session.onFrame(hello('anything'));
    expect(r.sent[0]).toMatchObject({ error: { code: 'UNAUTHORIZED' } });
    expect(r.closes[0]!.code).toBe(1008);
  });

  it('ignores the token when auth is not required', () => {
    const r = makeSession({}, { auth: { required: false, token: TOKEN } });
    r.session.onFrame(hello('wrong'));
    expect(r.sent[0]).toMatchObject({ type: 'handshake', authRequired: false });
    expect(r.closes).toEqual([]);
  });

  it('never serves frames after a refused handshake', async () => {
    let calls = 0;
    const r = makeSession({ editFind: async () => (calls++, findResult) });
    r.session.onFrame(hello('wrong'));
    r.session.onFrame(hello());
    r.session.onFrame(JSON.stringify({ topic: FIND, requestId: 'r1', params: { pattern: 'x' } }));
    await r.settle();
    expect(r.sent).toHaveLength(1);
    expect(calls).toBe(0);
  });

  it('answers a second handshake with INVALID_REQUEST and stays open', async () => {
    const r = opened({ editFind: async () => findResult });
    r.session.onFrame(hello());
    expect(r.sent).toEqual([
      { topic: '', requestId: '', error: { code: 'INVALID_REQUEST', message: 'handshake already completed' } },
    ]);
    r.session.onFrame(JSON.stringify({ topic: FIND, requestId: 'r2', params: { pattern: 'x' } }));
    await r.settle();
    expect(r.sent[1]).toEqual({ topic: FIND, requestId: 'r2', result: findResult });
    expect(r.closes).toEqual([]);
  });

  // clause H8: the handshake deadline's INVALID_REQUEST, and the client cap through admit (next tests).
  it('handshakeTimeoutMs refuses a silent connection, and does not fire once handshaken', () => {
    vi.useFakeTimers();
    try {
      const silent = makeSession({}, { handshakeTimeoutMs: 1000 });
      const polite = makeSession({}, { handshakeTimeoutMs: 1000 });
      polite.session.onFrame(hello());
      vi.advanceTimersByTime(999);
      expect(silent.sent).toEqual([]);
      vi.advanceTimersByTime(1);
      expect(silent.sent).toEqual([
        { type: 'handshake', error: { code: 'INVALID_REQUEST', message: 'no handshake within 1000 ms' } },
      ]);
      expect(silent.closes).toEqual([{ code: 1002, reason: 'no handshake within 1000 ms' }]);
      expect(polite.sent).toHaveLength(1);
      expect(polite.closes).toEqual([]);
      expect(polite.session.state).toBe('open');
    } finally {
      vi.useRealTimers();
    }
  });

  it('reads workspaces at handshake time and survives a throwing workspaces callback', () => {
    const r = makeSession(
      {},
      {
        workspaces: () => {
          throw new Error('boom');
        },
      },
    );
    r.session.onFrame(hello());
    expect(r.sent[0]).toMatchObject({ type: 'handshake', workspaces: [] });
  });

  it('asks admit for a slot only for a handshake that passed its checks, and refuses it when there is none', () => {
    let asked = 0;
    const wrongToken = makeSession(
      {},
      {
        admit: () => {
          asked++;
          return 'full';
        },
      },
    );
    wrongToken.session.onFrame(hello('nope'));
    expect(wrongToken.sent[0]).toMatchObject({ error: { code: 'UNAUTHORIZED' } });
    expect(asked).toBe(0);

    const full = makeSession(
      { editFind: async () => findResult },
      {
        admit: () => {
          asked++;
          return 'too many clients connected (limit 64); try again later';
        },
      },
    );
    full.session.onFrame(hello());
    expect(asked).toBe(1);
    expect(full.sent).toEqual([
      {
        type: 'handshake',
        error: { code: 'HANDLER_ERROR', message: 'too many clients connected (limit 64); try again later' },
      },
    ]);
    expect(full.closes).toEqual([{ code: 1013, reason: 'too many clients connected (limit 64); try again later' }]);
    expect(full.session.state).toBe('closed');
    full.session.onFrame(JSON.stringify({ topic: FIND, requestId: 'r1', params: { pattern: 'x' } }));
    expect(full.sent).toHaveLength(1);

    const room = makeSession({}, { admit: () => undefined });
    room.session.onFrame(hello());
    expect(room.sent[0]).toMatchObject({ type: 'handshake', version: '0.1.6' });
    expect(room.session.state).toBe('open');
  });

  it('refuses the handshake (never hangs) when admit throws', () => {
    const r = makeSession(
      {},
      {
        admit: () => {
          throw new Error('boom');
        },
      },
    );
    r.session.onFrame(hello());
    expect(r.sent[0]).toMatchObject({ type: 'handshake', error: { code: 'HANDLER_ERROR' } });
    expect(r.closes[0]!.code).toBe(1013);
  });
});

describe('requests', () => {
  it("a handler may listen for its request's abort many times at once without Node's leak warning", async () => {
    // diag/list over 12 files waits on 12 language server answers under one request signal.
    const warnings: string[] = [];
    const onWarning = (w: Error) => void warnings.push(w.name);
    process.on('warning', onWarning);
    try {
      const r = opened({
        editFind: async (_p, ctx) => {
          const waits = Array.from({ length: 50 }, () => {
            const ac = () => undefined;
            ctx.signal.addEventListener('abort', ac);
            return () => ctx.signal.removeEventListener('abort', ac);
          });
          await new Promise((done) => setImmediate(done));
          for (const stop of waits) stop();
          return findResult;
        },
      });
      r.session.onFrame(JSON.stringify({ topic: FIND, requestId: 'r1', params: { pattern: 'x' } }));
      await r.settle();
      await new Promise((done) => setImmediate(done)); // process warnings are emitted on the next tick
      expect(r.sent).toEqual([{ topic: FIND, requestId: 'r1', result: findResult }]);
      expect(warnings).toEqual([]);
    } finally {
      process.off('warning', onWarning);
    }
  });

  it.each([
    ['not JSON', '{', 'frame is not valid JSON'],
    ['an array', '[]', 'frame is not a JSON object'],
    ['a number', '42', 'frame is not a JSON object'],
    ['null', 'null', 'frame is not a JSON object'],
    ['a string', '"x"', 'frame is not a JSON object'],
  ])('PARSE_ERROR with empty topic/requestId for a frame that is %s', (_w, frame, message) => {
    const r = opened({});
    r.session.onFrame(frame);
    expect(r.sent).toEqual([{ topic: '', requestId: '', error: { code: 'PARSE_ERROR', message } }]);
    expect(r.session.state).toBe('open');
  });

  it.each([
    ['topic missing', { requestId: 'r1' }, '', 'r1', 'topic is required'],
    ['requestId missing', { topic: FIND }, FIND, '', 'requestId is required'],
    ['topic not a string', { topic: 7, requestId: 'r1' }, '', 'r1', 'topic must be string'],
    ['requestId not a string', { topic: FIND, requestId: 7 }, FIND, '', 'requestId must be string'],
    ['params not an object', { topic: FIND, requestId: 'r1', params: [1] }, FIND, 'r1', 'params must be object'],
  ])('INVALID_REQUEST when %s, echoing the string fields', (_w, frame, topic, requestId, message) => {
    const r = opened({ editFind: async () => findResult });
    r.session.onFrame(JSON.stringify(frame));
    expect(r.sent).toEqual([{ topic, requestId, error: { code: 'INVALID_REQUEST', message } }]);
  });

  it.each([
    ['a required param missing', {}, 'params.pattern is required'],
    ['a param of the wrong type', { pattern: 'x', isRegex: 'yes' }, 'params.isRegex must be boolean'],
  ])('INVALID_REQUEST naming the field for %s', (_w, params, message) => {
    const r = opened({ editFind: async () => findResult });
    r.session.onFrame(JSON.stringify({ topic: FIND, requestId: 'r1', params }));
    expect(r.sent).toEqual([{ topic: FIND, requestId: 'r1', error: { code: 'INVALID_REQUEST', message } }]);
  });

  it('names integer and range errors (params.line)', () => {
    const r = opened({ navDefinition: async () => ({ locations: [] }) });
    r.session.onFrame(
      JSON.stringify({ topic: DEF, requestId: 'a', params: { filePath: 'a.ts', line: 1.5, character: 0 } }),
    );
    r.session.onFrame(
      JSON.stringify({ topic: DEF, requestId: 'b', params: { filePath: 'a.ts', line: -1, character: 0 } }),
    );
    expect((r.sent[0]!.error as { message: string }).message).toBe('params.line must be integer');
    expect((r.sent[1]!.error as { message: string }).message).toBe('params.line must be >= 0');
  });

  it('names the alternatives of an at-least-one rule (localhistory/diff fromId/toId)', () => {
    const r = opened({ localhistoryDiff: async () => ({ diff: '', fromLabel: 'current', toLabel: 'current' }) });
    r.session.onFrame(
      JSON.stringify({ topic: '/app/vscode/localhistory/diff', requestId: 'a', params: { filePath: 'a.ts' } }),
    );
    expect((r.sent[0]!.error as { message: string }).message).toBe('params.fromId or params.toId is required');
  });

  it('names the accepted types of a union (diag/list filePath: string | string[])', () => {
    const r = opened({ diagList: async () => ({ diagnostics: [], totalCount: 0 }) });
    r.session.onFrame(JSON.stringify({ topic: '/app/vscode/diag/list', requestId: 'a', params: { filePath: 3 } }));
    r.session.onFrame(JSON.stringify({ topic: '/app/vscode/diag/list', requestId: 'b', params: { filePath: [''] } }));
    r.session.onFrame(
      JSON.stringify({ topic: '/app/vscode/diag/list', requestId: 'c', params: { severity: 'fatal' } }),
    );
    const messages = r.sent.map((f) => (f.error as { message: string }).message);
    expect(messages[0]).toBe('params.filePath must be string or array');
    expect(messages[1]).toMatch(/^params\.filePath\[0\] must NOT have fewer than 1 characters$/);
    expect(messages[2]).toBe('params.severity must be one of "error", "warning", "information", "hint", "all"');
  });

  it('accepts unknown params fields (forward compatibility)', async () => {
    const r = opened({ editFind: async () => findResult });
    r.session.onFrame(JSON.stringify({ topic: FIND, requestId: 'r1', params: { pattern: 'x', future: 1 } }));
    await r.settle();
    expect(r.sent).toEqual([{ topic: FIND, requestId: 'r1', result: findResult }]);
  });

  it.each([['/app/vscode/nope'], ['__proto__'], ['constructor'], ['toString']])('UNKNOWN_TOPIC for %s', (topic) => {
    const r = opened({ editFind: async () => findResult });
    r.session.onFrame(JSON.stringify({ topic, requestId: 'r1', params: {} }));
    expect(r.sent).toEqual([
      { topic, requestId: 'r1', error: { code: 'UNKNOWN_TOPIC', message: `unknown topic: ${topic}` } },
    ]);
  });

  it('UNKNOWN_TOPIC for a topic of the protocol that has no handler, which is also not advertised', () => {
    const r = makeSession({ editFind: async () => findResult });
    r.session.onFrame(hello());
    expect(r.sent.shift()).toMatchObject({ capabilities: [FIND] });
    r.session.onFrame(
      JSON.stringify({ topic: DEF, requestId: 'r1', params: { filePath: 'a', line: 0, character: 0 } }),
    );
    expect(r.sent[0]).toMatchObject({ topic: DEF, requestId: 'r1', error: { code: 'UNKNOWN_TOPIC' } });
  });

  it('passes params with the schema defaults applied and leaves the wire object alone', async () => {
    const seen: unknown[] = [];
    const r = opened({
      editFind: async (params) => {
        seen.push(params);
        return findResult;
      },
    });
    r.session.onFrame(JSON.stringify({ topic: FIND, requestId: 'r1', params: { pattern: 'x', isRegex: true } }));
    r.session.onFrame(JSON.stringify({ topic: FIND, requestId: 'r2' }));
    await r.settle();
    expect(seen[0]).toEqual({ pattern: 'x', isRegex: true, include: '**/*', isCaseSensitive: false });
    // r2 has no params at all: params default to {} and then fail the required pattern.
    expect(r.sent.find((f) => f.requestId === 'r2')).toMatchObject({
      error: { code: 'INVALID_REQUEST', message: 'params.pattern is required' },
    });
  });

  it('HANDLER_ERROR for a thrown Error or non-Error, ProtocolError keeps its code', async () => {
    const errors: unknown[] = [];
    const r = opened(
      {
        editFind: async (p) => {
          if (p.pattern === 'a') throw new Error('disk on fire');
          if (p.pattern === 'b') throw 'a string';
          throw new ProtocolError('INVALID_REQUEST', 'path outside the workspace');
        },
      },
      { onHandlerError: (e) => errors.push(e) },
    );
    for (const [id, pattern] of [
      ['1', 'a'],
      ['2', 'b'],
      ['3', 'c'],
    ]) {
      r.session.onFrame(JSON.stringify({ topic: FIND, requestId: id, params: { pattern } }));
    }
    await r.settle();
    const byId = Object.fromEntries(r.sent.map((f) => [f.requestId, f.error]));
    expect(byId).toEqual({
      '1': { code: 'HANDLER_ERROR', message: 'disk on fire' },
      '2': { code: 'HANDLER_ERROR', message: 'a string' },
      '3': { code: 'INVALID_REQUEST', message: 'path outside the workspace' },
    });
    expect(errors).toHaveLength(2);
  });

  it('HANDLER_ERROR for a synchronous throw and for a missing result', async () => {
    const r = opened({
      editFind: ((p: { pattern: string }) => {
        if (p.pattern === 'sync') throw new Error('sync boom');
        return Promise.resolve(undefined);
      }) as unknown as Handlers['editFind'],
    });
    r.session.onFrame(JSON.stringify({ topic: FIND, requestId: '1', params: { pattern: 'sync' } }));
    r.session.onFrame(JSON.stringify({ topic: FIND, requestId: '2', params: { pattern: 'none' } }));
    await r.settle();
    expect(r.sent.find((f) => f.requestId === '1')).toMatchObject({
      error: { code: 'HANDLER_ERROR', message: 'sync boom' },
    });
    expect(r.sent.find((f) => f.requestId === '2')).toMatchObject({
      error: { code: 'HANDLER_ERROR', message: 'handler returned no result object' },
    });
  });

  it('validateResults turns a non-conforming result into HANDLER_ERROR naming the field', async () => {
    const bad = { matches: [{ filePath: '/w/a.ts', line: '0', character: 0, lineText: '' }], totalCount: 1 };
    const handlers = { editFind: async () => bad as unknown as typeof findResult };
    const strict = opened(handlers, { validateResults: true });
    const lax = opened(handlers);
    for (const r of [strict, lax])
      r.session.onFrame(JSON.stringify({ topic: FIND, requestId: '1', params: { pattern: 'x' } }));
    await strict.settle();
    expect(strict.sent[0]).toEqual({
      topic: FIND,
      requestId: '1',
      error: {
        code: 'HANDLER_ERROR',
        message: 'handler returned an invalid result: result.matches[0].line must be integer',
      },
    });
    expect(lax.sent[0]).toMatchObject({ result: bad });
  });

  it('runs requests concurrently and answers them as they complete', async () => {
    const release: Record<string, () => void> = {};
    const r = opened({
      editFind: (p) =>
        new Promise((resolve) => (release[p.pattern] = () => resolve({ ...findResult, totalCount: p.pattern.length }))),
    });
    r.session.onFrame(JSON.stringify({ topic: FIND, requestId: 'slow', params: { pattern: 'slow' } }));
    r.session.onFrame(JSON.stringify({ topic: FIND, requestId: 'fast', params: { pattern: 'f' } }));
    expect(r.session.pendingRequests).toBe(2);
    release.f!();
    await r.settle();
    release.slow!();
    await r.settle();
    expect(r.sent.map((f) => f.requestId)).toEqual(['fast', 'slow']);
    expect(r.session.pendingRequests).toBe(0);
  });

  it('on close: aborts ctx.signal, drops pending answers, ignores later frames', async () => {
    let signal: AbortSignal | undefined;
    let finish: (() => void) | undefined;
    const r = opened({
      editFind: (_p, ctx) => {
        signal = ctx.signal;
        expect(ctx).toMatchObject({ topic: FIND, requestId: '1' });
        return new Promise((resolve) => (finish = () => resolve(findResult)));
      },
    });
    r.session.onFrame(JSON.stringify({ topic: FIND, requestId: '1', params: { pattern: 'x' } }));
    expect(signal?.aborted).toBe(false);
    r.session.onClose();
    expect(signal?.aborted).toBe(true);
    finish!();
    r.session.onFrame('{');
    await r.settle();
    expect(r.sent).toEqual([]);
  });

  it('a handler reading ctx.signal only after the close gets an aborted signal', async () => {
    let finish: (() => void) | undefined;
    let ctxSeen: { signal: AbortSignal } | undefined;
    const r = opened({
      editFind: (_p, ctx) => {
        ctxSeen = ctx;
        return new Promise((resolve) => (finish = () => resolve(findResult)));
      },
    });
    r.session.onFrame(JSON.stringify({ topic: FIND, requestId: '1', params: { pattern: 'x' } }));
    r.session.onClose();
    expect(ctxSeen!.signal.aborted).toBe(true);
    expect(ctxSeen!.signal.reason).toMatchObject({ message: 'connection closed' });
    finish!();
    await r.settle();
    expect(r.sent).toEqual([]);
    expect(r.session.pendingRequests).toBe(0);
  });

  it('bounds the requests in flight: over maxInFlight a request is answered HANDLER_ERROR at once', async () => {
    const release: (() => void)[] = [];
    const handlers: Partial<Handlers> = {
      editFind: () => new Promise((resolve) => release.push(() => resolve(findResult))),
    };
    const r = opened(handlers, { maxInFlight: 3 });
    const send = (id: string) =>
      r.session.onFrame(JSON.stringify({ topic: FIND, requestId: id, params: { pattern: 'x' } }));
    for (const id of ['a', 'b', 'c', 'd', 'e']) send(id);
    // No handler has settled, yet d and e are answered right away and never reach the handler.
    expect(r.session.pendingRequests).toBe(3);
    expect(release).toHaveLength(3);
    const over = { code: 'HANDLER_ERROR', message: 'too many requests in flight (limit 3)' };
    expect(r.sent).toEqual([
      { topic: FIND, requestId: 'd', error: over },
      { topic: FIND, requestId: 'e', error: over },
    ]);
    // A settled request frees its slot.
    release.shift()!();
    await r.settle();
    expect(r.session.pendingRequests).toBe(2);
    send('f');
    expect(r.session.pendingRequests).toBe(3);
    for (const done of release.splice(0)) done();
    await r.settle();
    expect(r.sent.filter((f) => 'result' in f).map((f) => f.requestId)).toEqual(['a', 'b', 'c', 'f']);
    expect(r.session.pendingRequests).toBe(0);
  });

  it('has a generous default bound on requests in flight', () => {
    let started = 0;
    const r = opened({ editFind: () => (started++, new Promise(() => undefined)) });
    for (let i = 0; i < DEFAULT_MAX_IN_FLIGHT + 5; i++) {
      r.session.onFrame(JSON.stringify({ topic: FIND, requestId: String(i), params: { pattern: 'x' } }));
    }
    expect(DEFAULT_MAX_IN_FLIGHT).toBeGreaterThanOrEqual(1000);
    expect(started).toBe(DEFAULT_MAX_IN_FLIGHT);
    expect(r.sent).toHaveLength(5);
    expect(r.sent.every((f) => (f.error as { code?: string } | undefined)?.code === 'HANDLER_ERROR')).toBe(true);
    r.session.onClose();
  });

  it('never lets a throw escape onFrame, even from a throwing send', () => {
    const session = new ServerSession({
      handlers: {},
      auth: { required: false },
      workspaces: () => [],
      send: () => {
        throw new Error('socket gone');
      },
      close: () => {
        throw new Error('socket gone');
      },
    });
    expect(() => session.onFrame(hello())).not.toThrow();
    expect(() => session.onFrame('{')).not.toThrow();
    expect(() => session.onFrame('x'.repeat(100000))).not.toThrow();
  });
});
