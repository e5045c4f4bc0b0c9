// The server's connection state machine, once for every protocol version. generated/<v>/server.ts
// binds it to its version: the frame validators, the route table (topic → handler method + params
// defaults) and whether the version has token auth. Bind a session to sockets with ws-server.ts.
//
// State machine (one session per connection):
// - awaiting-handshake: the first frame must be {"type":"handshake"} (schema-valid), else a handshake
//   failure INVALID_REQUEST and close 1002. In a version with auth and auth required, a missing/wrong
//   token (compared in constant time) gets a handshake failure UNAUTHORIZED and close 1008; a server
//   required to authenticate without a token refuses everyone. With auth off, or in a version without
//   auth, the token is ignored. Success replies with version, authRequired (versions with auth),
//   capabilities (the topics that have a handler) and workspaces. A valid handshake takes a client slot
//   (`admit`, from the transport) before the success is sent; with none left it gets a handshake failure
//   HANDLER_ERROR naming the limit and close 1013 (Try Again Later), like a refused token: a clear
//   answer, never a hang.
// - open: each frame is one request. Not JSON / not an object → PARSE_ERROR with topic and requestId
//   "". Envelope or params invalid → INVALID_REQUEST naming the field ("params.line must be integer").
//   Topic not served → UNKNOWN_TOPIC. A second handshake → INVALID_REQUEST ("handshake already
//   completed"), the connection stays open. Errors echo topic/requestId when they were strings.
//   Requests run concurrently and are answered as they complete; over maxInFlight running requests a
//   new one is answered HANDLER_ERROR at once (never queued).
// - closed (onClose, or after a handshake failure): frames are ignored, pending answers dropped,
//   ctx.signal aborted.
// Since 0.1.7 (versions whose route table has events and cancel):
// - cancel: {"type":"cancel","requestId"} after the handshake aborts that running request's ctx.signal
//   and answers it CANCELLED at once; its handler's own answer is then dropped. A handler that called
//   ctx.holdCancelAnswer() (the write topics, once their write begins) is answered when it settles
//   instead: its result if it returned one (the write reached its commit point), a ProtocolError it
//   threw as that error, any other throw CANCELLED (its work undone first). Either way every request
//   gets exactly one answer. Unknown or answered ids are ignored (no frame); a malformed cancel is
//   INVALID_REQUEST with topic and requestId "".
// - events: events/subscribe and events/unsubscribe are served here, not by handlers (routes marked
//   `session`); emit() sends an event to this connection if it subscribed, through its EventQueue.
//   A subscribe takes effect when its frame arrives, in frame order; its answer waits for the optional
//   `beforeSubscribe` hook (idea-server: until its file watcher watches), other frames being served
//   meanwhile. Until then the events it newly subscribed to are held (not sent, so none comes before the
//   answer or its initial state); the answer lists the subscriptions when it is sent (a later
//   unsubscribe wins), and a close during the wait sends nothing.
// Params defaults: validators never touch the wire object; the session fills the params schema's
// top-level defaults into a copy before calling the handler (the handler's params type says so).

import { setMaxListeners } from 'node:events';
import { type Coalesce, EventQueue, type MergeEntry } from './event-queue.js';
import { type FrameValidators, isObject, type Validate } from './frames.js';
import { tokensEqual } from './token.js';
import { describeValidationError } from './validation-message.js';

/** Params as a handler receives them: the keys with a schema default are always present. */
export type WithDefaults<P, K extends keyof P> = Omit<P, K> & { [Q in K]-?: Exclude<P[Q], undefined> };

export interface RequestContext<T extends string = string> {
  readonly topic: T;
  readonly requestId: string;
  /** Aborted when the connection closes, or (0.1.7 on) when the client cancels the request. */
  readonly signal: AbortSignal;
  /**
   * Since 0.1.7: "my cancel answer waits for me". By default a cancel answers CANCELLED at once and the
   * handler's own answer is dropped, which suits work that changes nothing (reads). Work that changes
   * something and can be undone only up to a commit point (a write of several files) calls this before
   * it changes anything; from then on a cancel aborts `signal` but sends nothing, and the request is
   * answered once the handler settles, exactly once:
   * - it returns a result (the work passed its commit point and is done): that result;
   * - it throws a ProtocolError (e.g. the undo itself failed): that error, as without a cancel;
   * - it throws anything else (it saw the abort and undid its work): CANCELLED.
   * So CANCELLED is sent only after the handler has undone what it did (T41: a write answered CANCELLED
   * changed nothing). Settle promptly once `signal` aborts: the client waits for this answer. Calling it
   * again is harmless; after the request was answered CANCELLED already (the cancel came first) it does
   * nothing, and the handler must not start its changes (`signal` is aborted). Optional in the type
   * only so that contexts made by hand (tests) need not have it: sessions always provide it.
   */
  holdCancelAnswer?(): void;
}

