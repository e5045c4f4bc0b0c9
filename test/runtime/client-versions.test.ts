// The client speaks to a server as it announced itself: frames are checked against the schemas of the
// version in its handshake (not the client's own), and a topic the server did not advertise is
// refused locally, without a round trip.
import { afterEach, describe, expect, it } from 'vitest';
import { connect as connectV010, IdeaProtocolError as IdeaProtocolErrorV010 } from '../../generated/v0.1.0/client';
import { ServerSession as ServerSessionV010 } from '../../generated/v0.1.0/server';
import { connect, IdeaClosedError, IdeaProtocolError, IdeaValidationError } from '../../generated/v0.1.6/client';
import { ServerSession } from '../../generated/v0.1.6/server';
import {
  type ConnectionIO,
  type RunningWebSocketServer,
  type SessionLike,
  startWebSocketServer,
} from '../../runtime/ws-server';

const TOKEN = '5c0d7a2e-1f3b-4c6d-8e9f-0a1b2c3d4e5f';
const FIND = '/app/vscode/edit/find';
const servers: RunningWebSocketServer[] = [];
afterEach(async () => {
  await Promise.all(servers.splice(0).map((s) => s.close()));
});

async function serve(createSession: (io: ConnectionIO) => SessionLike): Promise<string> {
  const s = await startWebSocketServer({ host: '127.0.0.1', port: 0, createSession });
  servers.push(s);
  return `ws://127.0.0.1:${s.port}`;
}

/** A hand-written server: `handshake` answers the first frame, `answer` every request. */
function scripted(handshake: object, answer: (req: { topic: string; requestId: string }) => object) {
  return serve((io) => {
    let first = true;
    return {
      onFrame: (text) => {
        if (first) {
          first = false;
          io.send(JSON.stringify(handshake));
          return;
        }
        io.send(JSON.stringify(answer(JSON.parse(text) as { topic: string; requestId: string })));
      },
      onClose: () => undefined,
    };
  });
}

const V012_HELLO = { type: 'handshake', version: '0.1.2', capabilities: [FIND], workspaces: ['/w'] };
const V016_HELLO = {
  type: 'handshake',
  version: '0.1.6',
  authRequired: false,
  capabilities: [FIND],
  workspaces: ['/w'],
};
const unauthorized = (req: { topic: string; requestId: string }) => ({
  topic: req.topic,
  requestId: req.requestId,
  error: { code: 'UNAUTHORIZED', message: 'm' },
});

describe('the client checks a server against the version it announced', () => {
  it("an older client accepts what a newer server's schemas allow (an error code added later)", async () => {
    const url = await scripted(V016_HELLO, unauthorized);
    const c = await connectV010({ url, validate: true });
    expect(c.schemaVersion).toBe('0.1.6');
    const err = await c.editFind({ pattern: 'x' }).catch((e: unknown) => e);
    // Against its own 0.1.0 schemas, UNAUTHORIZED is no error code: that was an IdeaValidationError.
    expect(err).toBeInstanceOf(IdeaProtocolErrorV010);
    expect(err).toMatchObject({ code: 'UNAUTHORIZED' });
    await c.close();
  });

  it("an older client sees a newer server's refusal for what it is (UNAUTHORIZED, not a schema error)", async () => {
    const url = await serve(
      (io) =>
        new ServerSession({
          handlers: {},
          auth: { required: true, token: TOKEN },
          workspaces: () => [],
          send: io.send,
          close: io.close,
        }),
    );
    const err = await connectV010({ url, validate: true }).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(IdeaProtocolErrorV010);
    expect(err).toMatchObject({ code: 'UNAUTHORIZED' });
  });

  it('a newer client holds an older server to the older schemas (no UNAUTHORIZED before 0.1.3)', async () => {
    const url = await scripted(V012_HELLO, unauthorized);
    const c = await connect({ url, validate: true });
    expect(c.schemaVersion).toBe('0.1.2');
    const err = await c.editFind({ pattern: 'x' }).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(IdeaValidationError);
    expect((err as Error).message).toMatch(/^error response to \/app\/vscode\/edit\/find: error\.code must be one of/);
    await c.close();
  });

  it("an older server's handshake is checked against its own version's schema", async () => {
    const url = await scripted({ ...V012_HELLO, workspaces: undefined }, unauthorized);
    const err = await connect({ url, validate: true }).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(IdeaValidationError);
    expect((err as Error).message).toBe('handshake: workspaces is required');
  });

  it("a version this tree has no code for is checked against the client's own version", async () => {
    const url = await scripted({ ...V016_HELLO, version: '9.9.9' }, unauthorized);
    const c = await connect({ url, validate: true });
    expect(c.schemaVersion).toBe('0.1.6');
    await expect(c.editFind({ pattern: 'x' })).rejects.toMatchObject({ code: 'UNAUTHORIZED' });
    await c.close();
  });
});

describe('a topic the server did not advertise', () => {
  it('is refused with IdeaProtocolError UNKNOWN_TOPIC without sending anything', async () => {
    const received: string[] = [];
    const url = await serve((io) => {
      const s = new ServerSessionV010({
        handlers: { editFind: async () => ({ matches: [], totalCount: 0 }) },
        workspaces: () => [],
        send: io.send,
        close: io.close,
      });
      return { onFrame: (t) => (received.push(t), s.onFrame(t)), onClose: () => s.onClose() };
    });
    const c = await connect({ url, validate: true });
    expect(c.supports('/app/vscode/diag/list')).toBe(false);
    const err = await c.diagList({}).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(IdeaProtocolError);
    expect(err).toMatchObject({ code: 'UNKNOWN_TOPIC', topic: '/app/vscode/diag/list', requestId: '' });
    // An advertised topic still goes through; the server saw the handshake and that request only.
    expect(await c.editFind({ pattern: 'x' })).toEqual({ matches: [], totalCount: 0 });
    expect(received.map((t) => (JSON.parse(t) as { topic?: string; type?: string }).topic ?? 'handshake')).toEqual([
      'handshake',
      FIND,
    ]);
    expect(c.inFlight).toBe(0);
    await c.close();
  });
});

describe('after the connection closed', () => {
  it('any request, advertised or not, rejects with IdeaClosedError', async () => {
    const url = await scripted(V016_HELLO, unauthorized);
    const c = await connect({ url });
    await c.close();
    await expect(c.diagList({})).rejects.toBeInstanceOf(IdeaClosedError);
    await expect(c.editFind({ pattern: 'x' })).rejects.toBeInstanceOf(IdeaClosedError);
  });
});
