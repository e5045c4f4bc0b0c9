// A protocol-agnostic WebSocket client for tests: sends any text (including frames no real client
// would send) and records every frame and the close, so tests can count lost and duplicated replies.
import { WebSocket } from 'ws';

export interface Closed {
  code: number;
  reason: string;
}

export class RawClient {
  readonly frames: unknown[] = [];
  readonly closed: Promise<Closed>;
  private waiters: {
    pred: (f: any) => boolean;
    resolve: (f: any) => void;
    reject: (e: Error) => void;
    timer: NodeJS.Timeout;
  }[] = [];
  private isClosed = false;
  onFrame?: (f: any) => void;

  private constructor(readonly ws: WebSocket) {
    ws.on('message', (data) => {
      const text = data.toString();
      let f: unknown;
      try {
        f = JSON.parse(text);
      } catch {
        f = { unparsable: text };
      }
      if (this.onFrame) {
        this.onFrame(f);
        return;
      }
      this.frames.push(f);
      this.waiters = this.waiters.filter((w) => {
        if (!w.pred(f)) return true;
        clearTimeout(w.timer);
        w.resolve(f);
        return false;
      });
    });
    this.closed = new Promise<Closed>((resolve) =>
      ws.on('close', (code, reason) => {
        this.isClosed = true;
        for (const w of this.waiters) {
          clearTimeout(w.timer);
          w.reject(new Error(`connection closed (${code}) while waiting for a frame`));
        }
        this.waiters = [];
        resolve({ code, reason: reason.toString() });
      }),
    );
    ws.on('error', () => {
      /* surfaced through 'close' */
    });
  }

  static async open(url: string, headers: Record<string, string> = {}): Promise<RawClient> {
    const ws = new WebSocket(url, { perMessageDeflate: false, headers, maxPayload: 256 * 1024 * 1024 });
    await new Promise<void>((resolve, reject) => {
      ws.once('open', resolve);
      ws.once('error', reject);
      ws.once('unexpected-response', (_r, res) => reject(new Error(`HTTP ${res.statusCode}`)));
    });
    return new RawClient(ws);
  }

  get isOpen(): boolean {
    return !this.isClosed && this.ws.readyState === WebSocket.OPEN;
  }

  send(text: string): void {
    this.ws.send(text);
  }

  /** Resolves with the first frame (already received or future) that matches; consumed from `frames`. */
  next<T = any>(pred: (f: any) => boolean = () => true, timeoutMs = 10_000): Promise<T> {
    const i = this.frames.findIndex(pred);
    if (i >= 0) return Promise.resolve(this.frames.splice(i, 1)[0] as T);
    if (this.isClosed) return Promise.reject(new Error('connection closed'));
    return new Promise<T>((resolve, reject) => {
      const timer = setTimeout(() => {
        this.waiters = this.waiters.filter((w) => w.timer !== timer);
        reject(new Error(`no matching frame within ${timeoutMs} ms`));
      }, timeoutMs);
      this.waiters.push({
        pred,
        resolve: (f) => {
          const j = this.frames.indexOf(f);
          if (j >= 0) this.frames.splice(j, 1);
          resolve(f);
        },
        reject,
        timer,
      });
    });
  }

  async handshake(token: string | undefined): Promise<any> {
    this.send(JSON.stringify(token === undefined ? { type: 'handshake' } : { type: 'handshake', token }));
    return this.next((f) => f && f.type === 'handshake');
  }

  close(): Promise<Closed> {
    if (!this.isClosed) this.ws.close();
    return this.closed;
  }
  terminate(): void {
    this.ws.terminate();
  }
}