/** What the aroundRequest hook learns of a request: its context, and the connection's load. */
export interface AroundRequest<T extends string = string> extends RequestContext<T> {
  /** The connection's other requests whose handler has not settled. */
  readonly ownInFlight: number;
}

/**
 * Thrown by a handler to answer with a specific code (e.g. INVALID_REQUEST for a bad path). `details` are
 * further fields of the error body its version defines (0.1.8: `candidates` of a name path); `code` and
 * `message` are always the error's own.
 */
export class ProtocolError<Code extends string = string> extends Error {
  override readonly name = 'ProtocolError';
  constructor(
    readonly code: Code,
    message: string,
    readonly details?: Readonly<Record<string, unknown>>,
  ) {
    super(message);
  }
}

/** Close status after a refused handshake: wrong/missing token. */
export const CLOSE_UNAUTHORIZED = 1008;
/** Close status after a first frame that is not a valid handshake. */
export const CLOSE_PROTOCOL_ERROR = 1002;
/** Close status after a valid handshake the server has no room for (client cap): Try Again Later. */
export const CLOSE_TRY_AGAIN_LATER = 1013;
/** Default maxInFlight: generous for pipelining clients, still a bound. */
export const DEFAULT_MAX_IN_FLIGHT = 1000;

/** One topic of the route table: the handler method that serves it and its params defaults. */
export interface RouteSpec<M extends string = string> {
  readonly method: M;
  readonly defaults: Readonly<Record<string, unknown>>;
  /** Served by the session itself (events/subscribe, events/unsubscribe), never by a handler. */
  readonly session?: true;
}

/** A topic the session serves itself (0.1.7 on: events/subscribe, events/unsubscribe): no handler method. */
export type SessionRouteSpec = RouteSpec<string> & { readonly session: true };

/** What generated/<v>/server.ts states about its version. */
export interface ServerProtocolSpec<H> {
  readonly frames: FrameValidators;
  /** The version has token auth (handshake token, authRequired, UNAUTHORIZED). */
  readonly auth: boolean;
  /** Topic → route, in the topic index's order (capabilities keep it). */
  readonly routes: { readonly [topic: string]: RouteSpec<keyof H & string> | SessionRouteSpec };
  /** Since 0.1.7: event name → how its undelivered events coalesce (index.json events[].coalesce). */
  readonly events?: { readonly [event: string]: Coalesce };
  /** Since 0.1.7: the version has cancel frames and the CANCELLED code. */
  readonly cancel?: boolean;
  /** The version is a draft (not released): the handshake success says `draft: true`. */
  readonly draft?: boolean;
}

interface Route<H> {
  readonly topic: string;
  readonly method: keyof H & string;
  readonly validateParams: Validate;
  readonly validateResult: Validate;
  /** [key, value, is an object (cloned per request)] */
  readonly defaults: readonly (readonly [string, unknown, boolean])[];
  readonly session: boolean;
}

/** A version's routes, resolved once (validators looked up, defaults listed) for every session of it. */
export class ServerProtocol<H> {
  readonly version: string;
  readonly auth: boolean;
  readonly validateHandshake: Validate;
  readonly validateRequest: Validate;
  /** Every topic of the version, in index order. */
  readonly topics: readonly string[];
  private readonly routes = new Map<string, Route<H>>();
  /** Every event of the version (none before 0.1.7). */
  readonly events: readonly string[];
  readonly coalesce: ReturnType<typeof EventQueue.rules>;
  /** The cancel frame's validator when the version has cancel. */
  readonly validateCancel: Validate | undefined;

