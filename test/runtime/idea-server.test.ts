// runtime/idea-server.ts, the one wiring of session + binding + auth + registry: handlers asked per
// connection, the registry entry written after onListening and removed first on close, the folders
// kept current, the token only where needed, a registry failure reported (not fatal), the request
// hook given each connection, and sessions built by the caller's factory when it has one.
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { SERVER_PROTOCOL as V012_PROTOCOL } from '../../generated/v0.1.2/server';
import { connect } from '../../generated/v0.1.6/client';
import { type Handlers, SERVER_PROTOCOL } from '../../generated/v0.1.6/server';
import { createIdeaServer, type IdeaConnection } from '../../runtime/idea-server';
import { entryFileName, type RegistryEntry } from '../../runtime/registry';
import { ServerSession } from '../../runtime/server-session';

const tmp = mkdtempSync(join(tmpdir(), 'idea-server-'));
afterAll(() => rmSync(tmp, { recursive: true, force: true }));
let n = 0;
const freshDir = () => join(tmp, `r${++n}`);
const TOKEN = '2b7e1516-28ae-4d2a-a6ab-f7158809cf4f';
const found = (fileName: string) => async () => ({
  files: [{ fileName, filePath: `/w/${fileName}`, relativePath: fileName }],
  totalCount: 1,
});

