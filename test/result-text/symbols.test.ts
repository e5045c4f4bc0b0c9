// The text of v0.1.8's answers: symbols found by name path (with their own name paths, signatures or
// bodies), workspace symbols, references grouped by the symbol containing them ("called from"), call
// hierarchies, and what any answer adds: `unavailable` and an incomplete `coverage` said in words.
import { formatResult, unavailableText } from '@idea-kit/result-text/format';
import { describe, expect, it } from 'vitest';

const T = (a: string) => `/app/vscode/${a}`;
const plain = (topic: string, result: unknown, params?: Record<string, unknown>) =>
  formatResult(T(topic), result, { color: false, cwd: '/ws', ...(params ? { params } : {}) });

const range = (line: number, character: number, endLine: number, endCharacter: number) => ({
  line,
  character,
  endLine,
  endCharacter,
  selectionLine: line,
  selectionCharacter: character + 6,
});
const COMPLETE = { complete: true, searched: [{ kind: 'project', path: '/ws/tsconfig.json' }], notSearched: [] };

describe('nav/findSymbol', () => {
  const route = {
    namePath: '/Hono/route',
    name: 'route',
    kind: 'method',
    ...range(9, 2, 12, 3),
    filePath: '/ws/src/hono.ts',
    signature: 'route(path: string, app: Hono): this',
  };

  it('each symbol at its name, with its own name path and signature; children indented by level', () => {
    const hono = {
      ...route,
      namePath: '/Hono',
      name: 'Hono',
      kind: 'class',
      ...range(2, 0, 20, 1),
      signature: 'export class Hono extends Base',
      children: [
        { ...route, level: 1, children: undefined, filePath: undefined },
        {
          namePath: '/Hono/route/inner',
          name: 'inner',
          kind: 'function',
          ...range(10, 4, 10, 20),
          level: 2,
          signature: 'function inner()',
        },
      ],
    };
    expect(plain('nav/findSymbol', { symbols: [hono], totalCount: 1, truncated: false, form: 'symbols' })).toBe(
      [
        'src/hono.ts:3:7: class /Hono  export class Hono extends Base',
        '  src/hono.ts:10:9: method /Hono/route  route(path: string, app: Hono): this',
        '    src/hono.ts:11:11: function /Hono/route/inner  function inner()',
      ].join('\n'),
    );
  });

  it('a body under its symbol, dedented as a block (its first line starts at bodyCharacter), the doc comment in it', () => {
    const body = '/** Mounts an app. */\n  route(path: string, app: Hono): this {\n    return this;\n\n  }';
    const r = {
      symbols: [{ ...route, bodyLine: 8, bodyCharacter: 2, body }],
      totalCount: 3,
      truncated: true,
      form: 'symbols',
    };
    expect(plain('nav/findSymbol', r)).toBe(
      [
        'src/hono.ts:10:9: method /Hono/route',
        '    /** Mounts an app. */',
        '    route(path: string, app: Hono): this {',
        '      return this;',
        '',
        '    }',
        '(showing 1 of 3 symbols)',
      ].join('\n'),
    );
    // Tabs: the first line's column counts a tab as one, as the protocol's characters do.
    const tabbed = { ...route, bodyLine: 9, bodyCharacter: 1, body: 'f() {\n\t\treturn 1;\n\t}' };
    expect(plain('nav/findSymbol', { symbols: [tabbed], totalCount: 1, truncated: false, form: 'symbols' })).toBe(
      'src/hono.ts:10:9: method /Hono/route\n    f() {\n    \treturn 1;\n    }',
    );
  });

  it('the shorter forms of the size budget say which they are', () => {
    expect(plain('nav/findSymbol', { symbols: [route], totalCount: 1, truncated: false, form: 'signatures' })).toBe(
      "src/hono.ts:10:9: method /Hono/route  route(path: string, app: Hono): this\n(signatures only: bodies and children left out to fit the answer's size budget)",
    );
    const counts = {
      symbols: [],
      totalCount: 4000,
      truncated: true,
      form: 'counts',
      files: [
        { filePath: '/ws/src/a.ts', count: 1 },
        { filePath: '/ws/src/b.ts', count: 3999 },
      ],
    };
    expect(plain('nav/findSymbol', counts)).toBe(
      [
        'src/a.ts: 1 symbol',
        'src/b.ts: 3999 symbols',
        "(4000 symbols matched: too many to list within the answer's size budget, so only the count per file, not every file; narrow the name path, the folder or the kinds)",
      ].join('\n'),
    );
    expect(plain('nav/findSymbol', { symbols: [], totalCount: 0, truncated: false, form: 'symbols' })).toBe('');
  });
});

