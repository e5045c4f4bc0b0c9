// The `ws` binding: a loopback-only WebSocket server that feeds each connection's text frames to a
// transport-agnostic session (the generated ServerSession) and carries out its send/close calls.
//
// Refusals happen before the upgrade (HTTP 403): a Host header that is not a loopback name (DNS
// rebinding) or an Origin that is not loopback (browser pages). Frames over `maxPayload` bytes are
// closed by ws with 1009. Plain HTTP requests get 426.
import { createServer, type IncomingMessage, type Server } from "node:http";
import type { Duplex } from "node:stream";
import { WebSocketServer, WebSocket } from "ws";
import { frameText } from "./frame-text";
import { isAllowedOrigin, isLoopbackAddress, isLoopbackHost } from "./loopback";
import { corkPerTick } from "./tick-cork";

/** What a session exposes to the transport. */
export interface SessionLike {
  onFrame(text: string): void;
  /** The connection is gone (either side closed it): abort pending work. */
  onClose(): void;
}

/** What the transport gives a session. */
export interface ConnectionIO {
  send(frame: string): void;
  close(code: number, reason: string): void;
  remoteAddress: string | undefined;
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
  onClientsChanged?(count: number): void;
}

export interface RunningWebSocketServer {
  readonly host: string;
  /** The port actually bound. */
  readonly port: number;
  readonly clientCount: number;
  /** Stops listening and terminates live connections. */
  close(): Promise<void>;
}

export const DEFAULT_MAX_PAYLOAD = 1024 * 1024;

function listen(server: Server, host: string, port: number): Promise<void> {
  return new Promise((resolve, reject) => {
    const onError = (err: Error) => {
      server.off("listening", onListening);
      reject(err);
    };
    const onListening = () => {
      server.off("error", onError);
      resolve();
    };
    server.once("error", onError);
    server.once("listening", onListening);
    server.listen(port, host);
  });
}

function refuse(socket: Duplex, status: string): void {
  // Destroy once the response is flushed (destroying right away could drop it).
  socket.end(`HTTP/1.1 ${status}\r\nConnection: close\r\nContent-Length: 0\r\n\r\n`, () => socket.destroy());
}

export async function startWebSocketServer(options: WebSocketServerOptions): Promise<RunningWebSocketServer> {
  const { host } = options;
  if (!isLoopbackAddress(host)) throw new Error(`refusing to bind to non-loopback host "${host}"`);
  const attempts = options.port === 0 ? 1 : Math.max(1, options.portAttempts ?? 1);
  const wss = new WebSocketServer({ noServer: true, maxPayload: options.maxPayload ?? DEFAULT_MAX_PAYLOAD });
  const clients = new Set<WebSocket>();
  const changed = () => options.onClientsChanged?.(clients.size);

  const onUpgrade = (req: IncomingMessage, socket: Duplex, head: Buffer) => {
    socket.on("error", () => socket.destroy());
    if (!isLoopbackHost(req.headers.host) || !isAllowedOrigin(req.headers.origin)) {
      refuse(socket, "403 Forbidden");
      return;
    }
    wss.handleUpgrade(req, socket, head, (ws) => accept(ws, req));
  };

  const accept = (ws: WebSocket, req: IncomingMessage) => {
    clients.add(ws);
    changed();
    // Replies produced in one tick (pipelined requests) leave in one socket write.
    const cork = corkPerTick(ws);
    const io: ConnectionIO = {
      send: (frame) => {
        if (ws.readyState !== WebSocket.OPEN) return;
        cork();
        ws.send(frame);
      },
      close: (code, reason) => {
        // Close reasons are limited to 123 bytes by the WebSocket protocol.
        const bytes = Buffer.from(reason, "utf8");
        ws.close(code, bytes.length <= 123 ? reason : bytes.subarray(0, 120).toString("utf8"));
      },
      remoteAddress: req.socket.remoteAddress,
    };
    let session: SessionLike | undefined;
    try {
      session = options.createSession(io);
    } catch {
      ws.close(1011, "session setup failed");
    }
    // ws reports protocol violations (oversize frame → 1009, bad UTF-8 → 1007) as 'error' and
    // closes the socket itself; the listener only keeps the process alive.
    ws.on("error", () => undefined);
    ws.on("message", (data) => {
      // Text frames are the protocol; binary frames are decoded as UTF-8 text too (lenient).
      session?.onFrame(frameText(data));
    });
    ws.on("close", () => {
      clients.delete(ws);
      changed();
      session?.onClose();
    });
  };

  let server: Server | undefined;
  let bound = 0;
  for (let i = 0; i < attempts; i++) {
    const candidate = createServer((_req, res) => {
      res.writeHead(426, { "Content-Type": "text/plain", Connection: "close" }).end("WebSocket only\n");
    });
    try {
      await listen(candidate, host, options.port + i);
      server = candidate;
      const addr = candidate.address();
      bound = typeof addr === "object" && addr ? addr.port : options.port + i;
      break;
    } catch (err) {
      candidate.close();
      if ((err as NodeJS.ErrnoException).code !== "EADDRINUSE") throw err;
    }
  }
  if (!server) {
    const last = options.port + attempts - 1;
    const err = new Error(`ports ${options.port}–${last} on ${host} are all in use`) as NodeJS.ErrnoException;
    err.code = "EADDRINUSE";
    throw err;
  }
  server.on("upgrade", onUpgrade);
  const httpServer = server;

  return {
    host,
    port: bound,
    get clientCount() {
      return clients.size;
    },
    close: () =>
      new Promise<void>((resolve) => {
        for (const ws of clients) ws.terminate();
        wss.close();
        httpServer.close(() => resolve());
        httpServer.closeAllConnections();
      }),
  };
}
