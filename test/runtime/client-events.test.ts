// The generated v0.1.7 client against a real ws server (createIdeaServer): subscribe/on/unsubscribe,
// the server's fan-out, and an aborted request sending the cancel frame the server answers CANCELLED.
import { describe, expect, it } from 'vitest';
import { connect as connect6 } from '../../generated/v0.1.6/client';
import { connect } from '../../generated/v0.1.7/client';
import { type FilesChangedData, type Handlers, SERVER_PROTOCOL } from '../../generated/v0.1.7/server';
import { createIdeaServer } from '../../runtime/idea-server';
import { poll } from '../../runtime/poll';
import { until } from '../support/wait';

const TOKEN = '2b7e1516-28ae-4d2a-a6ab-f7158809cf4f';
const FILES = '/app/vscode/files/changed';
const change = (filePath: string): FilesChangedData => ({ changes: [{ filePath, change: 'created' }] });

async function withServer(
  handlers: Partial<Handlers>,
  body: (url: string, emit: (d: FilesChangedData) => void) => Promise<void>,
) {
  const server = await createIdeaServer({
    protocol: SERVER_PROTOCOL,
    port: 0,
    handlers: () => handlers,
    auth: { required: true, token: TOKEN },
    workspaces: () => ['/w'],
    session: { events: [FILES] },
  });
  try {
    await body(server.url, (d) => server.emit(FILES, d as unknown as Record<string, unknown>));
  } finally {
    await server.close();
  }
}

describe('generated client: events', () => {
  it('subscribe, on, unsubscribe; a 0.1.6 client on the same server sees nothing pushed', async () => {
    await withServer({}, async (url, emit) => {
      const client = await connect({ url, token: TOKEN, validate: true });
      const old = await connect6({ url, token: TOKEN, validate: true });
      const oldFrames: string[] = [];
      old.onFrame((t) => oldFrames.push(t));
      try {
        expect(client.handshake.events).toEqual([FILES]);
        const got: [string, number][] = [];
        const off = client.on(FILES, (data, dropped) => got.push([data.changes[0]!.filePath, dropped]));
        const unsubscribe = await client.subscribe([FILES]);
        emit(change('/w/a.ts'));
        await poll(() => got.length === 1 || undefined, { timeoutMs: 2000 });
        expect(got).toEqual([['/w/a.ts', 0]]);
        off();
        emit(change('/w/b.ts'));
        await client.eventsUnsubscribe({ events: ['/app/vscode/none/x'] }); // a round trip: b.ts has arrived
        expect(got).toHaveLength(1);
        client.on(FILES, (data) => got.push([data.changes[0]!.filePath, -1]));
        await unsubscribe();
        emit(change('/w/c.ts'));
        await client.eventsUnsubscribe({ events: ['/app/vscode/none/x'] });
        expect(got).toHaveLength(1);
        expect(oldFrames).toEqual([]);
      } finally {
        await client.close();
        await old.close();
      }
    });
  });

  it('an aborted request sends a cancel: the handler sees ctx.signal abort; the call rejects with the reason', async () => {
    let aborted: (() => void) | undefined;
    const wasAborted = new Promise<void>((r) => (aborted = r));
    let started = false;
    await withServer(
      {
        fsFindFiles: (_p, ctx) =>
          new Promise((_resolve, reject) => {
            started = true;
            ctx.signal.addEventListener('abort', () => {
              aborted?.();
              reject(new Error('stopped'));
            });
          }),
      },
      async (url) => {
        const client = await connect({ url, token: TOKEN });
        const frames: string[] = [];
        client.onFrame((t) => frames.push(t));
        try {
          const controller = new AbortController();
          const call = client.fsFindFiles({ query: 'x' }, { signal: controller.signal });
          await until('the request to reach its handler', () => started);
          controller.abort(new Error('user gave up'));
          await expect(call).rejects.toThrow('user gave up');
          await wasAborted;
          await poll(() => frames.length === 1 || undefined, { timeoutMs: 2000 });
          expect(JSON.parse(frames[0]!)).toMatchObject({ error: { code: 'CANCELLED' } });
        } finally {
          await client.close();
        }
      },
    );
  });
});
