// Diagnostics and the editor state the MCP way: resources (`idea://diagnostics`, `idea://editor`)
// read through their IDEA topic (diag/list, editor/context), and `resources/subscribe` →
// `notifications/resources/updated` driven by the IDEA events (diagnostics/changed, editor/changed).
// The hub is shared by every MCP session, like the IDEA connection: it holds an IDEA subscription to
// an event only while at least one MCP session is subscribed to its resource, and subscribes again on
// every new link (a reconnection starts without subscriptions).
import type { Resource } from '@modelcontextprotocol/sdk/types.js';
import type { EventName, IdeaClient } from '../../generated/current';
import type { IdeaConnection } from './connection';

export interface ResourceSpec {
  uri: string;
  name: string;
  title: string;
  description: string;
  /** Read through this topic (params {}). */
  topic: string;
  /** Its changes are pushed as this event. */
  event: EventName;
}

export const RESOURCES: readonly ResourceSpec[] = [
  {
    uri: 'idea://diagnostics',
    name: 'diagnostics',
    title: 'Diagnostics',
    description:
      'Every diagnostic (error, warning, …) VS Code knows for the workspace, as the diag_list tool answers it with no files. Subscribe to be told when they change.',
    topic: '/app/vscode/diag/list',
    event: '/app/vscode/diagnostics/changed',
  },
  {
    uri: 'idea://editor',
    name: 'editor',
    title: 'Editor state',
    description:
      'The active editor, its selections, the visible editors and the open tabs (editor_context). Subscribe to be told when they change.',
    topic: '/app/vscode/editor/context',
    event: '/app/vscode/editor/changed',
  },
];

export class ResourceError extends Error {
  override readonly name = 'ResourceError';
}

/** The resources `client` can serve: its server advertises both the topic and the event (all without a window). */
export function resourcesFor(client: IdeaClient | undefined): Resource[] {
  return RESOURCES.filter((r) => !client || servable(client, r)).map(({ uri, name, title, description }) => ({
    uri,
    name,
    title,
    description,
    mimeType: 'application/json',
  }));
}

function servable(client: IdeaClient, r: ResourceSpec): boolean {
  return client.supports(r.topic) && (client.handshake.events ?? []).includes(r.event);
}

function specOf(uri: string): ResourceSpec {
  const r = RESOURCES.find((x) => x.uri === uri);
  if (!r) throw new ResourceError(`unknown resource: ${uri}`);
  return r;
}

/** resources/read: the topic's result as JSON. */
export async function readResource(conn: IdeaConnection, uri: string) {
  const r = specOf(uri);
  const client = await conn.get();
  if (!client.supports(r.topic))
    throw new ResourceError(
      `the VS Code window's IDEA server (protocol ${client.handshake.version}) does not offer ${r.topic}`,
    );
  const result = await client.request(r.topic as never, {} as never);
  return { contents: [{ uri, mimeType: 'application/json', text: JSON.stringify(result) }] };
}

/** Told that a resource it subscribed to changed. */
export type Subscriber = (uri: string) => void;

const hubs = new WeakMap<IdeaConnection, ResourceHub>();

/** The one hub of `conn`, shared by every MCP session over it. */
export function hubOf(conn: IdeaConnection): ResourceHub {
  let hub = hubs.get(conn);
  if (!hub) hubs.set(conn, (hub = new ResourceHub(conn)));
  return hub;
}

export class ResourceHub {
  /** uri → the MCP sessions subscribed to it. */
  private readonly subscribers = new Map<string, Set<Subscriber>>();
  /** The IDEA side for `client`: event → the handler's off (present once subscribed on the server). */
  private client: IdeaClient | undefined;
  private readonly active = new Map<EventName, () => void>();
  /** Subscription changes run one at a time, in order. */
  private queue: Promise<void> = Promise.resolve();

  constructor(private readonly conn: IdeaConnection) {
    // A new link (first connection, reconnection) has no subscriptions: make them again.
    conn.onChange((client) => {
      this.forget();
      this.client = client;
      if (client) void this.sync().catch(() => undefined);
    });
  }

  /** resources/subscribe: rejects (and records nothing) when no window serves the folder or it does not push the event. */
  async subscribe(uri: string, who: Subscriber): Promise<void> {
    const r = specOf(uri);
    const client = await this.conn.get();
    if (!servable(client, r))
      throw new ResourceError(
        `the VS Code window's IDEA server (protocol ${client.handshake.version}) does not push ${r.event}, so ${uri} cannot be subscribed to`,
      );
    let set = this.subscribers.get(uri);
    if (!set) this.subscribers.set(uri, (set = new Set()));
    set.add(who);
    try {
      await this.sync();
    } catch (e) {
      this.drop(uri, who);
      throw e;
    }
  }

  async unsubscribe(uri: string, who: Subscriber): Promise<void> {
    specOf(uri);
    this.drop(uri, who);
    await this.sync();
  }

  /** An MCP session ended: its subscriptions go. */
  async removeAll(who: Subscriber): Promise<void> {
    for (const uri of [...this.subscribers.keys()]) this.drop(uri, who);
    await this.sync().catch(() => undefined);
  }

  /** Events the IDEA connection is subscribed to now (tests). */
  get subscribedEvents(): EventName[] {
    return [...this.active.keys()];
  }

  private drop(uri: string, who: Subscriber): void {
    const set = this.subscribers.get(uri);
    set?.delete(who);
    if (set?.size === 0) this.subscribers.delete(uri);
  }

  private forget(): void {
    for (const off of this.active.values()) off();
    this.active.clear();
  }

  /** Brings the IDEA subscriptions in line with the MCP ones. */
  private sync(): Promise<void> {
    const run = this.queue.then(() => this.syncNow());
    this.queue = run.catch(() => undefined);
    return run;
  }

  private async syncNow(): Promise<void> {
    const client = this.client ?? this.conn.current;
    if (client?.state !== 'open') return;
    this.client = client;
    const wanted = new Set(RESOURCES.filter((r) => this.subscribers.has(r.uri)).map((r) => r.event));
    for (const [event, off] of [...this.active]) {
      if (wanted.has(event)) continue;
      off();
      this.active.delete(event);
      await client.eventsUnsubscribe({ events: [event] });
    }
    for (const event of wanted) {
      if (this.active.has(event)) continue;
      const uris = RESOURCES.filter((r) => r.event === event).map((r) => r.uri);
      const off = client.on(event, () => {
        for (const uri of uris) for (const who of [...(this.subscribers.get(uri) ?? [])]) who(uri);
      });
      this.active.set(event, off);
      try {
        await client.subscribe([event]);
      } catch (e) {
        off();
        this.active.delete(event);
        throw e;
      }
    }
  }
}
