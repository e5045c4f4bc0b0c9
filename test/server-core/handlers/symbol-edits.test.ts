// clause T53's rules that do not need a real language server: newText re-indented (common whitespace
// removed, or a body as nav/findSymbol gives it kept), deletes leaving no doubled blank line, a reference
// inside the symbol's own range not stopping its delete, references that cannot be checked refusing
// it, and no empty line next to a symbol of a kind that gets none. Symbols from a stand-in host.
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeEach, describe, expect, it } from 'vitest';
import { reindent } from '../../../server-core/handlers/symbol-edits';
import type { LanguageFeatures, Range } from '../../../server-core/host';
import type { TreeSymbol } from '../../../server-core/symbols';
import { type AnswerFrame, coreSession } from '../core-session';
import { fakeHost } from '../fake-host';

describe('reindent', () => {
  it("removes the common leading whitespace and gives every non-empty line the symbol's", () => {
    expect(reindent('\n    f() {\n      g();\n\n    }\n\n', '  ')).toEqual(['  f() {', '    g();', '', '  }']);
    expect(reindent('f() {\n  g();\n}', '\t')).toEqual(['\tf() {', '\t  g();', '\t}']);
    expect(reindent('x =\n  1;', '')).toEqual(['x =', '  1;']);
  });
  it('keeps a body as nav/findSymbol gives it (first line from its first character, the rest as in the file)', () => {
    expect(reindent('f() {\n    g();\n  }', '  ')).toEqual(['  f() {', '    g();', '  }']);
  });
  it('an empty text is no lines', () => {
    expect(reindent('\n \n', '  ')).toEqual([]);
  });
});

const root = mkdtempSync(join(tmpdir(), 'idea-symbol-edits-'));
const ws = join(root, 'ws');
const f = join(ws, 'f.ts');
const F = [
  'const one = 1;',
  '',
  'function a() {',
  '  return a();',
  '}',
  '',
  'function b() {}',
  '',
  'const c = b;',
  '',
].join('\n');
const r = (l1: number, c1: number, l2: number, c2: number): Range => ({
  start: { line: l1, character: c1 },
  end: { line: l2, character: c2 },
});
const sym = (name: string, kind: number, range: Range): TreeSymbol => ({
  name,
  kind,
  range,
  selectionRange: r(range.start.line, range.start.character, range.start.line, range.start.character + name.length),
  children: [],
});
const SYMBOLS = [
  sym('one', 13, r(0, 6, 0, 13)),
  sym('a', 11, r(2, 0, 4, 1)),
  sym('b', 11, r(6, 0, 6, 15)),
  sym('c', 13, r(8, 6, 8, 11)),
];
let references: LanguageFeatures['references'];
let ask: (topic: string, params: object) => Promise<AnswerFrame>;
beforeEach(() => {
  rmSync(ws, { recursive: true, force: true });
  mkdirSync(ws, { recursive: true });
  writeFileSync(f, F);
  references = async () => [];
  ({ ask } = coreSession(
    fakeHost(root, {
      language: { documentSymbols: async () => SYMBOLS, references: (...args) => references(...args) },
    }),
  ));
});
afterAll(() => rmSync(root, { recursive: true, force: true }));
const edit = (...edits: object[]) => ask('edit/apply', { changes: [{ kind: 'edit', filePath: f, edits }] });

