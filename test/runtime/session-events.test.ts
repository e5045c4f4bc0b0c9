// Protocol 0.1.7's additions to the server session (runtime/server-session.ts, runtime/event-queue.ts,
// bound by generated/v0.1.7/server.ts): subscribing, fan-out with a bounded queue per subscriber,
// cancellation, and a 0.1.6 session answering the same frames exactly as before.
import { describe, expect, it } from 'vitest';
import { ServerSession as Session6 } from '../../generated/v0.1.6/server';
import {
  type DiagnosticsChangedData,
  type FilesChangedData,
  type Handlers,
  SERVER_PROTOCOL,
  ServerSession,
  type ServerSessionOptions,
} from '../../generated/v0.1.7/server';
import { MAX_QUEUED_EVENTS } from '../../runtime/event-queue';
import { ServerSession as Engine, ServerProtocol } from '../../runtime/server-session';
import { EventScope } from '../../server-core/events/scope';
import { CoreEventSources } from '../../server-core/events/sources';
import { sleep, tick, until } from '../support/wait';

const TOKEN = '3f2b8c1e-5d4a-4e7b-9c1a-2b3c4d5e6f70';
const FIND = '/app/vscode/edit/find';
const SUB = '/app/vscode/events/subscribe';
const UNSUB = '/app/vscode/events/unsubscribe';
const DIAG = '/app/vscode/diagnostics/changed';
const FILES = '/app/vscode/files/changed';
const EDITOR = '/app/vscode/editor/changed';
const ALL = [DIAG, FILES, EDITOR];
const hello = JSON.stringify({ type: 'handshake', token: TOKEN });
const scopeOf = (paths: string[]) =>
  new EventScope({
    paths: () => paths,
    searchSettings: () => ({ filesExclude: {}, searchExclude: {}, useIgnoreFiles: true }),
  });

type Frame = Record<string, unknown>;

interface Peer {
  session: ServerSession;
  sent: Frame[];
  /** Bytes "held unsent" by the fake socket: grows by `frameCost` per frame while the peer does not read. */
  held: { bytes: number; reading: boolean; frameCost: number };
}

function peer(handlers: Partial<Handlers> = {}, extra: Partial<ServerSessionOptions> = {}): Peer {
  const sent: Frame[] = [];
  const held = { bytes: 0, reading: true, frameCost: 0 };
  const session = new ServerSession({
    handlers,
    auth: { required: true, token: TOKEN },
    workspaces: () => ['/w'],
    events: ALL,
    send: (f) => {
      if (!held.reading) held.bytes += held.frameCost || f.length;
      sent.push(JSON.parse(f) as Frame);
    },
    close: () => undefined,
    bufferedAmount: () => held.bytes,
    ...extra,
  });
  session.onFrame(hello);
  expect(sent.shift()).toMatchObject({ type: 'handshake', version: '0.1.7' });
  return { session, sent, held };
}

const req = (topic: string, requestId: string, params: unknown = {}) => JSON.stringify({ topic, requestId, params });
const fileEvent = (path: string, change: 'created' | 'changed' | 'deleted' = 'changed'): FilesChangedData => ({
  changes: [{ filePath: path, change }],
});

// clause T34: the handshake of a version not yet released says draft: true; a released one has no draft.
describe('handshake (0.1.7)', () => {
  const base = { auth: { required: false }, workspaces: () => [], close: () => undefined };

  it('advertises the events and the subscribe topics only when it has events; released: no draft', () => {
    const sent: Frame[] = [];
    new ServerSession({ ...base, handlers: {}, events: [DIAG], send: (f) => sent.push(JSON.parse(f)) }).onFrame(hello);
    new ServerSession({ ...base, handlers: {}, send: (f) => sent.push(JSON.parse(f)) }).onFrame(hello);
    expect(SERVER_PROTOCOL.spec.draft).toBe(false); // 0.1.7 is in spec/releases.json
    expect(sent).toEqual([
      {
        type: 'handshake',
        version: '0.1.7',
        authRequired: false,
        capabilities: [SUB, UNSUB],
        events: [DIAG],
        workspaces: [],
      },
      { type: 'handshake', version: '0.1.7', authRequired: false, capabilities: [], events: [], workspaces: [] },
    ]);
  });

  it('says draft: true for a version codegen marked draft (not released yet)', () => {
    const sent: Frame[] = [];
    const draft = new ServerProtocol<Handlers>({ ...SERVER_PROTOCOL.spec, draft: true });
    new Engine<Handlers>(draft, { ...base, handlers: {}, send: (f) => sent.push(JSON.parse(f)) }).onFrame(hello);
    expect(sent).toEqual([
      {
        type: 'handshake',
        version: '0.1.7',
        draft: true,
        authRequired: false,
        capabilities: [],
        events: [],
        workspaces: [],
      },
    ]);
  });
});

