// clause T47 on idea-server with the real typescript-language-server, on a solution-style workspace
// (fixtures/solution-tsconfig: `"files": []` referencing a build project and a tests project that does
// not reference it): tsserver alone, having loaded the build project, misses every test file; idea-server
// loads every project first, so references (by name path) and a rename's dry run include the tests,
// workspace symbols find the tests' own symbols, and each answer's coverage lists both projects; and
// v0.1.8's other symbol topics with tsserver's own answers: findSymbol with a body and its doc comment,
// referencingSymbols grouped by caller, call hierarchy across both projects.
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

  it("workspace symbols find the tests project's own symbols", { timeout: SLOW }, async () => {
    const res = await client.navWorkspaceSymbols({ query: 'check', kinds: ['function'] });
    expect(res.symbols.map((x) => [x.name, rel(x.filePath)]).sort()).toEqual([
      ['checkArea', 'tests/shape-test.ts'],
      ['checkReport', 'tests/report-test.ts'],
    ]);
    expect(res).toMatchObject({ totalCount: 2, truncated: false, coverage: { complete: true } });
  });

  it('findSymbol: a method with its doc comment as body, and its signature', { timeout: SLOW }, async () => {
    const res = await client.navFindSymbol({ namePath: 'Shape/area', includeBody: true });
    expect(res.symbols).toEqual([
      expect.objectContaining({
        namePath: '/Shape/area',
        kind: 'method',
        filePath: join(ws, 'src', 'shape.ts'),
        signature: 'area(): number',
        bodyLine: 7,
        bodyCharacter: 2,
        body: '/** The area in square units. */\n  area(): number {\n    return this.w * this.h;\n  }',
      }),
    ]);
    expect(res.coverage).toEqual({ complete: true, searched: [{ kind: 'folder', path: ws }], notSearched: [] });
  });

  it('referencingSymbols: the callers of Shape/area, grouped, in both projects', { timeout: SLOW }, async () => {
    const res = await client.navReferencingSymbols({ filePath: 'src/shape.ts', namePath: 'Shape/area' });
    expect(
      res.groups.map((g) => [rel(g.filePath), g.symbol?.namePath ?? null, g.references.map((r) => r.lineText.trim())]),
    ).toEqual([
      ['src/report.ts', '/report', ['return `area ${s.area()}`;']],
      ['tests/shape-test.ts', '/checkArea', ['return s.area() === 6;']],
    ]);
    expect(res.coverage?.complete).toBe(true);
  });

  it('callHierarchy: who calls Shape/area, with call sites and name paths', { timeout: SLOW }, async () => {
    // tsserver answers incoming calls from the file's default project only (here the build project),
    // loaded projects or not: the tests' callers are found by referencingSymbols, not here (T51 does
    // not ask call hierarchy to be complete; T47 does not list it).
    const res = await client.navCallHierarchy({
      filePath: 'src/shape.ts',
      namePath: 'Shape/area',
      direction: 'incoming',
      depth: 2,
    });
    expect(res.item).toMatchObject({ name: 'area', namePath: '/Shape/area' });
    expect(res.calls.map((c) => [c.level, c.item.name, c.item.namePath, rel(c.item.filePath)])).toEqual([
      [1, 'report', '/report', 'src/report.ts'],
    ]);
    expect(res.calls[0]!.callSites).toEqual([
      { filePath: join(ws, 'src', 'report.ts'), line: 3, character: 19, endLine: 3, endCharacter: 23 },
    ]);
    const out = await client.navCallHierarchy({
      filePath: 'tests/report-test.ts',
      namePath: 'checkReport',
      direction: 'outgoing',
    });
    expect(out.calls.map((c) => [c.item.name, rel(c.item.filePath)])).toEqual([
      ['report', 'src/report.ts'],
      ['Shape', 'src/shape.ts'],
    ]);
  });
});
