// The core's handlers over a host, served by a session of the served version with results validated
// against their schemas: `ask(topic, params)` sends one request and resolves with its answer frame.
import { ServerSession } from '../../generated/current';
import { createCoreHandlers } from '../../server-core/handlers/index';
import type { CoreHost } from '../../server-core/host';

export interface AnswerFrame {
  result?: Record<string, unknown>;
  error?: { code: string; message: string; candidates?: { namePath: string; kind: string; line: number }[] };
}

export function coreSession(host: CoreHost, timeoutMs = 5000) {
  const sent: Record<string, unknown>[] = [];
  const session = new ServerSession({
    handlers: createCoreHandlers(host),
    auth: { required: false },
    workspaces: () => host.folders.paths(),
    send: (f) => sent.push(JSON.parse(f) as Record<string, unknown>),
    close: () => {},
    validateResults: true,
  });
  session.onFrame(JSON.stringify({ type: 'handshake' }));
  const handshake = sent.shift() as { capabilities: string[] };
  let n = 0;
  const ask = async (topic: string, params: object): Promise<AnswerFrame> => {
    const requestId = `r${++n}`;
    session.onFrame(JSON.stringify({ topic: `/app/vscode/${topic}`, requestId, params }));
    const deadline = Date.now() + timeoutMs;
    while (!sent.some((f) => f.requestId === requestId)) {
      if (Date.now() > deadline) throw new Error(`no answer to ${topic} within ${timeoutMs} ms`);
      await new Promise((done) => setTimeout(done, 2));
    }
    return sent.find((f) => f.requestId === requestId) as AnswerFrame;
  };
  return { ask, capabilities: handshake.capabilities };
}
