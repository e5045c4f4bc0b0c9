// v0.1.8's symbol topics against a real VS Code running our extension, on a solution-style workspace: a
// tsconfig.json with "files": [] and references to a build project (src/) and a tests project (test/)
// that imports ../src without referencing the build project. Without loading the tests project, VS
// Code's tsserver answers the references of a src/ class from src/ alone (measured: 4 of 8, no test
// file); the extension opens one file of each project first (extension/src/projects.ts), so references,
// the rename dry run, workspace and referencing symbols include the tests (clause T47). Also: VS Code's
// TypeScript workspace symbols as the spec names them (T49), call hierarchy through VS Code's ten-item
// cache under concurrent requests (T51), name paths (T44, T45), and why an answer is empty (T48): no
// language server for a plain-text file, and a tsserver that keeps crashing (a second VS Code whose
// typescript.tsdk points at one).
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, relative } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { connect, type IdeaClient } from '../../generated/current';
import { type LiveHost, launchHost } from '../../livehost';
import { buildTarget } from '../../scripts/build';
import { EXTENSION_DIR } from './helpers';

const COMPILER_OPTIONS = '"strict": true, "target": "ES2022", "module": "esnext", "moduleResolution": "bundler"';
/** Every file that names Shape: the build project's and the tests project's. */
const ALL_TS = ['src/circle.ts', 'src/shape.ts', 'src/summary.ts', 'test/circle.test.ts', 'test/shape.test.ts'];
const FILES: Record<string, string> = {
  'tsconfig.json': `{ "files": [], "references": [{ "path": "./tsconfig.build.json" }, { "path": "./tsconfig.test.json" }] }\n`,
  'tsconfig.build.json': `{ "compilerOptions": { ${COMPILER_OPTIONS}, "composite": true, "outDir": "out", "rootDir": "src" }, "include": ["src"] }\n`,
  'tsconfig.test.json': `{ "compilerOptions": { ${COMPILER_OPTIONS}, "noEmit": true }, "include": ["test"] }\n`,
  'src/shape.ts': `/** A shape with a name. */
export class Shape {
  constructor(readonly name: string) {}
  area(): number {
    return 0;
  }
}
`,
  'src/circle.ts': `import { Shape } from './shape';
export class Circle extends Shape {
  constructor(readonly r: number) {
    super('circle');
  }
  override area(): number {
    return Math.PI * this.r * this.r;
  }
}
export function describeShape(s: Shape): string {
  return \`\${s.name}: \${s.area()}\`;
}
`,
  'src/summary.ts': `import { describeShape } from './circle';
import type { Shape } from './shape';
export function summarize(shapes: Shape[]): string {
  let out = '';
  for (const s of shapes) out += \`\${describeShape(s)}\\n\`;
  return out;
}
export function headline(shapes: Shape[]): string {
  return \`\${shapes.length} shapes\\n\${summarize(shapes)}\`;
}
`,
  'test/shape.test.ts': `import { Shape } from '../src/shape';
import { describeShape } from '../src/circle';
export function checkSquare(): string {
  const s = new Shape('square');
  return describeShape(s);
}
`,
  'test/circle.test.ts': `import { Circle, describeShape } from '../src/circle';
import type { Shape } from '../src/shape';
export const unitCircle: Shape = new Circle(1);
export const text = describeShape(unitCircle);
`,
  'notes/todo.txt': 'Plain text: no language server serves it.\n',
};

function writeWorkspace(dir: string): void {
  for (const [rel, text] of Object.entries(FILES)) {
    mkdirSync(dirname(join(dir, rel)), { recursive: true });
    writeFileSync(join(dir, rel), text);
  }
}

/** A VS Code on a fresh copy of the workspace, and a validating client of the served version. */
async function start(base: string, userSettings: Record<string, unknown> = {}) {
  const ws = join(base, 'ws');
  writeWorkspace(ws);
  const host = await launchHost({ workspace: ws, extensionDevPath: EXTENSION_DIR, userSettings });
  try {
    const client = await connect({ url: host.url, token: host.token, validate: true, timeoutMs: 90_000 });
    return { ws, host, client };
  } catch (e) {
    await host.close();
    throw e;
  }
}

const base = mkdtempSync(join(tmpdir(), 'idea-ext-symbols-'));
afterAll(() => rmSync(base, { recursive: true, force: true }));
beforeAll(() => buildTarget('extension'), 120_000);