describe('nav/workspaceSymbols', () => {
  const sym = (name: string, kind: string, containerName: string | null, filePath = '/ws/src/shapes.ts') => ({
    filePath,
    line: 2,
    character: 0,
    endLine: 14,
    endCharacter: 1,
    name,
    kind,
    containerName,
  });

  it('path:line:col: kind name, its container; a complete coverage says nothing', () => {
    const r = {
      symbols: [sym('Shape', 'interface', null), sym('area', 'method', 'Shape', '/elsewhere/x.ts')],
      totalCount: 9,
      truncated: true,
      coverage: COMPLETE,
    };
    expect(plain('nav/workspaceSymbols', r)).toBe(
      'src/shapes.ts:3:1: interface Shape\n/elsewhere/x.ts:3:1: method area  in Shape\n(showing 2 of 9 symbols)',
    );
  });

  it('an incomplete coverage: how much was searched, each part not searched with why, at most 10 named', () => {
    const notSearched = Array.from({ length: 12 }, (_, i) => ({
      kind: 'project',
      path: `/ws/p${i}/tsconfig.json`,
      reason: 'beyond the bound of 10 projects',
    }));
    const r = {
      symbols: [sym('Shape', 'interface', null)],
      totalCount: 1,
      truncated: false,
      coverage: { complete: false, searched: COMPLETE.searched, notSearched },
    };
    const lines = plain('nav/workspaceSymbols', r).split('\n');
    expect(lines.slice(0, 4)).toEqual([
      'src/shapes.ts:3:1: interface Shape',
      'incomplete: 1 of 13 projects searched; not searched:',
      '  p0/tsconfig.json: beyond the bound of 10 projects',
      '  p1/tsconfig.json: beyond the bound of 10 projects',
    ]);
    expect(lines).toHaveLength(2 + 10 + 1);
    expect(lines.at(-1)).toBe('  … and 2 more');
    // Projects and folders together are "parts"; an empty answer still says it.
    const mixed = {
      symbols: [],
      totalCount: 0,
      truncated: false,
      coverage: {
        complete: false,
        searched: [{ kind: 'folder', path: '/ws/rust' }],
        notSearched: [
          { kind: 'project', path: '/ws/tests/tsconfig.json', reason: 'typescript-language-server is not running' },
        ],
      },
    };
    expect(plain('nav/workspaceSymbols', mixed)).toBe(
      'incomplete: 1 of 2 parts searched; not searched:\n  tests/tsconfig.json: typescript-language-server is not running',
    );
  });
});

describe('nav/referencingSymbols', () => {
  it('each containing symbol, then its references: "called from /Router/add"', () => {
    const ref = (line: number, character: number, lineText: string) => ({
      line,
      character,
      endLine: line,
      endCharacter: character + 5,
      lineText,
    });
    const r = {
      groups: [
        {
          filePath: '/ws/src/router.ts',
          symbol: { namePath: '/Router/add', name: 'add', kind: 'method', ...range(10, 2, 20, 3) },
          references: [ref(12, 9, '    this.route(p);'), ref(14, 4, '    route(q)')],
        },
        { filePath: '/ws/src/main.ts', symbol: null, references: [ref(0, 9, 'import { route } from "./hono";')] },
      ],
      totalCount: 5,
      truncated: true,
      coverage: COMPLETE,
    };
    expect(plain('nav/referencingSymbols', r)).toBe(
      [
        'src/router.ts:11:9: method /Router/add',
        '  src/router.ts:13:10: this.route(p);',
        '  src/router.ts:15:5: route(q)',
        'src/main.ts: (outside every symbol)',
        '  src/main.ts:1:10: import { route } from "./hono";',
        '(showing 3 of 5 references)',
      ].join('\n'),
    );
  });
});

