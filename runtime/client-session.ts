// The client engine, once for every protocol version: connects (client-transport.ts), reads the
// server's handshake and from then on speaks to that server as it announced itself.
// - Schemas: with `validate`, every frame is checked against the schemas of the version the server
//   ANNOUNCED (its handshake's `version`) when this tree has generated code for it
//   (generated/versions.ts), else against the client's own version. A handshake failure carries no
//   version: it is accepted if the client's own or the newest known version allows it.
// - Capabilities: a request for a topic the server did not advertise is rejected at once with
//   IdeaProtocolError UNKNOWN_TOPIC (requestId "") and never sent.
// generated/<v>/client.ts adds the version's types and one method per topic.
//
// - Reconnect (opt-in, `reconnect`): when a connection drops without close() the session opens a new
//   link with backoff (runtime/reconnect.ts) and swaps it in; requests in flight at the drop reject
//   with IdeaClosedError, requests made meanwhile wait for the new link within their own timeout.
//
// One ClientLink is one connection and its handshake; useLink is the one place a link's state enters
// the session.
import { IdeaClosedError, IdeaProtocolError, IdeaTimeoutError, IdeaValidationError } from './client-errors.js';
import { ClientTransport, type RequestOptions, type WebSocketClass } from './client-transport.js';
import { eventProblem, type FrameValidators, handshakeReplyProblem, isObject, responseProblem } from './frames.js';
import {
  backoffDelay,
  type ConnectionState,
  type ConnectionStateEvent,
  type Endpoint,
  type ReconnectOptions,
  type ReconnectPolicy,
  reconnectPolicy,
} from './reconnect.js';

export type { ConnectionState, ConnectionStateEvent, Endpoint, ReconnectOptions } from './reconnect.js';

export const DEFAULT_TIMEOUT_MS = 30_000;

/** What generated/<v>/client.ts states about its version. */
export interface ClientProtocol {
  /** The client's own protocol version. */
  readonly version: string;
  readonly frames: FrameValidators;
  /** Used when ClientOptions.url is not given. */
  readonly defaultUrl: string;
  /** The frame validators of another version, when this tree has generated code for it. */
  framesOf(version: string): Promise<FrameValidators> | undefined;
  /** The newest version this tree knows (a handshake failure is also checked against it). */
  readonly newestVersion?: string;
}

export interface ClientOptions {
  /** Default ws://127.0.0.1:<the version's default port>. */
  url?: string;
  /** Sent in the handshake; required when the server requires auth. */
  token?: string;
  /** Connect + handshake timeout, and the default per-request timeout. Default 30 s. */
  timeoutMs?: number;
  /** Check every incoming frame against the schemas; a bad one rejects with IdeaValidationError. */
  validate?: boolean;
  /** WebSocket class to use (default: the `ws` package). */
  WebSocket?: WebSocketClass;
  /** Reopen the connection when it drops (off by default); see runtime/reconnect.ts. */
  reconnect?: boolean | ReconnectOptions;
}

/** Receives an event's data and how many events the server dropped before it (0: none). */
export type EventHandler = (data: unknown, dropped: number) => void;

/** A successful handshake reply as every version has it (authRequired since 0.1.3). */
export interface HandshakeInfo {
  readonly version: string;
  readonly capabilities: readonly string[];
  readonly workspaces: readonly string[];
  readonly authRequired?: boolean;
}

/** One open connection: its transport, the server's handshake and the schemas it is held to. */
export interface ClientLink {
  readonly transport: ClientTransport;
  readonly handshake: HandshakeInfo;
  /** The validators frames are checked with (the announced version's, or the client's own). */
  readonly frames: FrameValidators;
  /** Event frames are checked against `frames` before delivery (the client's `validate`). */
  readonly validateEvents?: boolean;
  /** How to open the next link when this one drops; present when reconnecting is on. */
  readonly reconnect?: Reconnector;
}

/** What a session needs to reconnect: the policy, and opening a link to an endpoint with the same options. */
export interface Reconnector {
  readonly policy: ReconnectPolicy;
  /** The endpoint connected to first (used when the policy has no `endpoint`). */
  readonly first: Endpoint;
  /** Default time a request may wait for a reconnection (the client's timeoutMs). */
  readonly timeoutMs: number;
  open(endpoint: Endpoint): Promise<ClientLink>;
}

/** The validators for a server that announced `version`: its own when known, else the client's. */
async function framesFor(protocol: ClientProtocol, version: unknown): Promise<FrameValidators> {
  if (typeof version !== 'string' || version === protocol.version) return protocol.frames;
  return (await protocol.framesOf(version)) ?? protocol.frames;
}

