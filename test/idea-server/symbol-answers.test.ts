// v0.1.8's symbol answers on idea-server with the real typescript-language-server. T45's text rules: a
// top-level symbol's body starts at the comment block directly above it, not in its previous sibling's
// range (a variable whose second line starts with `*`); signatures run past the decorators a range
// begins with and through angle brackets (a `{` in a type parameter's default), for overloads,
// arrow-function consts, getters and TSX. T51: each callee and call site once (tsserver gives a method's
// calls through `this` twice). T49: a list tsserver gave as many symbols as asked for is said cut. T47: a
// tsconfig.*.json nothing references is not claimed searched.
import { mkdirSync, mkdtempSync, realpathSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { connect, type IdeaClient } from '../../generated/current';
import { LspClient } from '../../idea-server/src/lsp/client';
import { lspSymbolsAndCalls } from '../../idea-server/src/lsp/symbols-and-calls';
import { type ServedWorkspace, serveWorkspace } from '../../idea-server/src/serve';
import { isUnavailable } from '../../server-core/host';
import { forgetProjects, UNREFERENCED } from '../../server-core/projects';

const SLOW = 120_000; // tsserver starts; the machine is shared

const TEXTS = [
  'export const factor = 2', // 0
  '  * 3;', // 1
  '// Scales an amount by the factor.', // 2
  '// The report uses it.', // 3
  'export function scaled(amount: number): number {', // 4
  '  return amount * factor;', // 5
  '}', // 6
  '', // 7
  '/** Makes one. */', // 8
  'export function make<T = { a: number }>(value: T): T {', // 9
  '  return value;', // 10
  '}', // 11
  '', // 12
  'export function pick(key: string): string;', // 13
  'export function pick(key: number): string;', // 14
  'export function pick(key: string | number): string {', // 15
  '  return String(key);', // 16
  '}', // 17
  '', // 18
  'export const add = <T,>(a: T, next: (x: T) => T): T => {', // 19
  '  return next(a);', // 20
  '};', // 21
  '', // 22
  'function log(_target: unknown, _context: unknown): void {}', // 23
  'function tag(_name: string) {', // 24
  '  return (_c: unknown) => {};', // 25
  '}', // 26
  '', // 27
  '// The box.', // 28
  "@tag('box')", // 29
  'export class Box<K extends { id: string } = { id: string }> {', // 30
  '  /** Its id. */', // 31
  '  @log', // 32
  '  get id(): string {', // 33
  "    return '';", // 34
  '  }', // 35
  '}', // 36
  '', // 37
  'export function twice(): string {', // 38
  "  return pick('a') + pick(1);", // 39
  '}', // 40
  '', // 41
  'export class Meter {', // 42
  '  read(): number {', // 43
  '    return this.step() + this.step();', // 44
  '  }', // 45
  '  step(): number {', // 46
  '    return 1;', // 47
  '  }', // 48
  '}', // 49
  '',
].join('\n');

const VIEW = [
  'export function View(props: { title: string }) {', // 0
  '  return <div>{props.title}</div>;', // 1
  '}', // 2
  'export const Row = <T,>(p: { item: T }) => <li>{String(p.item)}</li>;', // 3
  '',
].join('\n');

let tmp: string;
let ws: string;
let served: ServedWorkspace;
let client: IdeaClient;

beforeAll(async () => {
  tmp = realpathSync(mkdtempSync(join(tmpdir(), 'idea-symbol-text-')));
  ws = join(tmp, 'ws');
  mkdirSync(join(ws, 'src'), { recursive: true });
  writeFileSync(
    join(ws, 'tsconfig.json'),
    JSON.stringify({ compilerOptions: { jsx: 'preserve', strict: true }, include: ['src'] }),
  );
  // A config nothing references, with a file no loaded project takes: tsserver never loads it (T47).
  writeFileSync(
    join(ws, 'tsconfig.lint.json'),
    JSON.stringify({ extends: './tsconfig.json', include: ['src', 'scripts'] }),
  );
  mkdirSync(join(ws, 'scripts'));
  writeFileSync(join(ws, 'scripts', 'lint.ts'), 'export const rules = 1;\n');
  writeFileSync(join(ws, 'src', 'texts.ts'), TEXTS);
  writeFileSync(join(ws, 'src', 'view.tsx'), VIEW);
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

const find = async (namePath: string, filePath = 'src/texts.ts', includeBody = false) =>
  (await client.navFindSymbol({ namePath, filePath, includeBody })).symbols;

describe('nav/findSymbol text on tsserver (T45)', () => {
  it("a top-level body starts at the comment block above it, not in the previous sibling's range", {
    timeout: SLOW,
  }, async () => {
    const [factor] = await find('factor');
    expect(factor).toMatchObject({ line: 0, endLine: 1, signature: 'factor = 2' }); // its range ends on "  * 3;"
    const [scaled] = await find('scaled', 'src/texts.ts', true);
    expect(scaled).toMatchObject({
      signature: 'export function scaled(amount: number): number',
      bodyLine: 2,
      bodyCharacter: 0,
      body: TEXTS.split('\n').slice(2, 7).join('\n'),
    });
  });

  it('signatures run through angle brackets and past the decorators a range begins with', {
    timeout: SLOW,
  }, async () => {
    expect((await find('make')).map((s) => s.signature)).toEqual([
      'export function make<T = { a: number }>(value: T): T',
    ]);
    expect((await find('pick')).map((s) => s.signature)).toEqual([
      'export function pick(key: string): string;',
      'export function pick(key: number): string;',
      'export function pick(key: string | number): string',
    ]);
    expect((await find('add')).map((s) => s.signature)).toEqual(['add = <T,>(a: T, next: (x: T) => T): T =>']);
    const [box] = await find('Box', 'src/texts.ts', true);
    expect(box).toMatchObject({
      signature: 'export class Box<K extends { id: string } = { id: string }>',
      bodyLine: 28,
      bodyCharacter: 0,
    });
    const [id] = await find('Box/id', 'src/texts.ts', true);
    expect(id).toMatchObject({ signature: 'get id(): string', bodyLine: 31, bodyCharacter: 2 });
  });

  it('TSX: a function component and an arrow-function const', { timeout: SLOW }, async () => {
    expect((await find('View', 'src/view.tsx')).map((s) => s.signature)).toEqual([
      'export function View(props: { title: string })',
    ]);
    expect((await find('Row', 'src/view.tsx')).map((s) => s.signature)).toEqual(['Row = <T,>(p: { item: T }) => <li>']);
  });
});

describe('nav/callHierarchy on tsserver (T51)', () => {
  it('each callee once with each call site once', { timeout: SLOW }, async () => {
    const calls = async (namePath: string) =>
      (await client.navCallHierarchy({ filePath: 'src/texts.ts', namePath, direction: 'outgoing' })).calls.map((c) => [
        c.item.name,
        c.callSites.map((s) => `${s.line}:${s.character}`),
      ]);
    expect(await calls('Meter/read')).toEqual([['step', ['44:11', '44:25']]]);
    expect(await calls('twice')).toEqual([['pick', ['39:9', '39:21']]]);
  });
});

describe('nav/workspaceSymbols on tsserver (T49)', () => {
  it('a list with as many symbols as were asked for says it may be cut', { timeout: SLOW }, async () => {
    const lsp = new LspClient({ rootPath: ws });
    try {
      await lsp.load([join(ws, 'src', 'texts.ts')]);
      const signal = new AbortController().signal;
      // "m" names two symbols of texts.ts: make and Meter.
      const cut = await lspSymbolsAndCalls(lsp, 1).workspaceSymbols('m', signal);
      if (isUnavailable(cut)) throw new Error(cut.unavailable);
      expect(cut).toHaveLength(1);
      expect(cut.limitedBy).toMatch(/^the typescript language server listed as many symbols as it was asked for \(1\)/);
      const whole = await lspSymbolsAndCalls(lsp).workspaceSymbols('m', signal);
      if (isUnavailable(whole)) throw new Error(whole.unavailable);
      expect(whole.map((s) => s.name).sort()).toEqual(['Meter', 'make']);
      expect(whole.limitedBy).toBeUndefined();
    } finally {
      await lsp.shutdown();
    }
  });
});

describe('coverage on tsserver (T47)', () => {
  it('a tsconfig.*.json nothing references is listed as not searched', { timeout: SLOW }, async () => {
    const res = await client.navReferences({ filePath: 'src/texts.ts', namePath: 'factor', includeDeclaration: true });
    expect(res.locations.map((l) => l.line)).toEqual([0, 5]);
    expect(res.coverage).toEqual({
      complete: false,
      searched: [{ kind: 'project', path: join(ws, 'tsconfig.json') }],
      notSearched: [{ kind: 'project', path: join(ws, 'tsconfig.lint.json'), reason: UNREFERENCED }],
    });
  });
});
