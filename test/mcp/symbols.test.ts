// v0.1.8's symbols through the official MCP SDK client against an in-process v0.1.8 IDEA server with
// canned answers: the tools a model gets (how to use them, the namePath argument described), calls by
// name path sent as given, their texts (name paths, "called from"), and the sentences of empty answers,
// of answers no language server could give (`unavailable`) and of incomplete ones (`coverage`).
import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type Handlers, SERVER_PROTOCOL, TOPICS } from '../../generated/v0.1.8/server';
import { STRICT_RULE } from '../../mcp/src/arguments';
import { IdeaConnection } from '../../mcp/src/connection';
import { createIdeaServer, type RunningIdeaServer } from '../../runtime/idea-server';
// The session's own class: the generated one is typed without the error's further fields (candidates).
import { ProtocolError } from '../../runtime/server-session';
import { escapeRegExp } from '../../server-core/search/regex-core';
import { inProcessMcp } from './support/in-process';

const TOKEN = 'symbols-token-5d4a-4e7b-9c1a-2b3c4d5e6f70';

const sent: { topic: string; params: unknown }[] = [];
let answers: Record<string, unknown> = {}; // topic → result (or a ProtocolError to throw); the tests set them

function handlers(): Handlers {
  const out: Record<string, unknown> = {};
  for (const t of TOPICS)
    out[t.method] = async (params: unknown) => {
      sent.push({ topic: t.topic, params });
      const a = answers[t.topic];
      if (a instanceof ProtocolError) throw a;
      return a;
    };
  return out as unknown as Handlers;
}

let idea: RunningIdeaServer;
let client: Client;
let close: () => Promise<void>;
beforeAll(async () => {
  idea = await createIdeaServer({
    protocol: SERVER_PROTOCOL,
    port: 0,
    handlers: () => handlers(),
    auth: { required: true, token: TOKEN },
    workspaces: () => ['/w'],
    session: {},
  });
  ({ client, close } = await inProcessMcp(new IdeaConnection({ url: idea.url, token: TOKEN })));
  await client.listTools(); // the SDK then checks structuredContent against each outputSchema
});
afterAll(async () => {
  await close?.();
  await idea?.close();
});

interface ToolResult {
  isError?: boolean;
  content: { type: string; text: string }[];
  structuredContent?: unknown;
  _meta?: Record<string, unknown>;
}
async function call(name: string, args: Record<string, unknown>, result: unknown): Promise<ToolResult> {
  answers = Object.fromEntries(TOPICS.map((t) => [t.topic, result]));
  sent.length = 0;
  return (await client.callTool({ name, arguments: args })) as ToolResult;
}
const text = (r: ToolResult) => r.content.map((c) => c.text).join('\n');

const POSITION_TOOLS = [
  'nav_definition',
  'nav_references',
  'nav_hover',
  'nav_typeDefinition',
  'nav_implementation',
  'edit_rename',
  'nav_referencingSymbols',
  'nav_callHierarchy',
];
const range = { line: 9, character: 2, endLine: 11, endCharacter: 3, selectionLine: 9, selectionCharacter: 2 };

