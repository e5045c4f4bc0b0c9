// What a model trips on (issue 34), through the official SDK client against an in-process IDEA server of
// the served version (v0.1.8): an empty answer is a sentence saying what was found empty (never an empty text), for every
// tool; a misspelt argument is a tool error naming it and the ones the tool takes, and nothing is sent
// (the wire protocol would ignore it, and the agent would get another answer than it asked for).
import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CURRENT_VERSION } from '../../generated/current';
import { type Handlers, SERVER_PROTOCOL, TOPICS } from '../../generated/v0.1.8/server';
import { loadMcpTools } from '../../generated/versions';
import { closestName, STRICT_RULE, strictInputSchema, unknownArguments } from '../../mcp/src/arguments';
import { IdeaConnection } from '../../mcp/src/connection';
import { createIdeaServer, type RunningIdeaServer } from '../../runtime/idea-server';
import { escapeRegExp } from '../../server-core/search/regex-core';
import { inProcessMcp } from './support/in-process';

const TOKEN = 'agent-text-token-5d4a-4e7b-9c1a-2b3c4d5e6f70';
const at = { filePath: 'src/a.ts', line: 2, character: 4 };

/** Per tool: the arguments, the emptiest valid result, and what its text must say. */
const EMPTY: Record<string, { args: Record<string, unknown>; result: unknown; says: RegExp }> = {
  edit_find: {
    args: { pattern: 'TODO', include: 'src/**', exclude: '**/*.test.ts' },
    result: { matches: [], totalCount: 0 },
    says: /^No matches for "TODO" in src\/\*\*, excluding \*\*\/\*\.test\.ts\.$/,
  },
  edit_replace: {
    args: { pattern: 'handle\\w+\\(', replacement: 'b', isRegex: true },
    result: { replacedCount: 0, affectedFiles: [] },
    says: /^No matches for "handle\\w\+\\\(" \(regular expression\): nothing replaced\.$/,
  },
  edit_rename: {
    args: { ...at, newName: 'b', dryRun: true },
    result: { dryRun: true, files: [], changedFiles: [], editCount: 0 },
    says: /^Nothing to rename for the symbol at src\/a\.ts:3:5: no edits \(dry run\), nothing written\.$/,
  },
  nav_definition: {
    args: at,
    result: { locations: [] },
    says: /^No definition found for the symbol at src\/a\.ts:3:5\.$/,
  },
  nav_typeDefinition: {
    args: at,
    result: { locations: [] },
    says: /^No type definition found for the symbol at src\/a\.ts:3:5\.$/,
  },
  nav_implementation: {
    args: at,
    result: { locations: [] },
    says: /^No implementation found for the symbol at src\/a\.ts:3:5\.$/,
  },
  nav_hover: { args: at, result: { contents: [] }, says: /^No hover information for the symbol at src\/a\.ts:3:5\.$/ },
  nav_references: {
    args: at,
    result: { locations: [], totalCount: 0 },
    says: /^No references to the symbol at src\/a\.ts:3:5\.$/,
  },
  nav_symbols: {
    args: { filePath: 'src/a.ts', query: 'Foo' },
    result: { symbols: [], totalCount: 0 },
    says: /^No symbols matching "Foo" in src\/a\.ts\.$/,
  },
  diag_list: {
    args: { filePath: ['src/a.ts', 'src/b.ts', 'src/c.ts'] },
    result: { diagnostics: [], totalCount: 0 },
    says: /^No diagnostics in the 3 files asked\.$/,
  },
  history_list: {
    args: { filePath: 'src/a.ts' },
    result: { entries: [], totalCount: 0 },
    says: /^No git commits found for src\/a\.ts\.$/,
  },
  history_diff: {
    args: { filePath: 'src/a.ts' },
    result: { diff: '', fromRef: 'working-tree', toRef: 'HEAD' },
    says: /^working-tree → HEAD\n\(no differences\)$/,
  },
  history_rollback: {
    args: { filePath: 'src/a.ts', toIndex: 1 },
    result: { filePath: '/w/src/a.ts', toRef: 'HEAD', restoredIndex: 1 },
    says: /^restored \/w\/src\/a\.ts to commit HEAD/,
  },
  fs_findFiles: {
    args: { query: 'zzz' },
    result: { files: [], totalCount: 0 },
    says: /^No files whose name contains "zzz"\.$/,
  },
  localhistory_list: {
    args: { filePath: 'src/a.ts' },
    result: { entries: [], totalCount: 0 },
    says: /^No local history entries for src\/a\.ts\.$/,
  },
  localhistory_diff: {
    args: { filePath: 'src/a.ts', fromId: 'AbCd.ts' },
    result: { diff: '', fromLabel: '2025-01-02 03:04:05', toLabel: 'current' },
    says: /^2025-01-02 03:04:05 → current\n\(no differences\)$/,
  },
  localhistory_rollback: {
    args: { filePath: 'src/a.ts', toId: 'AbCd.ts' },
    result: { filePath: '/w/src/a.ts', restoredId: 'AbCd.ts', restoredLabel: '2025-01-02 03:04:05' },
    says: /^restored \/w\/src\/a\.ts to local history entry AbCd\.ts/,
  },
  editor_context: {
    args: {},
    result: { activeEditor: null, visibleEditors: [], tabs: [] },
    says: /^active: none\ntabs \(0\):$/,
  },
  nav_findSymbol: {
    args: { namePath: 'Shape/area', filePath: 'src' },
    result: { symbols: [], totalCount: 0, truncated: false, form: 'symbols' },
    says: /^No symbol matches the name path "Shape\/area" in src\. /,
  },
  nav_workspaceSymbols: {
    args: { query: 'Zebra' },
    result: {
      symbols: [],
      totalCount: 0,
      truncated: false,
      coverage: { complete: true, searched: [], notSearched: [] },
    },
    says: /^No symbol of the workspace has a name containing "Zebra"\.$/,
  },
  nav_referencingSymbols: {
    args: { filePath: 'src/a.ts', namePath: 'Shape/area' },
    result: { groups: [], totalCount: 0, truncated: false },
    says: /^No references to Shape\/area in src\/a\.ts\.$/,
  },
  nav_callHierarchy: {
    args: { ...at, direction: 'incoming' },
    result: { item: null, calls: [], totalCount: 0, truncated: false },
    says: /^No function, method or constructor at src\/a\.ts:3:5\.$/,
  },
  edit_apply: {
    args: { changes: [{ kind: 'delete', filePath: 'src/gone.ts' }], dryRun: true },
    result: { dryRun: true, files: [], changedFiles: [], editCount: 0 },
    says: /^nothing to change: no file changes \(dry run\)$/,
  },
  edit_codeActions: {
    args: { ...at, only: ['quickfix'] },
    result: { actions: [] },
    says: /^No code actions at src\/a\.ts:3:5 \(kinds: quickfix\)\.$/,
  },
  edit_applyCodeAction: {
    args: { id: 'ca-1-x' },
    result: { dryRun: false, files: [], changedFiles: [], editCount: 0 },
    says: /^the code action changes nothing: no file changes$/,
  },
  edit_format: {
    args: { filePath: 'src/a.ts', dryRun: true },
    result: { dryRun: true, files: [], changedFiles: [], editCount: 0 },
    says: /^already formatted: no file changes \(dry run\)$/,
  },
  fs_move: {
    args: { filePath: 'src/a.ts', newFilePath: 'src/a.ts' },
    result: { dryRun: false, files: [], changedFiles: [], editCount: 0 },
    says: /^nothing to move: no file changes$/,
  },
  edit_undo: {
    args: { transactionId: 'tx-0001abcd', dryRun: true },
    result: { dryRun: true, files: [], changedFiles: [], editCount: 0 },
    says: /^nothing to undo: no file changes \(dry run\)$/,
  },
  edit_transactions: {
    args: {},
    result: { transactions: [], totalCount: 0 },
    says: /^No write transactions to undo\.$/,
  },
  editor_open: {
    args: { filePath: 'src/a.ts' },
    result: { filePath: '/w/src/a.ts', line: 0, character: 0, endLine: 0, endCharacter: 0 },
    says: /^opened \/w\/src\/a\.ts:1:1$/,
  },
};