describe('subscribe / unsubscribe', () => {
  it('pushes only subscribed events, never to a connection that did not subscribe', () => {
    const a = peer();
    const b = peer();
    a.session.onFrame(req(SUB, 's1', { events: [FILES] }));
    expect(a.sent.shift()).toEqual({ topic: SUB, requestId: 's1', result: { subscribed: [FILES] } });
    for (const p of [a, b]) {
      p.session.emitters.filesChanged(fileEvent('/w/a.ts'));
      p.session.emitters.editorChanged({ activeFile: null, selections: [], visibleFiles: [], dirtyFiles: [] });
    }
    expect(a.sent).toEqual([{ type: 'event', event: FILES, data: fileEvent('/w/a.ts') }]);
    expect(b.sent).toEqual([]);
    a.session.onFrame(req(UNSUB, 'u1', {}));
    expect(a.sent.pop()).toEqual({ topic: UNSUB, requestId: 'u1', result: { subscribed: [] } });
    a.session.emitters.filesChanged(fileEvent('/w/b.ts'));
    expect(a.sent).toHaveLength(1);
  });

  it('refuses an unknown or unadvertised event with INVALID_REQUEST naming it, subscribing to nothing', () => {
    const p = peer({}, { events: [DIAG] });
    p.session.onFrame(req(SUB, 's1', { events: [DIAG, '/app/vscode/nope/changed'] }));
    p.session.onFrame(req(SUB, 's2', { events: [FILES] }));
    expect(p.sent).toEqual([
      {
        topic: SUB,
        requestId: 's1',
        error: {
          code: 'INVALID_REQUEST',
          message: 'params.events: "/app/vscode/nope/changed" is not an event of protocol 0.1.7',
        },
      },
      {
        topic: SUB,
        requestId: 's2',
        error: { code: 'INVALID_REQUEST', message: `params.events: "${FILES}" is not advertised by this server` },
      },
    ]);
    expect(p.session.subscriptions).toEqual([]);
  });

  it('sends the initial state right after the answer when asked', () => {
    const initial: DiagnosticsChangedData = { files: [{ filePath: '/w/a.ts', added: [], removed: [], total: 0 }] };
    const p = peer({}, { initialEvent: (e) => (e === DIAG ? initial : undefined) });
    p.session.onFrame(req(SUB, 's1', { events: [DIAG, FILES], initial: true }));
    expect(p.sent).toEqual([
      { topic: SUB, requestId: 's1', result: { subscribed: [DIAG, FILES] } },
      { type: 'event', event: DIAG, data: initial },
    ]);
  });

  it('a server without events answers the subscribe topics UNKNOWN_TOPIC, as any unserved topic', () => {
    const p = peer({}, { events: [] });
    p.session.onFrame(req(SUB, 's1', { events: [DIAG] }));
    expect(p.sent[0]).toMatchObject({ error: { code: 'UNKNOWN_TOPIC' } });
  });
});

