// v0.1.8's symbol topics over a stand-in host, through the served version's session with results
// validated against their schemas: nav/findSymbol (T45: matches, signatures, bodies with their doc
// block, children, kinds, maxResults; T46: the forms within the budget; a folder searched through the
// files that contain the name), nav/referencingSymbols (T50: groups by containing symbol, line texts),
// nav/workspaceSymbols (T49: kinds, bounds, the workspace only) and nav/callHierarchy (T51: levels,
// recursion, bounds, name paths). Which topics a host serves follows its LanguageFeatures.
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { RACY_MS } from '../../../server-core/handlers/document';
import type { CallHierarchy, CallHierarchyItem, LanguageFeatures, Range } from '../../../server-core/host';
import { forgetProjects } from '../../../server-core/projects';
import type { TreeSymbol } from '../../../server-core/symbols';
import { coreSession } from '../core-session';
import { fakeHost } from '../fake-host';

const root = mkdtempSync(join(tmpdir(), 'idea-symbol-topics-'));
const ws = join(root, 'ws');
const src = join(ws, 'src');
const hono = join(src, 'hono.ts');
const router = join(src, 'router.ts');
const notes = join(ws, 'notes.md');
const HONO = [
  '/** The app. */', // 0
  'export class Hono {', // 1
  '  /** Adds a route. */', // 2
  '  @log()', // 3
  '  route(path: string): this {', // 4
  '    return this;', // 5
  '  }', // 6
  '', // 7
  '  get(path: string) {', // 8
  '    return this.route(path);', // 9
  '  }', // 10
  '}', // 11
  '', // 12
  'const app = new Hono().route("/");', // 13
  '',
].join('\n');
const ROUTER = ['export class Router {', '  add(h: Hono) {', '    h.route("/x");', '  }', '}', ''].join('\n');

const r = (l1: number, c1: number, l2: number, c2: number): Range => ({
  start: { line: l1, character: c1 },
  end: { line: l2, character: c2 },
});
const sym = (name: string, kind: number, range: Range, line = range.start.line, children: TreeSymbol[] = []) => ({
  name,
  kind,
  range,
  selectionRange: r(line, 0, line, name.length),
  children,
});
const TREES: Record<string, TreeSymbol[]> = {
  [hono]: [
    sym('Hono', 4, r(1, 0, 11, 1), 1, [sym('route', 5, r(3, 2, 6, 3), 4), sym('get', 5, r(8, 2, 10, 3), 8)]),
    sym('app', 12, r(13, 6, 13, 33)),
  ],
  [router]: [sym('Router', 4, r(0, 0, 4, 1), 0, [sym('add', 5, r(1, 2, 3, 3), 1)])],
};

beforeAll(() => {
  mkdirSync(src, { recursive: true });
  writeFileSync(hono, HONO);
  writeFileSync(router, ROUTER);
  writeFileSync(notes, 'route notes\n');
  forgetProjects();
});
afterAll(() => rmSync(root, { recursive: true, force: true }));

const documentSymbols: LanguageFeatures['documentSymbols'] = async (path) =>
  TREES[path] ?? { unavailable: 'no language server is configured for .md files', kind: 'none' };

function serve(language: Partial<LanguageFeatures> = {}) {
  return coreSession(fakeHost(root, { language: { documentSymbols, ...language } })).ask;
}

/** One question on a host of its own (no symbol tree kept from an earlier one), and the files it asked for symbols. */
async function askCounting(topic: string, params: object) {
  const asked: string[] = [];
  const ask = serve({
    documentSymbols: async (p, s, m) => {
      asked.push(p);
      return documentSymbols(p, s, m);
    },
  });
  return { ...(await ask(topic, params)), asked: asked.sort() };
}