  /** What the version states (a server claiming another version can be made from it: tests). */
  constructor(readonly spec: ServerProtocolSpec<H>) {
    const { frames } = spec;
    this.version = frames.version;
    this.auth = spec.auth;
    this.validateHandshake = frames.handshakeRequest;
    this.validateRequest = frames.request;
    for (const [topic, r] of Object.entries(spec.routes)) {
      const validateParams = frames.params.get(topic);
      const validateResult = frames.results.get(topic);
      if (!validateParams || !validateResult) throw new Error(`protocol ${this.version}: no validators for ${topic}`);
      const defaults = Object.entries(r.defaults).map(([k, v]) => [k, v, typeof v === 'object' && v !== null] as const);
      const session = r.session === true;
      this.routes.set(topic, {
        topic,
        method: r.method as keyof H & string,
        validateParams,
        validateResult,
        defaults,
        session,
      });
    }
    this.topics = [...this.routes.keys()];
    this.events = Object.keys(spec.events ?? {});
    this.coalesce = EventQueue.rules(spec.events ?? {});
    this.validateCancel = spec.cancel ? frames.cancel : undefined;
  }

  /** The route of `topic` (any string a client sent; a Map, so "__proto__" is just unknown). */
  route(topic: string): Route<H> | undefined {
    return this.routes.get(topic);
  }
}

export interface ServerSessionOptions<H, T extends string = string> {
  /** Topics without a handler are not advertised and answer UNKNOWN_TOPIC. */
  handlers: Partial<H>;
  /**
   * Token auth, in versions that have it; `required: false` ignores any token sent. Missing in such a
   * version: treated as required without a token (everyone is refused).
   */
  auth?: { required: boolean; token?: string };
  /** Absolute paths of the open workspace folders, read at handshake time. */
  workspaces: () => string[];
  send(frame: string): void;
  close(code: number, reason: string): void;
  /**
   * Called once a handshake passed every check, before the success is sent: takes a client slot and
   * returns undefined, or returns why there is none (the handshake is then refused with HANDLER_ERROR
   * and close 1013). The ws binding passes `io.admit`; without it every valid handshake is accepted.
   */
  admit?(): string | undefined;
  /** Refuse a connection that sends no handshake within this many ms (INVALID_REQUEST, close 1002). Off when unset. */
  handshakeTimeoutMs?: number;
  /** Dev/test: check every handler result against its schema (a bad one becomes HANDLER_ERROR). */
  validateResults?: boolean;
  /**
   * Requests whose handler has not settled, per connection, beyond which a new request is answered
   * HANDLER_ERROR "too many requests in flight" at once (bounds the memory a client can pin).
   * Default DEFAULT_MAX_IN_FLIGHT.
   */
  maxInFlight?: number;
  /**
   * Wraps every handler call (a session hook): admits the request — a throw answers it, a ProtocolError
   * with its code, anything else HANDLER_ERROR — and runs `call` inside whatever context it sets up
   * (the extension's per-server gate and per-client limiter context). Its `signal` is the handler's
   * `ctx.signal` (reading it creates it).
   */
  aroundRequest?<R>(request: AroundRequest<T>, call: () => Promise<R>): Promise<R>;
  /**
   * Since 0.1.7: the events this server can push (advertised in the handshake; subscribing to others
   * is INVALID_REQUEST). Only events of the version count. None: events/subscribe is not served.
   */
  events?: readonly string[];
  /**
   * Since 0.1.7: the current state of `event` for a subscriber that asked for it (subscribe with
   * `initial: true`), sent right after the subscribe answer; undefined: nothing to send.
   */
  initialEvent?(event: string): object | undefined;
  /**
   * Since 0.1.7: how a queued entry of a per-file event merges with a newer one for the same file
   * (runtime/event-queue.ts MergeEntry); default: the newer replaces it. Deltas need one.
   */
  mergeEventEntry?: MergeEntry;
  /**
   * Since 0.1.7: called with the events an events/subscribe names (all valid, already subscribed); a
   * promise returned delays the answer until it settles (rejected: answered all the same), so that the
   * answer can mean "changes from now on are reported" (idea-server: its file watcher watches every
   * folder). Meanwhile other frames are served, and the events the subscribe added are not sent.
   * Undefined: answered at once. The hook bounds its own wait: the client waits for this answer.
   */
  beforeSubscribe?(events: readonly string[]): Promise<void> | undefined;
  /** Bytes the socket holds unsent (ws `bufferedAmount`), for the event queue's back-pressure. */
  bufferedAmount?(): number;
  /** Observes errors thrown by handlers (logging); never affects the answer. */
  onHandlerError?(error: unknown, topic: T, requestId: string): void;
}

export type SessionState = 'awaiting-handshake' | 'open' | 'closed';

