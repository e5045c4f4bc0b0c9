// Spec → everything: a topic added to a scratch copy of the spec appears in the generated client and
// dispatcher (codegen), in the CLI (its command, flags, positionals, help) and as an MCP tool (the
// generated table the MCP server lists), with no hand-written code.
import { cpSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parseArgs } from '../../cli/src/args';
import { type CommandSpec, commandsFromSpec } from '../../cli/src/commands';
import { mainHelp } from '../../cli/src/help';
import { PROTOCOL_VERSION } from '../../cli/src/protocol';
import { loadSpecDir } from '../../cli/src/spec';
import { generateVersion } from '../../codegen/src/generate';
import { REPO } from './spec';

const V = `v${PROTOCOL_VERSION}`;
const TOPIC = '/app/vscode/edit/count';
let root: string;
let generated: Map<string, string>;
let cmds: CommandSpec[];

beforeAll(async () => {
  root = mkdtempSync(join(tmpdir(), 'idea-spec-everything-'));
  cpSync(join(REPO, 'spec'), join(root, 'spec'), { recursive: true });
  const dir = join(root, 'spec', V);
  const id = (f: string) => `https://idea-protocol.invalid/spec/${V}/topics/${f}`;
  writeFileSync(
    join(dir, 'topics/edit-count.params.schema.json'),
    JSON.stringify(
      {
        $schema: 'https://json-schema.org/draft/2020-12/schema',
        $id: id('edit-count.params.schema.json'),
        title: 'EditCountParams',
        description: 'Params of /app/vscode/edit/count.',
        type: 'object',
        properties: {
          pattern: { type: 'string', minLength: 1, description: 'The text to count.' },
          include: { $ref: '../defs.schema.json#/$defs/Glob', description: 'Files to count in.', default: '**/*' },
          maxFiles: { type: 'integer', minimum: 1, default: 10, description: 'Most files to look at.' },
          unit: { type: 'string', enum: ['lines', 'matches'], description: 'What to count.' },
        },
        required: ['pattern'],
        examples: [{ pattern: 'TODO', unit: 'lines' }],
      },
      null,
      2,
    ),
  );
  writeFileSync(
    join(dir, 'topics/edit-count.result.schema.json'),
    JSON.stringify(
      {
        $schema: 'https://json-schema.org/draft/2020-12/schema',
        $id: id('edit-count.result.schema.json'),
        title: 'EditCountResult',
        description: 'Result of /app/vscode/edit/count.',
        type: 'object',
        properties: { count: { $ref: '../defs.schema.json#/$defs/Count' } },
        required: ['count'],
        examples: [{ count: 3 }],
      },
      null,
      2,
    ),
  );
  const index = JSON.parse(readFileSync(join(dir, 'index.json'), 'utf8'));
  index.topics.push({
    topic: TOPIC,
    method: 'editCount',
    typeName: 'EditCount',
    since: PROTOCOL_VERSION,
    params: 'topics/edit-count.params.schema.json',
    result: 'topics/edit-count.result.schema.json',
    errors: ['INVALID_REQUEST', 'HANDLER_ERROR'],
    description: 'Count the occurrences of a string in the workspace.',
  });
  writeFileSync(join(dir, 'index.json'), JSON.stringify(index, null, 2));
  // What it does to the workspace, for the MCP tool's hints (version-independent, beside the folders).
  const annotationsFile = join(root, 'spec', 'topic-annotations.json');
  const annotations = JSON.parse(readFileSync(annotationsFile, 'utf8'));
  annotations.topics[TOPIC] = { title: 'Count in workspace', readOnly: true, destructive: false, idempotent: true };
  writeFileSync(annotationsFile, JSON.stringify(annotations, null, 2));
  generated = await generateVersion(join(root, 'spec'), V);
  cmds = commandsFromSpec(loadSpecDir(dir));
}, 60_000);

afterAll(() => rmSync(root, { recursive: true, force: true }));

describe('a topic added to the spec', () => {
  it('is a typed client method and a dispatcher route', () => {
    expect(generated.get('client.ts')).toContain(
      `editCount(params: EditCountParams, options?: RequestOptions): Promise<EditCountResult> {\n    return this.request("${TOPIC}"`,
    );
    expect(generated.get('server.ts')).toMatch(new RegExp(`"${TOPIC}": \\{ method: "editCount"`));
    expect(generated.get('server.ts')).toContain('editCount: EditCountHandler;');
  });

  it('is an MCP tool with its schemas and hints', () => {
    const table = generated.get('mcp-tools.ts')!;
    const start = table.indexOf('"name": "edit_count"');
    expect(start).toBeGreaterThan(0);
    const next = table.indexOf('"name": ', start + 10);
    const entry = table.slice(start, next < 0 ? undefined : next);
    expect(entry).toContain(`"topic": "${TOPIC}"`);
    expect(entry).toContain('"title": "Count in workspace"');
    expect(entry).toMatch(/"inputSchema": \{[\s\S]*"pattern": \{[\s\S]*"maxFiles"/);
    expect(entry).toMatch(/"readOnlyHint": true,\s*"destructiveHint": false,\s*"idempotentHint": true/);
  });

  it('is a CLI command with its flags, positional, enum and defaults, parsed and listed in the help', () => {
    const c = cmds.find((x) => x.topic === TOPIC)!;
    expect(c).toMatchObject({
      name: 'edit/count',
      alias: 'count',
      description: 'Count the occurrences of a string in the workspace.',
    });
    expect(c.params.map((p) => [p.flag, p.type, p.default])).toEqual([
      ['--pattern', 'string', undefined],
      ['--include', 'string', '**/*'],
      ['--max-files', 'integer', 10],
      ['--unit', 'string', undefined],
    ]);
    expect(c.params.find((p) => p.name === 'unit')!.enum).toEqual(['lines', 'matches']);
    expect(parseArgs(['count', 'TODO', '--max-files', '3', '--unit', 'lines'], cmds)).toMatchObject({
      kind: 'topic',
      params: { pattern: 'TODO', maxFiles: 3, unit: 'lines' },
    });
    expect(() => parseArgs(['edit', 'count', 'x', '--unit', 'words'], cmds)).toThrow(
      "--unit must be one of lines, matches, got 'words'",
    );
    expect(mainHelp(cmds, PROTOCOL_VERSION)).toMatch(/^ {2}count PATTERN \[flags\] +Count the occurrences/m);
  });
});