describe('nav/findSymbol (T45)', () => {
  it('a name path in a file: range, name path, signature; the body with its doc block; children', async () => {
    const { result } = await serve()('nav/findSymbol', {
      namePath: 'Hono/route',
      filePath: 'src/hono.ts',
      includeBody: true,
    });
    expect(result).toEqual({
      symbols: [
        {
          namePath: '/Hono/route',
          name: 'route',
          kind: 'method',
          line: 3,
          character: 2,
          endLine: 6,
          endCharacter: 3,
          selectionLine: 4,
          selectionCharacter: 0,
          filePath: hono,
          // T45: a decorated method's range starts at its decorator; its signature starts past it.
          signature: 'route(path: string): this',
          bodyLine: 2,
          bodyCharacter: 2,
          body: '/** Adds a route. */\n  @log()\n  route(path: string): this {\n    return this;\n  }',
        },
      ],
      totalCount: 1,
      truncated: false,
      form: 'symbols',
    });
    const { result: withKids } = await serve()('nav/findSymbol', { namePath: '/Hono', filePath: hono, depth: 1 });
    expect((withKids!.symbols as { children: unknown[] }[])[0]!.children).toEqual([
      expect.objectContaining({ namePath: '/Hono/route', level: 1, signature: 'route(path: string): this' }),
      expect.objectContaining({ namePath: '/Hono/get', level: 1, signature: 'get(path: string)' }),
    ]);
    expect(withKids!.symbols).toEqual([expect.not.objectContaining({ body: expect.anything() })]);
  });

  it('substring, kinds and maxResults', async () => {
    const ask = serve();
    const names = async (params: object) =>
      (
        (await ask('nav/findSymbol', { filePath: hono, ...params })).result as { symbols: { namePath: string }[] }
      ).symbols.map((s) => s.namePath);
    expect(await names({ namePath: 'o', substring: true })).toEqual(['/Hono', '/Hono/route']);
    expect(await names({ namePath: 'o', substring: true, includeKinds: ['method'] })).toEqual(['/Hono/route']);
    expect(await names({ namePath: 'e', substring: true, excludeKinds: ['method'] })).toEqual([]);
    const { result } = await ask('nav/findSymbol', { filePath: hono, namePath: 'e', substring: true, maxResults: 1 });
    expect(result).toMatchObject({ totalCount: 2, truncated: true, symbols: [{ namePath: '/Hono/route' }] });
  });

  it('a file no language server serves says why (T48)', async () => {
    const { result } = await serve()('nav/findSymbol', { namePath: 'route', filePath: notes });
    expect(result).toEqual({
      symbols: [],
      totalCount: 0,
      truncated: false,
      form: 'symbols',
      unavailable: { kind: 'none', reason: 'no language server is configured for .md files' },
    });
  });

  it('over a folder or the workspace: every file whose text holds the name, in path order, with coverage', async () => {
    const all = await askCounting('nav/findSymbol', { namePath: 'route' });
    expect(all.result).toMatchObject({
      symbols: [{ namePath: '/Hono/route', filePath: hono }],
      totalCount: 1,
      coverage: { complete: true, searched: [{ kind: 'folder', path: ws }], notSearched: [] },
    });
    // router.ts and notes.md hold "route" too; nothing else was asked.
    expect(all.asked).toEqual([notes, hono, router].sort());
    const inSrc = await askCounting('nav/findSymbol', { namePath: 'Router', filePath: 'src' });
    expect(inSrc.result).toMatchObject({ symbols: [{ namePath: '/Router' }], coverage: { searched: [{ path: src }] } });
    expect(inSrc.asked).toEqual([router]);
  });

  it('a file is asked only when its text holds every identifier segment', async () => {
    // "route" is in all three files' text, "Hono" in hono.ts and router.ts: notes.md is not asked.
    const both = await askCounting('nav/findSymbol', { namePath: 'Hono/route' });
    expect(both.result).toMatchObject({ symbols: [{ namePath: '/Hono/route' }], totalCount: 1 });
    expect(both.asked).toEqual([hono, router].sort());
    // A name no file's text can hold as such (a language server's own): every file of the scope.
    expect(
      (await askCounting('nav/findSymbol', { namePath: 'describe("x") callback', filePath: 'src' })).asked,
    ).toEqual([hono, router].sort());
  });

  it("a file's symbol tree is kept while the file is unchanged (not when just written, empty, or in an editor)", async () => {
    const file = join(src, 'kept.ts');
    writeFileSync(file, 'export function kept() {}\n');
    TREES[file] = [sym('kept', 11, r(0, 0, 0, 25), 0)];
    const asked: string[] = [];
    const host = fakeHost(root, {
      language: {
        documentSymbols: async (p, s, m) => {
          asked.push(p);
          return documentSymbols(p, s, m);
        },
      },
    });
    const { ask } = coreSession(host);
    const find = () => ask('nav/findSymbol', { namePath: 'kept', filePath: file });
    await find();
    await find();
    expect(asked).toHaveLength(2); // written just now: its stat could miss a second write
    // Later than RACY_MS after the write (the clock only: the file's ctime stays the write's).
    const later = () => {
      vi.useFakeTimers({ toFake: ['Date'] });
      vi.setSystemTime(Date.now() + RACY_MS + 1000);
    };
    try {
      later();
      await find();
      await find();
      expect(asked).toHaveLength(3);
      vi.useRealTimers();
      writeFileSync(file, 'export function kept() {}\nexport function more() {}\n');
      later();
      await find();
      expect(asked).toHaveLength(4); // changed: asked again
      host.docs.push({ path: file, text: 'export function kept() {}\n', dirty: false });
      await find();
      await find();
      expect(asked).toHaveLength(6); // an editor holds it: asked every time
    } finally {
      vi.useRealTimers();
    }
  });

  it('T46: symbols, then signatures, then counts, then counts cut, each within maxAnswerChars', async () => {
    const big = join(src, 'big.ts');
    const lines = Array.from({ length: 60 }, (_, i) => `function f${i}() { return "${'x'.repeat(200)}"; }`);
    writeFileSync(big, lines.join('\n'));
    TREES[big] = lines.map((l, i) => sym(`f${i}`, 11, r(i, 0, i, l.length)));
    const ask = serve();
    const form = async (filePath: string, maxAnswerChars: number) => {
      const { result, error } = await ask('nav/findSymbol', {
        namePath: 'f',
        substring: true,
        includeBody: true,
        filePath,
        maxAnswerChars,
      });
      expect(error).toBeUndefined();
      expect(JSON.stringify(result).length).toBeLessThanOrEqual(maxAnswerChars);
      return result as { form: string; symbols: { body?: string }[]; files?: unknown[]; truncated: boolean };
    };
    // The sizes of the two longer forms, then budgets between them.
    const asked = await form(big, 4_000_000);
    expect(asked.form).toBe('symbols');
    expect(asked.symbols[0]!.body).toContain('return');
    const full = JSON.stringify(asked).length;
    const signatures = await form(big, full - 1);
    expect(signatures).toMatchObject({ form: 'signatures', truncated: false });
    expect(signatures.symbols).toHaveLength(60);
    expect(signatures.symbols.some((s) => 'body' in s || 'bodyLine' in s)).toBe(false);
    expect((await form(big, JSON.stringify(signatures).length)).form).toBe('signatures');
    expect((await form(big, JSON.stringify(signatures).length - 1)).form).toBe('counts');
    const counts = await form('src', 1000);
    expect(counts).toMatchObject({
      form: 'counts',
      symbols: [],
      totalCount: 60,
      files: [{ filePath: big, count: 60 }],
    });
    expect(counts.truncated).toBe(false);
    // Many files: the counts cut to fit.
    for (let i = 0; i < 40; i++) {
      const p = join(src, `many-${String(i).padStart(2, '0')}-${'n'.repeat(40)}.ts`);
      writeFileSync(p, 'function fz() {}\n');
      TREES[p] = [sym('fz', 11, r(0, 0, 0, 16))];
    }
    const cut = await form('src', 1000);
    expect(cut).toMatchObject({ form: 'counts', truncated: true });
    expect(cut.files!.length).toBeGreaterThan(0);
    expect(cut.files!.length).toBeLessThan(41);
  });
});