// clause H17: a subscriber that never reads has a bounded, coalescing queue and a dropped count.
describe('fan-out and back-pressure', () => {
  it('64 subscribers, one never reads: its queue stays bounded with a dropped count, the 63 get every event', async () => {
    const peers = Array.from({ length: 64 }, () => peer());
    for (const p of peers) p.session.onFrame(req(SUB, 's', { events: [FILES, EDITOR] }));
    for (const p of peers) p.sent.length = 0;
    const slow = peers[0]!;
    slow.held.reading = false;
    slow.held.frameCost = 16 * 1024; // as if each frame left 16 KiB in the socket's buffer
    const N = 1000;
    for (let i = 0; i < N; i++) {
      for (const p of peers) p.session.emitters.filesChanged(fileEvent(`/w/${i}.ts`));
    }
    for (const p of peers.slice(1)) expect(p.sent).toHaveLength(N);
    expect(slow.session.queuedEvents).toBe(MAX_QUEUED_EVENTS);
    const sentToSlow = slow.sent.length;
    expect(sentToSlow).toBe(65); // frames until more than 1 MiB is held, then queued
    // The reader catches up: the queue drains, one frame per event kind, with the count of what was lost.
    slow.held.bytes = 0;
    slow.held.reading = true;
    await until('the queue to drain', () => slow.session.queuedEvents === 0);
    const after = slow.sent.slice(sentToSlow);
    expect(after).toHaveLength(1);
    const frame = after[0] as { data: FilesChangedData; dropped: number };
    expect(frame.data.changes).toHaveLength(MAX_QUEUED_EVENTS);
    expect(frame.dropped).toBe(N - sentToSlow - MAX_QUEUED_EVENTS);
  });

  it('coalesces a queued file entry and a whole event instead of dropping them', async () => {
    const p = peer();
    p.session.onFrame(req(SUB, 's', { events: [FILES, EDITOR] }));
    p.sent.length = 0;
    p.held.bytes = 2 << 20; // the socket is full
    for (let i = 0; i < 1000; i++) {
      p.session.emitters.filesChanged(fileEvent('/w/a.ts', i % 2 ? 'changed' : 'created'));
      p.session.emitters.editorChanged({ activeFile: `/w/${i}.ts`, selections: [], visibleFiles: [], dirtyFiles: [] });
    }
    p.session.emitters.filesChanged(fileEvent('/w/a.ts', 'deleted'));
    expect(p.session.queuedEvents).toBe(2);
    p.held.bytes = 0;
    await until('the queue to drain', () => p.session.queuedEvents === 0);
    expect(p.sent).toEqual([
      { type: 'event', event: FILES, data: fileEvent('/w/a.ts', 'deleted') },
      {
        type: 'event',
        event: EDITOR,
        data: { activeFile: '/w/999.ts', selections: [], visibleFiles: [], dirtyFiles: [] },
      },
    ]);
  });

  it('merges queued diagnostics deltas of a file: the reader gets the net change since ITS last event', async () => {
    const d = (message: string) => ({
      line: 0,
      character: 0,
      endLine: 0,
      endCharacter: 1,
      severity: 'error' as const,
      message,
      source: 'ts',
      code: null,
    });
    const p = peer(
      {},
      { mergeEventEntry: (e, q, n) => new CoreEventSources(scopeOf([]), () => {}).mergeEntry(e, q, n) },
    );
    p.session.onFrame(req(SUB, 's', { events: [DIAG] }));
    p.sent.length = 0;
    p.held.bytes = 2 << 20; // the socket is full: both deltas wait in the queue
    const delta = (added: string[], removed: string[], total: number): DiagnosticsChangedData => ({
      files: [{ filePath: '/w/a.ts', added: added.map(d), removed: removed.map(d), total }],
    });
    p.session.emitters.diagnosticsChanged(delta(['A', 'B'], [], 2)); // {} → {A, B}
    p.session.emitters.diagnosticsChanged(delta(['C'], ['A'], 2)); // {A, B} → {B, C}
    expect(p.session.queuedEvents).toBe(1);
    p.held.bytes = 0;
    await until('the queue to drain', () => p.session.queuedEvents === 0);
    expect(p.sent).toEqual([{ type: 'event', event: DIAG, data: delta(['B', 'C'], [], 2) }]);
  });

  it('a merge hook that throws costs the delta, never the connection: the newer entry is kept', async () => {
    const p = peer(
      {},
      {
        mergeEventEntry: () => {
          throw new Error('faulty');
        },
      },
    );
    p.session.onFrame(req(SUB, 's', { events: [FILES] }));
    p.sent.length = 0;
    p.held.bytes = 2 << 20;
    p.session.emitters.filesChanged(fileEvent('/w/a.ts', 'created'));
    p.session.emitters.filesChanged(fileEvent('/w/a.ts', 'deleted'));
    p.held.bytes = 0;
    await until('the queue to drain', () => p.session.queuedEvents === 0);
    expect(p.sent).toEqual([{ type: 'event', event: FILES, data: fileEvent('/w/a.ts', 'deleted') }]);
    expect(p.session.state).toBe('open');
  });

  it('closing the socket ends its subscriptions and its queue', () => {
    const p = peer();
    p.session.onFrame(req(SUB, 's', { events: [FILES] }));
    p.held.bytes = 2 << 20;
    p.session.emitters.filesChanged(fileEvent('/w/a.ts'));
    expect(p.session.queuedEvents).toBe(1);
    p.session.onClose();
    expect(p.session.subscriptions).toEqual([]);
    expect(p.session.queuedEvents).toBe(0);
  });
});