/** One running request, for cancellation (versions with cancel) and its lazy AbortController. */
interface Running {
  readonly topic: string;
  controller: AbortController | undefined;
  /** A cancel came for it (its signal is aborted, or is born aborted). */
  cancelled: boolean;
  /** Answered already (CANCELLED at the cancel): the handler's answer is dropped. */
  answered: boolean;
  /** The handler called ctx.holdCancelAnswer(): a cancel is answered when the handler settles. */
  held: boolean;
}

type AnyHandler = (params: unknown, ctx: RequestContext) => Promise<unknown>;
type Parsed = { ok: true; value: unknown } | { ok: false };

function parseJson(text: string): Parsed {
  try {
    return { ok: true, value: JSON.parse(text) };
  } catch {
    return { ok: false };
  }
}

function withDefaults(params: Record<string, unknown>, defaults: Route<unknown>['defaults']): Record<string, unknown> {
  const out: Record<string, unknown> = { ...params };
  for (const [key, value, isObj] of defaults) {
    if (out[key] === undefined) out[key] = isObj ? structuredClone(value) : value;
  }
  return out;
}

class InvalidResultError extends Error {}

export class ServerSession<H extends object, T extends string = string> {
  private current: SessionState = 'awaiting-handshake';
  /** Running requests (handler not settled); reset by onClose, which drops their answers. */
  private inFlight = 0;
  private readonly maxInFlight: number;
  /**
   * Controllers of running requests whose handler read ctx.signal. Created lazily: an AbortController
   * costs more than parsing a frame and most handlers never look at it. One per request (a shared
   * signal would collect listeners for the whole connection).
   */
  private readonly running = new Set<AbortController>();
  private handshakeTimer: ReturnType<typeof setTimeout> | undefined;
  /** Running requests by requestId (versions with cancel only); a reused id keeps its latest. */
  private readonly byId = new Map<string, Running>();
  /** Events this session advertises (its option ∩ the version's). */
  private readonly advertisedEvents: ReadonlySet<string>;
  private readonly subscribed = new Set<string>();
  /** Events added by subscribes not yet answered (beforeSubscribe), with how many: not sent meanwhile. */
  private readonly held = new Map<string, number>();
  private queue: EventQueue | undefined;

  constructor(
    private readonly protocol: ServerProtocol<H>,
    private readonly options: ServerSessionOptions<H, T>,
  ) {
    this.maxInFlight = options.maxInFlight ?? DEFAULT_MAX_IN_FLIGHT;
    const versionEvents = new Set(protocol.events);
    this.advertisedEvents = new Set((options.events ?? []).filter((e) => versionEvents.has(e)));
    const ms = options.handshakeTimeoutMs;
    if (ms !== undefined && ms > 0) {
      this.handshakeTimer = setTimeout(() => {
        if (this.current !== 'awaiting-handshake') return;
        try {
          this.refuse('INVALID_REQUEST', `no handshake within ${ms} ms`, CLOSE_PROTOCOL_ERROR);
        } catch {
          // the transport is gone already
        }
      }, ms);
      // Never keep a process alive just for this timer.
      (this.handshakeTimer as { unref?: () => void }).unref?.();
    }
  }

  /** Read by the transport after each frame (admission counts a socket as pending until "open"). */
  get state(): SessionState {
    return this.current;
  }

  /** Requests whose handler has not settled yet. */
  get pendingRequests(): number {
    return this.inFlight;
  }

  /** Topics this session serves: those with a handler, in the topic index's order. */
  get capabilities(): T[] {
    const handlers = this.options.handlers as Record<string, unknown>;
    const events = this.advertisedEvents.size > 0;
    return this.protocol.topics.filter((t) => {
      const route = this.protocol.route(t)!;
      return route.session ? events : typeof handlers[route.method] === 'function';
    }) as T[];
  }

  /** Events this connection subscribed to. */
  get subscriptions(): string[] {
    return [...this.subscribed];
  }

  /** Entries waiting in this connection's event queue (bounded by MAX_QUEUED_EVENTS). */
  get queuedEvents(): number {
    return this.queue?.queued ?? 0;
  }

  /** Sends `event` to this connection if it subscribed (queued or dropped under back-pressure). Never throws. */
  emit(event: string, data: Record<string, unknown>): void {
    if (this.current !== 'open' || !this.subscribed.has(event) || this.held.has(event)) return;
    try {
      this.queue ??= new EventQueue(
        { send: (f) => this.options.send(f), bufferedAmount: () => this.options.bufferedAmount?.() ?? 0 },
        this.protocol.coalesce,
        this.options.mergeEventEntry,
      );
      this.queue.push(event, data);
    } catch {
      // the transport is going away
    }
  }