describe('the tools a model gets from a v0.1.8 server', () => {
  it('say how to use them: start from a name path, and where the name paths of an answer go', async () => {
    const { tools } = await client.listTools();
    const tool = (n: string) => tools.find((t) => t.name === n)!;
    expect(tool('nav_findSymbol').description).toMatch(/^Find symbols by name path .* Start here to read code by name/);
    expect(tool('nav_findSymbol').description).toMatch(/pass it with its filePath to nav_definition, nav_references/);
    expect(tool('nav_workspaceSymbols').description).toMatch(/begins with query \(case-insensitive/);
    expect(tool('nav_referencingSymbols').description).toMatch(/"called from \/Router\/add"/);
    expect(tool('nav_callHierarchy').description).toMatch(/direction "incoming": who calls the function/);
    for (const n of ['nav_definition', 'nav_references', 'nav_hover', 'edit_rename'])
      expect(tool(n).description, n).toMatch(/Name the symbol by filePath and namePath \(e\.g\. "Circle\/area"\)/);
    expect(tool('edit_find').description).toBe('Search the workspace for a string or regular expression.');
  });

  it('describe the namePath argument with its syntax (no clause numbers), the schema closed as before', async () => {
    const { tools } = await client.listTools();
    for (const n of POSITION_TOOLS) {
      const t = tools.find((x) => x.name === n)!;
      const d = String((t.inputSchema.properties?.namePath as { description?: string } | undefined)?.description);
      expect(d, n).toMatch(
        /^The symbol, by name path, in place of line and character: "Circle\/area" is area inside Circle/,
      );
      expect(d, n).toMatch(/"parse\[1\]" the second/);
      expect(d, n).toMatch(/written with a "\\" before it/);
      expect(d, n).not.toMatch(/clause/);
      expect(t.inputSchema.additionalProperties, n).toBe(false);
      expect(t.inputSchema.description, n).toMatch(new RegExp(`${escapeRegExp(STRICT_RULE)}$`));
      // The locator's anyOf and dependentSchemas are kept: a client that checks the schema refuses both forms.
      expect(t.inputSchema.anyOf, n).toHaveLength(2);
      expect(t.inputSchema.dependentSchemas, n).toBeDefined();
    }
    const find = tools.find((x) => x.name === 'nav_findSymbol')!;
    expect(
      String((find.inputSchema.properties?.namePath as { description?: string } | undefined)?.description),
    ).toMatch(/^What to find: "Hono\/route" \(route inside Hono, at any depth\)/);
  });
});

describe('calls by name path', () => {
  it('are sent as given (namePath, no line), and their text names the symbols by name path', async () => {
    const location = { filePath: '/w/src/shapes.ts', ...range, code: 'area(): number {\n  return 1;\n}\n' };
    const r = await call('nav_definition', { filePath: 'src/main.ts', namePath: 'report' }, { locations: [location] });
    expect(r.isError, text(r)).toBeFalsy();
    expect(sent).toEqual([
      { topic: '/app/vscode/nav/definition', params: { filePath: 'src/main.ts', namePath: 'report' } },
    ]);
    expect(text(r)).toBe('/w/src/shapes.ts:10:3\n    area(): number {\n      return 1;\n    }');

    const found = {
      symbols: [
        {
          namePath: '/Shape/area',
          name: 'area',
          kind: 'method',
          ...range,
          filePath: '/w/src/shapes.ts',
          signature: 'area(): number',
          bodyLine: 8,
          bodyCharacter: 2,
          body: '/** The area. */\n  area(): number {\n    return 1;\n  }',
        },
      ],
      totalCount: 1,
      truncated: false,
      form: 'symbols',
    };
    const s = await call('nav_findSymbol', { namePath: 'Shape/area', includeBody: true }, found);
    expect(text(s)).toBe(
      '/w/src/shapes.ts:10:3: method /Shape/area\n    /** The area. */\n    area(): number {\n      return 1;\n    }',
    );
    expect(s.structuredContent).toEqual(found);
  });

  it('callers read "called from" with the call sites; the direction comes from the arguments', async () => {
    const item = (name: string, namePath: string, filePath: string) => ({
      name,
      kind: 'function',
      filePath,
      namePath,
      ...range,
    });
    const r = await call(
      'nav_callHierarchy',
      { filePath: 'src/shapes.ts', namePath: 'totalArea', direction: 'incoming' },
      {
        item: item('totalArea', '/totalArea', '/w/src/shapes.ts'),
        calls: [
          {
            item: item('main', '/main', '/w/src/main.ts'),
            level: 1,
            callSites: [{ filePath: '/w/src/main.ts', line: 7, character: 12, endLine: 7, endCharacter: 21 }],
          },
        ],
        totalCount: 1,
        truncated: false,
      },
    );
    expect(text(r)).toBe(
      '/w/src/shapes.ts:10:3: function /totalArea\n  called from /w/src/main.ts:10:3: function /main  (at 8:13)',
    );
  });
});

describe('empty answers', () => {
  /** Per tool: arguments, the empty result, the sentence. */
  const EMPTY: [string, Record<string, unknown>, unknown, RegExp][] = [
    [
      'nav_findSymbol',
      { namePath: 'Shape/aera', filePath: 'src', includeKinds: ['method'] },
      { symbols: [], totalCount: 0, truncated: false, form: 'symbols' },
      /^No symbol matches the name path "Shape\/aera" \(kinds: method\) in src\. Names are compared exactly, case included: nav_workspaceSymbols finds a name you only partly know\.$/,
    ],
    [
      'nav_findSymbol',
      { namePath: 'zz', substring: true },
      { symbols: [], totalCount: 0, truncated: false, form: 'symbols' },
      /^No symbol matches the name path "zz" \(last segment as a substring\) in the workspace\./,
    ],
    [
      'nav_workspaceSymbols',
      { query: 'Zebra', kinds: ['class'] },
      { symbols: [], totalCount: 0, truncated: false, coverage: { complete: true, searched: [], notSearched: [] } },
      /^No symbol of the workspace has a name containing "Zebra" \(kinds: class\)\.$/,
    ],
    [
      'nav_referencingSymbols',
      { filePath: 'src/a.ts', namePath: 'Circle/area' },
      { groups: [], totalCount: 0, truncated: false },
      /^No references to Circle\/area in src\/a\.ts\.$/,
    ],
    [
      'nav_callHierarchy',
      { filePath: 'src/a.ts', namePath: 'Circle', direction: 'incoming' },
      { item: null, calls: [], totalCount: 0, truncated: false },
      /^No function, method or constructor at Circle in src\/a\.ts\.$/,
    ],
    [
      'nav_callHierarchy',
      { filePath: 'src/a.ts', line: 2, character: 4, direction: 'incoming' },
      { item: null, calls: [], totalCount: 0, truncated: false },
      /^No function, method or constructor at src\/a\.ts:3:5\.$/,
    ],
    [
      'nav_references',
      { filePath: 'src/a.ts', namePath: 'Circle/area' },
      { locations: [], totalCount: 0 },
      /^No references to Circle\/area in src\/a\.ts\.$/,
    ],
    [
      'nav_hover',
      { filePath: 'src/a.ts', line: 2, character: 4 },
      { contents: [] },
      /^No hover information for the symbol at src\/a\.ts:3:5\.$/,
    ],
    [
      'edit_rename',
      { filePath: 'src/a.ts', namePath: 'x', newName: 'y', dryRun: true },
      { dryRun: true, files: [], changedFiles: [], editCount: 0 },
      /^Nothing to rename for x in src\/a\.ts: no edits \(dry run\), nothing written\.$/,
    ],
  ];

  it.each(EMPTY)('%s %j is a sentence naming what was asked', async (name, args, result, says) => {
    const r = await call(name, args, result);
    expect(r.isError, text(r)).toBeFalsy();
    expect(text(r)).toMatch(says);
    expect(r.structuredContent).toEqual(result);
  });

  it('a function nobody calls is an answer, not an empty one', async () => {
    const item = { name: 'f', kind: 'function', filePath: '/w/a.ts', namePath: '/f', ...range };
    const r = await call(
      'nav_callHierarchy',
      { filePath: 'a.ts', namePath: 'f', direction: 'incoming' },
      {
        item,
        calls: [],
        totalCount: 0,
        truncated: false,
      },
    );
    expect(text(r)).toBe('/w/a.ts:10:3: function /f\n  (no callers found)');
  });

  it('the counts form lists no symbols but is not empty', async () => {
    const counts = {
      symbols: [],
      totalCount: 5000,
      truncated: false,
      form: 'counts',
      files: [{ filePath: '/w/a.ts', count: 5000 }],
    };
    const r = await call('nav_findSymbol', { namePath: 'x' }, counts);
    expect(text(r)).toMatch(/^\/w\/a\.ts: 5000 symbols\n\(5000 symbols matched: too many to list/);
  });

  it('no language server could answer: says so and why, and that empty does not mean none', async () => {
    const unavailable = { kind: 'none', reason: 'no language server is configured for .rs files' };
    const r = await call(
      'nav_references',
      { filePath: 'src/lib.rs', namePath: 'parse' },
      { locations: [], totalCount: 0, unavailable },
    );
    expect(text(r)).toBe(
      'No language server could answer for src/lib.rs: no language server serves this file (no language server is configured for .rs files). This empty answer does not mean there is nothing: no language server looked.',
    );
    const d = await call('diag_list', { filePath: ['src/lib.rs'] }, { diagnostics: [], totalCount: 0, unavailable });
    expect(text(d)).toMatch(/^No language server could answer for src\/lib\.rs: /);
    const w = await call(
      'nav_workspaceSymbols',
      { query: 'x' },
      {
        symbols: [],
        totalCount: 0,
        truncated: false,
        coverage: { complete: true, searched: [], notSearched: [] },
        unavailable: { kind: 'loading', reason: 'typescript-language-server is loading /w/tsconfig.json' },
      },
    );
    expect(text(w)).toBe(
      'No language server could answer: its language server was not ready in time (try again shortly) (typescript-language-server is loading /w/tsconfig.json). This empty answer does not mean there is nothing: no language server looked.',
    );
  });

  it('an incomplete search says what it left out, empty or not', async () => {
    const coverage = {
      complete: false,
      searched: [{ kind: 'project', path: '/w/tsconfig.build.json' }],
      notSearched: [{ kind: 'project', path: '/w/tsconfig.test.json', reason: 'it did not load within 10 s' }],
    };
    const none = await call(
      'nav_references',
      { filePath: 'src/a.ts', namePath: 'A' },
      { locations: [], totalCount: 0, coverage },
    );
    expect(text(none)).toBe(
      'No references to A in src/a.ts.\nincomplete: 1 of 2 projects searched; not searched:\n  /w/tsconfig.test.json: it did not load within 10 s',
    );
    const loc = { filePath: '/w/src/a.ts', line: 0, character: 0, endLine: 0, endCharacter: 1 };
    const some = await call(
      'nav_references',
      { filePath: 'src/a.ts', namePath: 'A' },
      { locations: [loc], totalCount: 1, coverage },
    );
    expect(text(some)).toBe(
      '/w/src/a.ts:1:1\nincomplete: 1 of 2 projects searched; not searched:\n  /w/tsconfig.test.json: it did not load within 10 s',
    );
  });
});

describe('a name path naming no symbol of the file, or several', () => {
  const candidates = [
    { namePath: '/Circle/area', kind: 'method', line: 14 },
    { namePath: '/Square/area', kind: 'method', line: 30 },
  ];

  it('is a tool error with the message; the candidates it does not name are listed to pick from', async () => {
    const named = 'name path "area" matches 2 symbols: /Circle/area (method, line 15), /Square/area (method, line 31)';
    const r = await call(
      'nav_references',
      { filePath: 'src/a.ts', namePath: 'area' },
      new ProtocolError('INVALID_REQUEST', named, { candidates }),
    );
    expect(r.isError).toBe(true);
    expect(text(r)).toBe(`INVALID_REQUEST: ${named}`);
    expect(r._meta).toEqual({ 'idea-kit/errorCode': 'INVALID_REQUEST', 'idea-kit/candidates': candidates });
    const terse = await call(
      'nav_references',
      { filePath: 'src/a.ts', namePath: 'area' },
      new ProtocolError('INVALID_REQUEST', 'ambiguous', { candidates }),
    );
    expect(text(terse)).toBe(
      'INVALID_REQUEST: ambiguous\nCandidates (pass one as namePath): /Circle/area (method, line 15); /Square/area (method, line 31)',
    );
  });
});
