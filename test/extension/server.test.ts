// The extension's server controller (extension/src/server.ts) with a stand-in `vscode` module: port
// fallback, bind errors reported (never a hang), auth settings read from user scope only, the
// settings.json keys written after listening, the per-user registry entry (in a temporary registry)
// written then and removed on stop, and stop closing live connections.
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { createServer, type Server } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';

interface Scoped {
  globalValue?: unknown;
  workspaceValue?: unknown;
  defaultValue?: unknown;
}
const state = vi.hoisted(() => ({
  settings: {} as Record<string, { globalValue?: unknown; workspaceValue?: unknown; defaultValue?: unknown }>,
  folder: '',
  errors: [] as string[],
}));

vi.mock('vscode', () => {
  class EventEmitter<T> {
    private listeners: ((e: T) => void)[] = [];
    event = (l: (e: T) => void) => {
      this.listeners.push(l);
      return { dispose: () => undefined };
    };
    fire(e: T) {
      for (const l of this.listeners) l(e);
    }
    dispose() {
      this.listeners = [];
    }
  }
  const getConfiguration = (section: string) => ({
    // Like VS Code: the effective value (workspace over user over default)...
    get: (key: string, dflt?: unknown) => {
      const s = state.settings[`${section}.${key}`];
      return s?.workspaceValue ?? s?.globalValue ?? s?.defaultValue ?? dflt;
    },
    // ...and the per-scope view.
    inspect: (key: string) => state.settings[`${section}.${key}`],
  });
  return {
    EventEmitter,
    workspace: {
      getConfiguration,
      get workspaceFolders() {
        return [{ uri: { scheme: 'file', fsPath: state.folder } }];
      },
      onDidChangeWorkspaceFolders: () => ({ dispose: () => undefined }),
    },
    env: { appName: 'Stand-in Code' },
    version: '1.100.3',
    window: {
      showErrorMessage: (m: string) => {
        state.errors.push(m);
        return Promise.resolve(undefined);
      },
    },
  };
});

const { IdeaServer } = await import('../../extension/src/server');
const { connect } = await import('../../generated/v0.1.6/client');
const { freePort } = await import('../../livehost');
const { listRegisteredServers } = await import('../../runtime/registry');
const registry = () => join(state.folder, 'registry');

const settingsFile = () => join(state.folder, '.vscode', 'settings.json');
const set = (key: string, v: Scoped) => {
  state.settings[`idea.server.${key}`] = v;
};
let servers: InstanceType<typeof IdeaServer>[] = [];
let blockers: Server[] = [];
const make = () => {
  const s = new IdeaServer({} as never, () => undefined);
  servers.push(s);
  return s;
};
const block = async (port: number) => {
  const b = createServer();
  await new Promise<void>((r, j) => {
    b.once('error', j);
    b.listen(port, '127.0.0.1', () => r());
  });
  blockers.push(b);
};

beforeEach(async () => {
  state.folder = mkdtempSync(join(tmpdir(), 'idea-srv-'));
  state.settings = {};
  state.errors = [];
  set('port', { defaultValue: await freePort() });
  process.env.IDEA_REGISTRY_DIR = registry(); // never the user's own registry
});
afterEach(async () => {
  for (const s of servers) await s.stop();
  for (const b of blockers) b.close();
  servers = [];
  blockers = [];
  rmSync(state.folder, { recursive: true, force: true });
  delete process.env.IDEA_REGISTRY_DIR;
});

describe('IdeaServer', () => {
  it('listens on 127.0.0.1 and writes the bound port and the token once listening', async () => {
    const s = make();
    const info = await s.start();
    expect(info?.host).toBe('127.0.0.1');
    const written = JSON.parse(readFileSync(settingsFile(), 'utf8'));
    expect(written).toEqual({ 'idea.server.port': info!.port, 'idea.server.authToken': info!.token });
    expect(info!.token).toMatch(/^[0-9a-f-]{36}$/);
    const { servers: registered } = await listRegisteredServers({ dir: registry() });
    expect(registered).toEqual([
      expect.objectContaining({
        pid: process.pid,
        port: info!.port,
        token: info!.token,
        workspaces: [state.folder],
        ide: 'Stand-in Code 1.100.3',
      }),
    ]);
    const c = await connect({ url: info!.url, token: info!.token });
    expect(c.handshake.authRequired).toBe(true);
    c.close();
  });
  it('moves to the next port when the configured one is taken', async () => {
    const p = state.settings['idea.server.port']!.defaultValue as number;
    await block(p);
    const info = await make().start();
    expect(info!.port).toBeGreaterThan(p);
  });
  it('reports, and does not hang, when all ten ports are taken', async () => {
    const p = state.settings['idea.server.port']!.defaultValue as number;
    const taken: number[] = [];
    for (let i = 0; i < 10; i++)
      await block(p + i).then(
        () => taken.push(p + i),
        () => taken.push(p + i),
      ); // already in use counts too
    const info = await make().start();
    expect(info).toBeUndefined();
    expect(state.errors.join()).toMatch(/all in use/);
    expect(existsSync(settingsFile())).toBe(false);
  });
  it('ignores workspace values of authEnabled and authToken; honours user values', async () => {
    set('authEnabled', { workspaceValue: false, defaultValue: true });
    set('authToken', { workspaceValue: 'repo-token', defaultValue: '' });
    const a = await make().start();
    expect(a!.authRequired).toBe(true);
    expect(a!.token).not.toBe('repo-token');
    await servers.pop()!.stop();
    set('authEnabled', { globalValue: false, defaultValue: true });
    set('authToken', { globalValue: 'user-token', defaultValue: '' });
    const b = await make().start();
    expect([b!.authRequired, b!.token]).toEqual([false, 'user-token']);
  });
  it('writes only the port when exposeToken is off', async () => {
    set('exposeToken', { globalValue: false });
    const info = await make().start();
    expect(JSON.parse(readFileSync(settingsFile(), 'utf8'))).toEqual({ 'idea.server.port': info!.port });
  });
  it('stop closes live connections and frees the port', async () => {
    const s = make();
    const info = await s.start();
    const c = await connect({ url: info!.url, token: info!.token });
    expect(s.clientCount).toBe(1);
    await s.stop();
    // The server closed the connection (this server has no handlers: a request would be refused
    // locally as not advertised, so the close itself is what is awaited).
    const closed = await Promise.race([
      c.closed.then(() => 'closed'),
      new Promise((r) => setTimeout(() => r('still open'), 5000)),
    ]);
    expect(closed).toBe('closed');
    const after = await c.request('/app/vscode/fs/findFiles', { query: 'x' }, { timeoutMs: 5000 }).then(
      () => 'answered',
      (e: Error) => e.constructor.name,
    );
    expect(after).toBe('IdeaClosedError');
    expect(s.info).toBeUndefined();
    expect((await listRegisteredServers({ dir: registry(), probePorts: false, clean: false })).servers).toEqual([]);
    await block(info!.port); // the port is free again
  });
});
