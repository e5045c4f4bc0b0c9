// The benches' own IDEA server, on the public API only (the generated ServerSession, the runtime's ws
// binding and registry): every topic answers its spec example, unchanged, so what is measured is the
// protocol's cost, not a handler's. Examples are each topic schema's first `examples` entry (the spec's
// lint requires one), checked against the generated validators.
import { mkdirSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { type Handlers, ServerSession, type ServerSessionOptions } from '../../generated/v0.1.6/server';
import { PROTOCOL_VERSION } from '../../generated/v0.1.6/topics';
import * as validators from '../../generated/v0.1.6/validators';
import { registerServer } from '../../runtime/registry';
import { startWebSocketServer } from '../../runtime/ws-server';

export const TOKEN = '3f2b8c1e-5d4a-4e7b-9c1a-2b3c4d5e6f70';
export const WORKSPACES = ['/tmp/idea-bench-ws'];
const SPEC_DIR = fileURLToPath(new URL('../../spec/v0.1.6/', import.meta.url));

type Validate = ((x: unknown) => boolean) & { errors?: unknown };
/** The generated validator of a root schema by type name, e.g. "Request" or "EditFindResult". */
export function generatedValidator(name: string): Validate {
  const v = (validators as Record<string, unknown>)[`validate${name}`];
  if (typeof v !== 'function') throw new Error(`generated validators lack validate${name}`);
  return v as Validate;
}

interface IndexTopic {
  topic: string;
  method: string;
  typeName: string;
  params: string;
  result: string;
}
/** The topic index of the spec version the benches serve. */
export const INDEX_TOPICS: IndexTopic[] = JSON.parse(readFileSync(join(SPEC_DIR, 'index.json'), 'utf8')).topics;

function example(file: string, typeName: string): Record<string, unknown> {
  const ex = (JSON.parse(readFileSync(join(SPEC_DIR, file), 'utf8')) as { examples?: unknown[] }).examples?.[0];
  if (!generatedValidator(typeName)(ex)) throw new Error(`${file}: no valid first example`);
  return ex as Record<string, unknown>;
}

let results: Map<string, Record<string, unknown>> | undefined;
/** Topic → its result schema's first example. */
export function exampleResults(): Map<string, Record<string, unknown>> {
  return (results ??= new Map(INDEX_TOPICS.map((t) => [t.topic, example(t.result, `${t.typeName}Result`)])));
}

/** Topic → its params schema's first example. */
export function exampleParams(): Map<string, Record<string, unknown>> {
  return new Map(INDEX_TOPICS.map((t) => [t.topic, example(t.params, `${t.typeName}Params`)]));
}

/** Cheapest possible handlers: each topic answers its spec example, unchanged. */
export function constantHandlers(): Handlers {
  const r = exampleResults();
  return Object.fromEntries(
    INDEX_TOPICS.map((t) => [t.method, () => Promise.resolve(r.get(t.topic))]),
  ) as unknown as Handlers;
}

export interface MemorySession {
  session: ServerSession;
  sent: string[];
}

/** A session with no socket: frames in through onFrame, out into `sent`. */
export function memorySession(opts: Partial<ServerSessionOptions> = {}): MemorySession {
  const sent: string[] = [];
  const session = new ServerSession({
    handlers: constantHandlers(),
    auth: { required: true, token: TOKEN },
    workspaces: () => WORKSPACES,
    send: (f) => sent.push(f),
    close: () => undefined,
    ...opts,
  });
  return { session, sent };
}

/** Lets pending promise jobs (handler answers) run. */
export const flush = () => new Promise<void>((r) => setImmediate(r));

export interface BenchServer {
  url: string;
  /** With `registered`: the workspace folder it serves and the registry it is entered in. */
  workspace?: string;
  registry?: string;
  close(): Promise<void>;
}

/**
 * The generated session behind the runtime ws binding on 127.0.0.1 (any free port). With
 * `registered`, it serves a fresh temp workspace and is entered in a registry folder of its own, so
 * a client finds it as it finds VS Code.
 */
export async function startBenchServer(
  opts: Partial<ServerSessionOptions> & { registered?: boolean } = {},
): Promise<BenchServer> {
  const { registered, ...sessionOpts } = opts;
  const base = registered ? mkdtempSync(join(tmpdir(), 'idea-bench-server-')) : undefined;
  const workspaces = base ? [join(base, 'ws')] : WORKSPACES;
  const server = await startWebSocketServer({
    host: '127.0.0.1',
    port: 0,
    createSession: (io) =>
      new ServerSession({
        handlers: constantHandlers(),
        auth: { required: true, token: TOKEN },
        workspaces: () => workspaces,
        send: io.send,
        close: io.close,
        ...sessionOpts,
      }),
  });
  if (!base) return { url: `ws://127.0.0.1:${server.port}`, close: () => server.close() };
  const registry = join(base, 'registry');
  mkdirSync(workspaces[0]!, { recursive: true });
  const reg = registerServer(
    {
      pid: process.pid,
      port: server.port,
      protocolVersion: PROTOCOL_VERSION,
      workspaces,
      token: TOKEN,
      authRequired: true,
      ide: 'bench',
    },
    registry,
  );
  return {
    url: `ws://127.0.0.1:${server.port}`,
    workspace: workspaces[0],
    registry,
    async close() {
      reg.remove();
      await server.close();
      rmSync(base, { recursive: true, force: true });
    },
  };
}