  /** Feeds one incoming text frame. Never throws. */
  onFrame(text: string): void {
    try {
      if (this.current === 'awaiting-handshake') this.onHandshakeFrame(text);
      else if (this.current === 'open') this.onRequestFrame(text);
    } catch {
      // Only a throwing send/close callback can get here; there is nobody left to tell.
    }
  }

  /** The connection is gone: drop pending answers and abort ctx.signal. */
  onClose(): void {
    clearTimeout(this.handshakeTimer);
    if (this.current === 'closed') return;
    this.current = 'closed';
    this.inFlight = 0;
    const reason = new Error('connection closed');
    for (const controller of this.running) controller.abort(reason);
    this.running.clear();
    this.byId.clear();
    this.subscribed.clear();
    this.held.clear();
    this.queue?.close();
    this.queue = undefined;
  }

  private onHandshakeFrame(text: string): void {
    const parsed = parseJson(text);
    if (!parsed.ok || !isObject(parsed.value) || parsed.value.type !== 'handshake') {
      const what = !parsed.ok ? 'not JSON' : !isObject(parsed.value) ? 'not a JSON object' : 'no "type":"handshake"';
      this.refuse('INVALID_REQUEST', `first frame must be a handshake (${what})`, CLOSE_PROTOCOL_ERROR);
      return;
    }
    const hello = parsed.value;
    const { validateHandshake } = this.protocol;
    if (!validateHandshake(hello)) {
      this.refuse(
        'INVALID_REQUEST',
        `invalid handshake: ${describeValidationError(validateHandshake.errors, '')}`,
        CLOSE_PROTOCOL_ERROR,
      );
      return;
    }
    let required = false;
    if (this.protocol.auth) {
      const auth = this.options.auth ?? { required: true };
      required = auth.required;
      if (required) {
        const given = hello.token;
        if (typeof given !== 'string' || given === '') {
          this.refuse('UNAUTHORIZED', 'a token is required', CLOSE_UNAUTHORIZED);
          return;
        }
        if (auth.token === undefined || auth.token === '' || !tokensEqual(auth.token, given)) {
          this.refuse('UNAUTHORIZED', 'invalid token', CLOSE_UNAUTHORIZED);
          return;
        }
      }
    }
    let full: string | undefined;
    try {
      full = this.options.admit?.();
    } catch {
      full = 'the server could not admit the connection';
    }
    if (full !== undefined) {
      this.refuse('HANDLER_ERROR', full, CLOSE_TRY_AGAIN_LATER);
      return;
    }
    let workspaces: string[];
    try {
      workspaces = this.options.workspaces();
    } catch {
      workspaces = [];
    }
    this.current = 'open';
    clearTimeout(this.handshakeTimer);
    const reply: Record<string, unknown> = { type: 'handshake', version: this.protocol.version };
    if (this.protocol.spec.draft) reply.draft = true;
    if (this.protocol.auth) reply.authRequired = required;
    reply.capabilities = this.capabilities;
    if (this.protocol.spec.events) reply.events = [...this.advertisedEvents];
    reply.workspaces = workspaces;
    this.options.send(JSON.stringify(reply));
  }

  private refuse(code: string, message: string, closeCode: number): void {
    this.options.send(JSON.stringify({ type: 'handshake', error: { code, message } }));
    this.onClose();
    this.options.close(closeCode, message);
  }