async function acceptHandshake(
  protocol: ClientProtocol,
  message: unknown,
  validate: boolean,
): Promise<{ handshake: HandshakeInfo; frames: FrameValidators }> {
  if (!isObject(message)) throw new IdeaValidationError('handshake reply is not a JSON object', message);
  if ('error' in message) {
    if (validate) {
      let problem = handshakeReplyProblem(protocol.frames, message);
      // A newer server may refuse with a code this version does not know yet.
      const newest =
        protocol.newestVersion !== undefined && protocol.newestVersion !== protocol.version
          ? protocol.framesOf(protocol.newestVersion)
          : undefined;
      if (problem !== undefined && newest) problem = handshakeReplyProblem(await newest, message);
      if (problem !== undefined) throw new IdeaValidationError(problem, message);
    }
    const error = isObject(message.error) ? message.error : {};
    throw new IdeaProtocolError(String(error.code), String(error.message), '', '');
  }
  const frames = await framesFor(protocol, message.version);
  if (validate) {
    const problem = handshakeReplyProblem(frames, message);
    if (problem !== undefined) throw new IdeaValidationError(problem, message);
  }
  return { handshake: message as unknown as HandshakeInfo, frames };
}

/** Opens a connection and completes the handshake. Rejects with IdeaProtocolError (e.g. UNAUTHORIZED), IdeaValidationError or IdeaClosedError. */
export async function openClientLink(protocol: ClientProtocol, options: ClientOptions = {}): Promise<ClientLink> {
  const policy = reconnectPolicy(options.reconnect);
  const link = await openOnce(protocol, options);
  if (!policy) return link;
  const url = options.url ?? protocol.defaultUrl;
  const reconnect: Reconnector = {
    policy,
    first: { url, ...(options.token !== undefined ? { token: options.token } : {}) },
    timeoutMs: options.timeoutMs ?? DEFAULT_TIMEOUT_MS,
    async open(endpoint) {
      // The endpoint decides url and token (a reloaded window has a new one); the rest is as first.
      const next = await openOnce(protocol, { ...options, url: endpoint.url, token: endpoint.token });
      return { ...next, reconnect };
    },
  };
  return { ...link, reconnect };
}

async function openOnce(protocol: ClientProtocol, options: ClientOptions): Promise<ClientLink> {
  const validate = options.validate ?? false;
  const hello: Record<string, unknown> = { type: 'handshake' };
  if (options.token !== undefined) hello.token = options.token;
  const { transport, handshake } = await ClientTransport.open({
    url: options.url ?? protocol.defaultUrl,
    timeoutMs: options.timeoutMs ?? DEFAULT_TIMEOUT_MS,
    WebSocket: options.WebSocket,
    handshakeFrame: JSON.stringify(hello),
    acceptHandshake: (m) => acceptHandshake(protocol, m, validate),
  });
  const accepted = handshake as Awaited<ReturnType<typeof acceptHandshake>>;
  if (validate) transport.checkResponse = (topic, msg) => responseProblem(accepted.frames, topic, msg);
  return { transport, handshake: accepted.handshake, frames: accepted.frames, validateEvents: validate };
}

/** Topic → params and result types (a generated TopicMap fits). */
export type TopicTypes<TM> = { [T in keyof TM]: { params: unknown; result: unknown } };

/** A connected client; generated/<v>/client.ts extends it with one typed method per topic. */
export class ClientSession<
  TM extends TopicTypes<TM> = Record<string, { params: unknown; result: unknown }>,
  HS extends HandshakeInfo = HandshakeInfo,
