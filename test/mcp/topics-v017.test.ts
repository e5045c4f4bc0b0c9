// Issue 21 through the official MCP SDK client: a server speaking v0.1.7 gets the new tools listed
// with their hints (rename destructive, open neither read-only nor destructive), and a dry-run rename
// answers its diff as text content and the result as structured content.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type EditRenameResult, type Handlers, SERVER_PROTOCOL, TOPICS } from '../../generated/v0.1.7/server';
import { IdeaConnection } from '../../mcp/src/connection';
import { createIdeaServer, type RunningIdeaServer } from '../../runtime/idea-server';
import { inProcessMcp } from './support/in-process';

const TOKEN = 'c0ffee00-5d4a-4e7b-9c1a-2b3c4d5e6f70';
const SPEC = join(import.meta.dirname, '..', '..', 'spec', 'v0.1.7');
const DIFF = '--- a/src/a.ts\n+++ b/src/a.ts\n@@ -1 +1 @@\n-const add = 1;\n+const sum = 1;\n';
const RENAMED: EditRenameResult = {
  dryRun: true,
  files: [
    {
      filePath: '/w/src/a.ts',
      edits: [{ line: 0, character: 6, endLine: 0, endCharacter: 9, newText: 'sum' }],
      diff: DIFF,
    },
  ],
  changedFiles: [],
  editCount: 1,
};

/** Every topic answers its first spec example; rename answers RENAMED (and records its params). */
const seen: unknown[] = [];
function handlers(): Handlers {
  const out: Record<string, unknown> = {};
  for (const t of TOPICS) {
    const file = `topics/${t.topic.split('/').slice(3).join('-').toLowerCase()}.result.schema.json`;
    const example = (JSON.parse(readFileSync(join(SPEC, file), 'utf8')) as { examples: unknown[] }).examples[0];
    out[t.method] = async () => example;
  }
  out.editRename = async (params: unknown) => {
    seen.push(params);
    return RENAMED;
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

describe('v0.1.7 tools over MCP', () => {
  it('lists the new tools with their hints', async () => {
    const { tools } = await client.listTools();
    const hints = (name: string) => tools.find((t) => t.name === name)?.annotations;
    for (const name of ['nav_hover', 'nav_typeDefinition', 'nav_implementation', 'editor_context'])
      expect(hints(name), name).toMatchObject({ readOnlyHint: true, destructiveHint: false });
    expect(hints('edit_rename')).toMatchObject({ readOnlyHint: false, destructiveHint: true, idempotentHint: false });
    expect(hints('editor_open')).toMatchObject({ readOnlyHint: false, destructiveHint: false });
    expect(tools.find((t) => t.name === 'edit_rename')?.description).toMatch(/destructive\) unless dryRun/);
  });

  it('a dry-run rename answers the diff as text and the result as structured content', async () => {
    const args = { filePath: 'src/a.ts', line: 0, character: 6, newName: 'sum', dryRun: true };
    const r = (await client.callTool({ name: 'edit_rename', arguments: args })) as {
      isError?: boolean;
      content: { type: string; text: string }[];
      structuredContent?: unknown;
    };
    expect(r.isError).toBeFalsy();
    expect(seen.at(-1)).toEqual(args);
    expect(r.structuredContent).toEqual(RENAMED);
    expect(r.content[0]!.text).toContain('dry run: would make 1 edit in 1 file (nothing written)');
    expect(r.content[0]!.text).toContain('-const add = 1;\n+const sum = 1;');
  });

  it('calls hover, context and open', async () => {
    for (const [name, args] of [
      ['nav_hover', { filePath: 'a.ts', line: 0, character: 0 }],
      ['editor_context', {}],
      ['editor_open', { filePath: 'a.ts', line: 1 }],
    ] as const) {
      const r = (await client.callTool({ name, arguments: args })) as {
        isError?: boolean;
        structuredContent?: unknown;
      };
      expect(r.isError, name).toBeFalsy();
      expect(r.structuredContent, name).toBeTypeOf('object');
    }
  });
});