  private onRequestFrame(text: string): void {
    const parsed = parseJson(text);
    if (!parsed.ok) return this.sendError('', '', 'PARSE_ERROR', 'frame is not valid JSON');
    const msg = parsed.value;
    if (!isObject(msg)) return this.sendError('', '', 'PARSE_ERROR', 'frame is not a JSON object');
    const topic = typeof msg.topic === 'string' ? msg.topic : '';
    const requestId = typeof msg.requestId === 'string' ? msg.requestId : '';
    if (msg.type === 'handshake' && msg.topic === undefined) {
      return this.sendError(topic, requestId, 'INVALID_REQUEST', 'handshake already completed');
    }
    const { validateCancel } = this.protocol;
    if (validateCancel && msg.type === 'cancel' && msg.topic === undefined) {
      if (!validateCancel(msg)) {
        const why = describeValidationError(validateCancel.errors, '');
        return this.sendError('', '', 'INVALID_REQUEST', `invalid cancel: ${why}`);
      }
      return this.cancel(requestId);
    }
    const { validateRequest } = this.protocol;
    if (!validateRequest(msg)) {
      return this.sendError(topic, requestId, 'INVALID_REQUEST', describeValidationError(validateRequest.errors, ''));
    }
    const route = this.protocol.route(topic);
    if (!route || (!route.session && typeof this.options.handlers[route.method] !== 'function')) {
      return this.sendError(topic, requestId, 'UNKNOWN_TOPIC', `unknown topic: ${topic}`);
    }
    const raw = msg.params === undefined ? {} : msg.params;
    if (!route.validateParams(raw)) {
      return this.sendError(
        topic,
        requestId,
        'INVALID_REQUEST',
        describeValidationError(route.validateParams.errors, 'params'),
      );
    }
    if (route.session) {
      return this.serveEvents(topic, requestId, route, raw as Record<string, unknown>);
    }
    if (this.inFlight >= this.maxInFlight) {
      return this.sendError(
        topic,
        requestId,
        'HANDLER_ERROR',
        `too many requests in flight (limit ${this.maxInFlight})`,
      );
    }
    void this.run(topic as T, requestId, route, withDefaults(raw as Record<string, unknown>, route.defaults));
  }

  private async run(topic: T, requestId: string, route: Route<H>, params: Record<string, unknown>): Promise<void> {
    const self: Running = { topic, controller: undefined, cancelled: false, answered: false, held: false };
    const running = this.running;
    const isClosed = () => this.current === 'closed';
    const ctx: RequestContext<T> = {
      topic,
      requestId,
      get signal(): AbortSignal {
        if (!self.controller) {
          const controller = new AbortController();
          // A handler may wait on many things at once under one request (a language server request per
          // file of a diag/list), each listening for the abort and removing itself when done: many
          // listeners are not a leak, and Node's warning past 10 would only alarm whoever reads the log.
          setMaxListeners(0, controller.signal);
          self.controller = controller;
          // Read after the connection closed or the cancel: born aborted, like an eager controller.
          if (isClosed()) controller.abort(new Error('connection closed'));
          else if (self.cancelled) controller.abort(new Error('cancelled'));
          else running.add(controller);
        }
        return self.controller.signal;
      },
      holdCancelAnswer(): void {
        self.held = true;
      },
    };
    const cancellable = this.protocol.validateCancel !== undefined;
    if (cancellable) this.byId.set(requestId, self);
    this.inFlight++;
    let frame: string;
    try {
      const handler = this.options.handlers[route.method] as unknown as AnyHandler;
      const call = () => handler.call(this.options.handlers, params, ctx);
      const around = this.options.aroundRequest;
      const ownInFlight = this.inFlight - 1;
      const result = await (around
        ? around(
            {
              topic,
              requestId,
              ownInFlight,
              get signal() {
                return ctx.signal;
              },
              holdCancelAnswer: ctx.holdCancelAnswer,
            },
            call,
          )
        : call());
      if (!isObject(result)) throw new InvalidResultError('handler returned no result object');
      if (this.options.validateResults && !route.validateResult(result)) {
        throw new InvalidResultError(
          `handler returned an invalid result: ${describeValidationError(route.validateResult.errors, 'result')}`,
        );
      }
      frame = JSON.stringify({ topic, requestId, result });
    } catch (err) {
      if (!(err instanceof ProtocolError)) {
        try {
          this.options.onHandlerError?.(err, topic, requestId);
        } catch {
          // logging must not change the answer
        }
      }
      frame =
        err instanceof ProtocolError
          ? errorFrame(topic, requestId, err.code, err.message, err.details)
          : self.cancelled && self.held && !(err instanceof InvalidResultError)
            ? // A held cancel: the handler stopped and undid its work; now the cancel is answered.
              cancelledFrame(topic, requestId)
            : errorFrame(topic, requestId, 'HANDLER_ERROR', err instanceof Error ? err.message : String(err));
    } finally {
      // After onClose the count is already 0 and the set empty.
      if (this.current !== 'closed') this.inFlight--;
      if (self.controller) running.delete(self.controller);
      if (cancellable && this.byId.get(requestId) === self) this.byId.delete(requestId);
    }
    if (this.current !== 'open' || self.answered) return;
    try {
      this.options.send(frame);
    } catch {
      // the transport is going away
    }
  }

