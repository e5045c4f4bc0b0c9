// An IDEA server in the test process for the CLI's tests and benchmark: runtime/idea-server.ts with
// canned answers, registered in a registry folder of its own for one workspace folder (so the CLI
// finds it as it finds VS Code).
import { mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { type Handlers, ProtocolError, SERVER_PROTOCOL } from '../../generated/v0.1.6/server';
import { TOPICS } from '../../generated/v0.1.6/topics';
import { createIdeaServer } from '../../runtime/idea-server';
import type { ServerProtocol } from '../../runtime/server-session';

export const FAKE_TOKEN = 'c0ffee00-1234-4abc-8def-00112233aabb';

export interface FakeServer {
  url: string;
  workspace: string;
  registry: string;
  /** Params of each request received, in order. */
  received: { topic: string; params: unknown }[];
  close(): Promise<void>;
}

/**
 * Handlers answering from the workspace's point of view; topics not given fail with INVALID_REQUEST.
 * `protocol`: another version's generated SERVER_PROTOCOL, to serve (and announce) that version; a
 * newer one with its `topics` (the handlers then typed by the caller).
 */
export async function startFakeServer(
  handlers: Partial<Handlers> = {},
  opts: {
    protocol?: ServerProtocol<never>;
    topics?: readonly { topic: string; method: string }[];
    /** Serve (and advertise) only the topics given a handler; by default every topic answers. */
    onlyGiven?: boolean;
  } = {},
): Promise<FakeServer> {
  const base = mkdtempSync(join(tmpdir(), 'idea-cli-fake-'));
  const workspace = join(base, 'ws');
  const registry = join(base, 'registry');
  const received: FakeServer['received'] = [];
  // A newer version's topics (opts.topics, with its protocol) are served as the handlers given say.
  const all = Object.fromEntries(
    (opts.topics ?? TOPICS)
      .filter((t) => !opts.onlyGiven || t.method in handlers)
      .map((t) => [
        t.method,
        async (params: unknown) => {
          received.push({ topic: t.topic, params });
          const h = (handlers as Record<string, (p: unknown) => Promise<unknown>>)[t.method];
          if (!h) throw new ProtocolError('INVALID_REQUEST', `the fake server has no ${t.topic}`);
          return h(params);
        },
      ]),
  ) as unknown as Handlers;
  mkdirSync(workspace, { recursive: true });
  const server = await createIdeaServer({
    // An older version's handlers are those of v0.1.6 it has (same methods, fewer topics).
    protocol: (opts.protocol ?? SERVER_PROTOCOL) as ServerProtocol<Handlers>,
    port: 0,
    handlers: () => all,
    auth: { required: true, token: FAKE_TOKEN },
    workspaces: () => [workspace],
    registry: { dir: registry, ide: 'fake' },
  });
  if (server.registryError) throw server.registryError;
  return {
    url: server.url,
    workspace,
    registry,
    received,
    async close() {
      await server.close();
      rmSync(base, { recursive: true, force: true });
    },
  };
}
