// A symbol in place of a position (clause T44), through the served version's session and the core's
// handlers: every position topic asks its provider at the start of the name of the one symbol the name
// path matches; an unknown or ambiguous one is INVALID_REQUEST with candidates on the wire, a malformed
// one says what and where (T43), both forms or neither are refused, and a file no language server serves
// is HANDLER_ERROR with the reason.
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import type { LanguageFeatures, Position, Range } from '../../../server-core/host';
import type { TreeSymbol } from '../../../server-core/symbols';
import { coreSession } from '../core-session';
import { fakeHost } from '../fake-host';

const root = mkdtempSync(join(tmpdir(), 'idea-locator-'));
const ws = join(root, 'ws');
mkdirSync(ws, { recursive: true });
const file = join(ws, 'hono.ts');
const TEXT = [
  'export class Hono {', // 0
  '  route(a: string): void;', // 1
  '  route(a: string, b?: number) {}', // 2
  '  get() { return this.route("x"); }', // 3
  '}', // 4
  'export function other() {}', // 5
  '',
].join('\n');
writeFileSync(file, TEXT);
writeFileSync(join(ws, 'notes.md'), '# notes\n');
afterAll(() => rmSync(root, { recursive: true, force: true }));

const r = (l1: number, c1: number, l2: number, c2: number): Range => ({
  start: { line: l1, character: c1 },
  end: { line: l2, character: c2 },
});
const sym = (name: string, kind: number, range: Range, sel: Range, children: TreeSymbol[] = []): TreeSymbol => ({
  name,
  kind,
  range,
  selectionRange: sel,
  children,
});
const SYMBOLS: TreeSymbol[] = [
  sym('Hono', 4, r(0, 0, 4, 1), r(0, 13, 0, 17), [
    sym('route', 5, r(1, 2, 1, 25), r(1, 2, 1, 7)),
    sym('route', 5, r(2, 2, 2, 33), r(2, 2, 2, 7)),
    sym('get', 5, r(3, 2, 3, 36), r(3, 2, 3, 5)),
  ]),
  sym('other', 11, r(5, 0, 5, 26), r(5, 16, 5, 21)),
];

/** Each provider records where it was asked. */
function serve() {
  const asked: { what: string; at: Position }[] = [];
  const note = (what: string) => (_p: string, at: Position) => {
    asked.push({ what, at });
    return Promise.resolve([]);
  };
  const language: Partial<LanguageFeatures> = {
    documentSymbols: async (path) =>
      path === file ? SYMBOLS : { unavailable: 'no language server is configured for .md files', kind: 'none' },
    definition: note('definition'),
    references: (p, at) => note('references')(p, at),
    typeDefinition: note('typeDefinition'),
    implementation: note('implementation'),
    hover: async (_p, at) => {
      asked.push({ what: 'hover', at });
      return { contents: [] };
    },
    prepareRename: async () => null,
    rename: async (_p, at) => {
      asked.push({ what: 'rename', at });
      return [];
    },
  };
  const { ask } = coreSession(fakeHost(root, { language }));
  return { asked, ask };
}

describe('namePath in place of line and character (T44)', () => {
  it('every position topic is asked at the start of the name of the symbol', async () => {
    const { asked, ask } = serve();
    const at = { filePath: 'hono.ts', namePath: 'Hono/route[1]' };
    for (const topic of ['nav/definition', 'nav/references', 'nav/typeDefinition', 'nav/implementation', 'nav/hover'])
      expect((await ask(topic, at)).error).toBeUndefined();
    expect((await ask('edit/rename', { ...at, newName: 'path', dryRun: true })).result).toMatchObject({
      editCount: 0,
    });
    expect(asked).toEqual(
      ['definition', 'references', 'typeDefinition', 'implementation', 'hover', 'rename'].map((what) => ({
        what,
        at: { line: 2, character: 2 },
      })),
    );
  });

  it('an ambiguous name path is INVALID_REQUEST with the matches as candidates, and no provider is asked', async () => {
    const { asked, ask } = serve();
    const { error } = await ask('nav/definition', { filePath: file, namePath: 'route' });
    expect(error).toEqual({
      code: 'INVALID_REQUEST',
      message: `name path "route" matches 2 symbols of ${file}; name one (with [i] or more segments): /Hono/route[0] (method, line 1), /Hono/route[1] (method, line 2)`,
      candidates: [
        { namePath: '/Hono/route[0]', kind: 'method', line: 1 },
        { namePath: '/Hono/route[1]', kind: 'method', line: 2 },
      ],
    });
    expect(asked).toEqual([]);
  });

  it('an unknown name path lists what it could have meant', async () => {
    const { ask } = serve();
    expect((await ask('nav/hover', { filePath: file, namePath: 'Hono/gett' })).error).toMatchObject({
      code: 'INVALID_REQUEST',
      message: `name path "Hono/gett" matches no symbol of ${file}; did you mean: /Hono (class, line 0), /other (function, line 5)`,
      candidates: [
        { namePath: '/Hono', kind: 'class', line: 0 },
        { namePath: '/other', kind: 'function', line: 5 },
      ],
    });
    expect((await ask('nav/hover', { filePath: file, namePath: 'ROUTE' })).error?.candidates).toHaveLength(2);
  });

  it('a malformed name path says what is wrong and at which character (T43)', async () => {
    const { ask } = serve();
    expect((await ask('nav/references', { filePath: file, namePath: 'Hono//route' })).error).toEqual({
      code: 'INVALID_REQUEST',
      message: 'malformed name path: empty segment at character 5',
    });
    expect((await ask('nav/references', { filePath: file, namePath: 'x'.repeat(1025) })).error?.code).toBe(
      'INVALID_REQUEST',
    );
  });

  it('both forms, or neither, are INVALID_REQUEST', async () => {
    const { asked, ask } = serve();
    for (const params of [
      { filePath: file, namePath: 'other', line: 5, character: 16 },
      { filePath: file, namePath: 'other', line: 5 },
      { filePath: file },
      { filePath: file, line: 5 },
    ])
      expect((await ask('nav/definition', params)).error?.code).toBe('INVALID_REQUEST');
    expect(asked).toEqual([]);
  });

  it('a file no language server serves is HANDLER_ERROR with the reason; outside the workspace INVALID_REQUEST', async () => {
    const { ask } = serve();
    expect((await ask('nav/definition', { filePath: 'notes.md', namePath: 'notes' })).error).toEqual({
      code: 'HANDLER_ERROR',
      message: `cannot find name path "notes" in ${join(ws, 'notes.md')}: no language server is configured for .md files`,
    });
    expect((await ask('nav/definition', { filePath: join(root, 'x.ts'), namePath: 'x' })).error?.code).toBe(
      'INVALID_REQUEST',
    );
  });

  it('line and character still work as before', async () => {
    const { asked, ask } = serve();
    expect((await ask('nav/definition', { filePath: file, line: 3, character: 22 })).result).toEqual({
      locations: [],
    });
    expect(asked).toEqual([{ what: 'definition', at: { line: 3, character: 22 } }]);
  });
});
