// idea-conformance fuzz over v0.1.8's write topics: the generator reaches every change kind of edit/apply,
// both edit forms (a range, a symbol) and constraints inside one change or one edit; and the write oracle
// (invalid params change nothing) finds an in-test server that applies edit/apply's changes one at a time,
// checking each as it comes, so that the valid changes before a broken one are written. The clean server
// yields nothing.
import { existsSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type Schema, topicArb } from '../../conformance/fuzz/generate';
import { fuzz } from '../../conformance/fuzz/run';
import { loadCases } from '../../conformance/lib/load';
import { buildFixtureWorkspace } from '../../conformance/workspace';
import { FRAMES } from '../../generated/v0.1.8/frames';
import { MCP_TOOLS } from '../../generated/v0.1.8/mcp-tools';
import { type Handlers, ProtocolError, SERVER_PROTOCOL } from '../../generated/v0.1.8/server';
import { createIdeaServer } from '../../runtime/idea-server';
import { ServerProtocol } from '../../runtime/server-session';

const TOKEN = '3a7c1e9b-5d2f-4e8a-9b6c-0d1e2f3a4b5c';
const APPLY = '/app/vscode/edit/apply';
const validApply = FRAMES.params.get(APPLY)!;
/** The file the planted server writes for each change it applies (the fuzz's reset must find it gone). */
const APPLIED = 'fuzz-applied.txt';

let tmp: string;
let ws: string;

beforeAll(() => {
  tmp = mkdtempSync(join(tmpdir(), 'conformance-fuzz-writes-'));
  ws = buildFixtureWorkspace(join(tmp, 'ws')).dir;
}, 60_000);
afterAll(() => rmSync(tmp, { recursive: true, force: true }));

/**
 * An edit/apply server. Clean: the session refuses params its schema refuses, and the handler writes nothing.
 * Planted: the session only checks the params around `changes` (as if it held one valid change), and the
 * handler applies the changes in order, checking each on its own when it comes to it.
 */
async function startApplyServer(root: string, planted: boolean) {
  const handlers: Partial<Handlers> = {
    async editApply(params) {
      if (planted)
        for (const [i, change] of (params.changes as unknown[]).entries()) {
          if (!validApply({ changes: [change] })) throw new ProtocolError('INVALID_REQUEST', `change ${i} is invalid`);
          writeFileSync(join(root, APPLIED), `change ${i}\n`);
        }
      return { dryRun: params.dryRun ?? false, files: [], changedFiles: [], editCount: 0 };
    },
  };
  const ONE_CHANGE = { changes: [{ kind: 'createFolder', filePath: 'made' }] };
  const shallow = (p: unknown) =>
    typeof p === 'object' && p !== null && Array.isArray((p as { changes?: unknown }).changes)
      ? (p as { changes: unknown[] }).changes.length > 0 && validApply({ ...p, ...ONE_CHANGE })
      : validApply(p);
  const { spec } = SERVER_PROTOCOL;
  const protocol = planted
    ? new ServerProtocol({
        ...spec,
        frames: {
          ...spec.frames,
          params: new Map(
            [...spec.frames.params].map(([t, v]) => [t, t === APPLY ? Object.assign(shallow, { errors: null }) : v]),
          ),
        },
      })
    : SERVER_PROTOCOL;
  const server = await createIdeaServer({
    protocol,
    port: 0,
    handlers: () => handlers,
    auth: { required: true, token: TOKEN },
    workspaces: () => [root],
  });
  return { url: server.url, close: () => server.close() };
}

async function fuzzApply(planted: boolean, out?: string) {
  const server = await startApplyServer(ws, planted);
  try {
    return await fuzz({
      url: server.url,
      token: TOKEN,
      workspace: ws,
      seed: 5,
      timeMs: 4000,
      shrinkMs: 6000,
      timeoutMs: 1000,
      frameLimit: false,
      topics: [APPLY],
      ...(out ? { outDir: out } : {}),
    });
  } finally {
    await server.close();
  }
}

describe('the generator over edit/apply', () => {
  const tool = MCP_TOOLS.find((t) => t.topic === APPLY)!;
  const inputs = fc.sample(
    topicArb(
      { topic: APPLY, schema: tool.inputSchema as Schema, validate: validApply, destructive: true },
      { workspace: '/w', files: ['src/shapes.ts', 'src/main.ts'] },
    ),
    { numRuns: 2000, seed: 11 },
  );
  const valid = inputs.filter((i) => !i.invalid);
  const changes = valid.flatMap((i) => (i.params as { changes: { kind: string; edits?: object[] }[] }).changes);

  it('valid params hold every change kind, range edits and symbol edits of every operation', () => {
    expect(valid.every((i) => validApply(i.params))).toBe(true);
    expect(new Set(changes.map((c) => c.kind))).toEqual(
      new Set(['edit', 'create', 'createFolder', 'rename', 'delete']),
    );
    const edits = changes.flatMap((c) => c.edits ?? []);
    expect(edits.some((e) => 'line' in e && 'endCharacter' in e)).toBe(true);
    expect(new Set(edits.flatMap((e) => ('operation' in e ? [e.operation] : [])))).toEqual(
      new Set(['replace', 'insertBefore', 'insertAfter', 'delete']),
    );
  });

  it('invalid params break one constraint at the top, inside one change or inside one edit, and are invalid', () => {
    const invalid = inputs.filter((i) => i.invalid);
    expect(invalid.every((i) => !validApply(i.params))).toBe(true);
    const fields = new Set(invalid.map((i) => i.invalid!.field));
    for (const f of [
      'changes',
      'changes[].kind',
      'changes[].sha256',
      'changes[].edits[].line',
      'changes[].edits[].operation',
    ])
      expect(fields, f).toContain(f);
  });
});

describe('the write oracle over edit/apply', () => {
  it('finds a server that writes the valid changes before it checks a broken one', async () => {
    const out = join(tmp, 'findings');
    const s = await fuzzApply(true, out);
    const f = s.findings.find((x) => x.signature === `${APPLY} wrote`);
    expect(f, JSON.stringify(s.findings.map((x) => x.signature))).toBeDefined();
    // Only a constraint inside a change lets this server write: the top-level ones it checks first.
    expect(f!.input.invalid?.field).toMatch(/^changes\[\]/);
    expect(f!.problems[0]!.detail).toContain(APPLIED);
    expect(f!.fixture.destructive).toBe(true);
    expect(loadCases(out).map((c) => c.case.id)).toContain(f!.fixture.id);
    // The reset after each write put the workspace back.
    expect(existsSync(join(ws, APPLIED))).toBe(false);
  }, 60_000);

  it('a server that checks the whole params first yields no finding', async () => {
    const s = await fuzzApply(false);
    expect(s.findings.map((f) => `${f.signature}: ${f.problems[0]!.detail}`)).toEqual([]);
    expect(s.trials).toBeGreaterThan(20);
  }, 60_000);
});
