// In-test v0.1.7 servers for the fuzz tests: a clean one (edit/find, edit/replace, nav/definition,
// fs/findFiles answering valid empty results, paths confined) and four with one planted flaw each.
import { writeFileSync } from 'node:fs';
import { isAbsolute, join, relative, resolve } from 'node:path';
import { FRAMES } from '../../generated/v0.1.7/frames';
import { type Handlers, ProtocolError, SERVER_PROTOCOL } from '../../generated/v0.1.7/server';
import { createIdeaServer } from '../../runtime/idea-server';
import { ServerProtocol, ServerSession } from '../../runtime/server-session';

export const FUZZ_TOKEN = '0d9b3c4e-1f2a-4b5c-8d6e-7f8091a2b3c4';

export type Plant = 'crash-on-long-pattern' | 'negative-line' | 'hang-on-empty-glob' | 'write-on-invalid';

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
  const handlers: Partial<Handlers> = {
    async editFind({ pattern, include }) {
      // Planted: a 10,000-character pattern takes the connection down.
      if (plant === 'crash-on-long-pattern' && pattern.length >= 10_000) closeConnection?.();
      // Planted: an empty include never answers.
      if (plant === 'hang-on-empty-glob' && include === '') await new Promise(() => undefined);
      return { matches: [], totalCount: 0 };
    },
    async editReplace(params) {
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
      return new ServerSession(protocol, o);
    },
  });
  return { url: server.url, close: () => server.close() };
}