describe('nav/callHierarchy', () => {
  const item = (name: string, namePath: string | undefined, filePath: string, line: number) => ({
    name,
    kind: 'function',
    filePath,
    ...(namePath ? { namePath } : {}),
    ...range(line, 0, line + 3, 1),
  });
  const site = (filePath: string, line: number, character: number) => ({
    filePath,
    line,
    character,
    endLine: line,
    endCharacter: character + 4,
  });

  it('incoming: the function, then "called from" each caller by level, with the call sites in the caller', () => {
    const r = {
      item: item('area', '/Circle/area', '/ws/src/shapes.ts', 14),
      calls: [
        {
          item: item('totalArea', '/totalArea', '/ws/src/shapes.ts', 20),
          level: 1,
          callSites: [site('/ws/src/shapes.ts', 21, 40)],
        },
        {
          item: item('report', '/report', '/ws/src/main.ts', 3),
          level: 2,
          callSites: [site('/ws/src/main.ts', 4, 2), site('/ws/src/main.ts', 6, 2)],
        },
        { item: item('cb', undefined, '/ws/src/main.ts', 9), level: 2, callSites: [], recursive: true },
      ],
      totalCount: 3,
      truncated: false,
    };
    expect(plain('nav/callHierarchy', r, { direction: 'incoming' })).toBe(
      [
        'src/shapes.ts:15:7: function /Circle/area',
        '  called from src/shapes.ts:21:7: function /totalArea  (at 22:41)',
        '    called from src/main.ts:4:7: function /report  (at 5:3, 7:3)',
        '    called from src/main.ts:10:7: function cb  (recursive: not followed)',
      ].join('\n'),
    );
    // Without the params, no direction is claimed.
    expect(plain('nav/callHierarchy', r).split('\n')[1]).toBe(
      '  → src/shapes.ts:21:7: function /totalArea  (at 22:41)',
    );
  });

  it('outgoing: "calls", the call sites being in the function one level up (another file is named)', () => {
    const r = {
      item: item('report', '/report', '/ws/src/main.ts', 3),
      calls: [
        {
          item: item('totalArea', '/totalArea', '/ws/src/shapes.ts', 20),
          level: 1,
          callSites: [site('/ws/src/main.ts', 4, 2)],
        },
        {
          item: item('area', '/Circle/area', '/ws/src/shapes.ts', 14),
          level: 2,
          callSites: [site('/ws/src/shapes.ts', 21, 40)],
        },
      ],
      totalCount: 4,
      truncated: true,
    };
    expect(plain('nav/callHierarchy', r, { direction: 'outgoing' })).toBe(
      [
        'src/main.ts:4:7: function /report',
        '  calls src/shapes.ts:21:7: function /totalArea  (at 5:3)',
        '    calls src/shapes.ts:15:7: function /Circle/area  (at 22:41)',
        '(showing 2 of 4 calls)',
      ].join('\n'),
    );
    // A call site outside the caller's file (as a server may report it) is named with its file.
    const odd = {
      ...r,
      calls: [{ ...r.calls[0]!, callSites: [site('/ws/src/other.ts', 0, 0)] }],
      totalCount: 1,
      truncated: false,
    };
    expect(plain('nav/callHierarchy', odd, { direction: 'outgoing' }).split('\n')[1]).toBe(
      '  calls src/shapes.ts:21:7: function /totalArea  (at src/other.ts:1:1)',
    );
  });

  it('no function at the position; a function nobody calls', () => {
    expect(plain('nav/callHierarchy', { item: null, calls: [], totalCount: 0, truncated: false })).toBe(
      'no function, method or constructor at that position',
    );
    const lonely = { item: item('f', '/f', '/ws/a.ts', 0), calls: [], totalCount: 0, truncated: false };
    expect(plain('nav/callHierarchy', lonely, { direction: 'incoming' })).toBe(
      'a.ts:1:7: function /f\n  (no callers found)',
    );
    expect(plain('nav/callHierarchy', lonely, { direction: 'outgoing' })).toBe(
      'a.ts:1:7: function /f\n  (no calls found)',
    );
  });
});

