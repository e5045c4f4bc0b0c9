// clause T53 against the real typescript-language-server (idea-server's host): edit/apply's symbol edits
// replace a decorated method keeping its doc comment and decorator (one spanning lines too), round-trip
// a body read with nav/findSymbol, insert before and after with the blank line a method gets, delete an
// unused method and refuse to delete a used one (listing the reference), pick an overload by [i], edit
// nested TSX, and keep a CRLF file CRLF with the symbol's indentation. One client for the file.
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { LspClient } from '../../../idea-server/src/lsp/client';
import { lspLanguageFeatures } from '../../../idea-server/src/lsp-features';
import { type AnswerFrame, coreSession } from '../../server-core/core-session';
import { fakeHost } from '../../server-core/fake-host';

const SLOW = 180_000; // the first request waits for tsserver to load the project; the machine is shared

const root = mkdtempSync(join(tmpdir(), 'idea-lsp-symbol-edits-'));
const dir = join(root, 'ws'); // fakeHost's workspace folder
const file = (name: string) => join(dir, name);
const SHAPE = [
  'function log(_target: unknown, _key: string, _d: PropertyDescriptor): void {}',
  '',
  'export class Shape {',
  '  /** The area. */',
  '  @log',
  '  area(): number {',
  '    return 1;',
  '  }',
  '',
  '  name(): string {',
  "    return 'shape';",
  '  }',
  '}',
  '',
].join('\n');
const USE = ["import { Shape } from './shape';", '', 'export const a = new Shape().area();', ''].join('\n');
const PARSE = [
  'export function parse(x: string): number;',
  'export function parse(x: number): number;',
  'export function parse(x: unknown): number {',
  '  return Number(x);',
  '}',
  '',
].join('\n');
const APP = [
  'export function App() {',
  '  const items = [1, 2];',
  '  return (',
  '    <div>',
  '      {items.map((i) => (',
  '        <span key={i}>{i}</span>',
  '      ))}',
  '    </div>',
  '  );',
  '}',
  '',
  'export function Footer() {',
  '  return <footer>end</footer>;',
  '}',
  '',
].join('\n');
const BOX = ['export class Box {', '  size = 1;', '', '  grow(): void {', '    this.size++;', '  }', '}', ''].join(
  '\r\n',
);

let client: LspClient;
let ask: (topic: string, params: object) => Promise<AnswerFrame>;

beforeAll(() => {
  mkdirSync(dir);
  writeFileSync(
    join(dir, 'tsconfig.json'),
    JSON.stringify({
      compilerOptions: {
        strict: true,
        target: 'ES2022',
        module: 'ESNext',
        moduleResolution: 'Bundler',
        noEmit: true,
        experimentalDecorators: true,
        jsx: 'preserve',
      },
    }),
  );
  client = new LspClient({ rootPath: dir });
  ({ ask } = coreSession(fakeHost(root, { language: lspLanguageFeatures(client) }), SLOW));
});
beforeEach(() => {
  writeFileSync(file('shape.ts'), SHAPE);
  writeFileSync(file('use.ts'), USE);
  writeFileSync(file('parse.ts'), PARSE);
  writeFileSync(file('app.tsx'), APP);
  writeFileSync(file('box.ts'), BOX);
});
afterAll(async () => {
  await client?.shutdown();
  rmSync(root, { recursive: true, force: true });
}, 60_000);

const edit = (name: string, ...edits: object[]) =>
  ask('edit/apply', { changes: [{ kind: 'edit', filePath: name, edits }] });
const read = (name: string) => readFileSync(file(name), 'utf8');
const lines = (...l: string[]) => l.join('\n');

