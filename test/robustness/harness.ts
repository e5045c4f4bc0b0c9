// Shared set-up for the in-process robustness tests and the core benches: the spec oracle, trivial
// handlers answering each topic with its spec example (marked per request), in-memory sessions and a
// real loopback ws server around the generated ServerSession.
import { fileURLToPath } from 'node:url';
import {
  type Handlers,
  SERVER_PROTOCOL,
  ServerSession,
  type ServerSessionOptions,
} from '../../generated/v0.1.6/server';
import * as validators from '../../generated/v0.1.6/validators';
import { createIdeaServer, type RunningIdeaServer } from '../../runtime/idea-server';
import { exampleResults, markedResult } from './results';
import { SpecOracle } from './spec-oracle';

const SPEC_DIR = fileURLToPath(new URL('../../spec/v0.1.6', import.meta.url));
export const TOKEN = '3f2b8c1e-5d4a-4e7b-9c1a-2b3c4d5e6f70';
export const WORKSPACES = ['/tmp/idea-robustness-ws'];

let oracle: SpecOracle | undefined;
export function spec(): SpecOracle {
  return (oracle ??= new SpecOracle(SPEC_DIR));
}

type Validate = ((x: unknown) => boolean) & { errors?: unknown };
/** The generated validator of a root schema by type name, e.g. "ResponseError" or "EditFindResult". */
export function generatedValidator(name: string): Validate {
  const v = (validators as Record<string, unknown>)[`validate${name}`];
  if (typeof v !== 'function') throw new Error(`generated validators lack validate${name}`);
  return v as Validate;
}

/** Handlers for every topic of the index: answer with the spec's example result, marked with the params. */
export function trivialHandlers(
  wrap?: (topic: string, run: () => Promise<unknown>, params: unknown) => Promise<unknown>,
): Handlers {
  const o = spec();
  const examples = exampleResults(o);
  const out: Record<string, (p: unknown) => Promise<unknown>> = {};
  for (const t of o.index.topics) {
    const run = (p: unknown) => async () => markedResult(examples, t.topic, p);
    out[t.method] = wrap ? (p) => wrap(t.topic, run(p), p) : (p) => run(p)();
  }
  return out as unknown as Handlers;
}

/** Cheapest possible handlers for benchmarks: each topic answers its spec example, unchanged. */
export function constantHandlers(): Handlers {
  const examples = exampleResults(spec());
  const out: Record<string, () => Promise<unknown>> = {};
  for (const t of spec().index.topics) {
    const r = examples.get(t.topic)!;
    out[t.method] = () => Promise.resolve(r);
  }
  return out as unknown as Handlers;
}

export interface MemorySession {
  session: ServerSession;
  sent: string[];
  closes: { code: number; reason: string }[];
}

export function memorySession(opts: Partial<ServerSessionOptions> = {}): MemorySession {
  const sent: string[] = [];
  const closes: { code: number; reason: string }[] = [];
  const session = new ServerSession({
    handlers: trivialHandlers(),
    auth: { required: true, token: TOKEN },
    workspaces: () => WORKSPACES,
    send: (f) => sent.push(f),
    close: (code, reason) => closes.push({ code, reason }),
    validateResults: true,
    ...opts,
  });
  return { session, sent, closes };
}

/** Lets pending promise jobs (handler answers) run. */
export const flush = () => new Promise<void>((r) => setImmediate(r));

export interface TestServer {
  url: string;
  server: RunningIdeaServer;
  sessions: ServerSession[];
  close(): Promise<void>;
}

/** runtime/idea-server.ts on 127.0.0.1 (port 0 = any free port), every session kept in `sessions`. */
export async function startTestServer(
  opts: Partial<Omit<ServerSessionOptions, 'send' | 'close'>> & { port?: number; maxPayload?: number } = {},
): Promise<TestServer> {
  const sessions: ServerSession[] = [];
  const {
    port = 0,
    maxPayload,
    handlers,
    auth = { required: true, token: TOKEN },
    workspaces = () => WORKSPACES,
    ...session
  } = opts;
  const server = await createIdeaServer({
    protocol: SERVER_PROTOCOL,
    port,
    maxPayload,
    handlers: () => handlers ?? trivialHandlers(),
    auth,
    workspaces,
    session,
    createSession: (o) => {
      const s = new ServerSession({ ...o, auth });
      sessions.push(s);
      return s;
    },
  });
  return { url: server.url, server, sessions, close: () => server.close() };
}
