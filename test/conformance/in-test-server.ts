// In-test IDEA servers for the runner's own tests: runtime/idea-server.ts, with small handlers for history/list
// and fs/findFiles over the fixture workspace, and a nav/definition that finds nothing after 300 ms (so that
// requests sent at once overlap: the in-flight bound). The other
// topics are served by a stub that fails, so capabilities list all 13 topics.
import { execFileSync } from 'node:child_process';
import { readdirSync } from 'node:fs';
import { isAbsolute, join, relative, resolve, sep } from 'node:path';
import { type Handlers, ProtocolError, SERVER_PROTOCOL } from '../../generated/v0.1.6/server';
import { TOPICS } from '../../generated/v0.1.6/topics';
import type { FsFindFilesResult, HistoryListResult } from '../../generated/v0.1.6/types';
import { createIdeaServer } from '../../runtime/idea-server';
import { ServerProtocol, ServerSession } from '../../runtime/server-session';
import { sleep } from '../support/wait';

export const TEST_TOKEN = '6f1c2a8e-3b7d-4e59-9a21-0c4d5e6f7a8b';

export interface Flaws {
  /** history/list indices start at 0 instead of 1. */
  historyIndexOffByOne?: boolean;
  /** fs/findFiles leaves out relativePath (a schema violation). */
  findFilesWithoutRelativePath?: boolean;
  /** Paths outside the workspace fail with HANDLER_ERROR instead of INVALID_REQUEST. */
  escapeIsHandlerError?: boolean;
  /** Every INVALID_REQUEST response (not the handshake's) goes out as HANDLER_ERROR. */
  invalidRequestAsHandlerError?: boolean;
  /** No bound on requests in flight (H9): every request runs, however many. */
  noInFlightBound?: boolean;
  /** This bound on requests in flight instead of the default 1,000 (a server that keeps up with a flood of that many). */
  maxInFlight?: number;
}

function inside(root: string, p: string, flaws: Flaws): string {
  const abs = resolve(root, p);
  const rel = relative(root, abs);
  if (rel.startsWith('..') || isAbsolute(rel)) {
    if (flaws.escapeIsHandlerError) throw new Error(`cannot read ${p}`);
    throw new ProtocolError('INVALID_REQUEST', `path outside the workspace: ${p}`);
  }
  return rel.split(sep).join('/');
}

