// Client transport core (version-independent): opens the socket, exchanges the handshake, sends
// requests and matches replies by requestId, with per-request timeouts and AbortSignals. One
// transport is one connection; client-session.ts adds the handshake's meaning (versions,
// capabilities, schema checks) and generated/<v>/client.ts the types and per-topic methods.
import { WebSocket as NodeWebSocket } from 'ws';
import { IdeaClosedError, IdeaProtocolError, IdeaTimeoutError, IdeaValidationError } from './client-errors.js';
import { frameText } from './frame-text.js';
import { corkPerTick } from './tick-cork.js';

/** The WHATWG-style socket surface used here (`ws` and the global WebSocket both have it). */
export interface WebSocketLike {
  readonly readyState: number;
  onopen: ((ev: unknown) => void) | null;
  onmessage: ((ev: { data: unknown }) => void) | null;
  onclose: ((ev: { code: number; reason: string }) => void) | null;
  onerror: ((ev: unknown) => void) | null;
  send(data: string): void;
  close(code?: number, reason?: string): void;
}

/** Any WebSocket class with that surface; typed loosely so both `ws` and the global one fit. */
export type WebSocketClass = new (url: string) => object;

const OPEN = 1;

export interface RequestOptions {
  /** Overrides the client's default timeout (ms). */
  timeoutMs?: number;
  signal?: AbortSignal;
}

export interface TransportOptions {
  url: string;
  /** Time allowed for open + handshake, and the default per-request timeout (ms). */
  timeoutMs: number;
  WebSocket?: WebSocketClass;
  handshakeFrame: string;
  /**
   * Checks the handshake reply (parsed, or the raw text when it is not a JSON object): returns the
   * success message or throws (e.g. IdeaProtocolError). May be async (loading another version's
   * schemas); frames arriving meanwhile are dropped, as nothing has been asked yet.
   */
  acceptHandshake(message: unknown): unknown;
  /** Schema check of a reply to `topic`; returns a description of the problem, or undefined. */
  checkResponse?: ResponseCheck;
}

/** Schema check of a reply to a request for `topic`: a one-line problem naming the field, or undefined. */
export type ResponseCheck = (topic: string, message: Record<string, unknown>) => string | undefined;

interface Pending {
  topic: string;
  /** performance.now() after which the request times out. */
  deadline: number;
  timeout(): void;
  resolve(result: unknown): void;
  reject(err: unknown): void;
  cleanup(): void;
}

function parseObject(text: string): Record<string, unknown> | undefined {
  try {
    const v: unknown = JSON.parse(text);
    return v !== null && typeof v === 'object' && !Array.isArray(v) ? (v as Record<string, unknown>) : undefined;
  } catch {
    return undefined;
  }
}

export class ClientTransport {
  private readonly pending = new Map<string, Pending>();
  private readonly listeners = new Set<(text: string) => void>();
  private closedError: IdeaClosedError | undefined;
  private readonly closedPromise: Promise<void>;
  private markClosed!: () => void;
  /** Requests made in one tick leave in one socket write (a no-op for WebSocket classes other than ws). */
  private readonly cork: () => void;
  /**
   * One timer for every pending request, armed for the earliest deadline. A setTimeout +
   * clearTimeout per request cost ~5 µs of each sequential round trip (bench/FINDINGS.md). Unref'd:
   * a pending request implies an open socket, which keeps the process alive.
   */
  private timer: ReturnType<typeof setTimeout> | undefined;
  private timerAt = Infinity;
  /** Checks each reply; set once the handshake said which version's schemas apply. */
  checkResponse: ResponseCheck | undefined;
  /** Set when the server's version has cancel frames (0.1.7 on): an aborted request then sends one. */
  cancelOnAbort = false;
  /** Receives every event frame (`"type":"event"`, no requestId), parsed; set by the client session. */
  onEvent: ((msg: Record<string, unknown>) => void) | undefined;

