// The language handlers over a host's LanguageFeatures: positions checked against the file, a bare
// location widened to its innermost symbol and its text read, Unavailable answered as empty (logged),
// references and diagnostics sorted and converted to the wire.
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { coreContext } from '../../../server-core/context';
import { diagList } from '../../../server-core/handlers/diag-list';
import { textOfRange } from '../../../server-core/handlers/document';
import { navDefinition } from '../../../server-core/handlers/nav-definition';
import { navHover } from '../../../server-core/handlers/nav-hover';
import { navReferences } from '../../../server-core/handlers/nav-references';
import { navSymbols } from '../../../server-core/handlers/nav-symbols';
import type { LanguageFeatures, Range } from '../../../server-core/host';
import { sleep, until } from '../../support/wait';
import { fakeHost } from '../fake-host';

let root: string;
let file: string;
const SOURCE = 'export class Shape {\r\n  area(): number {\r\n    return 0;\r\n  }\r\n}\n';
beforeAll(() => {
  root = mkdtempSync(join(tmpdir(), 'idea-lang-'));
  mkdirSync(join(root, 'ws'));
  file = join(root, 'ws', 'shape.ts');
  writeFileSync(file, SOURCE);
});
afterAll(() => rmSync(root, { recursive: true, force: true }));

const r = (l1: number, c1: number, l2: number, c2: number): Range => ({
  start: { line: l1, character: c1 },
  end: { line: l2, character: c2 },
});
const ctx = { topic: '/app/vscode/nav/definition' as const, requestId: 'r', signal: new AbortController().signal };
const UNAVAILABLE = { unavailable: 'no language server for .ts' };
const tree = [
  {
    name: 'Shape',
    kind: 4,
    range: r(0, 0, 4, 1),
    selectionRange: r(0, 13, 0, 18),
    children: [{ name: 'area', kind: 5, range: r(1, 2, 3, 3), selectionRange: r(1, 2, 1, 6) }],
  },
];

function core(language: Partial<LanguageFeatures>) {
  const host = fakeHost(root, { language });
  return { host, svc: coreContext(host) };
}

describe('nav/definition', () => {
  it('widens a bare location to its innermost symbol and returns that text (CRLF kept)', async () => {
    const { svc } = core({
      definition: async () => [{ filePath: file, range: r(1, 2, 1, 6) }],
      documentSymbols: async (_p, _s, mode) => (mode === 'once' ? tree : []),
    });
    const res = await navDefinition(svc)({ filePath: file, line: 2, character: 4 }, ctx);
    expect(res.locations).toEqual([
      {
        filePath: file,
        line: 1,
        character: 2,
        endLine: 3,
        endCharacter: 3,
        code: 'area(): number {\r\n    return 0;\r\n  }',
      },
    ]);
  });

  it("uses the provider's target range when it gives one, and the editor's unsaved text", async () => {
    const { host, svc } = core({
      definition: async () => [{ filePath: file, range: r(0, 13, 0, 18), targetRange: r(0, 0, 0, 22) }],
    });
    host.docs.push({ path: file, text: 'export class Circle {}\n', dirty: true });
    const res = await navDefinition(svc)({ filePath: file, line: 0, character: 14 }, ctx);
    expect(res.locations[0]).toMatchObject({ line: 0, endCharacter: 22, code: 'export class Circle {}' });
  });

  it('refuses a line past the end of the file (INVALID_REQUEST), whatever the host answered meanwhile', async () => {
    for (const definition of [
      undefined,
      async () => {
        throw new Error('the language server refused the position');
      },
      async () => [{ filePath: file, range: r(0, 13, 0, 18), targetRange: r(0, 0, 0, 22) }],
    ]) {
      const { svc } = core(definition ? { definition } : {});
      await expect(navDefinition(svc)({ filePath: file, line: 6, character: 0 }, ctx)).rejects.toMatchObject({
        code: 'INVALID_REQUEST',
        message: 'line 6 is beyond the end of the file (6 lines)',
      });
    }
  });

  it("checks the line and cuts the code from the language server's synced text, without reading the file", async () => {
    // The disk holds SOURCE (6 lines); the language server's copy is what the answer came from.
    const synced = 'a\nb\nexport class Circle {}\n';
    const other = join(root, 'ws', 'gone.ts'); // held by the server only: reading it would fail
    const { svc } = core({
      definition: async () => [
        { filePath: file, range: r(2, 13, 2, 19), targetRange: r(2, 0, 2, 22) },
        { filePath: other, range: r(0, 0, 0, 1), targetRange: r(0, 0, 0, 9) },
      ],
      syncedText: (p) => (p === file ? synced : p === other ? 'type T = 1;' : undefined),
    });
    const res = await navDefinition(svc)({ filePath: file, line: 3, character: 0 }, ctx);
    expect(res.locations.map((l) => l.code)).toEqual(['export class Circle {}', 'type T = ']);
    await expect(navDefinition(svc)({ filePath: file, line: 4, character: 0 }, ctx)).rejects.toMatchObject({
      code: 'INVALID_REQUEST',
      message: 'line 4 is beyond the end of the file (4 lines)',
    });
  });

  it('with a synced-text host, still reads a file its server does not hold, and the line check wins', async () => {
    const refused = async () => {
      throw new Error('the language server refused the position');
    };
    const { svc } = core({ definition: refused, references: refused, syncedText: () => undefined });
    await expect(navDefinition(svc)({ filePath: file, line: 6, character: 0 }, ctx)).rejects.toMatchObject({
      code: 'INVALID_REQUEST',
      message: 'line 6 is beyond the end of the file (6 lines)',
    });
    await expect(
      navReferences(svc)({ filePath: file, line: 6, character: 0, includeDeclaration: true }, ctx as never),
    ).rejects.toMatchObject({ code: 'INVALID_REQUEST' });
    await expect(navDefinition(svc)({ filePath: file, line: 5, character: 0 }, ctx)).rejects.toThrow(
      'the language server refused the position',
    );
  });

  it('refuses a path outside the workspace without asking the host', async () => {
    let asked = 0;
    const { svc } = core({ definition: async () => (asked++, []) });
    await expect(
      navDefinition(svc)({ filePath: join(root, 'outside.ts'), line: 0, character: 0 }, ctx),
    ).rejects.toMatchObject({ code: 'INVALID_REQUEST' });
    expect(asked).toBe(0);
  });

  it('answers Unavailable with no locations and logs why', async () => {
    const { host, svc } = core({ definition: async () => UNAVAILABLE });
    expect(await navDefinition(svc)({ filePath: file, line: 0, character: 0 }, ctx)).toEqual({
      locations: [],
      unavailable: { kind: 'none', reason: 'no language server for .ts' },
    });
    expect(host.logged).toEqual(['definition: no language server for .ts']);
  });
});

