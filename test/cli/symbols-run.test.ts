// The CLI's symbol commands end to end in-process (run()), against fake v0.1.8 servers found through
// their registry: `idea callers NAME_PATH` finds the one symbol of the workspace it names and asks
// about it by its file and own name path; several or none is exit 1 listing them, never a guess; a
// server before 0.1.8 gets nothing it would misread.
import { join, resolve } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type Io, run } from '../../cli/src/main';
import { loadSpecDir } from '../../cli/src/spec';
import { SERVER_PROTOCOL as V017 } from '../../generated/v0.1.7/server';
import { TOPICS as V017_TOPICS } from '../../generated/v0.1.7/topics';
import { SERVER_PROTOCOL } from '../../generated/v0.1.8/server';
import { TOPICS } from '../../generated/v0.1.8/topics';
import type {
  NavCallHierarchyParams,
  NavCallHierarchyResult,
  NavFindSymbolParams,
  NavFindSymbolResult,
  NavWorkspaceSymbolsResult,
} from '../../generated/v0.1.8/types';
// The session's own class: the generated one is typed without the error's further fields (candidates).
import { ProtocolError, type ServerProtocol } from '../../runtime/server-session';
import { type FakeServer, startFakeServer } from './fake-server';
import { REPO } from './spec';

const SPEC = loadSpecDir(join(REPO, 'spec', 'v0.1.8'));

let srv: FakeServer;
/** The symbols of the fake workspace, as nav/findSymbol finds them (by the name path's last segment). */
let symbols: NavFindSymbolResult['symbols'] = [];
const range = { line: 9, character: 2, endLine: 11, endCharacter: 3, selectionLine: 9, selectionCharacter: 2 };
const symbol = (namePath: string, file: string, kind = 'method') => ({
  namePath,
  name: namePath.split('/').pop()!,
  kind: kind as 'method',
  ...range,
  filePath: join(srv.workspace, file),
  signature: `${namePath.split('/').pop()}(): number`,
});

beforeAll(async () => {
  srv = await startFakeServer(
    {
      async navFindSymbol(p: NavFindSymbolParams): Promise<NavFindSymbolResult> {
        const last = p.namePath.split('/').pop();
        const found = symbols.filter((s) => s.name === last);
        return {
          symbols: found.slice(0, p.maxResults ?? 100),
          totalCount: found.length,
          truncated: false,
          form: 'symbols',
        };
      },
      async navCallHierarchy(p: NavCallHierarchyParams): Promise<NavCallHierarchyResult> {
        const item = {
          name: 'area',
          kind: 'method' as const,
          filePath: resolve(srv.workspace, p.filePath),
          namePath: p.namePath,
          ...range,
        };
        const caller = {
          ...item,
          name: 'report',
          kind: 'function' as const,
          namePath: '/report',
          filePath: join(srv.workspace, 'src/main.ts'),
        };
        const site = { filePath: caller.filePath, line: 4, character: 20, endLine: 4, endCharacter: 24 };
        return { item, calls: [{ item: caller, level: 1, callSites: [site] }], totalCount: 1, truncated: false };
      },
      async navHover(p: { namePath?: string }) {
        // As the core words it (T44): the message names the candidates; a terser server may not.
        const candidates = [
          { namePath: '/Circle/area', kind: 'method', line: 14 },
          { namePath: '/Square/area', kind: 'method', line: 30 },
        ];
        const named =
          'name path "area" matches 2 symbols: /Circle/area (method, line 15), /Square/area (method, line 31)';
        throw new ProtocolError('INVALID_REQUEST', p.namePath === 'area' ? named : 'ambiguous', { candidates });
      },
      async navWorkspaceSymbols(): Promise<NavWorkspaceSymbolsResult> {
        const s = {
          filePath: join(srv.workspace, 'src/shapes.ts'),
          line: 2,
          character: 0,
          endLine: 14,
          endCharacter: 1,
        };
        return {
          symbols: [{ ...s, name: 'Circle', kind: 'class', containerName: null }],
          totalCount: 1,
          truncated: false,
          coverage: {
            complete: false,
            searched: [{ kind: 'project', path: join(srv.workspace, 'tsconfig.json') }],
            notSearched: [
              { kind: 'project', path: join(srv.workspace, 'test/tsconfig.json'), reason: 'it does not parse' },
            ],
          },
        };
      },
    } as never,
    { protocol: SERVER_PROTOCOL as unknown as ServerProtocol<never>, topics: TOPICS },
  );
});
afterAll(() => srv.close());

async function idea(argv: string[], server: FakeServer = srv) {
  let stdout = '';
  let stderr = '';
  const io: Io = {
    env: { IDEA_REGISTRY_DIR: server.registry },
    cwd: server.workspace,
    stdout: (t) => void (stdout += t),
    stderr: (t) => void (stderr += t),
    stdoutIsTTY: false,
  };
  const code = await run(argv, SPEC, io);
  return { code, stdout, stderr };
}
const sent = () => srv.received.splice(0).map((r) => [r.topic.replace('/app/vscode/', ''), r.params]);

