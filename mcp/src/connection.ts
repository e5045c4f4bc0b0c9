// The one connection to the IDEA server the MCP server's tools use, shared by every MCP session.
// Opened on first need (an MCP client may start before VS Code), found through runtime/locate.ts (the
// window whose workspace folder contains the working folder), and reopened when it drops: a reloaded
// window comes back on a new port with a new token, so the endpoint is located anew before each attempt.
// When the reconnection gives up, the next call locates again from scratch, and says plainly when no
// window serves the folder.
import { connect, type IdeaClient } from '../../generated/current';
import { resolveEndpoint } from '../../runtime/locate';
import type { ConnectionStateEvent, Endpoint } from '../../runtime/reconnect';

export interface ConnectionOptions {
  /** The folder whose VS Code window serves the tools (default: the process's working folder). */
  cwd?: string;
  /** An explicit server (no discovery; loopback only): its ws:// url, as --url gives it. */
  url?: string;
  /** The token, as --token would give it. */
  token?: string;
  /** Where IDEA_URL and IDEA_TOKEN are read (runtime/locate.ts resolveEndpoint). Default: none; the bin passes process.env. */
  env?: NodeJS.ProcessEnv;
  /** Registry directory (default: the per-user one, or IDEA_REGISTRY_DIR). */
  registry?: string;
  /** Connect, handshake and per-request timeout (ms). Default 30 s. */
  timeoutMs?: number;
  /** Reconnection attempts before giving up (then the next call starts over). Default 30 (about a minute). */
  maxAttempts?: number;
}

export class NoWindowError extends Error {
  override readonly name = 'NoWindowError';
}

export class IdeaConnection {
  private client: IdeaClient | undefined;
  private opening: Promise<IdeaClient> | undefined;
  private readonly listeners = new Set<(client: IdeaClient | undefined) => void>();
  private closed = false;

  constructor(private readonly options: ConnectionOptions = {}) {}

  /** The folder the tools act for (the repository `changed` asks git about). */
  get cwd(): string {
    return this.options.cwd ?? process.cwd();
  }

  /** Where the server is now, by the rule every client follows (flag > environment > registry > settings). */
  async endpoint(): Promise<Endpoint> {
    const { url, token } = await resolveEndpoint({
      url: this.options.url,
      token: this.options.token,
      cwd: this.cwd,
      registry: this.options.registry,
      ...(this.options.env ? { env: this.options.env } : {}),
    });
    return { url, ...(token !== undefined ? { token } : {}) };
  }

  /** The client while it is open or reconnecting, without connecting. */
  get current(): IdeaClient | undefined {
    return this.client && this.client.state !== 'closed' ? this.client : undefined;
  }

  /** The connected client, connecting first when there is none. Rejects with NoWindowError when no window serves the folder. */
  async get(): Promise<IdeaClient> {
    if (this.closed) throw new Error('the MCP server is shutting down');
    const c = this.current;
    if (c) return c;
    this.opening ??= this.open().finally(() => (this.opening = undefined));
    return this.opening;
  }

  /** Called with the client when a connection opens (first time or after a reconnection) and with undefined when it is lost for good. */
  onChange(listener: (client: IdeaClient | undefined) => void): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  async close(): Promise<void> {
    this.closed = true;
    await this.client?.close().catch(() => undefined);
  }

  private async open(): Promise<IdeaClient> {
    let first: Endpoint;
    try {
      first = await this.endpoint();
    } catch (e) {
      const detail = e instanceof Error ? e.message : String(e);
      throw new NoWindowError(`No VS Code window with the IDEA extension is open for this folder. ${detail}`);
    }
    const client = await connect({
      ...first,
      timeoutMs: this.options.timeoutMs ?? 30_000,
      validate: true,
      reconnect: {
        initialDelayMs: 200,
        maxDelayMs: 2_000,
        maxAttempts: this.options.maxAttempts ?? 30,
        endpoint: () => this.endpoint(),
      },
    });
    this.client = client;
    client.onStateChange((e: ConnectionStateEvent) => {
      if (e.state === 'open') this.emit(client);
      else if (e.state === 'closed' && this.client === client) this.emit(undefined);
    });
    this.emit(client);
    return client;
  }

  private emit(client: IdeaClient | undefined): void {
    for (const l of this.listeners) {
      try {
        l(client);
      } catch {
        // a listener's failure is its own
      }
    }
  }
}