export function globRe(glob: string): RegExp {
  const re = glob
    .replace(/\{([^{}]*)\}/g, (_m, alts: string) => `\u0003${alts.split(',').join('\u0004')}\u0005`)
    .replace(/[.+^${}()|[\]\\]/g, '\\$&')
    .replace(/\*\*\//g, '\u0001')
    .replace(/\*\*/g, '\u0002')
    .replace(/\*/g, '[^/]*')
    .replace(/\?/g, '[^/]')
    .replace(/\u0001/g, '(?:.*/)?')
    .replace(/\u0002/g, '.*')
    .replace(/\u0003/g, '(?:')
    .replace(/\u0004/g, '|')
    .replace(/\u0005/g, ')');
  return new RegExp(`^${re}$`);
}

export function walk(root: string, dir = ''): string[] {
  return readdirSync(join(root, dir), { withFileTypes: true }).flatMap((e) => {
    const rel = dir ? `${dir}/${e.name}` : e.name;
    if (e.name === '.git' || e.name === 'hidden') return []; // hidden: files.exclude of the fixture
    return e.isDirectory() ? walk(root, rel) : [rel];
  });
}

function makeHandlers(root: string, flaws: Flaws = {}): Partial<Handlers> {
  const fail = async () => {
    throw new Error('not implemented by the in-test server');
  };
  const stubs = Object.fromEntries(TOPICS.map((t) => [t.method, fail])) as unknown as Handlers;
  return {
    ...stubs,
    async historyList({ filePath, maxCount }): Promise<HistoryListResult> {
      const rel = inside(root, filePath, flaws);
      const out = execFileSync(
        'git',
        ['log', `--max-count=${maxCount}`, '--format=%H%x00%an%x00%ae%x00%aI%x00%s', '--', rel],
        { cwd: root, encoding: 'utf8' },
      );
      const entries = out
        .split('\n')
        .filter(Boolean)
        .map((line, i) => {
          const [hash, authorName, authorEmail, authorDate, message] = line.split('\u0000') as [
            string,
            string,
            string,
            string,
            string,
          ];
          return {
            index: flaws.historyIndexOffByOne ? i : i + 1,
            hash,
            shortHash: hash.slice(0, 7),
            message,
            authorName,
            authorEmail,
            authorDate,
          };
        });
      return { entries, totalCount: entries.length };
    },
    async navDefinition() {
      // The server's own latency, not a wait of a test: requests sent at once are in flight together.
      await sleep(300);
      return { locations: [] };
    },
    async fsFindFiles({ query, include, exclude, maxResults }): Promise<FsFindFilesResult> {
      const inc = globRe(include);
      const exc = exclude ? globRe(exclude) : undefined;
      const files = walk(root)
        .filter(
          (rel) =>
            inc.test(rel) && !exc?.test(rel) && rel.split('/').pop()!.toLowerCase().includes(query.toLowerCase()),
        )
        .slice(0, maxResults)
        .map((rel) => {
          const f = { fileName: rel.split('/').pop()!, filePath: join(root, rel), relativePath: rel };
          if (flaws.findFilesWithoutRelativePath) delete (f as Partial<typeof f>).relativePath;
          return f;
        });
      return { files, totalCount: files.length };
    },
  };
}

export interface InTestServerOptions {
  /** Announce this protocol version in the handshake while serving 0.1.6 (a server misstating its version). */
  version?: string;
  /** Handler methods to leave out (their topics are then absent from capabilities). */
  without?: (keyof Handlers)[];
  /** Serve only these handler methods. */
  only?: (keyof Handlers)[];
  /** Handlers to serve instead of (or besides) the built-in ones. */
  handlers?: Partial<Handlers>;
}

export async function startInTestServer(root: string, flaws: Flaws = {}, opts: InTestServerOptions = {}) {
  const handlers = { ...makeHandlers(root, flaws), ...opts.handlers };
  for (const m of opts.without ?? []) delete handlers[m];
  if (opts.only)
    for (const m of Object.keys(handlers) as (keyof Handlers)[]) if (!opts.only.includes(m)) delete handlers[m];
  // v0.1.6's routes and schemas under another version's name: a server that misstates its version.
  const { spec } = SERVER_PROTOCOL;
  const protocol = opts.version
    ? new ServerProtocol({ ...spec, frames: { ...spec.frames, version: opts.version } })
    : SERVER_PROTOCOL;
  const flawed = (f: string) =>
    f.startsWith('{"type"') ? f : f.replace('"code":"INVALID_REQUEST"', '"code":"HANDLER_ERROR"');
  const server = await createIdeaServer({
    protocol,
    port: 0,
    handlers: () => handlers,
    auth: { required: true, token: TEST_TOKEN },
    workspaces: () => [root],
    createSession: (o) =>
      new ServerSession(protocol, {
        ...o,
        ...(flaws.invalidRequestAsHandlerError ? { send: (f: string) => o.send(flawed(f)) } : {}),
        ...(flaws.noInFlightBound ? { maxInFlight: Number.MAX_SAFE_INTEGER } : {}),
        ...(flaws.maxInFlight ? { maxInFlight: flaws.maxInFlight } : {}),
      }),
  });
  return { url: server.url, close: () => server.close() };
}

/** Cases the in-test server can answer: protocol cases without other topics' results, history/list, fs/findFiles, transport security. */
export const IN_TEST_SELECTION = [
  'protocol/*',
  'history-list/*',
  'fs-findfiles/*',
  'security/foreign-origin-refused',
  'security/null-origin-refused',
  'security/foreign-host-refused',
  'security/no-origin-accepted',
  'security/oversize-frame',
  'security/oversize-before-handshake',
  'security/loopback-only',
  'security/in-flight-bound',
  'security/path-escape-history-list',
  'security/path-escape-dotdot-inside',
  'security/git-option-injection-filepath',
];