  private constructor(
    private readonly socket: WebSocketLike,
    private readonly options: TransportOptions,
  ) {
    this.closedPromise = new Promise((resolve) => (this.markClosed = resolve));
    this.cork = corkPerTick(socket);
    this.checkResponse = options.checkResponse;
  }

  /** Opens the socket and completes the handshake; resolves with the transport and the handshake reply. */
  static open(options: TransportOptions): Promise<{ transport: ClientTransport; handshake: unknown }> {
    const Ctor = (options.WebSocket ?? NodeWebSocket) as unknown as new (url: string) => WebSocketLike;
    return new Promise((resolve, reject) => {
      let socket: WebSocketLike;
      try {
        socket = new Ctor(options.url);
      } catch (err) {
        reject(err);
        return;
      }
      const transport = new ClientTransport(socket, options);
      let settled = false;
      const fail = (err: unknown) => {
        if (settled) return;
        settled = true;
        clearTimeout(timer);
        if (socket.readyState <= OPEN) socket.close(1000, 'handshake failed');
        reject(err);
      };
      const timer = setTimeout(
        () => fail(new IdeaClosedError(`no handshake from ${options.url} within ${options.timeoutMs} ms`)),
        options.timeoutMs,
      );
      socket.onopen = () => socket.send(options.handshakeFrame);
      socket.onerror = (ev) => {
        const detail = (ev as { message?: string; error?: Error }).message ?? (ev as { error?: Error }).error?.message;
        fail(new IdeaClosedError(`cannot connect to ${options.url}${detail ? `: ${detail}` : ''}`));
      };
      let replied = false;
      socket.onclose = (ev) => {
        transport.onSocketClose(ev.code, ev.reason);
        // Once the reply is in, its verdict decides (a refusal is followed by the server's close).
        if (!replied)
          fail(new IdeaClosedError(`connection closed during handshake (${ev.code} ${ev.reason})`, ev.code, ev.reason));
      };
      socket.onmessage = (ev) => {
        // No onFrame listener can exist yet: they are added on the transport open() resolves with.
        if (settled || replied) return;
        replied = true;
        const text = frameText(ev.data);
        const accept = (handshake: unknown) => {
          if (settled) return; // timed out meanwhile
          settled = true;
          clearTimeout(timer);
          // Closed while the reply was being checked: the transport is closed and requests reject.
          socket.onmessage = (e) => transport.onSocketFrame(frameText(e.data));
          socket.onerror = () => undefined; // the close event follows and rejects what is pending
          socket.onclose = (e) => transport.onSocketClose(e.code, e.reason);
          resolve({ transport, handshake });
        };
        try {
          const handshake = options.acceptHandshake(parseObject(text) ?? text);
          if (handshake instanceof Promise) handshake.then(accept, fail);
          else accept(handshake);
        } catch (err) {
          fail(err);
        }
      };
    });
  }

  get isClosed(): boolean {
    return this.closedError !== undefined;
  }

  get inFlight(): number {
    return this.pending.size;
  }

  /** Resolves when the socket has closed. */
  get closed(): Promise<void> {
    return this.closedPromise;
  }

