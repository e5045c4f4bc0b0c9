// 10,000 schema-derived bad frames against the generated dispatcher (ServerSession, in-process): each
// gets the prescribed structured error (checked with the generated validators), the session keeps
// serving valid requests, the heap stays bounded and nothing escapes. Plus the handshake gate,
// duplicate requestIds, and the frame-size/encoding bounds of the real ws binding.

import { randomUUID } from 'node:crypto';
import { setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import * as wsModule from 'ws';
import { CLOSE_PROTOCOL_ERROR, CLOSE_UNAUTHORIZED } from '../../generated/v0.1.6/server';
import { until } from '../support/wait';
import { type BadFrame, generateBadFrames, validRequests } from './bad-frames';
import { flush, generatedValidator, type MemorySession, memorySession, spec, startTestServer, TOKEN } from './harness';
import { RawClient } from './raw-client';
import { marker } from './results';

const TOTAL = 10_000;
// ws's frame encoder (not in its type declarations): used to send bytes a well-behaved client never would.
const Sender = (wsModule as unknown as { Sender: { frame(data: Buffer, opts: object): Buffer[] } }).Sender;
const o = spec();
const frames = generateBadFrames(o);
const valid = validRequests(o);
const validateResponseError = generatedValidator('ResponseError');
const validateResponseSuccess = generatedValidator('ResponseSuccess');
const validateHandshakeFailure = generatedValidator('HandshakeFailure');
const validateHandshakeSuccess = generatedValidator('HandshakeSuccess');
const resultValidators = new Map(o.index.topics.map((t) => [t.topic, generatedValidator(`${t.typeName}Result`)]));

// Anything thrown or rejected outside the session's own handling fails the test that caused it.
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

function gcOrNull(): (() => void) | null {
  try {
    setFlagsFromString('--expose-gc');
    return runInNewContext('gc') as () => void;
  } catch {
    return null;
  }
}

function openSession(): MemorySession {
  const m = memorySession();
  m.session.onFrame(JSON.stringify({ type: 'handshake', token: TOKEN }));
  expect(validateHandshakeSuccess(JSON.parse(m.sent.shift()!))).toBe(true);
  return m;
}

/** Sends one frame and returns the single reply it produced (fails on none or several). */
async function exchange(m: MemorySession, text: string, what: string): Promise<any> {
  const before = m.sent.length;
  expect(() => m.session.onFrame(text)).not.toThrow();
  await flush();
  const got = m.sent.splice(before);
  if (got.length !== 1) throw new Error(`${what}: expected exactly one reply, got ${got.length}`);
  return JSON.parse(got[0]!);
}

function checkError(reply: any, f: BadFrame): void {
  const where = `${f.kind}: ${f.text.slice(0, 120)}`;
  expect(validateResponseError(reply), `${where}\n${JSON.stringify(reply).slice(0, 300)}`).toBe(true);
  expect(reply.error.code, where).toBe(f.code);
  expect(reply.topic, where).toBe(f.topic);
  expect(reply.requestId, where).toBe(f.requestId);
  expect(typeof reply.error.message === 'string' && reply.error.message.length > 0, where).toBe(true);
}

async function checkServes(m: MemorySession, i: number): Promise<void> {
  const v = valid[i % valid.length]!;
  const requestId = randomUUID();
  const reply = await exchange(m, JSON.stringify({ topic: v.topic, requestId, params: v.params }), `valid ${v.topic}`);
  expect(validateResponseSuccess(reply), JSON.stringify(reply).slice(0, 300)).toBe(true);
  expect(resultValidators.get(v.topic)!(reply.result)).toBe(true);
  expect([reply.topic, reply.requestId]).toEqual([v.topic, requestId]);
  if ('totalCount' in reply.result) expect(reply.result.totalCount).toBe(marker(v.params));
}

describe('bad frames generated from the schemas', () => {
  it('cover every category, every topic and every param of every topic', () => {
    const kinds = new Set(frames.map((f) => f.kind.split('.')[0]));
    expect([...kinds].sort()).toEqual(['envelope', 'frame', 'params', 'topic']);
    for (const t of o.index.topics) {
      const props = Object.keys((o.deref(o.schema(t.params), o.idOf(t.params)).schema as any).properties ?? {});
      const mine = frames.filter((f) => f.topic === t.topic && f.kind === 'params.wrong-type');
      for (const p of props) {
        expect(
          mine.some(
            (f) =>
              JSON.stringify(JSON.parse(f.text).params[p]) !==
              JSON.stringify((valid.find((v) => v.topic === t.topic)!.params as any)[p]),
          ),
          `${t.topic}: no wrong-type frame for params.${p}`,
        ).toBe(true);
      }
    }
    expect(new Set(frames.map((f) => f.code))).toEqual(new Set(['PARSE_ERROR', 'INVALID_REQUEST', 'UNKNOWN_TOPIC']));
  });

  it(`${TOTAL} bad frames: each gets the right structured error, the session keeps serving, the heap stays bounded`, async () => {
    const gc = gcOrNull();
    const m = openSession();
    let heapAtWarm = 0;
    const warm = 2_000;
    for (let i = 0; i < TOTAL; i++) {
      const f = frames[i % frames.length]!;
      checkError(await exchange(m, f.text, f.kind), f);
      await checkServes(m, i);
      if (i === warm - 1) {
        gc?.();
        heapAtWarm = process.memoryUsage().heapUsed;
      }
    }
    gc?.();
    const growth = process.memoryUsage().heapUsed - heapAtWarm;
    console.log(
      `[bad-input] ${TOTAL} bad + ${TOTAL} valid frames; heap growth after warm-up ${(growth / 2 ** 20).toFixed(2)} MiB (gc ${gc ? 'exposed' : 'not exposed'})`,
    );
    // 8,000 frames after warm-up: a leak of even 500 bytes a frame would exceed 4 MiB.
    expect(growth).toBeLessThan(gc ? 4 * 2 ** 20 : 64 * 2 ** 20);
    expect(m.session.pendingRequests).toBe(0);
    expect(m.session.state).toBe('open');
    expect(m.closes).toEqual([]);
    expect(escaped).toEqual([]);
  }, 120_000);

  it('a first frame that is not a valid handshake is refused and closes; later frames are ignored', async () => {
    const firsts: { text: string; code: string; close: number }[] = [
      ...frames.map((f) => ({ text: f.text, code: 'INVALID_REQUEST', close: CLOSE_PROTOCOL_ERROR })),
      ...valid.map((v) => ({
        text: JSON.stringify({ topic: v.topic, requestId: randomUUID(), params: v.params }),
        code: 'INVALID_REQUEST',
        close: CLOSE_PROTOCOL_ERROR,
      })),
      // Handshakes the handshake schema rejects: INVALID_REQUEST; valid ones with a bad token: UNAUTHORIZED.
      ...[
        { type: 'handshake', token: 123 },
        { type: 'handshake', token: null },
        { type: 'Handshake', token: TOKEN },
        { type: ['handshake'] },
      ].map((h) => ({ text: JSON.stringify(h), code: 'INVALID_REQUEST', close: CLOSE_PROTOCOL_ERROR })),
      ...[
        { type: 'handshake' },
        { type: 'handshake', token: '' },
        { type: 'handshake', token: TOKEN.toUpperCase() },
        { type: 'handshake', token: TOKEN.slice(0, -1) },
        { type: 'handshake', token: `${TOKEN} ` },
        { type: 'handshake', token: 'x'.repeat(100_000) },
      ].map((h) => ({ text: JSON.stringify(h), code: 'UNAUTHORIZED', close: CLOSE_UNAUTHORIZED })),
    ];
    const validateHandshakeRequest = o.validator(o.index.messages.handshakeRequest!);
    for (const f of firsts) {
      // The expected code follows the handshake schema (independent Ajv), not the list above alone.
      let parsed: unknown;
      try {
        parsed = JSON.parse(f.text);
      } catch {
        parsed = undefined;
      }
      expect(f.code === 'UNAUTHORIZED', f.text.slice(0, 100)).toBe(validateHandshakeRequest(parsed) === true);
      const m = memorySession();
      m.session.onFrame(f.text);
      await flush();
      expect(m.sent.length, f.text.slice(0, 100)).toBe(1);
      const reply = JSON.parse(m.sent[0]!);
      expect(validateHandshakeFailure(reply), JSON.stringify(reply)).toBe(true);
      expect(reply.error.code, f.text.slice(0, 100)).toBe(f.code);
      expect(m.closes.map((c) => c.code)).toEqual([f.close]);
      expect(m.session.state).toBe('closed');
      m.session.onFrame(JSON.stringify({ type: 'handshake', token: TOKEN }));
      m.session.onFrame(JSON.stringify({ topic: valid[0]!.topic, requestId: 'late', params: valid[0]!.params }));
      await flush();
      expect(m.sent.length).toBe(1);
    }
    expect(escaped).toEqual([]);
  });

  it('duplicate requestIds are each answered once; a second handshake is refused without closing', async () => {
    const m = openSession();
    const v = valid[0]!;
    const text = JSON.stringify({ topic: v.topic, requestId: 'dup', params: v.params });
    for (let i = 0; i < 100; i++) m.session.onFrame(text);
    m.session.onFrame(JSON.stringify({ topic: '/app/vscode/nope', requestId: 'dup', params: {} }));
    await flush();
    const replies = m.sent.splice(0).map((s) => JSON.parse(s));
    expect(replies.filter((r) => r.requestId === 'dup' && validateResponseSuccess(r)).length).toBe(100);
    expect(replies.filter((r) => r.requestId === 'dup' && r.error?.code === 'UNKNOWN_TOPIC').length).toBe(1);
    expect(replies.length).toBe(101);
    const again = await exchange(m, JSON.stringify({ type: 'handshake', token: TOKEN }), 'second handshake');
    expect(validateResponseError(again)).toBe(true);
    expect(again.error.code).toBe('INVALID_REQUEST');
    await checkServes(m, 0);
    expect(m.closes).toEqual([]);
  });
});

describe('frame bounds of the ws binding', () => {
  it('a frame over maxPayload closes that connection with 1009; other connections keep working', async () => {
    const srv = await startTestServer({ maxPayload: 64 * 1024 });
    try {
      const [a, b] = await Promise.all([RawClient.open(srv.url), RawClient.open(srv.url)]);
      for (const c of [a, b]) expect((await c.handshake(TOKEN)).version).toBe(o.index.version);
      a.send(
        JSON.stringify({
          topic: valid[0]!.topic,
          requestId: 'big',
          params: { ...(valid[0]!.params as object), pattern: 'p'.repeat(65 * 1024) },
        }),
      );
      expect((await a.closed).code).toBe(1009);
      b.send(JSON.stringify({ topic: valid[0]!.topic, requestId: 'after', params: valid[0]!.params }));
      expect((await b.next((f) => f.requestId === 'after')).result).toBeDefined();
      // Invalid UTF-8 in a text frame is a protocol violation: 1007, not a crash.
      const bad = Sender.frame(Buffer.from([0xff, 0xfe, 0xfd]), {
        fin: true,
        opcode: 1,
        mask: true,
        readOnly: false,
        rsv1: false,
      });
      (b.ws as any)._socket.write(Buffer.concat(bad));
      expect((await b.closed).code).toBe(1007);
      await until('the server to drop both', () => srv.server.clientCount === 0);
      const c = await RawClient.open(srv.url);
      expect((await c.handshake(TOKEN)).version).toBe(o.index.version);
      await c.close();
    } finally {
      await srv.close();
    }
    expect(escaped).toEqual([]);
  });
});
