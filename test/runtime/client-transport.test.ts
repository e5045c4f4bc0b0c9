// Client transport edge cases against hand-written servers: handshake timeout, malformed handshake
// replies, replies nobody asked for, throwing onFrame hooks, idempotent close.
import { afterEach, describe, expect, it } from 'vitest';
import { connect, IdeaClosedError, IdeaValidationError } from '../../generated/v0.1.6/client';
import { type ConnectionIO, type RunningWebSocketServer, startWebSocketServer } from '../../runtime/ws-server';

const servers: RunningWebSocketServer[] = [];
afterEach(async () => {
  await Promise.all(servers.splice(0).map((s) => s.close()));
});

/** A server whose sessions call `onFrame(text, io)` for each frame. */
async function serve(onFrame: (text: string, io: ConnectionIO) => void): Promise<string> {
  const s = await startWebSocketServer({
    host: '127.0.0.1',
    port: 0,
    createSession: (io) => ({ onFrame: (t) => onFrame(t, io), onClose: () => undefined }),
  });
  servers.push(s);
  return `ws://127.0.0.1:${s.port}`;
}

const HELLO = JSON.stringify({
  type: 'handshake',
  version: '0.1.6',
  authRequired: false,
  capabilities: ['/app/vscode/diag/list'],
  workspaces: [],
});

describe('client transport', () => {
  it('rejects with IdeaClosedError when the server never answers the handshake', async () => {
    const url = await serve(() => undefined);
    const t0 = Date.now();
    const err = await connect({ url, timeoutMs: 150 }).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(IdeaClosedError);
    expect((err as Error).message).toMatch(/no handshake .* within 150 ms/);
    expect(Date.now() - t0).toBeLessThan(2000);
  });

  it.each([
    ['not JSON', 'hello'],
    ['an array', '[]'],
    ['missing fields (validate: true)', JSON.stringify({ type: 'handshake', version: '0.1.6' })],
  ])('rejects a handshake reply that is %s with IdeaValidationError', async (_w, reply) => {
    const url = await serve((_t, io) => io.send(reply));
    await expect(connect({ url, validate: true })).rejects.toBeInstanceOf(IdeaValidationError);
  });

  it('rejects with IdeaClosedError when the server closes during the handshake', async () => {
    const url = await serve((_t, io) => io.close(1011, 'going away'));
    const err = await connect({ url }).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(IdeaClosedError);
    expect(err).toMatchObject({ closeCode: 1011, closeReason: 'going away' });
  });

  it('ignores replies nobody asked for and survives a throwing onFrame hook', async () => {
    let first = true;
    const url = await serve((text, io) => {
      if (first) {
        first = false;
        io.send(HELLO);
        return;
      }
      const req = JSON.parse(text) as { topic: string; requestId: string };
      io.send(JSON.stringify({ topic: req.topic, requestId: 'someone-else', result: {} }));
      io.send('not json at all');
      io.send(
        JSON.stringify({ topic: req.topic, requestId: req.requestId, result: { diagnostics: [], totalCount: 0 } }),
      );
    });
    const c = await connect({ url });
    const seen: string[] = [];
    c.onFrame(() => {
      throw new Error('hook bug');
    });
    c.onFrame((f) => seen.push(f));
    expect(await c.diagList()).toEqual({ diagnostics: [], totalCount: 0 });
    expect(seen).toHaveLength(3);
    await c.close();
    await c.close(); // idempotent
    expect(c.isClosed).toBe(true);
    expect(() => c.sendRaw('x')).toThrow(IdeaClosedError);
  });
});
