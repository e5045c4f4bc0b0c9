// A WebSocket server scripted frame by frame, for the runner's own tests of what no engine-made server
// does on purpose: answering a request twice, writing after answering CANCELLED, pushing events that
// contradict each other, a handshake with the wrong draft flag. It does the handshake itself (any token
// is accepted) and hands every later frame, parsed, to the script with a way to answer on that connection.
import { type AddressInfo, WebSocketServer } from 'ws';

export type Frame = Record<string, unknown> & {
  topic?: string;
  requestId?: string;
  type?: string;
  params?: Record<string, unknown>;
};

export interface ScriptedConnection {
  /** 1, 2, … in order of handshake (the runner's own probe is 1). */
  readonly id: number;
  send(value: unknown): void;
  /** Per-connection memory for the script. */
  readonly state: Map<string, unknown>;
}

export interface ScriptOptions {
  version?: string;
  /** Sent as the handshake's `draft` when given (any value, to test the check). */
  draft?: unknown;
  capabilities: string[];
  events?: string[];
  workspaces: string[];
  onFrame(frame: Frame, conn: ScriptedConnection): void;
}

export interface ScriptedServer {
  url: string;
  close(): Promise<void>;
}

export async function startScriptedServer(o: ScriptOptions): Promise<ScriptedServer> {
  const wss = new WebSocketServer({ host: '127.0.0.1', port: 0 });
  await new Promise<void>((done) => wss.once('listening', () => done()));
  let handshakes = 0;
  wss.on('connection', (ws) => {
    let conn: ScriptedConnection | undefined;
    ws.on('message', (data) => {
      let frame: Frame;
      try {
        frame = JSON.parse(data.toString()) as Frame;
      } catch {
        return;
      }
      if (!conn) {
        conn = {
          id: ++handshakes,
          state: new Map(),
          send: (v) => {
            if (ws.readyState === ws.OPEN) ws.send(JSON.stringify(v));
          },
        };
        conn.send({
          type: 'handshake',
          version: o.version ?? '0.1.7',
          authRequired: true,
          capabilities: o.capabilities,
          workspaces: o.workspaces,
          ...(o.events ? { events: o.events } : {}),
          ...(o.draft !== undefined ? { draft: o.draft } : {}),
        });
        return;
      }
      o.onFrame(frame, conn);
    });
  });
  const { port } = wss.address() as AddressInfo;
  return {
    url: `ws://127.0.0.1:${port}`,
    close: () =>
      new Promise<void>((done) => {
        for (const c of wss.clients) c.terminate();
        wss.close(() => done());
      }),
  };
}

/** The answer frames a script sends. */
export const result = (f: Frame, value: unknown) => ({ topic: f.topic, requestId: f.requestId, result: value });
export const error = (f: Frame, code: string, topic = f.topic) => ({
  topic,
  requestId: f.requestId,
  error: { code, message: code.toLowerCase() },
});