describe('createIdeaServer', () => {
  it("serves each connection its own handlers, with auth, and announces the protocol's version", async () => {
    const seen: IdeaConnection[] = [];
    const server = await createIdeaServer({
      protocol: SERVER_PROTOCOL,
      port: 0,
      handlers: (c): Partial<Handlers> => (seen.push(c), { fsFindFiles: found(`conn-${c.id}.ts`) }),
      auth: { required: true, token: TOKEN },
      workspaces: () => ['/w'],
    });
    try {
      expect(server.url).toBe(`ws://127.0.0.1:${server.port}`);
      const a = await connect({ url: server.url, token: TOKEN });
      const b = await connect({ url: server.url, token: TOKEN });
      expect(a.handshake).toMatchObject({
        version: '0.1.6',
        authRequired: true,
        capabilities: ['/app/vscode/fs/findFiles'],
        workspaces: ['/w'],
      });
      expect((await a.fsFindFiles({ query: 'x' })).files[0]!.fileName).toBe('conn-1.ts');
      expect((await b.fsFindFiles({ query: 'x' })).files[0]!.fileName).toBe('conn-2.ts');
      expect(seen.map((c) => [c.id, c.remoteAddress])).toEqual([
        [1, '127.0.0.1'],
        [2, '127.0.0.1'],
      ]);
      await expect(connect({ url: server.url, token: 'wrong' })).rejects.toMatchObject({ code: 'UNAUTHORIZED' });
      a.close();
      b.close();
    } finally {
      await server.close();
    }
  });

  it('registers after onListening, keeps the folders current and removes the entry on close', async () => {
    const dir = freshDir();
    let folders = ['/w'];
    let entryAtListening: boolean | undefined;
    const server = await createIdeaServer({
      protocol: SERVER_PROTOCOL,
      port: 0,
      handlers: () => ({}),
      auth: { required: true, token: TOKEN },
      workspaces: () => folders,
      registry: { dir, ide: 'test' },
      onListening: ({ port }) => {
        entryAtListening = existsSync(join(dir, entryFileName(process.pid, port)));
      },
    });
    const file = join(dir, entryFileName(process.pid, server.port));
    const entry = () => JSON.parse(readFileSync(file, 'utf8')) as RegistryEntry;
    expect(entryAtListening).toBe(false);
    expect(server.registryError).toBeUndefined();
    expect(server.registration?.file).toBe(file);
    expect(entry()).toMatchObject({
      pid: process.pid,
      port: server.port,
      url: server.url,
      protocolVersion: '0.1.6',
      workspaces: ['/w'],
      token: TOKEN,
      authRequired: true,
      ide: 'test',
    });
    folders = ['/w', '/v'];
    server.workspacesChanged();
    expect(entry().workspaces).toEqual(['/w', '/v']);
    await server.close();
    expect(existsSync(file)).toBe(false);
    expect(server.registration).toBeUndefined();
  });

  it('keeps the token out of the entry when no token is needed (auth off, or a version without auth)', async () => {
    for (const [protocol, auth] of [
      [SERVER_PROTOCOL, { required: false, token: TOKEN }],
      [V012_PROTOCOL, undefined],
    ] as const) {
      const dir = freshDir();
      const server = await createIdeaServer({
        protocol,
        port: 0,
        handlers: () => ({}),
        auth,
        workspaces: () => ['/w'],
        registry: { dir },
      });
      try {
        const entry = JSON.parse(
          readFileSync(join(dir, entryFileName(process.pid, server.port)), 'utf8'),
        ) as RegistryEntry;
        expect(entry).toMatchObject({ protocolVersion: protocol.version, authRequired: false });
        expect(entry).not.toHaveProperty('token');
      } finally {
        await server.close();
      }
    }
  });

  it('serves on when the registry cannot be written, and says why', async () => {
    const notADir = join(tmp, 'a-file');
    writeFileSync(notADir, '');
    const server = await createIdeaServer({
      protocol: SERVER_PROTOCOL,
      port: 0,
      handlers: () => ({}),
      auth: { required: false },
      workspaces: () => [],
      registry: { dir: notADir },
    });
    try {
      expect(server.registration).toBeUndefined();
      expect(server.registryError?.message).toMatch(/EEXIST|ENOTDIR|not a directory/);
      const c = await connect({ url: server.url });
      expect(c.handshake.version).toBe('0.1.6');
      c.close();
    } finally {
      await server.close();
    }
  });

  it('closes again and rejects when onListening throws', async () => {
    let port = 0;
    const start = createIdeaServer({
      protocol: SERVER_PROTOCOL,
      port: 0,
      handlers: () => ({}),
      auth: { required: false },
      workspaces: () => [],
      onListening: (s) => {
        port = s.port;
        throw new Error('settings not writable');
      },
    });
    await expect(start).rejects.toThrow('settings not writable');
    await expect(connect({ url: `ws://127.0.0.1:${port}`, timeoutMs: 2000 })).rejects.toThrow();
  });

  it('runs every request inside aroundRequest with its connection; a throw there answers the request', async () => {
    const seen: string[] = [];
    const server = await createIdeaServer({
      protocol: SERVER_PROTOCOL,
      port: 0,
      handlers: () => ({ fsFindFiles: found('a.ts') }),
      auth: { required: true, token: TOKEN },
      workspaces: () => ['/w'],
      aroundRequest: (connection, request, call) => {
        seen.push(`${connection.id}:${request.topic}:${request.ownInFlight}`);
        if (connection.id === 2) throw new Error('server full');
        return call();
      },
    });
    try {
      const a = await connect({ url: server.url, token: TOKEN });
      const b = await connect({ url: server.url, token: TOKEN });
      expect((await a.fsFindFiles({ query: 'a' })).totalCount).toBe(1);
      await expect(b.fsFindFiles({ query: 'a' })).rejects.toMatchObject({
        code: 'HANDLER_ERROR',
        message: 'server full',
      });
      expect(seen).toEqual(['1:/app/vscode/fs/findFiles:0', '2:/app/vscode/fs/findFiles:0']);
      a.close();
      b.close();
    } finally {
      await server.close();
    }
  });

  it("builds sessions with the caller's factory, from the options it would have used", async () => {
    const sessions: ServerSession<Handlers>[] = [];
    const server = await createIdeaServer({
      protocol: SERVER_PROTOCOL,
      port: 0,
      handlers: () => ({ fsFindFiles: found('a.ts') }),
      auth: { required: true, token: TOKEN },
      workspaces: () => ['/w'],
      session: { maxInFlight: 7 },
      createSession: (o) => {
        expect(o).toMatchObject({ auth: { required: true, token: TOKEN }, maxInFlight: 7 });
        const s = new ServerSession(SERVER_PROTOCOL, o);
        sessions.push(s);
        return s;
      },
    });
    try {
      const c = await connect({ url: server.url, token: TOKEN });
      expect(sessions.map((s) => s.state)).toEqual(['open']);
      expect(server.clientCount).toBe(1);
      c.close();
    } finally {
      await server.close();
    }
  });
});