const sent: { topic: string; params: unknown }[] = [];
let answers: Record<string, unknown> = {}; // topic → result; the tests set them

function handlers(): Handlers {
  const out: Record<string, unknown> = {};
  for (const t of TOPICS)
    out[t.method] = async (params: unknown) => {
      sent.push({ topic: t.topic, params });
      return answers[t.topic];
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
});
afterAll(async () => {
  await close?.();
  await idea?.close();
});

const text = (r: unknown) => (r as { content: { text: string }[] }).content.map((c) => c.text).join('\n');

describe('an empty answer is a sentence', () => {
  it('for every tool: what was asked and found empty, and structuredContent unchanged', async () => {
    const { tools } = await client.listTools(); // the SDK now checks structuredContent against outputSchema
    // Every tool of the served version is in the table: a new topic needs its empty answer here.
    expect(tools.map((t) => t.name).sort()).toEqual(Object.keys(EMPTY).sort());
    expect(((await loadMcpTools(CURRENT_VERSION)) ?? []).map((t) => t.name).sort()).toEqual(Object.keys(EMPTY).sort());
    for (const t of tools) {
      const e = EMPTY[t.name]!;
      answers = Object.fromEntries(
        TOPICS.map((x) => [x.topic, EMPTY[x.topic.slice('/app/vscode/'.length).replace('/', '_')]?.result]),
      );
      const r = await client.callTool({ name: t.name, arguments: e.args });
      expect(r.isError, `${t.name}: ${text(r)}`).toBeFalsy();
      expect(text(r), t.name).toMatch(e.says);
      expect(r.structuredContent, t.name).toEqual(e.result);
    }
  });

  it('diag_list says which files had none: one, several, a severity, or none asked', async () => {
    answers = { '/app/vscode/diag/list': { diagnostics: [], totalCount: 0 } };
    const says = async (args: Record<string, unknown>) =>
      text(await client.callTool({ name: 'diag_list', arguments: args }));
    expect(await says({ filePath: 'src/a.ts' })).toBe('No diagnostics in src/a.ts.');
    expect(await says({ filePath: ['src/a.ts'], severity: 'error' })).toBe('No error diagnostics in src/a.ts.');
    expect(await says({ filePath: ['src/a.ts', 'src/b.ts'], severity: 'all' })).toBe(
      'No diagnostics in the 2 files asked.',
    );
    expect(await says({})).toBe(
      'No diagnostics known (only files already analysed count; pass filePath to analyse a file).',
    );
    expect(await says({ changed: false })).toMatch(/^No diagnostics known/);
  });

  it('a result with items reads as before (the CLI text)', async () => {
    answers = {
      '/app/vscode/edit/find': {
        matches: [{ filePath: '/w/src/a.ts', line: 0, character: 6, lineText: 'const TODO = 1;' }],
        totalCount: 1,
      },
    };
    const r = await client.callTool({ name: 'edit_find', arguments: { pattern: 'TODO' } });
    expect(text(r)).toBe('/w/src/a.ts:1:7: const TODO = 1;');
  });
});

