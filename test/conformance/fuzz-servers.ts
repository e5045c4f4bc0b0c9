// In-test v0.1.7 servers for the fuzz tests: a clean one (edit/find, edit/replace, nav/definition,
// fs/findFiles answering valid empty results, paths confined, files/changed after each replace) and
// seventeen with one planted flaw each.
import { writeFileSync } from 'node:fs';
import { isAbsolute, join, relative, resolve } from 'node:path';
import { FRAMES } from '../../generated/v0.1.7/frames';
import { type Handlers, ProtocolError, SERVER_PROTOCOL } from '../../generated/v0.1.7/server';
import { createIdeaServer } from '../../runtime/idea-server';
import { ServerProtocol, ServerSession } from '../../runtime/server-session';
import { DEFAULT_MAX_PAYLOAD, type SessionLike } from '../../runtime/ws-server';

export const FUZZ_TOKEN = '0d9b3c4e-1f2a-4b5c-8d6e-7f8091a2b3c4';

export type Plant =
  | 'crash-on-long-pattern'
  | 'negative-line'
  | 'hang-on-empty-glob'
  // edit/find with an `exclude`, valid or not, is never answered (the session never sees it)
  | 'hang-on-exclude'
  | 'write-on-invalid'
  | 'result-on-missing-request-id'
  | 'close-on-null-params'
  | 'event-missing-field'
  | 'events-after-unsubscribe'
  // two requests in flight with one requestId: each answer sent twice, the second dropped, the second refused
  | 'duplicate-answered-twice'
  | 'duplicate-dropped'
  | 'duplicate-refused'
  // a frame within 16 KiB of the bound carrying edit/find takes the whole server down
  | 'dies-near-limit'
  // so does any frame over 512 KiB (the padded canaries that look for the bound included)
  | 'dies-on-big-frame'
  // frames over 1 MiB closed with 1011 (the server's own check, not ws's 1009)
  | 'oversize-wrong-close'
  // files/changed queued while subscribed, delivered 550 ms after the edit whatever came between
  | 'queued-events-after-unsubscribe'
  // files/changed pushed to every connection subscribed to any event (diagnostics/changed advertised too)
  | 'events-ignore-names';

const FILES_CHANGED = '/app/vscode/files/changed';
const DIAGNOSTICS_CHANGED = '/app/vscode/diagnostics/changed';
const SUBSCRIBE = '/app/vscode/events/subscribe';
const UNSUBSCRIBE = '/app/vscode/events/unsubscribe';
const EDIT_FIND = '/app/vscode/edit/find';
/** How late the queued-events plant delivers (past the fuzzer's 400 ms settle after an edit). */
const QUEUE_DELAY_MS = 550;

interface Io {
  close(code: number, reason: string): void;
  send(frame: string): void;
}

/** One connection as the plants see it: its raw io, the requests in flight by requestId, the events it subscribed to. */
interface Conn {
  io: Io;
  pending: Map<string, number>;
  subscribed: Set<string>;
  open: boolean;
}

function objectOf(text: string): Record<string, unknown> | undefined {
  try {
    const m = JSON.parse(text) as unknown;
    return m && typeof m === 'object' && !Array.isArray(m) ? (m as Record<string, unknown>) : undefined;
  } catch {
    return undefined;
  }
}

/** Sends as the session would, with the duplicate-id plants on the way out. */
function plantedSend(plant: Plant | undefined, c: Conn): (frame: string) => void {
  return (frame) => {
    const m = objectOf(frame);
    const id = m && m.type !== 'event' && typeof m.requestId === 'string' ? m.requestId : undefined;
    const k = id === undefined ? 0 : (c.pending.get(id) ?? 0);
    if (id !== undefined && k > 0) {
      if (k === 1) c.pending.delete(id);
      else c.pending.set(id, k - 1);
      // Planted: the answer to a requestId two requests share goes out twice.
      if (plant === 'duplicate-answered-twice' && k >= 2) c.io.send(frame);
    }
    c.io.send(frame);
  };
}