describe('unavailable and coverage, whatever the topic (since 0.1.8)', () => {
  const down = { kind: 'down', reason: 'typescript-language-server exited with code 1 and is not restarted.' };

  it('an answer empty because no language server could answer says why, in place of "none found"', () => {
    expect(unavailableText({ kind: 'none', reason: 'No language server is configured for Rust (.rs)' })).toBe(
      'no answer: no language server serves this file (No language server is configured for Rust (.rs))',
    );
    expect(unavailableText({ kind: 'loading', reason: '' })).toBe(
      'no answer: its language server was not ready in time (try again shortly)',
    );
    const said =
      'no answer: its language server is not running (typescript-language-server exited with code 1 and is not restarted)';
    expect(plain('nav/definition', { locations: [], unavailable: down })).toBe(said);
    expect(plain('nav/references', { locations: [], totalCount: 0, unavailable: down })).toBe(said);
    expect(plain('nav/hover', { contents: [], unavailable: down })).toBe(said);
    expect(plain('nav/symbols', { symbols: [], totalCount: 0, unavailable: down })).toBe(said);
    expect(plain('diag/list', { diagnostics: [], totalCount: 0, unavailable: down })).toBe(said);
    expect(
      plain('nav/callHierarchy', {
        item: null,
        calls: [],
        totalCount: 0,
        truncated: false,
        unavailable: { kind: 'unsupported', reason: 'pylsp has no call hierarchy' },
      }),
    ).toBe('no answer: its language server does not offer this (pylsp has no call hierarchy)');
    // Without it, an empty answer is the language server's "nothing" (as before 0.1.8).
    expect(plain('nav/definition', { locations: [] })).toBe('no definition found');
    expect(plain('nav/references', { locations: [], totalCount: 0 })).toBe('');
  });

  it('references and rename say an incomplete coverage after their lines', () => {
    const coverage = {
      complete: false,
      searched: [{ kind: 'project', path: '/ws/tsconfig.build.json' }],
      notSearched: [
        { kind: 'project', path: '/ws/tsconfig.test.json', reason: 'the project did not load within 10 s' },
      ],
    };
    const loc = { filePath: '/ws/src/a.ts', line: 2, character: 3, endLine: 2, endCharacter: 6 };
    expect(plain('nav/references', { locations: [loc], totalCount: 1, coverage })).toBe(
      'src/a.ts:3:4\nincomplete: 1 of 2 projects searched; not searched:\n  tsconfig.test.json: the project did not load within 10 s',
    );
    const rename = {
      dryRun: true,
      files: [{ filePath: '/ws/src/a.ts', diff: '-a\n+b\n' }],
      changedFiles: [],
      editCount: 1,
      coverage,
    };
    expect(plain('edit/rename', rename).split('\n')).toEqual([
      'dry run: would make 1 edit in 1 file (nothing written)',
      '-a',
      '+b',
      'incomplete: 1 of 2 projects searched; not searched:',
      '  tsconfig.test.json: the project did not load within 10 s',
    ]);
    expect(plain('nav/references', { locations: [loc], totalCount: 1, coverage: COMPLETE })).toBe('src/a.ts:3:4');
  });
});