describe('cancel', () => {
  it('answers CANCELLED at once, aborts ctx.signal, and drops the handler answer', async () => {
    let signal: AbortSignal | undefined;
    let finish!: () => void;
    const p = peer({
      editFind: async (_params, ctx) => {
        signal = ctx.signal;
        await new Promise<void>((r) => (finish = r));
        return { matches: [], totalCount: 0 };
      },
    });
    p.session.onFrame(req(FIND, 'r1', { pattern: 'x' }));
    await tick();
    p.session.onFrame(JSON.stringify({ type: 'cancel', requestId: 'r1' }));
    expect(p.sent).toEqual([
      { topic: FIND, requestId: 'r1', error: { code: 'CANCELLED', message: 'cancelled by the client' } },
    ]);
    expect(signal?.aborted).toBe(true);
    finish();
    await tick();
    expect(p.sent).toHaveLength(1);
    expect(p.session.pendingRequests).toBe(0);
  });

  it('a handler that reads ctx.signal after the cancel finds it aborted', async () => {
    let gate!: () => void;
    let aborted: boolean | undefined;
    const p = peer({
      editFind: async (_params, ctx) => {
        await new Promise<void>((r) => (gate = r));
        aborted = ctx.signal.aborted;
        return { matches: [], totalCount: 0 };
      },
    });
    p.session.onFrame(req(FIND, 'r1', { pattern: 'x' }));
    await tick();
    p.session.onFrame(JSON.stringify({ type: 'cancel', requestId: 'r1' }));
    gate();
    await tick();
    expect(aborted).toBe(true);
  });

  it('ignores a cancel for an unknown or answered request: no frame', async () => {
    const p = peer({ editFind: async () => ({ matches: [], totalCount: 0 }) });
    p.session.onFrame(req(FIND, 'r1', { pattern: 'x' }));
    await tick();
    expect(p.sent).toHaveLength(1);
    p.session.onFrame(JSON.stringify({ type: 'cancel', requestId: 'r1' }));
    p.session.onFrame(JSON.stringify({ type: 'cancel', requestId: 'never-sent' }));
    expect(p.sent).toHaveLength(1);
  });

  it('malformed cancels get INVALID_REQUEST with "" ids and the session goes on', async () => {
    const p = peer({ editFind: async () => ({ matches: [], totalCount: 0 }) });
    for (const bad of [{ type: 'cancel' }, { type: 'cancel', requestId: 7 }, { type: 'cancel', requestId: '' }]) {
      p.session.onFrame(JSON.stringify(bad));
    }
    expect(p.sent).toHaveLength(3);
    for (const f of p.sent) {
      expect(f).toMatchObject({ topic: '', requestId: '', error: { code: 'INVALID_REQUEST' } });
      expect((f.error as { message: string }).message).toMatch(/^invalid cancel: requestId/);
    }
    p.session.onFrame(req(FIND, 'r2', { pattern: 'x' }));
    await tick();
    expect(p.sent[3]).toMatchObject({ requestId: 'r2', result: { totalCount: 0 } });
    expect(p.session.state).toBe('open');
  });

  it('a cancel before the handshake is refused like any first frame that is not a handshake', () => {
    const sent: Frame[] = [];
    const closes: number[] = [];
    const s = new ServerSession({
      handlers: {},
      auth: { required: false },
      workspaces: () => [],
      send: (f) => sent.push(JSON.parse(f)),
      close: (c) => closes.push(c),
    });
    s.onFrame(JSON.stringify({ type: 'cancel', requestId: 'r1' }));
    expect(sent).toEqual([
      {
        type: 'handshake',
        error: { code: 'INVALID_REQUEST', message: 'first frame must be a handshake (no "type":"handshake")' },
      },
    ]);
    expect(closes).toEqual([1002]);
  });
});