/** The generated session, with an envelope flaw planted before it reads a frame. */
function plantedSession(
  plant: Plant | undefined,
  c: Conn,
  inner: ServerSession<Handlers>,
  die: () => void,
  maxPayload: number,
): SessionLike {
  const { io } = c;
  return {
    get state() {
      return inner.state;
    },
    onClose: () => {
      c.open = false;
      inner.onClose();
    },
    emit: (event, data) => inner.emit(event, data),
    onFrame(text) {
      const msg = objectOf(text);
      if (!msg) return inner.onFrame(text);
      if (inner.state === 'open') {
        // Planted: a request without requestId is answered with a result instead of INVALID_REQUEST.
        if (plant === 'result-on-missing-request-id' && typeof msg.topic === 'string' && !('requestId' in msg))
          return io.send(JSON.stringify({ topic: msg.topic, requestId: '', result: {} }));
        // Planted: edit/find with an exclude, of any type, is never answered.
        if (
          plant === 'hang-on-exclude' &&
          msg.topic === EDIT_FIND &&
          typeof msg.params === 'object' &&
          msg.params !== null &&
          'exclude' in msg.params
        )
          return;
        // Planted: params null takes the connection down.
        if (plant === 'close-on-null-params' && 'params' in msg && msg.params === null)
          return io.close(1011, 'planted crash');
        // Planted: a frame within 16 KiB of the bound carrying edit/find takes the whole server down.
        if (plant === 'dies-near-limit' && msg.topic === EDIT_FIND && Buffer.byteLength(text) >= maxPayload - 16 * 1024)
          return die();
        // Planted: any frame over 512 KiB takes the whole server down.
        if (plant === 'dies-on-big-frame' && text.length > 512 * 1024) return die();
        // Planted: the server's own size check, closing with 1011.
        if (plant === 'oversize-wrong-close' && Buffer.byteLength(text) > DEFAULT_MAX_PAYLOAD)
          return io.close(1011, 'frame too large');
        const id = typeof msg.topic === 'string' && typeof msg.requestId === 'string' ? msg.requestId : undefined;
        if (id !== undefined) {
          const inFlight = c.pending.get(id) ?? 0;
          // Planted: a second request with a requestId in flight is dropped (one map entry per requestId).
          if (plant === 'duplicate-dropped' && inFlight > 0) return;
          // Planted: a second request with a requestId in flight is refused.
          if (plant === 'duplicate-refused' && inFlight > 0)
            return io.send(
              JSON.stringify({
                topic: msg.topic,
                requestId: id,
                error: { code: 'INVALID_REQUEST', message: 'requestId already in flight' },
              }),
            );
          c.pending.set(id, inFlight + 1);
        }
        const events = (msg.params as { events?: unknown } | null)?.events;
        if (msg.topic === SUBSCRIBE && Array.isArray(events)) for (const e of events) c.subscribed.add(String(e));
        if (msg.topic === UNSUBSCRIBE)
          if (Array.isArray(events)) for (const e of events) c.subscribed.delete(String(e));
          else c.subscribed.clear();
      }
      inner.onFrame(text);
      // Planted: a files/changed event pushed after the unsubscribe is answered.
      if (plant === 'events-after-unsubscribe' && msg.topic === UNSUBSCRIBE)
        setTimeout(() => {
          if (inner.state === 'open')
            io.send(
              JSON.stringify({
                type: 'event',
                event: FILES_CHANGED,
                data: { changes: [{ filePath: '/x', change: 'changed' }] },
              }),
            );
        }, 50);
    },
  };
}

const REPLACE = '/app/vscode/edit/replace';

function inside(root: string, p: string): string {
  const abs = resolve(root, p);
  const rel = relative(root, abs);
  if (rel.startsWith('..') || isAbsolute(rel))
    throw new ProtocolError('INVALID_REQUEST', `path outside the workspace: ${p}`);
  return abs;
}

export interface FuzzServer {
  url: string;
  /** False once a planted flaw took the server down (dies-near-limit). */
  alive(): boolean;
  close(): Promise<void>;
}

