// security/repository-runs-nothing (H19) against in-test v0.1.7 servers on the trapped fixture workspace:
// one that runs nothing passes; one whose hover runs the workspace's node_modules/typescript/lib/tsserver.js
// (as idea-server once did through typescript-language-server) fails, naming the trap and what it
// recorded. Topics a server does not advertise are skipped inside the case, and a workspace without the
// trap manifest is an error that says how to rebuild it, never a pass.
import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync, unlinkSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { loadCases, parseCase } from '../../conformance/lib/load';
import { selectCases } from '../../conformance/lib/select';
import { runAgainstServer } from '../../conformance/lib/session';
import type { CaseResult } from '../../conformance/lib/types';
import { buildFixtureWorkspace, clearTrapMarkers, type FixtureWorkspaceInfo } from '../../conformance/workspace';
import { type Handlers, SERVER_PROTOCOL } from '../../generated/v0.1.7/server';
import { createIdeaServer } from '../../runtime/idea-server';

const ID = 'security/repository-runs-nothing';
const all = loadCases();
let tmp: string;
let ws: FixtureWorkspaceInfo;

beforeAll(() => {
  tmp = mkdtempSync(join(tmpdir(), 'conformance-traps-'));
  ws = buildFixtureWorkspace(join(tmp, 'ws'));
});
afterAll(() => rmSync(tmp, { recursive: true, force: true }));
beforeEach(() => clearTrapMarkers(ws.traps!.markerDir));

/** A server answering edit/find, fs/findFiles and nav/hover as the case expects; `hover` may do more first. */
function handlers(hover: () => void = () => {}): Partial<Handlers> {
  return {
    editFind: async () => ({
      matches: [{ filePath: join(ws.dir, 'text/search.txt'), line: 6, character: 4, lineText: 'the needle is here' }],
      totalCount: 1,
    }),
    fsFindFiles: async () => ({
      files: [{ fileName: 'shapes.ts', filePath: join(ws.dir, 'src/shapes.ts'), relativePath: 'src/shapes.ts' }],
      totalCount: 1,
    }),
    navHover: async () => {
      hover();
      return { contents: [{ kind: 'plaintext', value: 'function totalArea(shapes: Shape[]): number' }] };
    },
    // Advertised, but its request needs ${entry}, which localhistory/list (not advertised) would bind.
    localhistoryDiff: async () => {
      throw new Error('never sent: its variable comes from a skipped request');
    },
  };
}

async function runCase(h: Partial<Handlers>): Promise<CaseResult> {
  const server = await createIdeaServer({
    protocol: SERVER_PROTOCOL,
    port: 0,
    auth: { required: false },
    handlers: () => h,
    workspaces: () => [ws.dir],
  });
  try {
    const summary = await runAgainstServer({
      url: server.url,
      token: 'unused',
      workspace: ws.dir,
      cases: selectCases(all, { ids: [ID] }),
    });
    expect(summary.results).toHaveLength(1);
    return summary.results[0]!;
  } finally {
    await server.close();
  }
}

const failed = (r: CaseResult) => r.checks.filter((c) => !c.ok);

describe(ID, () => {
  it('passes a server that runs nothing, sending only to the topics it advertises', async () => {
    const r = await runCase(handlers());
    expect(failed(r)).toEqual([]);
    expect(r.verdict).toBe('pass');
    expect(r.checks.map((c) => c.name)).toEqual([
      'requests[0] (edit/find)',
      'requests[1] (edit/find)',
      'requests[2] (fs/findFiles)',
      'requests[4] (nav/hover)',
      'no trap ran',
      'schema',
    ]);
    expect(r.sent).toContain('4 of 22 requests');
    expect(r.sent).toContain('localhistory/diff (needs ${entry})');
    expect(r.sent).toContain('editor/context');
    expect(r.sent).toContain(ws.traps!.markerDir);
  });

  it("fails a server whose hover runs the workspace's tsserver.js, naming the trap and what it recorded", async () => {
    const tsserver = join(ws.dir, 'node_modules/typescript/lib/tsserver.js');
    const r = await runCase(
      handlers(() => {
        // What a language server does with the workspace's TypeScript; the copy exits with an error.
        const ran = spawnSync(process.execPath, [tsserver, '--stdio'], { cwd: ws.dir, timeout: 10_000 });
        if (ran.error) throw new Error(`the workspace's tsserver.js did not finish: ${ran.error.message}`);
      }),
    );
    expect(r.verdict).toBe('fail');
    expect(failed(r).map((c) => c.name)).toEqual(['no trap ran']);
    const detail = failed(r)[0]!.detail!;
    expect(detail).toContain(`1 of the workspace's traps ran`);
    expect(detail).toContain(
      "• workspace-tsserver: node_modules/typescript/lib/tsserver.js, the workspace's copy of TypeScript's server",
    );
    expect(detail).toMatch(new RegExp(`pid=\\d+ cwd=${ws.dir} argv=\\S+ ${tsserver} --stdio file=${tsserver}`));
  });

  it('is an error naming `idea-conformance workspace` on a workspace without the trap manifest', async () => {
    const manifest = join(ws.dir, '.git/idea-fixture-traps.json');
    unlinkSync(manifest);
    try {
      const r = await runCase(handlers());
      expect(r.verdict).toBe('error');
      expect(r.reason).toMatch(/^setup: trap manifest failed: rebuild the workspace with `idea-conformance workspace /);
      expect(r.checks[0]!.detail).toBe(
        `rebuild the workspace with \`idea-conformance workspace ${ws.dir}\` and open it in the server again: it has no .git/idea-fixture-traps.json, so an older builder made it, without the traps this case needs`,
      );
    } finally {
      buildFixtureWorkspace(ws.dir);
    }
  });

  it('is skipped by a server that advertises none of its topics, and fails one that ran a trap anyway', async () => {
    const none = await runCase({});
    expect(none.verdict).toBe('skip');
    expect(none.reason).toMatch(/^the server advertises none of the topics this case sends \(edit\/find, /);
    spawnSync(join(ws.dir, 'node_modules/.bin/rg'), ['--files'], { cwd: ws.dir, timeout: 10_000 });
    const ran = await runCase({});
    expect(ran.verdict).toBe('fail');
    expect(failed(ran)[0]!.detail).toContain('• node-modules-bin-program: ');
  });

  it('a fixture may not send to a topic the suite does not know: it would always be skipped', () => {
    const c = (topic: string) =>
      JSON.stringify({
        id: 'security/x',
        description: 'x',
        spec: 'H19',
        since: '0.1.7',
        kind: 'transport',
        action: 'no-traps-fired',
        requests: [{ request: { topic, params: {} }, expect: { result: {} } }],
      });
    expect(parseCase(c('/app/vscode/nav/hover'), 'security/x.json').needs).toEqual([]);
    expect(() => parseCase(c('/app/vscode/nav/hovr'), 'security/x.json')).toThrow(
      'security/x.json: requests to topics the suite does not know: /app/vscode/nav/hovr',
    );
  });
});
