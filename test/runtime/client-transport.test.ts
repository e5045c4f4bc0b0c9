// Client transport edge cases against hand-written servers: handshake timeout, malformed handshake
// replies, replies nobody asked for, throwing onFrame hooks, idempotent close.
import { afterEach, describe, expect, it } from 'vitest';
import { connect, IdeaClosedError, IdeaValidationError } from '../../generated/v0.1.6/client';
import { connect as connect18, IdeaProtocolError as IdeaProtocolError18 } from '../../generated/v0.1.8/client';
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

  it('an error answer carries its candidates (since 0.1.8: a name path naming no symbol or several)', async () => {
    const candidates = [
      { namePath: '/Circle/area', kind: 'method', line: 14 },
      { namePath: '/Square/area', kind: 'method', line: 30 },
    ];
    let first = true;
    const url = await serve((text, io) => {
      if (first) {
        first = false;
        io.send(JSON.stringify({ ...JSON.parse(HELLO), version: '0.1.8', capabilities: ['/app/vscode/nav/hover'] }));
        return;
      }
      const req = JSON.parse(text) as { topic: string; requestId: string; params: { namePath?: string } };
      const message = `name path ${req.params.namePath} matches 2 symbols`;
      const error =
        req.params.namePath === 'area'
          ? { code: 'INVALID_REQUEST', message, candidates }
          : { code: 'HANDLER_ERROR', message: 'x' };
      io.send(JSON.stringify({ topic: req.topic, requestId: req.requestId, error }));
    });
    const c = await connect18({ url, validate: true });
    const err = await c.navHover({ filePath: 'a.ts', namePath: 'area' }).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(IdeaProtocolError18);
    expect(err).toMatchObject({ code: 'INVALID_REQUEST', message: 'name path area matches 2 symbols', candidates });
    const plain = await c.navHover({ filePath: 'a.ts', namePath: 'b' }).catch((e: unknown) => e);
    expect(plain).toMatchObject({ code: 'HANDLER_ERROR' });
    expect((plain as IdeaProtocolError18).candidates).toBeUndefined();
    await c.close();
  });
});