export async function startFuzzServer(root: string, plant?: Plant): Promise<FuzzServer> {
  let closeConnection: (() => void) | undefined;
  let emit: ((event: string, data: Record<string, unknown>) => void) | undefined;
  const conns = new Set<Conn>();
  const handlers: Partial<Handlers> = {
    async editFind({ pattern, include }) {
      // Planted: a 10,000-character pattern takes the connection down.
      if (plant === 'crash-on-long-pattern' && pattern.length >= 10_000) closeConnection?.();
      // Planted: an empty include never answers.
      if (plant === 'hang-on-empty-glob' && include === '') await new Promise(() => undefined);
      return { matches: [], totalCount: 0 };
    },
    async editReplace(params) {
      // Every replace reports notes/journal.md changed; planted: without the required `change`.
      const filePath = join(root, 'notes', 'journal.md');
      const data = { changes: [plant === 'event-missing-field' ? { filePath } : { filePath, change: 'changed' }] };
      const frame = JSON.stringify({ type: 'event', event: FILES_CHANGED, data });
      if (plant === 'queued-events-after-unsubscribe') {
        // Planted: queued for the connections subscribed now, delivered later whatever came between.
        const queued = [...conns].filter((c) => c.subscribed.has(FILES_CHANGED));
        setTimeout(() => {
          for (const c of queued) if (c.open) c.io.send(frame);
        }, QUEUE_DELAY_MS);
      } else if (plant === 'events-ignore-names') {
        for (const c of conns) if (c.open && c.subscribed.size > 0) c.io.send(frame);
      } else emit?.(FILES_CHANGED, data);
      // Planted: the write happens before the params are checked (they are not checked by the session either).
      if (plant === 'write-on-invalid') {
        writeFileSync(join(root, 'fuzz-wrote.txt'), 'written\n');
        if (!FRAMES.params.get(REPLACE)!(params)) throw new ProtocolError('INVALID_REQUEST', 'invalid params');
      }
      return { replacedCount: 0, affectedFiles: [] };
    },
    async navDefinition({ filePath }) {
      const abs = inside(root, filePath);
      // Planted: a location with line -1 (LineNumber is minimum 0).
      if (plant === 'negative-line')
        return { locations: [{ filePath: abs, line: -1, character: 0, endLine: 0, endCharacter: 1, code: 'x' }] };
      return { locations: [] };
    },
    async fsFindFiles() {
      return { files: [], totalCount: 0 };
    },
  };
  const { spec } = SERVER_PROTOCOL;
  // The write-on-invalid server lets edit/replace params through unchecked, as a server without a validator would.
  const protocol =
    plant === 'write-on-invalid'
      ? new ServerProtocol({
          ...spec,
          frames: {
            ...spec.frames,
            params: new Map(
              [...spec.frames.params].map(([t, v]) => [
                t,
                t === REPLACE ? Object.assign(() => true, { errors: null }) : v,
              ]),
            ),
          },
        })
      : SERVER_PROTOCOL;
  const maxPayload = plant === 'oversize-wrong-close' ? 64 * 1024 * 1024 : DEFAULT_MAX_PAYLOAD;
  const events = plant === 'events-ignore-names' ? [FILES_CHANGED, DIAGNOSTICS_CHANGED] : [FILES_CHANGED];
  let dead = false;
  let die = () => undefined as void;
  const server = await createIdeaServer({
    protocol,
    port: 0,
    maxPayload,
    handlers: () => handlers,
    auth: { required: true, token: FUZZ_TOKEN },
    workspaces: () => [root],
    createSession: (o) => {
      closeConnection = () => o.close(1011, 'planted crash');
      const c: Conn = { io: o, pending: new Map(), subscribed: new Set(), open: true };
      conns.add(c);
      const inner = new ServerSession(protocol, { ...o, send: plantedSend(plant, c), events });
      return plantedSession(plant, c, inner, () => die(), maxPayload);
    },
  });
  emit = (event, data) => server.emit(event, data);
  die = () => {
    dead = true;
    void server.close();
  };
  return { url: server.url, alive: () => !dead, close: () => server.close() };
}