describe('a name path alone: the one symbol of the workspace it names', () => {
  it('idea callers NAME_PATH: found by nav/findSymbol, then asked by its file and own name path', async () => {
    symbols = [symbol('/Circle/area', 'src/shapes.ts'), symbol('/describe', 'src/format.ts', 'function')];
    srv.received.length = 0;
    const r = await idea(['callers', 'Circle/area']);
    expect(r).toEqual({
      code: 0,
      stdout: 'src/shapes.ts:10:3: method /Circle/area\n  called from src/main.ts:10:3: function /report  (at 5:21)\n',
      stderr: '',
    });
    expect(sent()).toEqual([
      [
        'nav/findSymbol',
        {
          namePath: 'Circle/area',
          maxResults: 20,
          substring: false,
          depth: 0,
          includeBody: false,
          maxAnswerChars: 200000,
        },
      ],
      [
        'nav/callHierarchy',
        {
          filePath: join(srv.workspace, 'src/shapes.ts'),
          namePath: '/Circle/area',
          direction: 'incoming',
          depth: 1,
          maxResults: 200,
        },
      ],
    ]);
    // Given the file, nothing is looked up.
    await idea(['callees', 'src/shapes.ts', 'Circle/area', '--depth', '2']);
    expect(sent()).toEqual([
      [
        'nav/callHierarchy',
        { filePath: 'src/shapes.ts', namePath: 'Circle/area', direction: 'outgoing', depth: 2, maxResults: 200 },
      ],
    ]);
  });

  it('several symbols: exit 1 listing them with their files and own name paths; none: exit 1; nothing else sent', async () => {
    symbols = [symbol('/Circle/area', 'src/shapes.ts'), symbol('/Square/area', 'src/polygon.ts')];
    srv.received.length = 0;
    const two = await idea(['callers', 'area']);
    expect(two.code).toBe(1);
    expect(two.stdout).toBe('');
    expect(two.stderr).toBe(
      [
        "idea: the name path 'area' names 2 symbols of the workspace; give the file too (idea callers FILE_PATH NAME_PATH):",
        '  src/shapes.ts:10:3: method /Circle/area  area(): number',
        '  src/polygon.ts:10:3: method /Square/area  area(): number',
        '',
      ].join('\n'),
    );
    expect(sent().map(([t]) => t)).toEqual(['nav/findSymbol']);
    const none = await idea(['def', 'nothing']);
    expect(none).toEqual({
      code: 1,
      stdout: '',
      stderr: "idea: no symbol of the workspace matches the name path 'nothing'\n",
    });
    expect(sent().map(([t]) => t)).toEqual(['nav/findSymbol']);
  });
});

describe('a name path in a file that names no symbol or several', () => {
  it('exit 1 with the message, and the candidates it does not name, one a line', async () => {
    const named = await idea(['hover', 'src/shapes.ts', 'area']);
    expect(named).toEqual({
      code: 1,
      stdout: '',
      stderr:
        'idea: INVALID_REQUEST: name path "area" matches 2 symbols: /Circle/area (method, line 15), /Square/area (method, line 31)\n',
    });
    const terse = await idea(['hover', 'src/shapes.ts', 'Circle']);
    expect(terse).toEqual({
      code: 1,
      stdout: '',
      stderr: 'idea: INVALID_REQUEST: ambiguous\n  method /Circle/area  (line 15)\n  method /Square/area  (line 31)\n',
    });
  });
});

describe('symbol commands print for people', () => {
  it('idea symbol NAME_PATH: the symbols with their name paths; idea symbols --workspace: with what was not searched', async () => {
    symbols = [symbol('/Circle/area', 'src/shapes.ts')];
    expect((await idea(['symbol', 'area'])).stdout).toBe('src/shapes.ts:10:3: method /Circle/area  area(): number\n');
    // Nothing found in the whole workspace is the answer (as grep's): no hint to name files.
    expect(await idea(['symbol', 'nothing'])).toEqual({ code: 0, stdout: '', stderr: '' });
    const w = await idea(['symbols', '--workspace', 'Circle']);
    expect(w).toEqual({
      code: 0,
      stdout:
        'src/shapes.ts:3:1: class Circle\nincomplete: 1 of 2 projects searched; not searched:\n  test/tsconfig.json: it does not parse\n',
      stderr: '',
    });
    expect(JSON.parse((await idea(['symbols', '--workspace', 'Circle', '--json'])).stdout).coverage.complete).toBe(
      false,
    );
  });
});

describe('a server that does not find symbols', () => {
  it('takes a name path in a file, but not one alone: said before anything is sent', async () => {
    const bare = await startFakeServer(
      { navReferences: async () => ({ locations: [], totalCount: 0 }) },
      { protocol: SERVER_PROTOCOL as unknown as ServerProtocol<never>, topics: TOPICS, onlyGiven: true },
    );
    try {
      expect(await idea(['refs', 'area'], bare)).toEqual({
        code: 1,
        stdout: '',
        stderr:
          'idea: a name path alone needs the server to find symbols (/app/vscode/nav/findSymbol), which it does not serve: give the file too (idea references FILE_PATH NAME_PATH)\n',
      });
      expect(bare.received).toEqual([]);
      expect((await idea(['refs', 'src/a.ts', 'area'], bare)).code).toBe(0);
      expect(bare.received.map((r) => r.params)).toEqual([
        { filePath: 'src/a.ts', namePath: 'area', includeDeclaration: true },
      ]);
    } finally {
      await bare.close();
    }
  });
});

describe('a server before 0.1.8', () => {
  it('takes no name path: said before anything is sent, with the forms it takes', async () => {
    const old = await startFakeServer({}, { protocol: V017 as unknown as ServerProtocol<never>, topics: V017_TOPICS });
    try {
      const r = await idea(['references', 'src/a.ts', 'Circle/area'], old);
      expect(r).toEqual({
        code: 1,
        stdout: '',
        stderr:
          'idea: the IDEA server (protocol 0.1.7) takes no name paths (protocol 0.1.8 does): give FILE_PATH LINE CHARACTER or FILE_PATH:LINE:COL\n',
      });
      expect(old.received).toEqual([]);
    } finally {
      await old.close();
    }
  });
});
