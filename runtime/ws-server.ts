// The `ws` binding: a loopback-only WebSocket server that feeds each connection's text frames to a
// transport-agnostic session (the generated ServerSession) and carries out its send/close calls.
//
// Refusals happen before the upgrade (HTTP 403): a Host header that is not a loopback name (DNS
// rebinding) or an Origin that is not loopback (browser pages). Frames over `maxPayload` bytes are
// closed by ws with 1009. Plain HTTP requests get 426.
//
// Admission (runtime/admission.ts has the decisions): every TCP socket is "pending" until its session
// completes the protocol handshake; pending sockets are capped (the least advanced, oldest one is
// dropped, never the new one) and must finish within a deadline from accept; connected clients are
// capped; a first frame is evaluated only with a token of the failed-handshake budget, so guessing the
// token is rate-limited. A session without a `state` counts as connected once upgraded.
//
// The client cap is checked twice. At the upgrade, a server already full answers HTTP 503 (cheap, no
// WebSocket). But a burst of upgrades all pass that check before any of them has handshaken, so the
// check that holds is at the handshake: the session calls `io.admit()` once the handshake is valid, and
// a slot is taken there, synchronously, before the success is sent; when none is left the session
// refuses the handshake (see ServerSessionOptions.admit). Sockets still upgrading or handshaking are not
// counted against the client cap (64 silent tokenless sockets would lock every client out); they are
// bounded by the pending cap. A session that never calls `admit` is admitted, or closed with 1013 when
// full, right after its handshake.
import { createServer, type IncomingMessage, type Server } from 'node:http';
import type { Socket } from 'node:net';
import type { Duplex } from 'node:stream';
import { WebSocket, WebSocketServer } from 'ws';
import {
  type AdmissionLimits,
  DEFAULT_ADMISSION_LIMITS,
  type DropReason,
  HandshakeThrottle,
  PendingSockets,
  Progress,
} from './admission.js';
import { frameText } from './frame-text.js';
import { isAllowedOrigin, isLoopbackAddress, isLoopbackHost } from './loopback.js';
import { CLOSE_TRY_AGAIN_LATER } from './server-session.js';
import { corkPerTick } from './tick-cork.js';

/** What a session exposes to the transport. */
export interface SessionLike {
  onFrame(text: string): void;
  /** The connection is gone (either side closed it): abort pending work. */
  onClose(): void;
  /** The protocol state (the generated ServerSession has it): admission counts a socket as pending until "open". */
  readonly state?: 'awaiting-handshake' | 'open' | 'closed';
  /** Since 0.1.7: pushes an event to this connection if it subscribed (createIdeaServer's fan-out). */
  emit?(event: string, data: Record<string, unknown>): void;
}

/** What the transport gives a session. */
export interface ConnectionIO {
  send(frame: string): void;
  close(code: number, reason: string): void;
  /**
   * The session accepts a valid handshake: takes a client slot and returns undefined, or returns why
   * there is none (the client cap is reached; the session then refuses the handshake).
   */
  admit(): string | undefined;
  remoteAddress: string | undefined;
  /** Bytes the socket holds unsent (back-pressure for pushed events). */
  bufferedAmount?(): number;
}

export interface WebSocketServerOptions {
  /** 127.0.0.1, ::1 or localhost; anything else throws. */
  host: string;
  /** First port to try; 0 picks a free one. */
  port: number;
  /** Ports tried: port, port+1, … (only on EADDRINUSE). Default 1. */
  portAttempts?: number;
  /** Largest accepted frame in bytes; larger ones close the connection with 1009. Default 1 MiB. */
  maxPayload?: number;
  createSession(io: ConnectionIO): SessionLike;
  /** Connected clients (past the handshake) changed. */
  onClientsChanged?(count: number): void;
  /** Admission limits; each defaults to DEFAULT_ADMISSION_LIMITS. */
  limits?: Partial<AdmissionLimits>;
  /** A socket was refused or dropped by admission control (for logs). */
  onRefused?(reason: DropReason | 'too-many-clients'): void;
}