  request(topic: string, params: unknown, opts: RequestOptions = {}): Promise<unknown> {
    if (this.closedError) return Promise.reject(this.closedError);
    const { signal } = opts;
    if (signal?.aborted) return Promise.reject(signal.reason);
    const requestId = crypto.randomUUID();
    const timeoutMs = opts.timeoutMs ?? this.options.timeoutMs;
    return new Promise((resolve, reject) => {
      const onAbort = () => {
        entry.cleanup();
        // Tell the server to stop (its CANCELLED answer then finds nothing pending and is dropped).
        if (this.cancelOnAbort && !this.closedError && this.socket.readyState === OPEN) {
          try {
            this.socket.send(JSON.stringify({ type: 'cancel', requestId }));
          } catch {
            // the socket is going away; its close rejects nothing more
          }
        }
        reject(signal!.reason);
      };
      const entry: Pending = {
        topic,
        deadline: performance.now() + timeoutMs,
        timeout: () => {
          entry.cleanup();
          reject(new IdeaTimeoutError(`${topic}: no answer within ${timeoutMs} ms`, topic, requestId));
        },
        resolve,
        reject,
        cleanup: () => {
          signal?.removeEventListener('abort', onAbort);
          this.pending.delete(requestId);
        },
      };
      signal?.addEventListener('abort', onAbort, { once: true });
      this.pending.set(requestId, entry);
      if (entry.deadline < this.timerAt) this.armTimer(entry.deadline);
      try {
        this.cork();
        this.socket.send(JSON.stringify({ topic, requestId, params: params ?? {} }));
      } catch (err) {
        entry.cleanup();
        reject(err);
      }
    });
  }

  private armTimer(at: number): void {
    clearTimeout(this.timer);
    this.timerAt = at;
    this.timer = setTimeout(() => this.expire(), Math.max(0, at - performance.now()));
    this.timer.unref?.();
  }

  /** Times out every request past its deadline, then re-arms for the earliest one left. */
  private expire(): void {
    this.timer = undefined;
    this.timerAt = Infinity;
    const now = performance.now();
    let next = Infinity;
    for (const entry of [...this.pending.values()]) {
      if (entry.deadline <= now) entry.timeout();
      else if (entry.deadline < next) next = entry.deadline;
    }
    if (next < Infinity && !this.closedError) this.armTimer(next);
  }

  /** Sends text as-is (conformance tests use it for malformed frames). */
  sendRaw(text: string): void {
    if (this.socket.readyState !== OPEN) throw new IdeaClosedError('connection is not open');
    this.socket.send(text);
  }

  /** Observes every incoming frame (raw text); returns the unsubscribe function. */
  onFrame(listener: (text: string) => void): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  /** Closes the connection (1000); pending requests reject with IdeaClosedError. */
  close(): Promise<void> {
    if (!this.closedError && this.socket.readyState <= OPEN) this.socket.close(1000, 'client closing');
    return this.closedPromise;
  }

  private onSocketFrame(text: string): void {
    for (const l of this.listeners) {
      try {
        l(text);
      } catch {
        // a hook must not break the dispatch of replies
      }
    }
    const msg = parseObject(text);
    if (!msg) return;
    if (msg.type === 'event' && msg.requestId === undefined) {
      try {
        this.onEvent?.(msg);
      } catch {
        // a subscriber's handler must not break the dispatch of replies
      }
      return;
    }
    if (typeof msg.requestId !== 'string') return;
    const entry = this.pending.get(msg.requestId);
    if (!entry) return; // late reply to a timed-out or aborted request, or not ours
    entry.cleanup();
    const problem = this.checkResponse?.(entry.topic, msg);
    if (problem !== undefined) {
      entry.reject(new IdeaValidationError(problem, msg));
      return;
    }
    const error = msg.error as { code?: unknown; message?: unknown } | undefined;
    if (error !== undefined && error !== null) {
      entry.reject(
        new IdeaProtocolError(
          String(error.code),
          String(error.message),
          String(msg.topic ?? ''),
          msg.requestId,
          typeof error === 'object' ? (error as Record<string, unknown>) : undefined,
        ),
      );
    } else entry.resolve(msg.result);
  }

  private onSocketClose(code: number, reason: string): void {
    if (this.closedError) return;
    this.closedError = new IdeaClosedError(`connection closed (${code}${reason ? ` ${reason}` : ''})`, code, reason);
    clearTimeout(this.timer);
    this.timer = undefined;
    this.timerAt = Infinity;
    for (const entry of [...this.pending.values()]) {
      entry.cleanup();
      entry.reject(this.closedError);
    }
    this.markClosed();
  }
}
