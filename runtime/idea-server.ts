// An IDEA server, wired once: one ServerSession of a protocol version per connection, on the
// loopback ws binding (ws-server.ts, with admission.ts's limits), token auth, and an entry in the
// per-user registry (registry.ts) once listening. It knows nothing of VS Code: the extension is this
// plus its handlers and settings, and so are the test servers.
import { shareEncoding } from './event-queue.js';
import { type Registration, registerServer } from './registry.js';
import { type AroundRequest, type ServerProtocol, ServerSession, type ServerSessionOptions } from './server-session.js';
import { type SessionLike, startWebSocketServer, type WebSocketServerOptions } from './ws-server.js';

/** One accepted connection, as handler and session factories see it. */
export interface IdeaConnection {
  /** 1, 2, … in order of acceptance, per server. */
  readonly id: number;
  readonly remoteAddress: string | undefined;
}

/** What the server sets on every session beyond handlers, auth and workspaces. */
export type IdeaSessionSettings<H, T extends string = string> = Omit<
  ServerSessionOptions<H, T>,
  'handlers' | 'auth' | 'workspaces' | 'send' | 'close' | 'admit' | 'aroundRequest'
>;

export interface IdeaServerOptions<H extends object, T extends string = string>
  extends Pick<
    WebSocketServerOptions,
    'port' | 'portAttempts' | 'maxPayload' | 'limits' | 'onRefused' | 'onClientsChanged'
  > {
  /** The version served: a generated `SERVER_PROTOCOL` (generated/<v>/server.ts). */
  protocol: ServerProtocol<H>;
  /** The handlers of one connection, asked once per connection. */
  handlers(connection: IdeaConnection): Partial<H>;
  /**
   * The session hook around every request of `connection` (ServerSessionOptions.aroundRequest): admission
   * across connections and per-client context go here, not into the handlers.
   */
  aroundRequest?<R>(connection: IdeaConnection, request: AroundRequest<T>, call: () => Promise<R>): Promise<R>;
  /** Token auth, in versions that have it (see ServerSessionOptions: missing there means nobody gets in). */
  auth?: { required: boolean; token?: string };
  /** Absolute paths of the workspace folders: read at every handshake and for the registry entry. */
  workspaces: () => string[];
  /** 127.0.0.1 (default), ::1 or localhost. */
  host?: string;
  session?: IdeaSessionSettings<H, T>;
  /** Builds a connection's session from its options; default `new ServerSession(protocol, options)`. */
  createSession?(options: ServerSessionOptions<H, T>, connection: IdeaConnection): SessionLike;
  /** Registers the server in the per-user registry once listening (`dir` defaults to registryDir()). */
  registry?: { dir?: string; ide?: string };
  /**
   * Listening, not registered yet: whatever this does is done before a registry reader can find the
   * server (the extension writes its settings keys here). A throw closes the server and rejects.
   */
  onListening?(server: { port: number; url: string }): void;
}

export interface RunningIdeaServer {
  readonly host: string;
  /** The port actually bound. */
  readonly port: number;
  readonly url: string;
  /** Connections past the handshake. */
  readonly clientCount: number;
  /** The registry entry; undefined when not asked for, when registering failed (`registryError`), or after `unregister`. */
  readonly registration: Registration | undefined;
  readonly registryError: Error | undefined;
  /** Rewrites the registry entry's folders from `workspaces()` (sessions read it at each handshake). Throws when the write fails. */
  workspacesChanged(): void;
  /**
   * Since 0.1.7: pushes `event` to every connection that subscribed to it (each through its own bounded
   * queue: a slow reader never delays the others). Never throws.
   */
  emit(event: string, data: Record<string, unknown>): void;
  /** Removes the registry entry now (synchronous: safe in a deactivate or exit hook). */
  unregister(): void;
  /** Removes the registry entry, stops listening and terminates live connections. */
  close(): Promise<void>;
}

export async function createIdeaServer<H extends object, T extends string = string>(
  options: IdeaServerOptions<H, T>,
): Promise<RunningIdeaServer> {
  const { protocol, auth, workspaces, session: settings, aroundRequest } = options;
  const host = options.host ?? '127.0.0.1';
  let connections = 0;
  /** Sessions of open connections, for emit(). */
  const live = new Set<SessionLike>();
  const ws = await startWebSocketServer({
    host,
    port: options.port,
    portAttempts: options.portAttempts,
    maxPayload: options.maxPayload,
    limits: options.limits,
    onRefused: options.onRefused,
    onClientsChanged: options.onClientsChanged,
    createSession: (io) => {
      const connection: IdeaConnection = { id: ++connections, remoteAddress: io.remoteAddress };
      const sessionOptions: ServerSessionOptions<H, T> = {
        ...settings,
        handlers: options.handlers(connection),
        ...(aroundRequest && { aroundRequest: (request, call) => aroundRequest(connection, request, call) }),
        ...(auth && { auth }),
        workspaces,
        send: io.send,
        close: io.close,
        admit: io.admit,
        ...(io.bufferedAmount && { bufferedAmount: io.bufferedAmount }),
      };
      const session = options.createSession
        ? options.createSession(sessionOptions, connection)
        : new ServerSession<H, T>(protocol, sessionOptions);
      live.add(session);
      return {
        onFrame: (text) => session.onFrame(text),
        onClose: () => {
          live.delete(session);
          session.onClose();
        },
        get state() {
          return session.state;
        },
      };
    },
  });
  const url = `ws://${host.includes(':') ? `[${host}]` : host}:${ws.port}`;
  try {
    options.onListening?.({ port: ws.port, url });
  } catch (e) {
    await ws.close();
    throw e;
  }
  let registration: Registration | undefined;
  let registryError: Error | undefined;
  const authRequired = protocol.auth && (auth?.required ?? true);
  if (options.registry) {
    try {
      registration = registerServer(
        {
          pid: process.pid,
          port: ws.port,
          protocolVersion: protocol.version,
          workspaces: workspaces(),
          // The entry holds the token only when it is needed (the file is 0600 in a 0700 folder).
          ...(authRequired && auth?.token ? { token: auth.token } : {}),
          authRequired,
          ...(options.registry.ide ? { ide: options.registry.ide } : {}),
        },
        options.registry.dir,
      );
    } catch (e) {
      registryError = e instanceof Error ? e : new Error(String(e));
    }
  }
  const unregister = () => {
    registration?.remove();
    registration = undefined;
  };
  return {
    host,
    port: ws.port,
    url,
    get clientCount() {
      return ws.clientCount;
    },
    get registration() {
      return registration;
    },
    registryError,
    emit: (event, data) =>
      shareEncoding(event, data, () => {
        for (const session of live) {
          try {
            session.emit?.(event, data);
          } catch {
            // one connection's failure must not keep the event from the others
          }
        }
      }),
    workspacesChanged: () => registration?.update({ workspaces: workspaces() }),
    unregister,
    close: () => {
      unregister();
      return ws.close();
    },
  };
}
