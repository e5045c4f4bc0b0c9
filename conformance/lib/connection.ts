// A raw WebSocket connection for the runner: frames queue up and are taken one by one, so cases can
// send anything (non-JSON, oversize, out-of-order requests) and see exactly what comes back.
import WebSocket from 'ws';
import { frameText } from '../../runtime/frame-text';
import { corkPerTick } from '../../runtime/tick-cork';

export type Incoming = { kind: 'frame'; text: string } | { kind: 'close'; code: number; reason: string };

/** One line of what went over a connection, in order: a frame sent, a frame received, the close. */
export interface Traffic {
  direction: 'sent' | 'received' | 'closed';
  text: string;
}

export interface ConnectOptions {
  headers?: Record<string, string>;
  timeoutMs?: number;
  /** Our own bound for what the server may send us (default 64 MiB). */
  maxPayload?: number;
}

export class Connection {
  private queue: Incoming[] = [];
  private waiters: ((i: Incoming) => void)[] = [];
  closed: { code: number; reason: string } | undefined;
  /** Every frame received, in order (for the schema check and for reports). */
  readonly received: string[] = [];
  /** Every frame sent and received and the close, in order (for the reports' transcripts). */
  readonly traffic: Traffic[] = [];
  /** Frames sent in one tick leave in one socket write (a burst reaches the server all at once). */
  private readonly cork: () => void;

  private constructor(private readonly ws: WebSocket) {
    this.cork = corkPerTick(ws);
    ws.on('message', (data, isBinary) => {
      const text = frameText(data);
      this.received.push(isBinary ? `<binary frame> ${text}` : text);
      this.traffic.push({ direction: 'received', text: this.received[this.received.length - 1]! });
      this.push({ kind: 'frame', text });
    });
    ws.on('close', (code, reason) => {
      this.closed = { code, reason: reason.toString('utf8') };
      this.traffic.push({
        direction: 'closed',
        text: `code ${code}${this.closed.reason ? ` ${this.closed.reason}` : ''}`,
      });
      this.push({ kind: 'close', ...this.closed });
    });
    ws.on('error', () => undefined); // surfaced as close
  }

  static open(url: string, opts: ConnectOptions = {}): Promise<Connection> {
    return new Promise((resolve, reject) => {
      const ws = new WebSocket(url, {
        headers: opts.headers,
        maxPayload: opts.maxPayload ?? 64 * 1024 * 1024,
        handshakeTimeout: opts.timeoutMs ?? 10_000,
      });
      const conn = new Connection(ws);
      ws.once('open', () => resolve(conn));
      ws.once('unexpected-response', (_req, res) => {
        reject(new UpgradeRefusedError(res.statusCode ?? 0));
        ws.terminate();
      });
      ws.once('error', (err) => reject(err));
    });
  }

  private push(i: Incoming): void {
    const w = this.waiters.shift();
    if (w) w(i);
    else this.queue.push(i);
  }

  /** Next frame or close; `undefined` on timeout. A close stays queued for later calls. */
  next(timeoutMs: number): Promise<Incoming | undefined> {
    const head = this.queue[0];
    if (head) {
      if (head.kind === 'frame') this.queue.shift();
      return Promise.resolve(head);
    }
    if (this.closed) return Promise.resolve({ kind: 'close', ...this.closed });
    return new Promise((resolve) => {
      const waiter = (i: Incoming) => {
        clearTimeout(timer);
        resolve(i);
      };
      const timer = setTimeout(() => {
        this.waiters = this.waiters.filter((w) => w !== waiter);
        resolve(undefined);
      }, timeoutMs);
      this.waiters.push(waiter);
    });
  }

  sendText(text: string): void {
    if (this.ws.readyState !== WebSocket.OPEN) return;
    this.cork();
    this.ws.send(text);
    this.traffic.push({ direction: 'sent', text });
  }

  /**
   * Sends a frame and resolves once the socket has taken all of it, the connection failed, or `waitMs`
   * passed: a frame of megabytes takes a while to leave on a busy machine, and its answer is timed from there.
   */
  sendTextFlushed(text: string, waitMs: number): Promise<void> {
    if (this.ws.readyState !== WebSocket.OPEN) return Promise.resolve();
    this.cork();
    this.traffic.push({ direction: 'sent', text });
    return new Promise((resolve) => {
      const timer = setTimeout(resolve, waitMs);
      this.ws.send(text, () => {
        clearTimeout(timer);
        resolve();
      });
    });
  }

  send(value: unknown): void {
    this.sendText(JSON.stringify(value));
  }

  close(): Promise<void> {
    return new Promise((resolve) => {
      if (this.ws.readyState === WebSocket.CLOSED) return resolve();
      const t = setTimeout(() => {
        this.ws.terminate();
        resolve();
      }, 1000);
      this.ws.once('close', () => {
        clearTimeout(t);
        resolve();
      });
      this.ws.close(1000);
    });
  }
}

export class UpgradeRefusedError extends Error {
  constructor(readonly status: number) {
    super(`upgrade refused with HTTP ${status}`);
  }
}