describe('the location topics with many targets', () => {
  // `n` targets, alternating between the requested file and `other`: Location only, so each needs symbols.
  const other = () => join(root, 'ws', 'other.ts');
  const targets = (n: number) =>
    Array.from({ length: n }, (_, i) => ({ filePath: i % 2 ? other() : file, range: r(1, 2, 1, 6) }));

  it('asks each file for its symbols and text once, and keeps the order', async () => {
    writeFileSync(other(), SOURCE.replace('area', 'size'));
    const asked: string[] = [];
    const { host, svc } = core({
      definition: async () => targets(4),
      documentSymbols: async (p) => (asked.push(p), tree),
    });
    host.docs.push({ path: other(), text: SOURCE.replace('area', 'size'), dirty: false });
    const res = await navDefinition(svc)({ filePath: file, line: 2, character: 4 }, ctx);
    expect(asked.sort()).toEqual([other(), file].sort());
    expect(res.locations.map((l) => [l.filePath, l.code.slice(0, 4)])).toEqual([
      [file, 'area'],
      [other(), 'size'],
      [file, 'area'],
      [other(), 'size'],
    ]);
  });

  it('works on at most 8 targets at once, and stops asking once one fails', async () => {
    let inFlight = 0;
    let most = 0;
    let calls = 0;
    const files = Array.from({ length: 40 }, (_, i) => join(root, 'ws', `t${i}.ts`));
    const { host, svc } = core({
      definition: async () => files.map((f) => ({ filePath: f, range: r(0, 0, 0, 1) })),
      documentSymbols: async (p) => {
        calls++;
        inFlight++;
        most = Math.max(most, inFlight);
        await sleep(5); // work that takes a while: the lookups overlap
        inFlight--;
        if (p === files[3]) throw new Error('symbols failed');
        return tree;
      },
    });
    for (const f of files) host.docs.push({ path: f, text: SOURCE, dirty: false });
    await expect(navDefinition(svc)({ filePath: file, line: 0, character: 0 }, ctx)).rejects.toThrow('symbols failed');
    await until('the symbol lookups still running to end', () => inFlight === 0);
    expect(most).toBe(8);
    expect(calls).toBeLessThan(16);
  });
});

describe('the line check', () => {
  it('counts CRLF, CR and LF alike, and its error wins over the hover asked meanwhile', async () => {
    const crOnly = join(root, 'ws', 'cr.ts');
    writeFileSync(crOnly, 'a\rb\r\nc\n');
    let asked = 0;
    const hover = navHover(coreContext(fakeHost(root, {})), async () => {
      asked++;
      throw new Error('no position there');
    });
    const at = (line: number) => hover({ filePath: crOnly, line, character: 0 }, ctx);
    await expect(at(3)).rejects.toThrow('no position there'); // the last, empty line exists
    await expect(at(4)).rejects.toMatchObject({
      code: 'INVALID_REQUEST',
      message: 'line 4 is beyond the end of the file (4 lines)',
    });
    expect(asked).toBe(2); // asked while the file was read
  });
});

