// v0.1.8's writes through the official MCP SDK client against an in-process v0.1.8 IDEA server with
// canned answers: the tools a model gets (how to use them, their hints, which --read-only hides), and
// the texts of their answers: a dry run's diffs, a write's transaction and how to undo it, a move's
// rename, the diagnostics after a write (settled or not, unavailable), code actions and transactions.
import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type Handlers, SERVER_PROTOCOL, TOPICS } from '../../generated/v0.1.8/server';
import { IdeaConnection } from '../../mcp/src/connection';
import { toolFilter } from '../../mcp/src/tool-filter';
import { knownTools } from '../../mcp/src/tools';
import { createIdeaServer, type RunningIdeaServer } from '../../runtime/idea-server';
import { inProcessMcp } from './support/in-process';

const TOKEN = 'edits-token-8c1e-4f0a-b2d3-9e8f7a6b5c4d';

const sent: { topic: string; params: unknown }[] = [];
let answer: unknown;

function handlers(): Handlers {
  const out: Record<string, unknown> = {};
  for (const t of TOPICS)
    out[t.method] = async (params: unknown) => {
      sent.push({ topic: t.topic, params });
      return answer;
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
}
async function call(name: string, args: Record<string, unknown>, result: unknown): Promise<ToolResult> {
  answer = result;
  sent.length = 0;
  const r = (await client.callTool({ name, arguments: args })) as ToolResult;
  expect(r.isError, r.content.map((c) => c.text).join('\n')).toBeFalsy();
  expect(r.structuredContent).toEqual(result);
  return r;
}
const text = (r: ToolResult) => r.content.map((c) => c.text).join('\n');

const WRITERS = ['edit_apply', 'edit_applyCodeAction', 'edit_format', 'fs_move', 'edit_undo'];
const READERS = ['edit_codeActions', 'edit_transactions'];

describe('the write tools a model gets from a v0.1.8 server', () => {
  it('say how to use them, and carry the hints --read-only goes by', async () => {
    const { tools } = await client.listTools();
    const tool = (n: string) => tools.find((t) => t.name === n)!;
    for (const n of [...WRITERS, ...READERS]) expect(tool(n), n).toBeDefined();
    expect(tool('edit_apply').description).toMatch(/Edit by symbol, with no line numbers: .*"operation": "replace"/);
    expect(tool('edit_apply').description).toMatch(/"insertAfter" \/ "insertBefore" add newText as new lines/);
    expect(tool('edit_apply').description).toMatch(/transactionId undoes it with edit_undo/);
    expect(tool('edit_codeActions').description).toMatch(/Each action's id goes to edit_applyCodeAction/);
    expect(tool('edit_applyCodeAction').description).toMatch(/dryRun: true answers the diff first/);
    expect(tool('fs_move').description).toMatch(/updates every import of it/);
    expect(tool('edit_undo').description).toMatch(/undo several writes newest first/);
    for (const n of WRITERS) {
      expect(tool(n).annotations?.readOnlyHint, n).toBe(false);
      expect(tool(n).annotations?.destructiveHint, n).toBe(true);
    }
    // Formatting twice gives what formatting once did; applying an edit, a move or an undo twice does not.
    expect(tool('edit_format').annotations?.idempotentHint).toBe(true);
    for (const n of ['edit_apply', 'edit_applyCodeAction', 'fs_move', 'edit_undo'])
      expect(tool(n).annotations?.idempotentHint, n).toBe(false);
    for (const n of READERS) {
      expect(tool(n).annotations?.readOnlyHint, n).toBe(true);
      expect(tool(n).annotations?.idempotentHint, n).toBe(true);
    }
  });

  it("the server's instructions say to edit by name path, dry run first, undo by transactionId", () => {
    expect(client.getInstructions()).toMatch(
      /edit_apply replaces a symbol or inserts after it, all or nothing; .*dryRun: true first .*transactionId that edit_undo takes back/,
    );
  });

  it('--read-only hides every writer and keeps the lists', async () => {
    const ro = await inProcessMcp(
      new IdeaConnection({ url: idea.url, token: TOKEN }),
      toolFilter({ readOnly: true }, await knownTools()),
    );
    try {
      const names = (await ro.client.listTools()).tools.map((t) => t.name);
      for (const n of WRITERS) expect(names, n).not.toContain(n);
      for (const n of READERS) expect(names, n).toContain(n);
      sent.length = 0;
      const refused = await ro.client
        .callTool({ name: 'fs_move', arguments: { filePath: 'a', newFilePath: 'b' } })
        .then(
          (r) => JSON.stringify(r),
          (e: Error) => e.message,
        );
      expect(refused).toMatch(/fs_move is not available here: fs_move writes, and idea-mcp runs --read-only/);
      expect(sent).toEqual([]); // nothing reached the IDEA server
    } finally {
      await ro.close();
    }
  });
});

const DIFF =
  '--- a/src/a.ts\n+++ b/src/a.ts\n@@ -1,3 +1,3 @@\n export function f() {\n-  return 1;\n+  return 2;\n }\n';
const SHA = 'a'.repeat(64);
const edited = {
  filePath: '/w/src/a.ts',
  change: 'edited',
  diff: DIFF,
  sha256Before: SHA,
  sha256After: 'b'.repeat(64),
};

describe('the answers of the writes, as a model reads them', () => {
  it('a dry run: what would change, its diffs, nothing written, no transaction', async () => {
    const result = { dryRun: true, files: [edited], changedFiles: [], editCount: 1 };
    const r = await call(
      'edit_apply',
      {
        changes: [
          { kind: 'edit', filePath: 'src/a.ts', edits: [{ namePath: 'f', operation: 'replace', newText: '' }] },
        ],
        dryRun: true,
      },
      result,
    );
    expect(text(r)).toBe(`dry run: would apply 1 edit in 1 file (nothing written)\n${DIFF.trimEnd()}`);
    expect(sent[0]!.topic).toBe('/app/vscode/edit/apply');
  });

  it('a write: what it did, its transaction, and how to undo it', async () => {
    const result = {
      dryRun: false,
      transactionId: 'tx-0001abcd',
      files: [edited],
      changedFiles: ['/w/src/a.ts'],
      editCount: 1,
    };
    const r = await call('edit_applyCodeAction', { id: 'ca-1-x' }, result);
    expect(text(r).split('\n')[0]).toBe('applied the code action: 1 edit in 1 file; transaction tx-0001abcd');
    expect(text(r)).toContain('\n-  return 1;\n+  return 2;\n');
    expect(text(r).split('\n').at(-1)).toBe('To undo it: edit_undo with transactionId "tx-0001abcd".');
  });

  it('a move: the rename, the folder created, the importers edited', async () => {
    const result = {
      dryRun: false,
      transactionId: 'tx-0002abcd',
      files: [
        { ...edited, filePath: '/w/src/main.ts', diff: DIFF.replace(/a\.ts/g, 'main.ts') },
        {
          filePath: '/w/src/a.ts',
          change: 'renamed',
          newFilePath: '/w/src/lib/a.ts',
          diff: '',
          sha256Before: SHA,
          sha256After: SHA,
        },
        { filePath: '/w/src/lib', change: 'createdFolder', diff: '', sha256Before: null, sha256After: null },
      ],
      changedFiles: ['/w/src/main.ts', '/w/src/a.ts', '/w/src/lib/a.ts', '/w/src/lib'],
      editCount: 1,
    };
    const r = await call('fs_move', { filePath: 'src/a.ts', newFilePath: 'src/lib/a.ts' }, result);
    const lines = text(r).split('\n');
    expect(lines[0]).toBe('moved: 1 edit in 2 files; transaction tx-0002abcd');
    expect(lines).toContain('renamed /w/src/a.ts → /w/src/lib/a.ts');
    expect(lines).toContain('created folder /w/src/lib');
    expect(lines).toContain('+++ b/src/main.ts');
  });

  it('an undo restores whole files: it counts files, not edits', async () => {
    const result = {
      dryRun: false,
      transactionId: 'tx-0004abcd',
      files: [edited],
      changedFiles: ['/w/src/a.ts'],
      editCount: 0,
    };
    const r = await call('edit_undo', { transactionId: 'tx-0001abcd' }, result);
    expect(text(r).split('\n')[0]).toBe('undone: 1 file; transaction tx-0004abcd');
  });

  it('nothing to change says so, with no transaction', async () => {
    const r = await call(
      'edit_format',
      { filePath: 'src/a.ts' },
      { dryRun: false, files: [], changedFiles: [], editCount: 0 },
    );
    expect(text(r)).toBe('already formatted: no file changes');
  });

  it('the diagnostics after a write: each, whether they settled, and files no language server saw', async () => {
    const base = { dryRun: false, transactionId: 'tx-0003abcd', files: [edited], changedFiles: ['/w/src/a.ts'] };
    const diag = {
      filePath: '/w/src/a.ts',
      line: 1,
      character: 9,
      endLine: 1,
      endCharacter: 10,
      severity: 'error',
      message: "Type 'number' is not assignable to type 'string'.",
      source: 'ts',
      code: '2322',
    };
    const settled = await call(
      'edit_undo',
      { transactionId: 'tx-0001abcd', diagnostics: true },
      {
        ...base,
        editCount: 1,
        diagnostics: { settled: true, waitedMs: 120, files: [{ filePath: '/w/src/a.ts', diagnostics: [diag] }] },
      },
    );
    expect(text(settled)).toContain(
      "\ndiagnostics of the 1 file written (settled after 120 ms):\n/w/src/a.ts:2:10: error ts 2322: Type 'number' is not assignable to type 'string'.\n",
    );
    const clean = await call(
      'edit_undo',
      { transactionId: 'tx-0001abcd', diagnostics: true },
      {
        ...base,
        editCount: 1,
        diagnostics: {
          settled: false,
          waitedMs: 5000,
          files: [
            { filePath: '/w/src/a.ts', diagnostics: [] },
            {
              filePath: '/w/notes.md',
              diagnostics: [],
              unavailable: { kind: 'none', reason: 'no language server serves markdown' },
            },
          ],
        },
      },
    );
    expect(text(clean)).toContain(
      '\ndiagnostics: none in the 2 files written (not settled after 5000 ms: what was known by then)\n/w/notes.md: no answer: no language server serves this file (no language server serves markdown)\n',
    );
  });

  it("an older write topic's diagnostics, asked for, follow its own text", async () => {
    const r = await call(
      'edit_replace',
      { pattern: 'a', replacement: 'b', diagnostics: true },
      {
        replacedCount: 1,
        affectedFiles: ['/w/src/a.ts'],
        transactionId: 'tx-0005abcd',
        diagnostics: { settled: true, waitedMs: 40, files: [{ filePath: '/w/src/a.ts', diagnostics: [] }] },
      },
    );
    expect(text(r)).toBe(
      [
        'replaced 1 occurrence in 1 file:',
        '  /w/src/a.ts',
        'diagnostics: none in the 1 file written (settled after 40 ms)',
        'To undo it: edit_undo with transactionId "tx-0005abcd".',
      ].join('\n'),
    );
  });

  it('code actions: numbered, with kind, preferred, id and what each fixes; none is a sentence', async () => {
    const r = await call(
      'edit_codeActions',
      { filePath: 'src/b.ts', line: 1, character: 0 },
      {
        actions: [
          {
            id: 'ca-1-aa',
            title: 'Add import from "./a"',
            kind: 'quickfix',
            isPreferred: true,
            diagnostics: [
              {
                filePath: '/w/src/b.ts',
                line: 1,
                character: 9,
                endLine: 1,
                endCharacter: 13,
                severity: 'error',
                message: "Cannot find name 'area'.",
                source: 'ts',
                code: '2304',
              },
            ],
          },
          { id: 'ca-2-bb', title: 'Extract to function', kind: 'refactor.extract.function', disabled: 'no selection' },
        ],
      },
    );
    expect(text(r)).toBe(
      [
        '1. Add import from "./a"  quickfix  preferred  id ca-1-aa',
        "     fixes /w/src/b.ts:2:10: error ts 2304: Cannot find name 'area'.",
        '2. Extract to function  refactor.extract.function  disabled: no selection  id ca-2-bb',
      ].join('\n'),
    );
    const none = await call(
      'edit_codeActions',
      { filePath: 'src/b.ts', namePath: 'f', only: ['quickfix'] },
      { actions: [] },
    );
    expect(text(none)).toBe('No code actions for f in src/b.ts (kinds: quickfix).');
    const at = await call('edit_codeActions', { filePath: 'src/b.ts', line: 3, character: 0 }, { actions: [] });
    expect(text(at)).toBe('No code actions at src/b.ts:4:1.');
  });

  it('transactions: a table, newest first, an undone one marked; none is a sentence', async () => {
    const r = await call(
      'edit_transactions',
      {},
      {
        transactions: [
          {
            transactionId: 'tx-0002abcd',
            topic: '/app/vscode/edit/undo',
            timestamp: Date.UTC(2026, 0, 2, 3, 4, 5),
            files: ['/w/src/a.ts'],
          },
          {
            transactionId: 'tx-0001abcd',
            topic: '/app/vscode/fs/move',
            label: 'move a',
            timestamp: Date.UTC(2026, 0, 2, 3, 4, 0),
            files: ['/w/src/a.ts', '/w/src/lib/a.ts'],
            undone: true,
          },
        ],
        totalCount: 2,
      },
    );
    expect(text(r).split('\n')).toEqual([
      'TRANSACTION  WHEN                 TOPIC             FILES             LABEL',
      'tx-0002abcd  2026-01-02 03:04:05  edit/undo         /w/src/a.ts',
      'tx-0001abcd  2026-01-02 03:04:00  fs/move (undone)  /w/src/a.ts (+1)  move a',
    ]);
    const none = await call('edit_transactions', {}, { transactions: [], totalCount: 0 });
    expect(text(none)).toBe('No write transactions to undo.');
  });
});