export interface RunningWebSocketServer {
  readonly host: string;
  /** The port actually bound. */
  readonly port: number;
  /** Connections past the handshake. */
  readonly clientCount: number;
  /** Sockets not yet past the handshake. */
  readonly pendingCount: number;
  /** Stops listening and terminates live connections. */
  close(): Promise<void>;
}

export const DEFAULT_MAX_PAYLOAD = 1024 * 1024;

function listen(server: Server, host: string, port: number): Promise<void> {
  return new Promise((resolve, reject) => {
    const onError = (err: Error) => {
      server.off('listening', onListening);
      reject(err);
    };
    const onListening = () => {
      server.off('error', onError);
      resolve();
    };
    server.once('error', onError);
    server.once('listening', onListening);
    server.listen(port, host);
  });
}

function refuse(socket: Duplex, status: string): void {
  if (socket.destroyed) return;
  // Destroy once the response is flushed (destroying right away could drop it).
  socket.end(`HTTP/1.1 ${status}\r\nConnection: close\r\nContent-Length: 0\r\n\r\n`, () => socket.destroy());
}

export async function startWebSocketServer(options: WebSocketServerOptions): Promise<RunningWebSocketServer> {
  const { host } = options;
  if (!isLoopbackAddress(host)) throw new Error(`refusing to bind to non-loopback host "${host}"`);
  const attempts = options.port === 0 ? 1 : Math.max(1, options.portAttempts ?? 1);
  const limits: AdmissionLimits = { ...DEFAULT_ADMISSION_LIMITS, ...options.limits };
  const wss = new WebSocketServer({ noServer: true, maxPayload: options.maxPayload ?? DEFAULT_MAX_PAYLOAD });
  const clients = new Set<WebSocket>(); // past the handshake
  const sockets = new Set<WebSocket>(); // every upgraded socket, for close()
  const changed = () => options.onClientsChanged?.(clients.size);
  const refused = (reason: DropReason | 'too-many-clients') => {
    try {
      options.onRefused?.(reason);
    } catch {
      // logging must not affect admission
    }
  };
  const pending = new PendingSockets<Socket>(limits, (socket, reason) => {
    refused(reason);
    socket.destroy();
  });
  const throttle = new HandshakeThrottle(limits.failedHandshakeBurst, limits.failedHandshakesPerSecond);

  const onConnection = (socket: Socket) => {
    pending.add(socket);
    socket.once('close', () => pending.delete(socket));
  };

  const onUpgrade = (req: IncomingMessage, socket: Duplex, head: Buffer) => {
    socket.on('error', () => socket.destroy());
    pending.advance(req.socket, Progress.Upgrading);
    if (!isLoopbackHost(req.headers.host) || !isAllowedOrigin(req.headers.origin)) {
      refuse(socket, '403 Forbidden');
      return;
    }
    if (clients.size >= limits.maxClients) {
      refused('too-many-clients');
      refuse(socket, '503 Service Unavailable');
      return;
    }
    wss.handleUpgrade(req, socket, head, (ws) => accept(ws, req));
  };

  const accept = (ws: WebSocket, req: IncomingMessage) => {
    sockets.add(ws);
    const socket = req.socket;
    // Replies produced in one tick (pipelined requests) leave in one socket write.
    const cork = corkPerTick(ws);
    /** Set when a handshake was refused for the cap: not a failed guess, so it spends no throttle token. */
    let full = false;
    const admit = (): string | undefined => {
      if (clients.has(ws)) return undefined;
      if (ws.readyState !== WebSocket.OPEN) return 'connection closed';
      if (clients.size >= limits.maxClients) {
        full = true;
        refused('too-many-clients');
        return `too many clients connected (limit ${limits.maxClients}); try again later`;
      }
      pending.delete(socket);
      clients.add(ws);
      changed();
      return undefined;
    };
    /** For sessions that do not call io.admit: admitted, or closed 1013 (returns the refusal). */
    const admitOrClose = (): string | undefined => {
      const refusal = admit();
      if (refusal !== undefined) ws.close(CLOSE_TRY_AGAIN_LATER, refusal);
      return refusal;
    };
    const io: ConnectionIO = {
      send: (frame) => {
        if (ws.readyState !== WebSocket.OPEN) return;
        cork();
        ws.send(frame);
      },
      close: (code, reason) => {
        // Close reasons are limited to 123 bytes by the WebSocket protocol.
        const bytes = Buffer.from(reason, 'utf8');
        ws.close(code, bytes.length <= 123 ? reason : bytes.subarray(0, 120).toString('utf8'));
      },
      admit,
      remoteAddress: req.socket.remoteAddress,
      bufferedAmount: () => ws.bufferedAmount,
    };
    let session: SessionLike | undefined;
    try {
      session = options.createSession(io);
    } catch {
      ws.close(1011, 'session setup failed');
    }
    if (session && session.state === undefined) admitOrClose();
    // Frames that arrive while the first one waits for a handshake permit, in order.
    let held: string[] | undefined;
    const gone = new AbortController();
    const evaluateFirst = (text: string) => {
      session!.onFrame(text);
      const state = session!.state;
      throttle.settle(state === 'closed' && !full);
      if (state === 'open') admitOrClose();
    };
    const deliver = (text: string) => {
      if (!session || full) return;
      if (session.state !== 'awaiting-handshake') return session.onFrame(text);
      pending.advance(socket, Progress.Handshaking);
      if (held) return void held.push(text);
      if (throttle.tryPermit()) return evaluateFirst(text);
      held = [text];
      void throttle.permit(gone.signal).then(() => {
        const frames = held ?? [];
        held = undefined;
        if (gone.signal.aborted || session?.state !== 'awaiting-handshake') return throttle.settle(false);
        evaluateFirst(frames.shift()!);
        for (const f of frames) deliver(f);
      });
    };
    // ws reports protocol violations (oversize frame → 1009, bad UTF-8 → 1007) as 'error' and
    // closes the socket itself; the listener only keeps the process alive.
    ws.on('error', () => undefined);
    ws.on('message', (data) => {
      // Text frames are the protocol; binary frames are decoded as UTF-8 text too (lenient).
      deliver(frameText(data));
    });
    ws.on('close', () => {
      gone.abort();
      sockets.delete(ws);
      pending.delete(socket);
      if (clients.delete(ws)) changed();
      session?.onClose();
    });
  };

  let server: Server | undefined;
  let bound = 0;
  for (let i = 0; i < attempts; i++) {
    const candidate = createServer((_req, res) => {
      res.writeHead(426, { 'Content-Type': 'text/plain', Connection: 'close' }).end('WebSocket only\n');
    });
    try {
      await listen(candidate, host, options.port + i);
      server = candidate;
      const addr = candidate.address();
      bound = typeof addr === 'object' && addr ? addr.port : options.port + i;
      break;
    } catch (err) {
      candidate.close();
      if ((err as NodeJS.ErrnoException).code !== 'EADDRINUSE') throw err;
    }
  }
  if (!server) {
    const last = options.port + attempts - 1;
    const err = new Error(`ports ${options.port}–${last} on ${host} are all in use`) as NodeJS.ErrnoException;
    err.code = 'EADDRINUSE';
    throw err;
  }
  server.on('connection', onConnection);
  server.on('upgrade', onUpgrade);
  const httpServer = server;

  return {
    host,
    port: bound,
    get clientCount() {
      return clients.size;
    },
    get pendingCount() {
      return pending.size;
    },
    close: () =>
      new Promise<void>((resolve) => {
        pending.stop();
        for (const ws of sockets) ws.terminate();
        wss.close();
        httpServer.close(() => resolve());
        httpServer.closeAllConnections();
      }),
  };
}
