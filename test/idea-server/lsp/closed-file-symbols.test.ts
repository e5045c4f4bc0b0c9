// The symbols of a file the TypeScript server does not have open, from tsserver's navtree without a
// didOpen (client.ts closedFileSymbols, for folder-wide nav/findSymbol and nav/referencingSymbols), are
// exactly what typescript-language-server's documentSymbol gives once the file is open, on files with
// the shapes its conversion handles (overloads, accessors, callbacks, object literals, anonymous
// functions and classes, enums, namespaces, re-exports); and a file in no loaded project is opened instead.
import { mkdtempSync, realpathSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { LspClient } from '../../../idea-server/src/lsp/client';

const SLOW = 180_000;
const dir = realpathSync(mkdtempSync(join(tmpdir(), 'idea-closed-symbols-')));
const FILES: Record<string, string> = {
  'main.ts': "import { Shape } from './shapes';\nexport const s = new Shape(1);\n",
  'shapes.ts': [
    'export class Shape {',
    '  constructor(readonly w: number) {}',
    '  area(): number;',
    '  area(scale: number): number;',
    '  area(scale = 1) { return this.w * scale; }',
    '  get size() { return this.w; }',
    '  set size(v: number) { this.w = v; }',
    '  static readonly unit = new Shape(1);',
    '}',
    'export enum Kind { A, B = 2 }',
    'export namespace Geo { export const pi = 3.14; export function twice(x: number) { return 2 * x; } }',
    "export const table = { format: (d: Date) => d.toISOString(), 'a/b': 1, nested: { deep() { return 1; } } };",
    'export default function () { return [1, 2].map((x) => x + 1); }',
    'describe("Shape", () => { it("has an area", () => { const local = new Shape(2); local.area(); }); });',
    'const anon = class {};',
    'export { Shape as Figure };',
    'declare function describe(n: string, f: () => void): void;',
    'declare function it(n: string, f: () => void): void;',
    '',
  ].join('\n'),
};

let client: LspClient;
beforeAll(() => {
  writeFileSync(join(dir, 'tsconfig.json'), JSON.stringify({ compilerOptions: { strict: true, noEmit: true } }));
  for (const [name, text] of Object.entries(FILES)) writeFileSync(join(dir, name), text);
  client = new LspClient({ rootPath: dir });
});
afterAll(async () => {
  await client?.shutdown();
  rmSync(dir, { recursive: true, force: true });
});

it('a closed file of a loaded project: the same symbols as documentSymbol gives it open', {
  timeout: SLOW,
}, async () => {
  expect(await client.load([join(dir, 'main.ts')])).toEqual([]);
  const shapes = join(dir, 'shapes.ts');
  const closed = await client.closedFileSymbols(shapes);
  expect(closed).toBeDefined();
  expect(client.holds(shapes)).toBe(false); // asked without opening it
  const open = await client.documentSymbols(shapes);
  expect(client.holds(shapes)).toBe(true);
  expect(closed).toEqual(open);
  // The shapes above reached the conversion: overloads, accessors, string-named members, callbacks.
  const names: string[] = [];
  const walk = (list: { name: string; children?: unknown[] }[]) => {
    for (const x of list) {
      names.push(x.name);
      walk((x.children ?? []) as typeof list);
    }
  };
  walk(open as { name: string }[]);
  expect(names, JSON.stringify(names)).toEqual(
    expect.arrayContaining(['area', 'size', "'a/b'", 'deep', 'default', 'Kind', 'Geo', 'anon']),
  );
  expect(names.filter((n) => n === 'area')).toHaveLength(3);
  expect(names.some((n) => n.endsWith('callback'))).toBe(true);
  // Open now: asked as before.
  expect(await client.closedFileSymbols(shapes)).toBeUndefined();
});

it('a file in no loaded project is not answered from navtree', { timeout: SLOW }, async () => {
  const outside = join(dir, 'loose.js');
  writeFileSync(outside, 'function loose() {}\n');
  const answer = await client.closedFileSymbols(outside);
  // tsserver knows no project holding it (a .js file without allowJs): the caller opens it instead.
  expect(answer).toBeUndefined();
});