  /**
   * A cancel frame for `requestId`: abort its work and answer it CANCELLED now, or, when its handler
   * holds its cancel answer, when the handler settles (run). Unknown or answered ids are ignored; so is a
   * second cancel (the first one forgot the id).
   */
  private cancel(requestId: string): void {
    const target = this.byId.get(requestId);
    if (!target) return;
    this.byId.delete(requestId);
    target.cancelled = true;
    if (target.controller) {
      this.running.delete(target.controller);
      target.controller.abort(new Error('cancelled'));
    }
    if (target.held) return;
    target.answered = true;
    this.options.send(cancelledFrame(target.topic, requestId));
  }

  /** events/subscribe (answered once beforeSubscribe settles) and events/unsubscribe (answered at once). */
  private serveEvents(topic: string, requestId: string, route: Route<H>, params: Record<string, unknown>): void {
    if (this.advertisedEvents.size === 0) {
      return this.sendError(topic, requestId, 'UNKNOWN_TOPIC', `unknown topic: ${topic}`);
    }
    const events = Array.isArray(params.events) ? (params.events as string[]) : undefined;
    const added: string[] = [];
    if (route.method === 'eventsSubscribe') {
      for (const e of events ?? []) {
        if (!this.advertisedEvents.has(e)) {
          const why = this.protocol.events.includes(e)
            ? 'not advertised by this server'
            : `not an event of protocol ${this.protocol.version}`;
          return this.sendError(topic, requestId, 'INVALID_REQUEST', `params.events: ${JSON.stringify(e)} is ${why}`);
        }
      }
      for (const e of events ?? []) {
        if (!this.subscribed.has(e)) added.push(e);
        this.subscribed.add(e);
      }
      let waiting: Promise<void> | undefined;
      try {
        waiting = this.options.beforeSubscribe?.(events ?? []);
      } catch (err) {
        this.reportError(err, topic, requestId);
      }
      if (waiting) {
        for (const e of added) this.held.set(e, (this.held.get(e) ?? 0) + 1);
        void waiting
          .catch((err: unknown) => this.reportError(err, topic, requestId))
          .then(() => {
            if (this.current !== 'open') return; // closed meanwhile: nothing held, nothing to answer
            for (const e of added) {
              const n = this.held.get(e) ?? 0;
              if (n > 1) this.held.set(e, n - 1);
              else this.held.delete(e);
            }
            try {
              this.answerSubscription(topic, requestId, params.initial === true ? added : []);
            } catch {
              // the transport is going away
            }
          });
        return;
      }
      return this.answerSubscription(topic, requestId, params.initial === true ? added : []);
    }
    for (const e of events ?? [...this.subscribed]) {
      this.subscribed.delete(e);
      this.queue?.discard(e);
    }
    this.answerSubscription(topic, requestId, []);
  }

  /** The answer listing the subscriptions now, then the initial state of `initial` (still subscribed, not held). */
  private answerSubscription(topic: string, requestId: string, initial: readonly string[]): void {
    this.options.send(JSON.stringify({ topic, requestId, result: { subscribed: [...this.subscribed] } }));
    for (const e of initial) {
      if (!this.subscribed.has(e) || this.held.has(e)) continue; // unsubscribed, or re-subscribed and waiting
      let data: object | undefined;
      try {
        data = this.options.initialEvent?.(e);
      } catch (err) {
        this.reportError(err, topic, requestId);
      }
      if (data) this.emit(e, data as Record<string, unknown>);
    }
  }

  /** A throw of a session hook (initialEvent, beforeSubscribe), to onHandlerError; never affects the answer. */
  private reportError(err: unknown, topic: string, requestId: string): void {
    try {
      this.options.onHandlerError?.(err, topic as T, requestId);
    } catch {
      // logging must not break the session
    }
  }

  private sendError(topic: string, requestId: string, code: string, message: string): void {
    this.options.send(errorFrame(topic, requestId, code, message));
  }
}

function errorFrame(
  topic: string,
  requestId: string,
  code: string,
  message: string,
  details?: Readonly<Record<string, unknown>>,
): string {
  return JSON.stringify({ topic, requestId, error: details ? { ...details, code, message } : { code, message } });
}

function cancelledFrame(topic: string, requestId: string): string {
  return errorFrame(topic, requestId, 'CANCELLED', 'cancelled by the client');
}