> {
  private link!: ClientLink;
  /** The advertised topics; undefined when the handshake had no capabilities list (nothing is refused then). */
  private advertised: ReadonlySet<string> | undefined;
  private current: ConnectionState = 'open';
  private userClosed = false;
  private readonly stateListeners = new Set<(e: ConnectionStateEvent) => void>();
  private readonly frameListeners = new Set<(text: string) => void>();
  /** Event name → local handlers (on()); kept across reconnections, subscriptions are not. */
  private readonly eventHandlers = new Map<string, Set<EventHandler>>();
  private detachFrames: (() => void) | undefined;
  /** Requests waiting for a reconnection. */
  private readonly waiters = new Set<{ ready(): void; fail(e: Error): void }>();
  /** Cancels the backoff sleep when close() is called while reconnecting. */
  private wake: (() => void) | undefined;
  private readonly finalClosed: Promise<void>;
  private markFinalClosed!: () => void;

  constructor(link: ClientLink) {
    this.finalClosed = new Promise((resolve) => (this.markFinalClosed = resolve));
    this.useLink(link);
  }

  /**
   * Speaks through `link` from now on: its handshake, capabilities and schemas. The one place a
   * connection's state enters the client; a reconnection swaps its new link in here.
   */
  protected useLink(link: ClientLink): void {
    this.link = link;
    link.transport.cancelOnAbort = link.frames.cancel !== undefined;
    link.transport.onEvent = (msg) => this.dispatchEvent(msg);
    const caps = link.handshake.capabilities;
    this.advertised = Array.isArray(caps) ? new Set(caps) : undefined;
    this.detachFrames?.();
    this.detachFrames = this.frameListeners.size > 0 ? this.forwardFrames(link) : undefined;
    void link.transport.closed.then(() => this.linkClosed(link));
  }

  /** The server's handshake reply: version, authRequired (since 0.1.3), capabilities, workspaces. */
  get handshake(): HS {
    return this.link.handshake as HS;
  }

  /** The protocol version whose schemas frames are checked against (with `validate`). */
  get schemaVersion(): string {
    return this.link.frames.version;
  }

  /** Whether the server advertised `topic` in its handshake capabilities. */
  supports(topic: string): boolean {
    return this.advertised?.has(topic) ?? false;
  }

  /** Requests awaiting an answer. */
  get inFlight(): number {
    return this.link.transport.inFlight;
  }

  /** "open", "reconnecting" (only with `reconnect`) or "closed". */
  get state(): ConnectionState {
    if (this.current === 'open' && this.link.transport.isClosed && !this.link.reconnect) return 'closed';
    return this.current;
  }

  get isClosed(): boolean {
    return this.state === 'closed';
  }

  /** Resolves once the client is closed for good (with `reconnect`: closed by you, or given up). */
  get closed(): Promise<void> {
    return this.link.reconnect ? this.finalClosed : this.link.transport.closed;
  }

  /** Observes state changes (open → reconnecting → open …, closed); returns the unsubscribe function. */
  onStateChange(listener: (e: ConnectionStateEvent) => void): () => void {
    this.stateListeners.add(listener);
    return () => this.stateListeners.delete(listener);
  }

  /**
   * Generic typed request; rejects with IdeaProtocolError (UNKNOWN_TOPIC at once, without sending,
   * for a topic the server did not advertise), IdeaTimeoutError, IdeaClosedError, IdeaValidationError
   * or the signal's reason. While reconnecting it first waits for the new connection (within its timeout).
   */
  request<T extends keyof TM & string>(
    topic: T,
    params: TM[T]['params'],
    options?: RequestOptions,
  ): Promise<TM[T]['result']> {
    if (this.current === 'reconnecting') return this.afterReconnect(topic, params, options);
    // A closed connection says so first (the transport rejects with IdeaClosedError).
    if (this.advertised !== undefined && !this.advertised.has(topic) && !this.link.transport.isClosed) {
      const version = String(this.link.handshake.version);
      return Promise.reject(
        new IdeaProtocolError(
          'UNKNOWN_TOPIC',
          `${topic} is not among the capabilities of the server (protocol ${version}); not sent`,
          topic,
          '',
        ),
      );
    }
    return this.link.transport.request(topic, params, options) as Promise<TM[T]['result']>;
  }

  /**
   * Calls `handler` with the data of every `event` frame this connection receives (after subscribing
   * to it: events/subscribe); returns the function that removes the handler. With `validate`, frames
   * that do not conform to the announced version's schemas are not delivered.
   */
  onEvent(event: string, handler: EventHandler): () => void {
    let set = this.eventHandlers.get(event);
    if (!set) this.eventHandlers.set(event, (set = new Set()));
    set.add(handler);
    return () => {
      set.delete(handler);
      if (set.size === 0 && this.eventHandlers.get(event) === set) this.eventHandlers.delete(event);
    };
  }

  private dispatchEvent(msg: Record<string, unknown>): void {
    if (typeof msg.event !== 'string') return;
    const handlers = this.eventHandlers.get(msg.event);
    if (!handlers) return;
    if (this.link.validateEvents && eventProblem(this.link.frames, msg) !== undefined) return;
    const dropped = typeof msg.dropped === 'number' ? msg.dropped : 0;
    for (const h of [...handlers]) {
      try {
        h(msg.data, dropped);
      } catch {
        // one handler's failure must not keep the event from the others
      }
    }
  }

  /** Sends a raw text frame (conformance tests). Answers are visible through onFrame. */
  sendRaw(text: string): void {
    this.link.transport.sendRaw(text);
  }

  /** Observes every incoming frame as raw text (across reconnections); returns the unsubscribe function. */
  onFrame(listener: (text: string) => void): () => void {
    this.frameListeners.add(listener);
    this.detachFrames ??= this.forwardFrames(this.link);
    return () => {
      this.frameListeners.delete(listener);
      if (this.frameListeners.size === 0) {
        this.detachFrames?.();
        this.detachFrames = undefined;
      }
    };
  }

  /** Closes the connection (and stops reconnecting); pending requests reject with IdeaClosedError. */
  close(): Promise<void> {
    this.userClosed = true;
    if (this.current === 'reconnecting') this.finish(new IdeaClosedError('client closed while reconnecting'));
    return this.link.transport.close().then(() => (this.link.reconnect ? this.finalClosed : undefined));
  }

  private forwardFrames(link: ClientLink): () => void {
    return link.transport.onFrame((text) => {
      for (const l of this.frameListeners) {
        try {
          l(text);
        } catch {
          // one hook's failure must not keep the frame from the others
        }
      }
    });
  }

  private emit(e: ConnectionStateEvent): void {
    for (const l of this.stateListeners) {
      try {
        l(e);
      } catch {
        // a listener's failure must not stop the reconnection
      }
    }
  }

  private linkClosed(link: ClientLink): void {
    if (link !== this.link || this.current !== 'open') return;
    const reconnect = link.reconnect;
    if (!reconnect || this.userClosed) return this.finish();
    void this.reconnectLoop(reconnect, new IdeaClosedError('connection lost'));
  }

  private async reconnectLoop(r: Reconnector, cause: Error): Promise<void> {
    this.current = 'reconnecting';
    let error = cause;
    for (let attempt = 1; attempt <= r.policy.maxAttempts; attempt++) {
      this.emit({ state: 'reconnecting', attempt, error });
      await new Promise<void>((resolve) => {
        const t = setTimeout(resolve, backoffDelay(r.policy, attempt));
        this.wake = () => {
          clearTimeout(t);
          resolve();
        };
      });
      this.wake = undefined;
      if (this.userClosed) return;
      try {
        const endpoint = r.policy.endpoint ? await r.policy.endpoint() : r.first;
        const next = await r.open(endpoint);
        if (this.userClosed) {
          await next.transport.close();
          return;
        }
        this.current = 'open';
        this.useLink(next);
        this.emit({ state: 'open', attempt });
        for (const w of this.waiters) w.ready();
        this.waiters.clear();
        return;
      } catch (e) {
        error = e instanceof Error ? e : new Error(String(e));
      }
    }
    this.finish(new IdeaClosedError(`gave up reconnecting after ${r.policy.maxAttempts} attempt(s): ${error.message}`));
  }

  /** Closed for good: waiting requests reject, listeners hear it once. */
  private finish(reason?: Error): void {
    if (this.current === 'closed') return;
    this.current = 'closed';
    this.wake?.();
    for (const w of this.waiters) w.fail(reason ?? new IdeaClosedError('connection closed'));
    this.waiters.clear();
    this.emit({ state: 'closed', attempt: 0, ...(reason ? { error: reason } : {}) });
    this.markFinalClosed();
  }

  /** A request made while reconnecting: sent on the new link, within the time it had. */
  private afterReconnect<T extends keyof TM & string>(
    topic: T,
    params: TM[T]['params'],
    options?: RequestOptions,
  ): Promise<TM[T]['result']> {
    const started = performance.now();
    const timeoutMs = options?.timeoutMs ?? this.link.reconnect?.timeoutMs ?? DEFAULT_TIMEOUT_MS;
    const signal = options?.signal;
    if (signal?.aborted) return Promise.reject(signal.reason);
    return new Promise<void>((resolve, reject) => {
      const waiter = {
        ready: () => {
          cleanup();
          resolve();
        },
        fail: (e: Error) => {
          cleanup();
          reject(e);
        },
      };
      const timer = setTimeout(
        () =>
          waiter.fail(
            new IdeaTimeoutError(`no connection to the server within ${timeoutMs} ms (reconnecting)`, topic, ''),
          ),
        timeoutMs,
      );
      const onAbort = () => waiter.fail(signal!.reason as Error);
      signal?.addEventListener('abort', onAbort, { once: true });
      const cleanup = () => {
        clearTimeout(timer);
        signal?.removeEventListener('abort', onAbort);
        this.waiters.delete(waiter);
      };
      this.waiters.add(waiter);
    }).then(() => {
      const left = Math.max(1, timeoutMs - (performance.now() - started));
      return this.request(topic, params, { ...options, timeoutMs: left });
    });
  }
}