describe('a solution-style workspace (live)', () => {
  let host: LiveHost;
  let client: IdeaClient;
  let ws: string;
  const rel = (p: string) => relative(ws, p);
  const files = (ps: { filePath: string }[]) => [...new Set(ps.map((p) => rel(p.filePath)))].sort();

  beforeAll(async () => {
    ({ ws, host, client } = await start(join(base, 'a')));
  }, 120_000);
  afterAll(async () => {
    client?.close();
    await host?.close();
  });

  // clause T47: the first request of a fresh VS Code, the tests project loaded by no one before it.
  it('references of a build-project class include the tests project, and coverage says all was searched', {
    timeout: 120_000,
  }, async () => {
    const t0 = Date.now();
    const r = await client.navReferences({ filePath: 'src/shape.ts', namePath: 'Shape' });
    console.log(`first nav/references (projects loaded first): ${Date.now() - t0} ms`);
    expect(files(r.locations)).toEqual(ALL_TS);
    expect(r.coverage?.complete).toBe(true);
    expect(r.coverage?.notSearched).toEqual([]);
    const projects = r.coverage!.searched.filter((e) => e.kind === 'project').map((e) => rel(e.path));
    expect(projects).toEqual(expect.arrayContaining(['tsconfig.build.json', 'tsconfig.test.json']));
  });

  it('a rename dry run spans the tests project', { timeout: 60_000 }, async () => {
    const r = await client.editRename({ filePath: 'src/shape.ts', namePath: 'Shape', newName: 'Figure', dryRun: true });
    expect(files(r.files)).toEqual(ALL_TS);
    expect(r.coverage?.complete).toBe(true);
  });

  // clause T49: VS Code's TypeScript provider, names as declared (it labels functions `name()`), any case.
  it('workspace symbols: every project, names and containers as declared, matched case-insensitively', {
    timeout: 60_000,
  }, async () => {
    const t0 = Date.now();
    const r = await client.navWorkspaceSymbols({ query: 'CHECKsq' });
    const cold = Date.now() - t0;
    expect(r.symbols.map((s) => [s.name, s.kind, rel(s.filePath), s.line])).toEqual([
      ['checkSquare', 'function', 'test/shape.test.ts', 2],
    ]);
    expect(r.coverage.complete).toBe(true);
    const area = await client.navWorkspaceSymbols({ query: 'area', kinds: ['method'] });
    expect(area.symbols.map((s) => `${s.containerName}.${s.name} ${rel(s.filePath)}:${s.line}`).sort()).toEqual([
      'Circle.area src/circle.ts:5',
      'Shape.area src/shape.ts:3',
    ]);
    const t1 = Date.now();
    await client.navWorkspaceSymbols({ query: 'shape' });
    console.log(`nav/workspaceSymbols: ${cold} ms first, ${Date.now() - t1} ms warm`);
  });

  // clause T50: references grouped by the innermost symbol that holds them.
  it('referencing symbols group the callers of describeShape, tests included', { timeout: 60_000 }, async () => {
    const r = await client.navReferencingSymbols({ filePath: 'src/circle.ts', namePath: 'describeShape' });
    const groups = r.groups.map(
      (g) => `${rel(g.filePath)} ${g.symbol?.namePath ?? '(top level)'} ${g.references.length}`,
    );
    expect(groups).toEqual([
      'src/summary.ts (top level) 1',
      'src/summary.ts /summarize 1',
      'test/circle.test.ts (top level) 1',
      'test/circle.test.ts /text 1',
      'test/shape.test.ts (top level) 1',
      'test/shape.test.ts /checkSquare 1',
    ]);
    expect(r.groups.find((g) => g.symbol?.name === 'checkSquare')!.references[0]!.lineText).toBe(
      '  return describeShape(s);',
    );
    expect(r.coverage?.complete).toBe(true);
  });

  // clause T51 over VS Code's call hierarchy commands (callers in the function's own project: tsserver
  // answers incoming calls from the default project of the function's file only).
  it('call hierarchy: callers and callees with their call sites', { timeout: 60_000 }, async () => {
    const incoming = await client.navCallHierarchy({
      filePath: 'src/circle.ts',
      namePath: 'describeShape',
      direction: 'incoming',
      depth: 2,
    });
    expect(incoming.item).toMatchObject({
      name: 'describeShape',
      kind: 'function',
      namePath: '/describeShape',
      line: 9,
    });
    expect(incoming.calls.map((c) => `${c.level} ${c.item.namePath} ${rel(c.item.filePath)}`)).toEqual([
      '1 /summarize src/summary.ts',
      '2 /headline src/summary.ts',
    ]);
    const site = FILES['src/summary.ts']!.split('\n')[4]!.indexOf('describeShape');
    expect(incoming.calls[0]!.callSites.map((s) => [rel(s.filePath), s.line, s.character])).toEqual([
      ['src/summary.ts', 4, site],
    ]);
    const outgoing = await client.navCallHierarchy({
      filePath: 'src/summary.ts',
      namePath: 'headline',
      direction: 'outgoing',
      depth: 3,
    });
    expect(outgoing.calls.map((c) => `${c.level} ${c.item.name}`)).toEqual([
      '1 summarize',
      '2 describeShape',
      '3 area',
    ]);
  });

  it("call hierarchy keeps its calls when more requests than VS Code's ten hierarchies run at once", {
    timeout: 120_000,
  }, async () => {
    const ask = () =>
      client.navCallHierarchy({ filePath: 'src/shape.ts', namePath: 'Shape/area', direction: 'incoming', depth: 3 });
    const sketch = (r: Awaited<ReturnType<typeof ask>>) =>
      r.calls.map((c) => `${c.level} ${c.item.name} ${rel(c.item.filePath)}:${c.item.line}`);
    const alone = sketch(await ask());
    expect(alone).toEqual([
      '1 describeShape src/circle.ts:9',
      '2 summarize src/summary.ts:2',
      '3 headline src/summary.ts:7',
    ]);
    const together = await Promise.all(Array.from({ length: 16 }, ask));
    for (const r of together) expect(sketch(r)).toEqual(alone);
  });

  // clauses T44, T45: name paths instead of positions.
  it('find a symbol by name path with its body, and hover by name path', { timeout: 60_000 }, async () => {
    const r = await client.navFindSymbol({ filePath: 'src/circle.ts', namePath: 'Circle/area', includeBody: true });
    expect(r.symbols).toHaveLength(1);
    expect(r.symbols[0]).toMatchObject({ namePath: '/Circle/area', kind: 'method', line: 5 });
    expect(r.symbols[0]!.signature).toBe('override area(): number');
    expect(r.symbols[0]!.body).toContain('return Math.PI * this.r * this.r;');
    const h = await client.navHover({ filePath: 'src/shape.ts', namePath: '/Shape/area' });
    expect(h.contents.map((c) => c.value).join('\n')).toContain('area(): number');
  });

  // clause T48, kind none.
  it('a file no language server serves: empty answers that say so', { timeout: 60_000 }, async () => {
    const s = await client.navSymbols({ filePath: 'notes/todo.txt' });
    expect(s.symbols).toEqual([]);
    expect(s.unavailable).toEqual({
      kind: 'none',
      reason: 'no language server for plaintext files: no installed extension serves the language',
    });
    const d = await client.navDefinition({ filePath: 'notes/todo.txt', line: 0, character: 2 });
    expect(d).toMatchObject({ locations: [], unavailable: { kind: 'none' } });
    // A TypeScript position with nothing there: the server answered, nothing to explain.
    const blank = await client.navDefinition({ filePath: 'src/shape.ts', line: 0, character: 0 });
    expect(blank).toEqual({ locations: [] });
  });
});