describe('symbol edits', () => {
  it('a delete between blank lines leaves one; a reference inside the symbol itself does not stop it', async () => {
    references = async () => [{ filePath: f, range: r(3, 9, 3, 10) }]; // a's own recursive call
    expect((await edit({ namePath: 'a', operation: 'delete' })).error).toBeUndefined();
    expect(readFileSync(f, 'utf8')).toBe(['const one = 1;', '', 'function b() {}', '', 'const c = b;', ''].join('\n'));
  });

  it('a referenced symbol is not deleted: error.references lists the first 20, the message counts them all', async () => {
    const other = join(ws, 'g.ts');
    references = async () => Array.from({ length: 25 }, (_, i) => ({ filePath: other, range: r(i, 2, i, 3) }));
    const a = await edit({ namePath: 'b', operation: 'delete' });
    expect(a.error).toMatchObject({ code: 'INVALID_REQUEST', message: expect.stringMatching(/\(25\): .* and 5 more/) });
    const refs = (a.error as { references?: unknown[] }).references;
    expect(refs).toHaveLength(20);
    expect(refs![19]).toEqual({ filePath: other, line: 19, character: 2 });
    expect(readFileSync(f, 'utf8')).toBe(F);
  });

  it('references that cannot be checked refuse the delete (HANDLER_ERROR), nothing written', async () => {
    references = async () => ({ unavailable: 'typescript-language-server is down', kind: 'down' });
    const a = await edit({ namePath: 'b', operation: 'delete' });
    expect(a.error?.code).toBe('HANDLER_ERROR');
    expect(a.error?.message).toMatch(/cannot delete \/b safely: .*is down/);
    expect(readFileSync(f, 'utf8')).toBe(F);
  });

  it('no empty line next to a variable; one next to a function', async () => {
    const a = await edit(
      { namePath: 'c', operation: 'insertBefore', newText: 'const d = 4;' },
      { namePath: 'b', operation: 'insertAfter', newText: 'function e() {}' },
    );
    expect(a.error).toBeUndefined();
    expect(readFileSync(f, 'utf8')).toBe(
      [
        'const one = 1;',
        '',
        'function a() {',
        '  return a();',
        '}',
        '',
        'function b() {}',
        '',
        'function e() {}',
        '',
        'const d = 4;',
        'const c = b;',
        '',
      ].join('\n'),
    );
  });

  it('replace and insert need newText; two symbol edits that overlap are refused', async () => {
    expect((await edit({ namePath: 'a', operation: 'replace' })).error?.message).toMatch(/needs newText/);
    const overlap = await edit(
      { namePath: 'a', operation: 'replace', newText: 'function a() {}' },
      { namePath: 'a', operation: 'delete' },
    );
    expect(overlap.error?.message).toMatch(/edit 1 \(the symbol edit of a\): it overlaps edit 0/);
    expect(readFileSync(f, 'utf8')).toBe(F);
  });
});

// The editor's copy of a file the disk changed behind its back is reloaded asynchronously, and its
// language provider answers for that copy: a symbol edit and a name path wait (bounded: the host's
// afterWrite) for it to show the disk before asking for the symbols.
describe("an editor's copy behind the disk", () => {
  const STALE = F.replace('const one = 1;', '// an older text\nconst one = 1;');
  /** A host whose open copy of f is STALE until its afterWrite is awaited (when `reloads`), with the texts the symbols were asked of. */
  function staleEditor(reloads: boolean) {
    const host = fakeHost(root, {
      language: {
        documentSymbols: async () => {
          asked.push(host.docs[0]!.text);
          return SYMBOLS;
        },
        references: async () => [],
      },
    });
    const asked: string[] = [];
    host.docs.push({ path: f, text: STALE, dirty: false });
    host.documents.afterWrite = async (_path, bytes) => {
      await new Promise((r) => setTimeout(r, 20)); // the reload lands a moment later
      if (reloads) host.docs[0]!.text = bytes.toString('utf8');
    };
    return { ask: coreSession(host).ask, asked };
  }
  const apply = (a: (topic: string, params: object) => Promise<AnswerFrame>) =>
    a('edit/apply', { changes: [{ kind: 'edit', filePath: f, edits: [{ namePath: 'a', operation: 'delete' }] }] });

  it('a symbol edit waits for the copy to show the disk, then compiles against it', async () => {
    const { ask: a, asked } = staleEditor(true);
    expect((await apply(a)).error).toBeUndefined();
    expect(asked).toEqual([F]);
    expect(readFileSync(f, 'utf8')).toBe(['const one = 1;', '', 'function b() {}', '', 'const c = b;', ''].join('\n'));
  });

  it('a copy still behind after the wait is HANDLER_ERROR saying to retry; nothing written', async () => {
    const { ask: a, asked } = staleEditor(false);
    const answer = await apply(a);
    expect(answer.error).toMatchObject({
      code: 'HANDLER_ERROR',
      message: expect.stringMatching(/is not the disk's yet; retry/),
    });
    expect(asked).toEqual([]);
    expect(readFileSync(f, 'utf8')).toBe(F);
  });

  it('a name path on another topic asks for the symbols once the copy shows the disk', async () => {
    const { ask: a, asked } = staleEditor(true);
    const found = await a('nav/findSymbol', { filePath: f, namePath: 'b' });
    expect(found.error).toBeUndefined();
    expect(asked).toEqual([F]);
  });
});