describe('nav/referencingSymbols (T50)', () => {
  it('groups references by the innermost symbol containing them, with their lines', async () => {
    const ask = serve({
      references: async () => [
        { filePath: router, range: r(2, 6, 2, 11) },
        { filePath: hono, range: r(13, 23, 13, 28) },
        { filePath: hono, range: r(9, 16, 9, 21) },
      ],
    });
    const { result } = await ask('nav/referencingSymbols', { filePath: hono, namePath: 'Hono/route' });
    expect(result).toMatchObject({
      groups: [
        {
          filePath: hono,
          symbol: { namePath: '/Hono/get', kind: 'method' },
          references: [{ line: 9, character: 16, lineText: '    return this.route(path);' }],
        },
        {
          filePath: hono,
          symbol: { namePath: '/app', kind: 'variable' },
          references: [{ line: 13, lineText: 'const app = new Hono().route("/");' }],
        },
        {
          filePath: router,
          symbol: { namePath: '/Router/add' },
          references: [{ line: 2, character: 6, endCharacter: 11, lineText: '    h.route("/x");' }],
        },
      ],
      totalCount: 3,
      truncated: false,
    });
    const few = await ask('nav/referencingSymbols', { filePath: hono, line: 4, character: 2, maxResults: 1 });
    expect(few.result).toMatchObject({
      totalCount: 3,
      truncated: true,
      groups: [{ symbol: { namePath: '/Hono/get' } }],
    });
  });

  it('a reference outside every symbol is in a group whose symbol is null', async () => {
    const ask = serve({ references: async () => [{ filePath: hono, range: r(12, 0, 12, 0) }] });
    const { result } = await ask('nav/referencingSymbols', { filePath: hono, namePath: 'app' });
    expect(result).toMatchObject({
      groups: [{ filePath: hono, symbol: null, references: [{ line: 12, lineText: '' }] }],
    });
  });
});

