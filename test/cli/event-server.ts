// A v0.1.7 IDEA server in the test process whose events the test pushes (createIdeaServer's emit),
// registered for one workspace folder like the fake server, recording every frame it receives: what
// `idea watch` and idea-mcp's resources are tested against.
import { mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { type EventName, type Handlers, SERVER_PROTOCOL } from '../../generated/v0.1.7/server';
import type { DataOf } from '../../generated/v0.1.7/types';
import { createIdeaServer } from '../../runtime/idea-server';
import { ServerSession } from '../../runtime/server-session';

export const EVENT_TOKEN = 'feedf00d-1234-4abc-8def-00112233aabb';

export interface EventServer {
  url: string;
  port: number;
  workspace: string;
  registry: string;
  /** Every frame received after the handshake, parsed. */
  frames: Record<string, unknown>[];
  /** The topics of the requests received, in order. */
  topics(): string[];
  emit<E extends EventName>(event: E, data: DataOf<E>): void;
  close(): Promise<void>;
}

/**
 * `events`: what the server advertises (default: every v0.1.7 event); `initial`: the state sent to a
 * subscriber asking for it.
 */
export async function startEventServer(
  opts: {
    events?: readonly EventName[];
    handlers?: Partial<Handlers>;
    initial?: { [E in EventName]?: DataOf<E> };
    /** Default any free one. */
    port?: number;
  } = {},
): Promise<EventServer> {
  const base = mkdtempSync(join(tmpdir(), 'idea-events-'));
  const workspace = join(base, 'ws');
  const registry = join(base, 'registry');
  mkdirSync(workspace, { recursive: true });
  const frames: Record<string, unknown>[] = [];
  const server = await createIdeaServer({
    protocol: SERVER_PROTOCOL,
    port: opts.port ?? 0,
    portAttempts: 1,
    handlers: () => opts.handlers ?? {},
    auth: { required: true, token: EVENT_TOKEN },
    workspaces: () => [workspace],
    registry: { dir: registry, ide: 'events' },
    session: {
      events: opts.events ?? [
        '/app/vscode/diagnostics/changed',
        '/app/vscode/files/changed',
        '/app/vscode/editor/changed',
      ],
      initialEvent: (event) => opts.initial?.[event as EventName],
    },
    createSession: (options) => {
      const s = new ServerSession(SERVER_PROTOCOL, options);
      return {
        onFrame: (text) => {
          if (s.state === 'open') frames.push(JSON.parse(text) as Record<string, unknown>);
          s.onFrame(text);
        },
        onClose: () => s.onClose(),
        get state() {
          return s.state;
        },
        emit: (event, data) => s.emit(event, data),
      };
    },
  });
  if (server.registryError) throw server.registryError;
  return {
    url: server.url,
    port: server.port,
    workspace,
    registry,
    frames,
    topics: () => frames.flatMap((f) => (typeof f.topic === 'string' ? [f.topic] : [])),
    emit: (event, data) => server.emit(event, data as unknown as Record<string, unknown>),
    async close() {
      await server.close();
      rmSync(base, { recursive: true, force: true });
    },
  };
}