// clause T48, kind down: VS Code restarts a tsserver that dies at start over and over; answers say so.
describe('a tsserver that keeps crashing (live)', () => {
  let host: LiveHost;
  let client: IdeaClient;
  let ws: string;

  beforeAll(async () => {
    const tsdk = join(base, 'crashing-typescript', 'lib');
    mkdirSync(tsdk, { recursive: true });
    writeFileSync(join(tsdk, '..', 'package.json'), '{ "name": "typescript", "version": "5.8.3" }\n');
    for (const f of ['tsserver.js', 'typescript.js']) writeFileSync(join(tsdk, f), 'process.exit(1);\n');
    ({ ws, host, client } = await start(join(base, 'b'), { 'typescript.tsdk': tsdk }));
  }, 120_000);
  afterAll(async () => {
    client?.close();
    await host?.close();
  });

  it('references answer empty with why, and workspace symbols say which projects were not searched', {
    timeout: 120_000,
  }, async () => {
    const t0 = Date.now();
    const r = await client.navReferences({ filePath: 'src/shape.ts', line: 1, character: 13 });
    const took = Date.now() - t0;
    expect(r.locations).toEqual([]);
    expect(r.unavailable).toMatchObject({
      kind: 'down',
      reason: expect.stringMatching(/TypeScript server keeps exiting/),
    });
    const w = await client.navWorkspaceSymbols({ query: 'shape' });
    expect(w.coverage.complete).toBe(false);
    expect(w.coverage.notSearched.map((e) => relative(ws, e.path)).sort()).toEqual([
      'tsconfig.build.json',
      'tsconfig.test.json',
    ]);
    for (const e of w.coverage.notSearched) expect(e.reason).toMatch(/^VS Code's TypeScript server keeps exiting/);
    console.log(`references with a crashing tsserver answered in ${took} ms`);
  });
});
