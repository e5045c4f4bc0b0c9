// clause T47 on idea-server with the real typescript-language-server, on a solution-style workspace
// (fixtures/solution-tsconfig: `"files": []` referencing a build project and a tests project that does
// not reference it): tsserver alone, having loaded the build project, misses every test file; idea-server
// loads every project first, so references (by name path) and a rename's dry run include the tests,
// workspace symbols find the tests' own symbols, and each answer's coverage lists both projects.
import { cpSync, mkdtempSync, realpathSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { connect, type IdeaClient } from '../../generated/current';
import { LspClient } from '../../idea-server/src/lsp/client';
import { type ServedWorkspace, serveWorkspace } from '../../idea-server/src/serve';
import { forgetProjects } from '../../server-core/projects';

const SLOW = 180_000; // tsserver loads two projects; the machine is shared

let tmp: string;
let ws: string;
let served: ServedWorkspace;
let client: IdeaClient;
const rel = (p: string) => p.slice(ws.length + 1);

beforeAll(async () => {
  tmp = realpathSync(mkdtempSync(join(tmpdir(), 'idea-solution-')));
  ws = join(tmp, 'ws');
  cpSync(join(import.meta.dirname, 'fixtures', 'solution-tsconfig'), ws, { recursive: true });
  forgetProjects();
  served = await serveWorkspace({
    workspace: ws,
    port: 0,
    registry: false,
    home: join(tmp, 'home'),
    historyDir: join(tmp, 'history'),
    log: () => {},
  });
  client = await connect({ url: served.url, token: served.token });
}, 60_000);

afterAll(async () => {
  await client?.close();
  await served?.close();
  rmSync(tmp, { recursive: true, force: true });
}, 60_000);

const SHAPE_FILES = ['src/report.ts', 'src/shape.ts', 'tests/report-test.ts', 'tests/shape-test.ts'];
const PROJECTS = () => [
  { kind: 'project', path: join(ws, 'tsconfig.build.json') },
  { kind: 'project', path: join(ws, 'tsconfig.test.json') },
];

describe('a solution-style tsconfig (T47)', () => {
  it('tsserver alone, asked from the build project, misses the tests project', { timeout: SLOW }, async () => {
    // What made the fixture: without the loading below, a partial answer that says nothing.
    const alone = new LspClient({ rootPath: ws });
    try {
      const refs = await alone.references(join(ws, 'src', 'shape.ts'), 1, 14, true);
      expect([...new Set(refs.locations.map((l) => rel(l.filePath)))].sort()).toEqual([
        'src/report.ts',
        'src/shape.ts',
      ]);
    } finally {
      await alone.shutdown();
    }
  });

  it('references by name path include the tests, and coverage lists both projects', { timeout: SLOW }, async () => {
    const res = await client.navReferences({ filePath: 'src/shape.ts', namePath: 'Shape', includeDeclaration: true });
    expect([...new Set(res.locations.map((l) => rel(l.filePath)))].sort()).toEqual(SHAPE_FILES);
    expect(res.totalCount).toBe(8);
    expect(res.coverage).toEqual({ complete: true, searched: PROJECTS(), notSearched: [] });
  });

  it("a rename's dry run edits the tests too", { timeout: SLOW }, async () => {
    const res = await client.editRename({
      filePath: 'src/shape.ts',
      namePath: 'Shape',
      newName: 'Figure',
      dryRun: true,
    });
    expect(res.files.map((f) => rel(f.filePath))).toEqual(SHAPE_FILES);
    expect(res.editCount).toBe(8);
    expect(res.coverage).toEqual({ complete: true, searched: PROJECTS(), notSearched: [] });
  });

  it('an unknown name path is an error with candidates, on the wire', { timeout: SLOW }, async () => {
    const err = await client.navReferences({ filePath: 'src/shape.ts', namePath: 'Shape/aera' }).catch((e) => e);
    expect(err).toMatchObject({ code: 'INVALID_REQUEST' });
    expect(err.body.candidates).toEqual([{ namePath: '/Shape', kind: 'class', line: 1 }]);
  });
});