describe('a 0.1.6 session is unchanged', () => {
  it('answers cancel-, subscribe- and event-shaped frames byte for byte as the 0.1.6 engine always did', async () => {
    const frames = [
      JSON.stringify({ type: 'cancel', requestId: 'r1' }),
      JSON.stringify({ type: 'cancel' }),
      req(SUB, 's1', { events: [DIAG] }),
      JSON.stringify({ type: 'event', event: DIAG, data: {} }),
      req(FIND, 'r2', { pattern: 'x' }),
    ];
    const sent: string[] = [];
    const s = new Session6({
      handlers: { editFind: async () => ({ matches: [], totalCount: 0 }) },
      auth: { required: true, token: TOKEN },
      workspaces: () => ['/w'],
      send: (f) => sent.push(f),
      close: () => undefined,
    });
    s.onFrame(hello);
    for (const f of frames) s.onFrame(f);
    await tick();
    expect(sent).toEqual([
      '{"type":"handshake","version":"0.1.6","authRequired":true,"capabilities":["/app/vscode/edit/find"],"workspaces":["/w"]}',
      '{"topic":"","requestId":"r1","error":{"code":"INVALID_REQUEST","message":"topic is required"}}',
      '{"topic":"","requestId":"","error":{"code":"INVALID_REQUEST","message":"topic is required"}}',
      '{"topic":"/app/vscode/events/subscribe","requestId":"s1","error":{"code":"UNKNOWN_TOPIC","message":"unknown topic: /app/vscode/events/subscribe"}}',
      '{"topic":"","requestId":"","error":{"code":"INVALID_REQUEST","message":"topic is required"}}',
      '{"topic":"/app/vscode/edit/find","requestId":"r2","result":{"matches":[],"totalCount":0}}',
    ]);
  });
});

/** A promise the test settles, for beforeSubscribe. */
function gate() {
  let open!: () => void;
  let fail!: (e: Error) => void;
  const promise = new Promise<void>((resolve, reject) => {
    open = resolve;
    fail = reject;
  });
  return { promise, open, fail };
}

// The beforeSubscribe hook (idea-server: the answer waits until its file watcher watches, clause T39):
// "subscribed" means from now on, and the session stays correct for frames that come meanwhile.
describe('beforeSubscribe', () => {
  it('the answer waits for the hook; other frames are answered meanwhile; no event before the answer, the initial state right after', async () => {
    const g = gate();
    const calls: (readonly string[])[] = [];
    const initial: DiagnosticsChangedData = { files: [] };
    const p = peer(
      { editFind: async () => ({ matches: [], totalCount: 0 }) },
      {
        beforeSubscribe: (events) => {
          calls.push(events);
          return events.includes(FILES) ? g.promise : undefined;
        },
        initialEvent: (e) => (e === DIAG ? initial : undefined),
      },
    );
    p.session.onFrame(req(SUB, 's1', { events: [FILES, DIAG], initial: true }));
    expect(p.session.subscriptions).toEqual([FILES, DIAG]); // in effect already (the watcher counts it)
    p.session.onFrame(req(FIND, 'f1', { pattern: 'x' }));
    p.session.emitters.filesChanged(fileEvent('/w/early.ts', 'created')); // before the answer: not sent
    await tick();
    expect(p.sent).toEqual([{ topic: FIND, requestId: 'f1', result: { matches: [], totalCount: 0 } }]);
    g.open();
    await tick();
    p.session.emitters.filesChanged(fileEvent('/w/late.ts', 'created'));
    expect(p.sent.slice(1)).toEqual([
      { topic: SUB, requestId: 's1', result: { subscribed: [FILES, DIAG] } },
      { type: 'event', event: DIAG, data: initial },
      { type: 'event', event: FILES, data: fileEvent('/w/late.ts', 'created') },
    ]);
    expect(calls).toEqual([[FILES, DIAG]]);
    // A hook with nothing to wait for (undefined): answered at once, as without a hook.
    p.session.onFrame(req(SUB, 's2', { events: [DIAG] }));
    expect(p.sent.at(-1)).toEqual({ topic: SUB, requestId: 's2', result: { subscribed: [FILES, DIAG] } });
  });

  it('a later unsubscribe wins: no event, no initial state, and the late answer lists what is subscribed then', async () => {
    const g = gate();
    const p = peer({}, { beforeSubscribe: () => g.promise, initialEvent: () => ({ files: [] }) });
    p.session.onFrame(req(SUB, 's1', { events: [DIAG], initial: true }));
    p.session.onFrame(req(UNSUB, 'u1', { events: [DIAG] }));
    expect(p.sent).toEqual([{ topic: UNSUB, requestId: 'u1', result: { subscribed: [] } }]);
    g.open();
    await tick();
    p.session.emitters.diagnosticsChanged({ files: [] });
    expect(p.sent.slice(1)).toEqual([{ topic: SUB, requestId: 's1', result: { subscribed: [] } }]);
  });

  it('a subscribe while another waits waits too, and events flow once both are answered', async () => {
    const [g1, g2] = [gate(), gate()];
    const waits = [g1.promise, g2.promise];
    const p = peer({}, { beforeSubscribe: () => waits.shift() });
    p.session.onFrame(req(SUB, 's1', { events: [FILES] }));
    p.session.onFrame(req(UNSUB, 'u1', {}));
    p.session.onFrame(req(SUB, 's2', { events: [FILES] })); // re-subscribed: held again
    g1.open();
    await tick();
    p.session.emitters.filesChanged(fileEvent('/w/a.ts'));
    expect(p.sent).toEqual([
      { topic: UNSUB, requestId: 'u1', result: { subscribed: [] } },
      { topic: SUB, requestId: 's1', result: { subscribed: [FILES] } },
    ]);
    g2.open();
    await tick();
    p.session.emitters.filesChanged(fileEvent('/w/b.ts'));
    expect(p.sent.slice(2)).toEqual([
      { topic: SUB, requestId: 's2', result: { subscribed: [FILES] } },
      { type: 'event', event: FILES, data: fileEvent('/w/b.ts') },
    ]);
  });

  it('a close during the wait sends nothing and throws nothing', async () => {
    const g = gate();
    const sent: string[] = [];
    let gone = false;
    const session = new ServerSession({
      handlers: {},
      auth: { required: false },
      workspaces: () => [],
      events: ALL,
      send: (f) => {
        if (gone) throw new Error('socket gone');
        sent.push(f);
      },
      close: () => undefined,
      beforeSubscribe: () => g.promise,
    });
    session.onFrame(hello);
    session.onFrame(req(SUB, 's1', { events: [FILES] }));
    session.onClose();
    gone = true;
    g.open();
    await tick();
    session.emitters.filesChanged(fileEvent('/w/a.ts'));
    expect(sent).toHaveLength(1); // the handshake only
    expect(session.subscriptions).toEqual([]);
  });

  it('a hook that rejects or throws is reported, and the subscribe answered all the same', async () => {
    const g = gate();
    const errors: string[] = [];
    let throwNow = false;
    const p = peer(
      {},
      {
        beforeSubscribe: () => {
          if (throwNow) throw new Error('thrown');
          return g.promise;
        },
        onHandlerError: (e, topic, id) => errors.push(`${topic} ${id}: ${(e as Error).message}`),
      },
    );
    p.session.onFrame(req(SUB, 's1', { events: [FILES] }));
    g.fail(new Error('rejected'));
    await tick();
    throwNow = true;
    p.session.onFrame(req(SUB, 's2', { events: [DIAG] }));
    p.session.emitters.filesChanged(fileEvent('/w/a.ts'));
    expect(p.sent).toEqual([
      { topic: SUB, requestId: 's1', result: { subscribed: [FILES] } },
      { topic: SUB, requestId: 's2', result: { subscribed: [FILES, DIAG] } },
      { type: 'event', event: FILES, data: fileEvent('/w/a.ts') },
    ]);
    expect(errors).toEqual([`${SUB} s1: rejected`, `${SUB} s2: thrown`]);
  });
});

