// The extension's server: runtime/idea-server.ts (loopback WebSocket, one generated ServerSession per
// connection, token auth, admission limits, port fallback, the per-user registry entry removed on
// stop) with the extension's handlers and settings, and the .vscode/settings.json keys existing
// clients read.
import { randomUUID } from 'node:crypto';
import * as vscode from 'vscode';
import { type AdmissionLimits, DEFAULT_ADMISSION_LIMITS } from '../../runtime/admission';
import { createIdeaServer, type RunningIdeaServer } from '../../runtime/idea-server';
import { registryDir } from '../../runtime/registry';
import type { CoreEventSources } from '../../server-core/events/sources';
import { gatedAsClient, RequestGate } from '../../server-core/limits/requests';
import { exposeConnection } from '../../server-core/settings-file';
import { workspaceFolderPaths } from './host';
import { type Handlers, SERVER_PROTOCOL, TRANSPORT } from './protocol';

const HOST = '127.0.0.1';
/** Largest request frame accepted; bigger ones close the connection with 1009. */
const MAX_FRAME_BYTES = 4 * 1024 * 1024;

/** Admission limits from machine-scoped settings (a workspace cannot raise them); see runtime/admission.ts. */
function admissionLimits(cfg: vscode.WorkspaceConfiguration): AdmissionLimits {
  const int = (key: string, fallback: number, min: number, max: number) => {
    const v = userValue<unknown>(cfg, key, fallback);
    return typeof v === 'number' && Number.isInteger(v) && v >= min && v <= max ? v : fallback;
  };
  const d = DEFAULT_ADMISSION_LIMITS;
  return {
    maxClients: int('limits.maxClients', d.maxClients, 1, 10_000),
    maxPending: int('limits.maxPendingConnections', d.maxPending, 1, 10_000),
    pendingDeadlineMs: int('limits.handshakeTimeoutMs', d.pendingDeadlineMs, 500, 600_000),
    failedHandshakeBurst: d.failedHandshakeBurst,
    failedHandshakesPerSecond: int('limits.failedHandshakesPerSecond', d.failedHandshakesPerSecond, 1, 10_000),
  };
}

/** Where the running server listens and the token it wants (the status bar, copyConnectionInfo). */
export interface ServerEndpoint {
  host: string;
  port: number;
  url: string;
  token: string;
  authRequired: boolean;
}

/** A machine/application-scoped setting as the user (not a workspace) set it. */
function userValue<T>(cfg: vscode.WorkspaceConfiguration, key: string, fallback: T): T {
  const i = cfg.inspect<T>(key);
  return (i?.globalValue ?? i?.defaultValue ?? fallback) as T;
}

export class IdeaServer implements vscode.Disposable {
  private running: RunningIdeaServer | undefined;
  private starting: Promise<ServerEndpoint | undefined> | undefined;
  private current: ServerEndpoint | undefined;
  private clients = 0;
  /** Requests in flight across all connections (idea.server.limits.maxRequestsInFlight). */
  private readonly requests = new RequestGate();
  private readonly changed = new vscode.EventEmitter<void>();
  readonly onDidChange = this.changed.event;
  private readonly folderWatch: vscode.Disposable;

  constructor(
    private readonly handlers: Partial<Handlers>,
    private readonly log: (m: string) => void,
    /** The v0.1.7 events this server pushes (advertised in the handshake); none: it pushes nothing. */
    private readonly events?: CoreEventSources,
  ) {
    // Clients pick the window whose folders contain their directory: keep the entry's folders current.
    this.folderWatch = vscode.workspace.onDidChangeWorkspaceFolders(() => {
      try {
        this.running?.workspacesChanged();
      } catch (e) {
        this.log(`could not update the registry entry: ${(e as Error).message}`);
      }
    });
  }

  get info(): ServerEndpoint | undefined {
    return this.current;
  }
  get clientCount(): number {
    return this.clients;
  }

  /** Pushes `event` to the connections that subscribed to it (nothing while stopped). */
  emit(event: string, data: object): void {
    this.running?.emit(event, data as Record<string, unknown>);
  }

  start(): Promise<ServerEndpoint | undefined> {
    if (this.current) return Promise.resolve(this.current);
    this.starting ??= this.doStart().finally(() => {
      this.starting = undefined;
    });
    return this.starting;
  }