describe('symbol edits over typescript-language-server (T53)', () => {
  it('replace keeps the doc comment and decorator, and re-indents newText to the member', {
    timeout: SLOW,
  }, async () => {
    const a = await edit('shape.ts', {
      namePath: 'Shape/area',
      operation: 'replace',
      newText: 'area(): number {\n  return 2;\n}',
    });
    expect(a.error).toBeUndefined();
    expect(read('shape.ts')).toBe(SHAPE.replace('    return 1;', '    return 2;'));
  });

  it('replace keeps a decorator that spans lines', { timeout: SLOW }, async () => {
    const ROUTES = [
      'function route(_o: object) {',
      '  return (_t: unknown, _k: string, _d: PropertyDescriptor): void => {};',
      '}',
      '',
      'export class Routes {',
      '  @route({',
      "    path: '/x',",
      '  })',
      '  get(): string {',
      "    return 'x';",
      '  }',
      '}',
      '',
    ].join('\n');
    writeFileSync(file('routes.ts'), ROUTES);
    const a = await edit('routes.ts', {
      namePath: 'Routes/get',
      operation: 'replace',
      newText: "get(): string {\n  return 'y';\n}",
    });
    expect(a.error).toBeUndefined();
    expect(read('routes.ts')).toBe(ROUTES.replace("return 'x';", "return 'y';"));
  });

  it('a body read with nav/findSymbol goes back unchanged (its own doc block replaces the old)', {
    timeout: SLOW,
  }, async () => {
    const found = (await ask('nav/findSymbol', { filePath: 'shape.ts', namePath: 'Shape/area', includeBody: true }))
      .result!.symbols as { body: string }[];
    const body = found[0]!.body;
    expect(body).toMatch(/^\/\*\* The area\. \*\/\n {2}@log\n {2}area\(\)/);
    const a = await edit('shape.ts', {
      namePath: 'Shape/area',
      operation: 'replace',
      newText: body.replace('1;', '5;'),
    });
    expect(a.error).toBeUndefined();
    expect(read('shape.ts')).toBe(SHAPE.replace('return 1;', 'return 5;'));
  });

  it('insertAfter and insertBefore add whole lines with the empty line a method gets', { timeout: SLOW }, async () => {
    const a = await edit(
      'shape.ts',
      { namePath: 'Shape/area', operation: 'insertAfter', newText: 'double(): number {\n  return 2;\n}' },
      {
        namePath: 'Shape/name',
        operation: 'insertBefore',
        newText: '/** Twice. */\ntwice(): number {\n  return 4;\n}\n',
      },
    );
    expect(a.error).toBeUndefined();
    expect(read('shape.ts')).toBe(
      SHAPE.replace(
        '  name(): string {',
        lines(
          '  double(): number {',
          '    return 2;',
          '  }',
          '',
          '  /** Twice. */',
          '  twice(): number {',
          '    return 4;',
          '  }',
          '',
          '  name(): string {',
        ),
      ),
    );
  });

  it('delete removes an unused method with its lines; a used one is refused, its reference listed', {
    timeout: SLOW,
  }, async () => {
    const refused = await edit('shape.ts', { namePath: 'Shape/area', operation: 'delete' });
    expect(refused.error?.code).toBe('INVALID_REQUEST');
    expect(refused.error?.message).toMatch(
      /^change 0 \(edit .*shape\.ts\): \/Shape\/area is still referenced outside itself \(1\): .*use\.ts:2:\d+/,
    );
    expect((refused.error as { references?: unknown[] }).references).toEqual([
      { filePath: file('use.ts'), line: 2, character: expect.any(Number) },
    ]);
    expect(read('shape.ts')).toBe(SHAPE);
    const a = await edit('shape.ts', { namePath: 'Shape/name', operation: 'delete' });
    expect(a.error).toBeUndefined();
    expect(read('shape.ts')).toBe(SHAPE.replace("\n  name(): string {\n    return 'shape';\n  }\n", ''));
  });

  it('an ambiguous name path is refused with candidates; an overload is picked by [i]', { timeout: SLOW }, async () => {
    const tree = (await ask('nav/findSymbol', { filePath: 'parse.ts', namePath: 'parse' })).result!.symbols as {
      namePath: string;
      line: number;
    }[];
    // typescript-language-server gives each overload (and the implementation) a symbol of its own.
    expect(tree.map((t) => [t.namePath, t.line])).toEqual([
      ['/parse[0]', 0],
      ['/parse[1]', 1],
      ['/parse[2]', 2],
    ]);
    const refused = await edit('parse.ts', { namePath: 'parse', operation: 'replace', newText: 'x' });
    expect(refused.error?.code).toBe('INVALID_REQUEST');
    expect(refused.error?.message).toMatch(/^change 0 .*matches 3 symbols/);
    expect(refused.error?.candidates?.map((c) => c.namePath)).toEqual(['/parse[0]', '/parse[1]', '/parse[2]']);
    expect(read('parse.ts')).toBe(PARSE);
    const last = tree[tree.length - 1]!;
    const a = await edit('parse.ts', {
      namePath: last.namePath,
      operation: 'replace',
      newText: 'export function parse(x: unknown): number {\n  return Number(x) + 1;\n}',
    });
    expect(a.error).toBeUndefined();
    expect(read('parse.ts')).toBe(PARSE.replace('  return Number(x);', '  return Number(x) + 1;'));
  });

  it('nested TSX: a component replaced, a helper inserted after it, the next one untouched', {
    timeout: SLOW,
  }, async () => {
    const a = await edit(
      'app.tsx',
      {
        namePath: 'App',
        operation: 'replace',
        newText: lines(
          'export function App() {',
          '  return (',
          '    <ul>',
          '      {[1].map((i) => (',
          '        <li key={i}>',
          '          <b>{i}</b>',
          '        </li>',
          '      ))}',
          '    </ul>',
          '  );',
          '}',
        ),
      },
      { namePath: 'App', operation: 'insertAfter', newText: 'export function Helper() {\n  return <i />;\n}' },
    );
    expect(a.error).toBeUndefined();
    expect(read('app.tsx')).toBe(
      lines(
        'export function App() {',
        '  return (',
        '    <ul>',
        '      {[1].map((i) => (',
        '        <li key={i}>',
        '          <b>{i}</b>',
        '        </li>',
        '      ))}',
        '    </ul>',
        '  );',
        '}',
        '',
        'export function Helper() {',
        '  return <i />;',
        '}',
        '',
        'export function Footer() {',
        '  return <footer>end</footer>;',
        '}',
        '',
      ),
    );
  });

  it('a CRLF file stays CRLF; newText takes the member indentation', { timeout: SLOW }, async () => {
    const a = await edit(
      'box.ts',
      { namePath: 'Box/grow', operation: 'replace', newText: 'grow(): void {\n  this.size += 2;\n}' },
      { namePath: 'Box/grow', operation: 'insertAfter', newText: 'shrink(): void {\n  this.size--;\n}' },
    );
    expect(a.error).toBeUndefined();
    expect(read('box.ts')).toBe(
      [
        'export class Box {',
        '  size = 1;',
        '',
        '  grow(): void {',
        '    this.size += 2;',
        '  }',
        '',
        '  shrink(): void {',
        '    this.size--;',
        '  }',
        '}',
        '',
      ].join('\r\n'),
    );
  });

  it('a dry run answers the diff and writes nothing; a file changed earlier in the edit is refused', {
    timeout: SLOW,
  }, async () => {
    const dry = await ask('edit/apply', {
      dryRun: true,
      changes: [{ kind: 'edit', filePath: 'box.ts', edits: [{ namePath: 'Box/grow', operation: 'delete' }] }],
    });
    expect(dry.error).toBeUndefined();
    expect((dry.result!.files as { diff: string }[])[0]!.diff).toContain('-  grow(): void {');
    expect(read('box.ts')).toBe(BOX);
    const refused = await ask('edit/apply', {
      changes: [
        {
          kind: 'edit',
          filePath: 'box.ts',
          edits: [{ line: 0, character: 0, endLine: 0, endCharacter: 0, newText: '// x\n' }],
        },
        { kind: 'edit', filePath: 'box.ts', edits: [{ namePath: 'Box/grow', operation: 'delete' }] },
      ],
    });
    expect(refused.error?.message).toMatch(/^change 1 .*an earlier change of this edit changed it/);
    expect(read('box.ts')).toBe(BOX);
  });
});