describe('nav/workspaceSymbols (T49)', () => {
  const answers = [
    { name: 'Hono', kind: 4, filePath: hono, range: r(1, 0, 11, 1) },
    { name: 'route', kind: 5, containerName: 'Hono', filePath: hono, range: r(3, 2, 6, 3) },
    { name: 'route', kind: 5, containerName: 'Hono', filePath: hono, range: r(3, 2, 6, 3) }, // twice: one kept
    { name: 'Router', kind: 4, filePath: router, range: r(0, 0, 4, 1) },
    { name: 'HonoLib', kind: 4, filePath: join(ws, 'node_modules', 'x', 'index.d.ts'), range: r(0, 0, 0, 1) },
    { name: 'Outside', kind: 4, filePath: join(root, 'elsewhere.ts'), range: r(0, 0, 0, 1) },
  ];
  it('served only when the host has it; lists workspace symbols, kinds kept, bounded', async () => {
    expect(coreSession(fakeHost(root, { language: { documentSymbols } })).capabilities).not.toContain(
      '/app/vscode/nav/workspaceSymbols',
    );
    const queries: string[] = [];
    const ask = serve({
      workspaceSymbols: async (q) => {
        queries.push(q);
        return answers;
      },
    });
    const { result } = await ask('nav/workspaceSymbols', { query: 'o' });
    expect(queries).toEqual(['o']);
    expect(result).toMatchObject({
      symbols: [
        { name: 'Hono', kind: 'class', containerName: null, filePath: hono, line: 1, endLine: 11 },
        { name: 'route', kind: 'method', containerName: 'Hono' },
        { name: 'Router', kind: 'class', filePath: router },
      ],
      totalCount: 3,
      truncated: false,
      coverage: { complete: true },
    });
    const methods = await ask('nav/workspaceSymbols', { query: 'o', kinds: ['class'], maxResults: 1 });
    expect(methods.result).toMatchObject({ symbols: [{ name: 'Hono' }], totalCount: 2, truncated: true });
  });

  it('a list the language server cut short is truncated, however few of it were kept', async () => {
    const limitedBy = 'the typescript language server listed as many symbols as it was asked for';
    const ask = serve({ workspaceSymbols: async () => Object.assign(answers.slice(0, 2), { limitedBy }) });
    const { result } = await ask('nav/workspaceSymbols', { query: 'o' });
    expect(result).toMatchObject({ symbols: [{ name: 'Hono' }, { name: 'route' }], totalCount: 2, truncated: true });
    const whole = await serve({ workspaceSymbols: async () => answers.slice(0, 2) })('nav/workspaceSymbols', {
      query: 'o',
    });
    expect(whole.result).toMatchObject({ totalCount: 2, truncated: false });
  });
});

