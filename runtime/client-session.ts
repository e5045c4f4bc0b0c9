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
// One ClientLink is one connection and its handshake; a reconnecting client would open a new link and
// swap it in (nothing else holds connection state).
import { IdeaProtocolError, IdeaValidationError } from "./client-errors";
import { ClientTransport, type RequestOptions, type WebSocketClass } from "./client-transport";
import { handshakeReplyProblem, responseProblem, type FrameValidators } from "./frames";

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
}

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
}

function isObject(v: unknown): v is Record<string, unknown> {
  return typeof v === "object" && v !== null && !Array.isArray(v);
}

/** The validators for a server that announced `version`: its own when known, else the client's. */
async function framesFor(protocol: ClientProtocol, version: unknown): Promise<FrameValidators> {
  if (typeof version !== "string" || version === protocol.version) return protocol.frames;
  return (await protocol.framesOf(version)) ?? protocol.frames;
}

async function acceptHandshake(protocol: ClientProtocol, message: unknown, validate: boolean): Promise<{ handshake: HandshakeInfo; frames: FrameValidators }> {
  if (!isObject(message)) throw new IdeaValidationError("handshake reply is not a JSON object", message);
  if ("error" in message) {
    if (validate) {
      let problem = handshakeReplyProblem(protocol.frames, message);
      // A newer server may refuse with a code this version does not know yet.
      const newest = protocol.newestVersion !== undefined && protocol.newestVersion !== protocol.version ? protocol.framesOf(protocol.newestVersion) : undefined;
      if (problem !== undefined && newest) problem = handshakeReplyProblem(await newest, message);
      if (problem !== undefined) throw new IdeaValidationError(problem, message);
    }
    const error = isObject(message.error) ? message.error : {};
    throw new IdeaProtocolError(String(error.code), String(error.message), "", "");
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
  const validate = options.validate ?? false;
  const hello: Record<string, unknown> = { type: "handshake" };
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
  return { transport, handshake: accepted.handshake, frames: accepted.frames };
}

/** Topic → params and result types (a generated TopicMap fits). */
export type TopicTypes<TM> = { [T in keyof TM]: { params: unknown; result: unknown } };

/** A connected client; generated/<v>/client.ts extends it with one typed method per topic. */
export class ClientSession<TM extends TopicTypes<TM> = Record<string, { params: unknown; result: unknown }>, HS extends HandshakeInfo = HandshakeInfo> {
  private link!: ClientLink;
  /** The advertised topics; undefined when the handshake had no capabilities list (nothing is refused then). */
  private advertised: ReadonlySet<string> | undefined;

  constructor(link: ClientLink) {
    this.useLink(link);
  }

  /**
   * Speaks through `link` from now on: its handshake, capabilities and schemas. The one place a
   * connection's state enters the client, so a reconnecting client swaps in a new link here.
   */
  protected useLink(link: ClientLink): void {
    this.link = link;
    const caps = link.handshake.capabilities;
    this.advertised = Array.isArray(caps) ? new Set(caps) : undefined;
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

  get isClosed(): boolean {
    return this.link.transport.isClosed;
  }

  /** Resolves once the connection has closed (either side). */
  get closed(): Promise<void> {
    return this.link.transport.closed;
  }

  /**
   * Generic typed request; rejects with IdeaProtocolError (UNKNOWN_TOPIC at once, without sending,
   * for a topic the server did not advertise), IdeaTimeoutError, IdeaClosedError, IdeaValidationError
   * or the signal's reason.
   */
  request<T extends keyof TM & string>(topic: T, params: TM[T]["params"], options?: RequestOptions): Promise<TM[T]["result"]> {
    // A closed connection says so first (the transport rejects with IdeaClosedError).
    if (this.advertised !== undefined && !this.advertised.has(topic) && !this.link.transport.isClosed) {
      const version = String(this.link.handshake.version);
      return Promise.reject(new IdeaProtocolError("UNKNOWN_TOPIC", `${topic} is not among the capabilities of the server (protocol ${version}); not sent`, topic, ""));
    }
    return this.link.transport.request(topic, params, options) as Promise<TM[T]["result"]>;
  }

  /** Sends a raw text frame (conformance tests). Answers are visible through onFrame. */
  sendRaw(text: string): void {
    this.link.transport.sendRaw(text);
  }

  /** Observes every incoming frame as raw text; returns the unsubscribe function. */
  onFrame(listener: (text: string) => void): () => void {
    return this.link.transport.onFrame(listener);
  }

  /** Closes the connection; pending requests reject with IdeaClosedError. */
  close(): Promise<void> {
    return this.link.transport.close();
  }
}