// clause H18: subscribes, unsubscribes and cancels leave nothing behind once answered.
describe('no leak', () => {
  it('10,000 subscribe/unsubscribe/cancel frames leave nothing behind', async () => {
    const p = peer({
      editFind: async (_params, ctx) => {
        await sleep(1); // still running a timer turn later, when its cancel may come
        void ctx.signal;
        return { matches: [], totalCount: 0 };
      },
    });
    for (let i = 0; i < 10_000; i++) {
      const k = i % 4;
      if (k === 0) p.session.onFrame(req(SUB, `s${i}`, { events: [FILES, DIAG] }));
      else if (k === 1) p.session.onFrame(req(UNSUB, `u${i}`, { events: [FILES] }));
      else if (k === 2) p.session.onFrame(req(FIND, `f${i}`, { pattern: 'x' }));
      else p.session.onFrame(JSON.stringify({ type: 'cancel', requestId: `f${i - 1}` }));
      if (i % 500 === 0) await tick();
    }
    await until('every handler to settle', () => p.session.pendingRequests === 0);
    const internals = p.session as unknown as { byId: Map<string, unknown>; running: Set<unknown> };
    expect(internals.byId.size).toBe(0);
    expect(internals.running.size).toBe(0);
    expect(p.session.subscriptions).toEqual([DIAG]);
    expect(p.sent.filter((f) => (f.error as { code?: string } | undefined)?.code === 'CANCELLED')).toHaveLength(2500);
  });
});
