// In-test v0.1.7 servers for the fuzz tests: a clean one (edit/find, edit/replace, nav/definition,
// fs/findFiles answering valid empty results, paths confined, files/changed after each replace) and eight
// with one planted flaw each.
import { writeFileSync } from 'node:fs';
import { isAbsolute, join, relative, resolve } from 'node:path';
import { FRAMES } from '../../generated/v0.1.7/frames';
import { type Handlers, ProtocolError, SERVER_PROTOCOL } from '../../generated/v0.1.7/server';
import { createIdeaServer } from '../../runtime/idea-server';
import { ServerProtocol, ServerSession } from '../../runtime/server-session';
import type { SessionLike } from '../../runtime/ws-server';

export const FUZZ_TOKEN = '0d9b3c4e-1f2a-4b5c-8d6e-7f8091a2b3c4';

export type Plant =
  | 'crash-on-long-pattern'
  | 'negative-line'
  | 'hang-on-empty-glob'
  | 'write-on-invalid'
  | 'result-on-missing-request-id'
  | 'close-on-null-params'
  | 'event-missing-field'
  | 'events-after-unsubscribe';

const FILES_CHANGED = '/app/vscode/files/changed';

/** The generated session, with an envelope flaw planted before it reads a frame. */
function plantedSession(
  plant: Plant | undefined,
  io: { close(code: number, reason: string): void; send(frame: string): void },
  inner: ServerSession<Handlers>,
): SessionLike {
  return {
    get state() {
      return inner.state;
    },
    onClose: () => inner.onClose(),
    emit: (event, data) => inner.emit(event, data),
    onFrame(text) {
      let m: unknown;
      try {
        m = JSON.parse(text);
      } catch {
        return inner.onFrame(text);
      }
      if (inner.state === 'open' && m && typeof m === 'object' && !Array.isArray(m)) {
        const msg = m as Record<string, unknown>;
        // Planted: a request without requestId is answered with a result instead of INVALID_REQUEST.
        if (plant === 'result-on-missing-request-id' && typeof msg.topic === 'string' && !('requestId' in msg))
          return io.send(JSON.stringify({ topic: msg.topic, requestId: '', result: {} }));
        // Planted: params null takes the connection down.
        if (plant === 'close-on-null-params' && 'params' in msg && msg.params === null)
          return io.close(1011, 'planted crash');
      }
      inner.onFrame(text);
      // Planted: a files/changed event pushed after the unsubscribe is answered.
      const m2 = m as Record<string, unknown> | null;
      if (plant === 'events-after-unsubscribe' && m2?.topic === '/app/vscode/events/unsubscribe')
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

export async function startFuzzServer(root: string, plant?: Plant) {
  let closeConnection: (() => void) | undefined;
  let emit: ((event: string, data: Record<string, unknown>) => void) | undefined;
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
      emit?.(FILES_CHANGED, {
        changes: [plant === 'event-missing-field' ? { filePath } : { filePath, change: 'changed' }],
      });
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
  const server = await createIdeaServer({
    protocol,
    port: 0,
    handlers: () => handlers,
    auth: { required: true, token: FUZZ_TOKEN },
    workspaces: () => [root],
    createSession: (o) => {
      closeConnection = () => o.close(1011, 'planted crash');
      return plantedSession(plant, o, new ServerSession(protocol, { ...o, events: [FILES_CHANGED] }));
    },
  });
  emit = (event, data) => server.emit(event, data);
  return { url: server.url, close: () => server.close() };
}
