// An IDEA server in the test process for the CLI's tests and benchmark: the generated ServerSession
// on the runtime's ws binding, with canned answers, registered in a registry folder of its own for
// one workspace folder (so the CLI finds it as it finds VS Code).
import { mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { ProtocolError, ServerSession, type Handlers } from '../../generated/v0.1.6/server';
import { TOPICS } from '../../generated/v0.1.6/topics';
import { registerServer } from '../../runtime/registry';
import { startWebSocketServer } from '../../runtime/ws-server';

export const FAKE_TOKEN = 'c0ffee00-1234-4abc-8def-00112233aabb';

export interface FakeServer {
  url: string;
  workspace: string;
  registry: string;
  /** Params of each request received, in order. */
  received: { topic: string; params: unknown }[];
  close(): Promise<void>;
}

/** Handlers answering from the workspace's point of view; topics not given fail with INVALID_REQUEST. */
export async function startFakeServer(handlers: Partial<Handlers> = {}, opts: { version?: string } = {}): Promise<FakeServer> {
  const base = mkdtempSync(join(tmpdir(), 'idea-cli-fake-'));
  const workspace = join(base, 'ws');
  const registry = join(base, 'registry');
  const received: FakeServer['received'] = [];
  const all = Object.fromEntries(TOPICS.map((t) => [t.method, async (params: unknown) => {
    received.push({ topic: t.topic, params });
    const h = (handlers as Record<string, (p: unknown) => Promise<unknown>>)[t.method];
    if (!h) throw new ProtocolError('INVALID_REQUEST', `the fake server has no ${t.topic}`);
    return h(params);
  }])) as unknown as Handlers;
  // An older server: the handshake announces opts.version.
  const announce = (frame: string) => (opts.version ? frame.replace('"version":"0.1.6"', `"version":"${opts.version}"`) : frame);
  const server = await startWebSocketServer({
    host: '127.0.0.1',
    port: 0,
    createSession: (io) => new ServerSession({ handlers: all, auth: { required: true, token: FAKE_TOKEN }, workspaces: () => [workspace], send: (f) => io.send(announce(f)), close: io.close }),
  });
  mkdirSync(workspace, { recursive: true });
  const reg = registerServer({ pid: process.pid, port: server.port, protocolVersion: '0.1.6', workspaces: [workspace], token: FAKE_TOKEN, authRequired: true, ide: 'fake' }, registry);
  return {
    url: `ws://127.0.0.1:${server.port}`,
    workspace,
    registry,
    received,
    async close() {
      reg.remove();
      await server.close();
      rmSync(base, { recursive: true, force: true });
    },
  };
}