  private async doStart(): Promise<ServerEndpoint | undefined> {
    const cfg = vscode.workspace.getConfiguration('idea.server');
    let port = cfg.get<number>('port', TRANSPORT.defaultPort);
    if (!Number.isInteger(port) || port < 1 || port > 65535) {
      this.log(`idea.server.port ${port} is not a valid port; using ${TRANSPORT.defaultPort}`);
      port = TRANSPORT.defaultPort;
    }
    const authRequired = userValue<boolean>(cfg, 'authEnabled', true) !== false;
    const pinned = userValue<string>(cfg, 'authToken', '');
    const token = typeof pinned === 'string' && pinned.trim() ? pinned.trim() : randomUUID();
    const limits = admissionLimits(cfg);
    const refusals = new RefusalLog(this.log);
    try {
      this.running = await createIdeaServer({
        protocol: SERVER_PROTOCOL,
        host: HOST,
        port,
        portAttempts: TRANSPORT.portAttempts,
        maxPayload: MAX_FRAME_BYTES,
        limits,
        onRefused: (reason) => refusals.count(reason),
        onClientsChanged: (n) => {
          this.clients = n;
          this.changed.fire();
        },
        handlers: () => this.handlers,
        // Each connection is its own client for the fair limiters (processes, regex workers), and its
        // requests count against the per-server bound.
        aroundRequest: (connection, request, call) =>
          gatedAsClient(this.requests, `connection-${connection.id}`, request, call),
        auth: { required: authRequired, token },
        workspaces: workspaceFolderPaths,
        session: {
          // A polite INVALID_REQUEST a second before the binding drops a silent socket outright.
          handshakeTimeoutMs: Math.max(250, limits.pendingDeadlineMs - 1000),
          onHandlerError: (e, topic, id) =>
            this.log(`${topic} ${id}: ${e instanceof Error ? (e.stack ?? e.message) : String(e)}`),
          ...(this.events && {
            events: this.events.events,
            initialEvent: (event: string) => this.events?.initial(event),
            mergeEventEntry: (event: string, queued: unknown, newer: unknown) =>
              this.events?.mergeEntry(event, queued, newer),
          }),
        },
        // The entry holds the token whatever idea.server.exposeToken says: the file is 0600 in a 0700 folder.
        registry: { ide: `${vscode.env.appName} ${vscode.version}` },
        // Settings keys first, registry entry last: a launcher that sees the entry finds the keys written.
        onListening: ({ port: bound, url }) => {
          this.current = { host: HOST, port: bound, url, token, authRequired };
          this.log(`listening on ${url} (auth ${authRequired ? 'required' : 'off'})`);
          this.exposeConnection(token);
        },
      });
    } catch (e) {
      this.current = undefined;
      const err = e as NodeJS.ErrnoException;
      const msg =
        err.code === 'EADDRINUSE'
          ? `IDEA server: ports ${port}–${port + TRANSPORT.portAttempts - 1} are all in use; set idea.server.port to a free port.`
          : `IDEA server could not start: ${err.message}`;
      this.log(msg);
      void vscode.window.showErrorMessage(msg);
      return undefined;
    }
    const { registryError } = this.running;
    if (registryError)
      this.log(
        `could not register in ${registryDir()}: ${registryError.message} (clients can still use .vscode/settings.json)`,
      );
    else this.log(`registered in ${registryDir()}`);
    this.changed.fire();
    return this.current;
  }

  /** After listening (a launcher treats both keys as "ready"): port always, token when exposeToken is on. */
  private exposeConnection(token: string): void {
    const folder = workspaceFolderPaths()[0];
    if (!folder || !this.current) return;
    const expose = vscode.workspace.getConfiguration('idea.server').get<boolean>('exposeToken', true);
    exposeConnection(folder, this.current.port, expose ? token : undefined, (m) => this.log(m));
  }

  async stop(): Promise<void> {
    await this.starting;
    const r = this.running;
    // First and synchronously: a deactivating host may not live to see the socket closed.
    r?.unregister();
    this.running = undefined;
    this.current = undefined;
    this.clients = 0;
    if (r) {
      await r.close();
      this.log('stopped');
    }
    this.changed.fire();
  }

  dispose(): void {
    this.running?.unregister();
    this.folderWatch.dispose();
    void this.stop();
    this.changed.dispose();
  }
}

/** Logs admission refusals as counts, at most every 5 s: a flood must not flood the output channel too. */
class RefusalLog {
  private counts = new Map<string, number>();
  private timer: ReturnType<typeof setTimeout> | undefined;
  constructor(private readonly log: (m: string) => void) {}
  count(reason: string): void {
    this.counts.set(reason, (this.counts.get(reason) ?? 0) + 1);
    this.timer ??= setTimeout(() => {
      this.timer = undefined;
      const what = [...this.counts].map(([r, n]) => `${n} ${r}`).join(', ');
      this.counts.clear();
      this.log(`refused connections in the last 5 s: ${what} (limits: idea.server.limits.*)`);
    }, 5000);
  }
}