it("the server's instructions say text positions are 1-based and arguments 0-based", () => {
  // The text prints path:line:col as grep does; a model passing those numbers back lands a line low.
  expect(client.getInstructions()).toMatch(/positions 1-based .*arguments, and structuredContent, are 0-based/);
});

describe('an argument the tool does not take', () => {
  it('is refused before anything is sent, naming it, what it probably meant and what the tool takes', async () => {
    answers = { '/app/vscode/diag/list': { diagnostics: [], totalCount: 0 } };
    sent.length = 0;
    const r = await client.callTool({ name: 'diag_list', arguments: { filePaths: 'src/a.ts' } });
    expect(r.isError).toBe(true);
    expect(text(r)).toBe(
      'INVALID_REQUEST: unknown argument filePaths (did you mean filePath?): diag_list takes filePath, severity, changed. Nothing was sent.',
    );
    expect(r._meta).toEqual({ 'idea-kit/errorCode': 'INVALID_REQUEST' });
    // A misspelt dryRun must not become a real rename: refused, not sent.
    const rename = await client.callTool({ name: 'edit_rename', arguments: { ...at, newName: 'b', dry_run: true } });
    expect(rename.isError).toBe(true);
    expect(text(rename)).toMatch(
      /^INVALID_REQUEST: unknown argument dry_run \(did you mean dryRun\?\): edit_rename takes /,
    );
    const two = await client.callTool({ name: 'nav_hover', arguments: { ...at, path: 'x', zzz: 1 } });
    expect(text(two)).toMatch(
      /^INVALID_REQUEST: unknown arguments path \(did you mean filePath\?\), zzz: nav_hover takes filePath, line, character, namePath\./,
    );
    const none = await client.callTool({ name: 'editor_context', arguments: { verbose: true } });
    expect(text(none)).toMatch(/unknown argument verbose: editor_context takes no arguments\./);
    expect(sent).toEqual([]);
    // The arguments it takes still pass, the client's own `changed` among them.
    const ok = await client.callTool({ name: 'diag_list', arguments: { filePath: 'src/a.ts', severity: 'error' } });
    expect(ok.isError, text(ok)).toBeFalsy();
    expect(sent).toEqual([{ topic: '/app/vscode/diag/list', params: { filePath: 'src/a.ts', severity: 'error' } }]);
  });

  it('is ruled out by the listed schemas: closed, and their description says so instead of the wire rule', async () => {
    for (const t of (await client.listTools()).tools) {
      expect(t.inputSchema.additionalProperties, t.name).toBe(false);
      expect(t.inputSchema.description, t.name).not.toMatch(/accepted and ignored/);
      expect(t.inputSchema.description, t.name).toMatch(new RegExp(`${escapeRegExp(STRICT_RULE)}$`));
    }
  });

  it('names the closest argument, and leaves a schema open to other properties open', () => {
    const names = ['filePath', 'line', 'character', 'includeDeclaration', 'severity', 'dryRun', 'newName'];
    expect(closestName('filePaths', names)).toBe('filePath');
    expect(closestName('file_path', names)).toBe('filePath');
    expect(closestName('severty', names)).toBe('severity');
    expect(closestName('includeDeclarations', names)).toBe('includeDeclaration');
    expect(closestName('new_name', names)).toBe('newName');
    expect(closestName('path', names)).toBe('filePath');
    expect(closestName('zzz', names)).toBeUndefined();
    expect(closestName('col', names)).toBeUndefined();
    const open = { type: 'object' as const, properties: { a: {} }, additionalProperties: { type: 'string' } };
    expect(strictInputSchema(open)).toBe(open);
    expect(unknownArguments('t', open, { b: 'x' })).toBeUndefined();
    // a branch naming a property the top level does not: closing the top level would refuse it
    const branch = { type: 'object' as const, properties: { a: {} }, anyOf: [{ properties: { b: {} } }] };
    expect(strictInputSchema(branch)).toBe(branch);
    expect(unknownArguments('t', branch, { b: 1 })).toBeUndefined();
    const closed = { type: 'object' as const, properties: { a: {} }, anyOf: [{ properties: { a: true } }] };
    expect(strictInputSchema(closed)).toEqual({ ...closed, additionalProperties: false });
    expect(unknownArguments('t', closed, { a: 1, b: 2 })).toBe('unknown argument b: t takes a. Nothing was sent.');
  });
});