describe('nav/callHierarchy (T51)', () => {
  // f calls g and h; g calls f (a cycle) and h; h calls nothing.
  const item = (name: string, line: number): CallHierarchyItem => ({
    name,
    kind: 11,
    filePath: hono,
    range: r(line, 0, line + 1, 1),
    selectionRange: r(line, 9, line, 9 + name.length),
    handle: name,
  });
  const F = item('f', 8);
  const G = item('g', 1);
  const H = item('h', 13);
  const OUT: Record<string, CallHierarchyItem[]> = { f: [G, H], g: [F, H], h: [] };
  const questions: string[] = [];
  const calls: CallHierarchy = {
    prepare: async (_p, at) => (at.line === 8 ? [F] : []),
    incoming: async () => [],
    outgoing: async (i) => {
      questions.push(i.handle as string);
      return OUT[i.handle as string]!.map((c) => ({
        item: c,
        ranges: [r(i.range.start.line, 2, i.range.start.line, 3)],
      }));
    },
  };

  it('depth first with levels; a function on the path from the root is recursive and not followed', async () => {
    questions.length = 0;
    const { result, error } = await serve({ callHierarchy: calls })('nav/callHierarchy', {
      filePath: hono,
      line: 8,
      character: 9,
      direction: 'outgoing',
      depth: 3,
    });
    expect(error).toBeUndefined();
    const rows = (result!.calls as { item: { name: string }; level: number; recursive?: boolean }[]).map(
      (c) => `${'  '.repeat(c.level - 1)}${c.item.name}${c.recursive ? ' (recursive)' : ''}`,
    );
    expect(rows).toEqual(['g', '  f (recursive)', '  h', 'h']);
    expect(result).toMatchObject({
      item: { name: 'f', kind: 'function', filePath: hono },
      totalCount: 4,
      truncated: false,
    });
    // Outgoing call sites are in the caller: f's file and lines for g and h.
    expect((result!.calls as { callSites: { line: number }[] }[])[0]!.callSites).toEqual([
      { filePath: hono, line: 8, character: 2, endLine: 8, endCharacter: 3 },
    ]);
    expect(questions).toEqual(['f', 'g', 'h', 'h']);
  });

  it('no function there: item null; maxResults bounds the calls listed and the questions per level', async () => {
    const ask = serve({ callHierarchy: calls });
    expect(
      (await ask('nav/callHierarchy', { filePath: hono, line: 1, character: 0, direction: 'incoming' })).result,
    ).toEqual({
      item: null,
      calls: [],
      totalCount: 0,
      truncated: false,
    });
    questions.length = 0;
    const { result } = await ask('nav/callHierarchy', {
      filePath: hono,
      line: 8,
      character: 9,
      direction: 'outgoing',
      depth: 5,
      maxResults: 1,
    });
    expect(result).toMatchObject({ calls: [{ item: { name: 'g' }, level: 1 }], truncated: true });
    // Level 1: f; level 2: g and h (maxResults + 1 = 2); level 3: h, the one left (f was recursive).
    expect(questions).toEqual(['f', 'g', 'h', 'h']);
  });

  it('each caller once, each call site once, in source order', async () => {
    // g listed twice (two providers, or a declaration reached twice), a range given twice, ranges out of order.
    const site = (line: number, c: number) => r(line, c, line, c + 1);
    const duplicated: CallHierarchy = {
      ...calls,
      incoming: async () => [
        { item: G, ranges: [site(2, 4), site(1, 9), site(2, 4)] },
        { item: H, ranges: [site(14, 2)] },
        { item: { ...G, handle: 'g again' }, ranges: [site(1, 9), site(3, 0)] },
      ],
    };
    const { result } = await serve({ callHierarchy: duplicated })('nav/callHierarchy', {
      filePath: hono,
      line: 8,
      character: 9,
      direction: 'incoming',
    });
    expect(result).toMatchObject({ totalCount: 2, truncated: false });
    const listed = result!.calls as { item: { name: string }; callSites: { line: number; character: number }[] }[];
    expect(listed.map((c) => [c.item.name, c.callSites.map((s) => `${s.line}:${s.character}`)])).toEqual([
      ['g', ['1:9', '2:4', '3:0']],
      ['h', ['14:2']],
    ]);
  });

  it('items carry their name path where their file names them', async () => {
    const routeItem: CallHierarchyItem = { ...item('route', 4), selectionRange: r(4, 2, 4, 7), range: r(3, 2, 6, 3) };
    const { result } = await serve({
      callHierarchy: { ...calls, prepare: async () => [routeItem] },
    })('nav/callHierarchy', { filePath: hono, namePath: 'Hono/route', direction: 'incoming' });
    expect(result).toMatchObject({ item: { name: 'route', namePath: '/Hono/route' } });
  });
});