describe('nav/references, nav/symbols, diag/list', () => {
  it('sorts references by file and position and passes includeDeclaration on', async () => {
    let asked: boolean | undefined;
    const other = join(root, 'ws', 'a.ts');
    const { svc } = core({
      references: async (_p, _at, includeDeclaration) => {
        asked = includeDeclaration;
        return [
          { filePath: file, range: r(2, 4, 2, 8) },
          { filePath: other, range: r(5, 0, 5, 4) },
          { filePath: file, range: r(1, 2, 1, 6) },
        ];
      },
    });
    const res = await navReferences(svc)({ filePath: file, line: 1, character: 3, includeDeclaration: false }, ctx);
    expect(asked).toBe(false);
    expect(res.locations.map((l) => `${l.filePath.slice(root.length)}:${l.line}`)).toEqual([
      '/ws/a.ts:5',
      '/ws/shape.ts:1',
      '/ws/shape.ts:2',
    ]);
    expect(res.totalCount).toBe(3);
  });

  it('flattens symbols parent-first and filters them; Unavailable is an empty list', async () => {
    const { svc } = core({ documentSymbols: async (_p, _s, mode) => (mode === 'wait' ? tree : []) });
    const res = await navSymbols(svc)({ filePath: file, query: 'AREA' }, ctx);
    expect(res.symbols.map((s) => [s.name, s.kind, s.containerName])).toEqual([['area', 'method', 'Shape']]);
    const none = core({ documentSymbols: async () => UNAVAILABLE });
    expect(await navSymbols(none.svc)({ filePath: file }, ctx)).toEqual({
      symbols: [],
      totalCount: 0,
      unavailable: { kind: 'none', reason: 'no language server for .ts' },
    });
  });

  it('refuses a path outside the workspace (INVALID_REQUEST)', async () => {
    const { svc } = core({});
    await expect(navSymbols(svc)({ filePath: join(root, 'outside.ts') }, ctx)).rejects.toMatchObject({
      code: 'INVALID_REQUEST',
    });
  });

  it('converts and filters diagnostics of the files asked for, and of all files without filePath', async () => {
    const d = (line: number, severity: number) => ({ range: r(line, 0, line, 1), severity, message: `m${line}` });
    const { svc } = core({
      diagnostics: async () => [d(3, 1), d(1, 0)],
      allDiagnostics: () => [{ filePath: file, diagnostics: [d(2, 0)] }],
    });
    const asked = await diagList(svc)({ filePath: file, severity: 'all' }, ctx);
    expect(asked.diagnostics.map((x) => [x.line, x.severity])).toEqual([
      [1, 'error'],
      [3, 'warning'],
    ]);
    const errors = await diagList(svc)({ filePath: [file, file], severity: 'error' }, ctx);
    expect(errors.totalCount).toBe(1);
    expect((await diagList(svc)({ severity: 'all' }, ctx)).diagnostics.map((x) => x.line)).toEqual([2]);
  });
});

describe('textOfRange', () => {
  it('clamps to the document and counts CRLF, CR and LF as one break each', () => {
    const text = 'ab\r\ncd\ref\ngh';
    expect(textOfRange(text, r(0, 1, 2, 1))).toBe('b\r\ncd\re');
    expect(textOfRange(text, r(3, 1, 9, 9))).toBe('h');
    expect(textOfRange(text, r(1, 5, 1, 1))).toBe('');
  });

  it('agrees with splitting the whole text into lines, wherever the range falls', () => {
    // The reference: the text split at every break, offsets summed line by line, clamped as VS Code does.
    const reference = (text: string, range: Range) => {
      const lines = text.split(/\r\n|\r|\n/);
      const breaks = text.match(/\r\n|\r|\n/g) ?? [];
      const at = (p: { line: number; character: number }) => {
        if (p.line < 0) return 0;
        if (p.line >= lines.length) return text.length;
        let o = 0;
        for (let i = 0; i < p.line; i++) o += lines[i]!.length + breaks[i]!.length;
        return o + Math.max(0, Math.min(p.character, lines[p.line]!.length));
      };
      const [start, end] = [at(range.start), at(range.end)];
      return end <= start ? '' : text.slice(start, end);
    };
    let seed = 7;
    const next = (n: number) => {
      seed = (seed * 1103515245 + 12345) % 2 ** 31;
      return seed % n;
    };
    const pieces = ['a', 'bc', '\r', '\n', '\r\n', ''];
    for (let i = 0; i < 2000; i++) {
      const text = Array.from({ length: next(12) }, () => pieces[next(pieces.length)]).join('');
      const range = r(next(7) - 1, next(6) - 1, next(7) - 1, next(6) - 1);
      expect(textOfRange(text, range), JSON.stringify({ text, range })).toBe(reference(text, range));
    }
  });
});
