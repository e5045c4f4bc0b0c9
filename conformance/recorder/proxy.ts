// A transparent WebSocket proxy: clients connect to it as if it were the server; every frame is
// forwarded unchanged both ways (close codes included), and each request/response pair is written
// as a fixture case. A connection that subscribes to events is written, from its subscribe on, as one
// exchange case with the event frames the server pushed (exchange.ts), when it closes. The token only
// ever travels on the wire: cases never contain it.
import { mkdirSync, writeFileSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import { join, relative } from 'node:path';
import { isVersion, laterVersion } from '@idea-kit/spec-lib/version';
import { WebSocket, WebSocketServer } from 'ws';
import { CURRENT_VERSION } from '../../generated/current';
import { loadMcpTools } from '../../generated/versions';
import { frameBytes, frameText } from '../../runtime/frame-text';
import { CLAUSES, clauseSince } from '../lib/clauses';
import { CONFORMANCE_DIR } from '../lib/load';
import { topicSince } from '../lib/topics';
import { ExchangeRecording, SUBSCRIBE_TOPIC, unorderLists } from './exchange';
import { type GeneralizeContext, generalize } from './generalize';

export interface RecorderOptions {
  /** Upstream server URL, e.g. ws://127.0.0.1:7200. */
  upstream: string;
  /** Loopback port to listen on (0 = any free one). */
  port?: number;
  /** Folder the cases are written to (`<area>/<name>.json`). */
  outDir: string;
  /** Workspace root the upstream server has open; paths under it become ${workspace}. */
  workspace: string;
  /** Known commit hashes → variable names (from the fixture workspace). */
  hashes?: Map<string, string>;
  /** Case ids are `<area>/<prefix>-<n>`; default "recorded". */
  prefix?: string;
  /** Protocol version recorded cases apply from (default the handshake's version). */
  since?: string;
  /**
   * Record UNKNOWN_TOPIC answers too. Off by default: such a case would hold every server that serves
   * the topic to not serving it (usually a typo in the client, or a server without the topic).
   */
  allowUnknownTopic?: boolean;
  onCase?(file: string): void;
  /** A response that was forwarded but not recorded, and why. */
  onSkip?(why: string): void;
}

/**
 * Topics that change the workspace (their cases need a fresh workspace and a reset afterwards): the
 * destructive ones by the spec's topic annotations, as the MCP tools carry them (edit/rename included).
 */
export async function writeTopics(): Promise<ReadonlySet<string>> {
  const tools = (await loadMcpTools(CURRENT_VERSION)) ?? [];
  return new Set(tools.filter((t) => t.annotations.destructiveHint).map((t) => t.topic));
}
/** The clause a recorded case checks: the topic's results clause, or the error code's. */
function clauseFor(topic: string, response: Record<string, unknown>): string {
  if ('error' in response) return (response.error as { code?: string }).code === 'UNKNOWN_TOPIC' ? 'T9' : 'T10';
  return [...CLAUSES.values()].find((c) => c.topic === topic)?.id ?? 'T1';
}

/** A recorded case applies from the version given or announced, never before its clause and topic (`floor`). */
function sinceFor(version: string | undefined, floor: string): string {
  return version === undefined ? floor : laterVersion(version, floor);
}

export interface RunningRecorder {
  url: string;
  port: number;
  /** Files written so far. */
  written: string[];
  close(): Promise<void>;
}

interface Pending {
  topic: string;
  params: unknown;
}

export async function startRecorder(o: RecorderOptions): Promise<RunningRecorder> {
  if (o.since !== undefined && !isVersion(o.since))
    throw new Error(`since: not a protocol version: ${JSON.stringify(o.since)}`);
  const WRITE_TOPICS = await writeTopics();
  const written: string[] = [];
  let counter = 0;
  const http: Server = createServer((_q, res) => res.writeHead(426).end());
  const wss = new WebSocketServer({ server: http, maxPayload: 64 * 1024 * 1024 });
  const sockets = new Set<WebSocket>();
  /** Writers of the exchange cases of connections still open (run at close()). */
  const open = new Set<() => void>();

  /** Writes one case as `<area>/<prefix>-<n>.json`, its id and `$schema` filled in. */
  const save = (area: string, fixture: Record<string, unknown>) => {
    const name = `${o.prefix ?? 'recorded'}-${String(++counter).padStart(3, '0')}`;
    const dir = join(o.outDir, area);
    const file = join(dir, `${name}.json`);
    const doc = {
      // Resolvable where the file is written; a case moved under fixtures/<v>/<area>/ uses ../../../fixture.schema.json.
      $schema: relative(dir, join(CONFORMANCE_DIR, 'fixture.schema.json')).split('\\').join('/'),
      id: `${area}/${name}`,
      ...fixture,
    };
    mkdirSync(dir, { recursive: true });
    writeFileSync(file, `${JSON.stringify(doc, null, 2)}\n`);
    written.push(file);
    o.onCase?.(file);
  };

  wss.on('connection', (client, req) => {
    sockets.add(client);
    // Origin and other headers are passed on so the upstream's own checks still apply.
    const headers: Record<string, string> = {};
    if (req.headers.origin) headers.Origin = req.headers.origin;
    const upstream = new WebSocket(o.upstream, { headers, maxPayload: 64 * 1024 * 1024 });
    sockets.add(upstream);
    const ctx: GeneralizeContext = { workspace: o.workspace, hashes: o.hashes ?? new Map() };
    let version = o.since;
    const pending = new Map<string, Pending>();
    const early: { data: Buffer; binary: boolean }[] = [];

    const write = (topic: string, params: unknown, response: Record<string, unknown>) => {
      const code = 'error' in response ? (response.error as { code: string }).code : undefined;
      if (code === 'UNKNOWN_TOPIC' && !o.allowUnknownTopic) {
        o.onSkip?.(
          `not recorded: UNKNOWN_TOPIC for ${topic} (the server does not serve it; allowUnknownTopic / --allow-unknown-topic records it)`,
        );
        return;
      }
      const area =
        topic
          .replace(/^\/app\/vscode\//, '')
          .replace('/', '-')
          .toLowerCase()
          .replace(/[^a-z0-9-]/g, '') || 'protocol';
      const expect =
        code !== undefined ? { error: { code } } : { result: unorderLists(generalize(response.result, ctx)) };
      const writes = WRITE_TOPICS.has(topic);
      const spec = clauseFor(topic, response);
      save(area, {
        description: `Recorded ${topic} exchange (review and describe before committing).`,
        spec,
        since: sinceFor(version, laterVersion(clauseSince(spec), topicSince(topic) ?? clauseSince(spec))),
        workspace: writes ? 'fresh' : 'any',
        ...(writes ? { destructive: true } : {}),
        kind: 'request',
        request: { topic, params: generalize(params, ctx) },
        expect,
      });
    };

    let exchange: ExchangeRecording | undefined;
    /** Writes the connection's exchange case, once (when either side closes, or the recorder does). */
    const writeExchange = () => {
      open.delete(writeExchange);
      if (!exchange) return;
      const x = exchange;
      exchange = undefined;
      const steps = x.finish();
      const writes = [...x.topics].some((t) => WRITE_TOPICS.has(t));
      save('events', {
        description: 'Recorded exchange with pushed events (review and describe before committing).',
        spec: 'T31',
        since: sinceFor(version, clauseSince('T31')),
        // Events report what other cases do too: the case runs alone.
        workspace: 'fresh',
        ...(writes ? { destructive: true } : {}),
        kind: 'exchange',
        handshake: 'auto',
        topic: SUBSCRIBE_TOPIC,
        ...(x.events.size ? { events: [...x.events] } : {}),
        steps,
      });
    };
    open.add(writeExchange);

    client.on('message', (data, binary) => {
      const buf = frameBytes(data);
      let msg: unknown;
      try {
        msg = JSON.parse(frameText(buf));
      } catch {
        // not JSON: forwarded as is, recorded only within an exchange
        if (!binary) exchange?.sentText(frameText(buf));
      }
      if (msg && typeof msg === 'object' && !Array.isArray(msg)) {
        const m = msg as Record<string, unknown>;
        if (m.type === 'handshake' && typeof m.token === 'string') ctx.token = m.token;
        if (exchange) exchange.sent(m);
        else if (m.type !== 'handshake' && typeof m.topic === 'string' && typeof m.requestId === 'string')
          pending.set(m.requestId, { topic: m.topic, params: m.params ?? {} });
      } else if (msg !== undefined) exchange?.sent(msg);
      if (upstream.readyState === WebSocket.OPEN) upstream.send(buf, { binary });
      else early.push({ data: buf, binary });
    });
    upstream.on('open', () => {
      for (const f of early.splice(0)) upstream.send(f.data, { binary: f.binary });
    });
    upstream.on('message', (data, binary) => {
      const buf = frameBytes(data);
      try {
        const msg = JSON.parse(frameText(buf)) as Record<string, unknown>;
        // A version that is none (the server's own problem) leaves the floor of each case.
        if (msg.type === 'handshake' && typeof msg.version === 'string' && isVersion(msg.version))
          version ??= msg.version;
        const id = typeof msg.requestId === 'string' ? msg.requestId : undefined;
        const p = id !== undefined ? pending.get(id) : undefined;
        if (p && id !== undefined) {
          pending.delete(id);
          // An accepted subscribe starts the connection's exchange case; a refused one is a request case.
          if (p.topic === SUBSCRIBE_TOPIC && 'result' in msg && !exchange)
            exchange = new ExchangeRecording(ctx, { requestId: id, params: p.params }, msg);
          else write(p.topic, p.params, msg);
        } else if (exchange && msg && typeof msg === 'object' && !Array.isArray(msg)) exchange.received(msg);
        else if (msg?.type === 'event') o.onSkip?.('not recorded: an event frame outside a subscription');
      } catch {
        // forwarded as is
      }
      if (client.readyState === WebSocket.OPEN) client.send(buf, { binary });
    });
    const closeBoth = (code: number, reason: Buffer) => {
      const c = code === 1005 || code === 1006 ? 1000 : code;
      for (const s of [client, upstream])
        if (s.readyState === WebSocket.OPEN || s.readyState === WebSocket.CONNECTING) s.close(c, reason);
    };
    upstream.on('close', closeBoth);
    client.on('close', closeBoth);
    client.on('close', writeExchange);
    upstream.on('unexpected-response', (_r, res) => client.close(1008, `upstream refused: HTTP ${res.statusCode}`));
    upstream.on('error', () => client.readyState === WebSocket.OPEN && client.close(1011, 'upstream error'));
    client.on('error', () => undefined);
    client.on('close', () => sockets.delete(client));
    upstream.on('close', () => sockets.delete(upstream));
  });

  await new Promise<void>((res, rej) => {
    http.once('error', rej);
    http.listen(o.port ?? 0, '127.0.0.1', () => res());
  });
  const addr = http.address();
  const port = typeof addr === 'object' && addr ? addr.port : 0;
  return {
    url: `ws://127.0.0.1:${port}`,
    port,
    written,
    close: () =>
      new Promise<void>((res) => {
        for (const w of [...open]) w();
        for (const s of sockets) s.terminate();
        wss.close();
        http.close(() => res());
        http.closeAllConnections();
      }),
  };
}
