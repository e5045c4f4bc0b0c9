// idea-server's v0.1.7 language features against the real typescript-language-server on a small TS
// project: hover, a type definition that is not the definition, an interface's two implementations,
// prepareRename and rename (edits in both files; the server's refusal carried as RenameRejectedError),
// and a rename through server-core's handler writing both files. One client for the file.
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { LspClient } from '../../../idea-server/src/lsp/client';
import { lspHoverAndRename, toHoverAnswer, toRenameEdits } from '../../../idea-server/src/lsp/hover-and-rename';
import { lspLanguageFeatures } from '../../../idea-server/src/lsp-features';
import { coreContext } from '../../../server-core/context';
import { editRename } from '../../../server-core/handlers/edit-rename';
import { isUnavailable, RenameRejectedError } from '../../../server-core/host';
import { fakeHost } from '../../server-core/fake-host';

const SLOW = 180_000; // the first request waits for tsserver to load the project; the machine is shared

const root = mkdtempSync(join(tmpdir(), 'idea-lsp-rename-'));
const dir = join(root, 'ws'); // fakeHost's workspace folder
const shapes = join(dir, 'shapes.ts');
const use = join(dir, 'use.ts');
const SHAPES = [
  'export interface Shape {',
  '  area(): number;',
  '}',
  '',
  'export class Square implements Shape {',
  '  area(): number {',
  '    return 4;',
  '  }',
  '}',
  '',
  'export class Circle implements Shape {',
  '  area(): number {',
  '    return 3;',
  '  }',
  '}',
  '',
].join('\n');
const USE = [
  "import { Square, type Shape } from './shapes';",
  '',
  '/** The first shape. */',
  'export const first: Shape = new Square();',
  'export const total = first.area();',
  '',
].join('\n');

let client: LspClient;
let features: ReturnType<typeof lspHoverAndRename>;
const signal = new AbortController().signal;

beforeAll(() => {
  mkdirSync(dir);
  writeFileSync(
    join(dir, 'tsconfig.json'),
    JSON.stringify({
      compilerOptions: { strict: true, target: 'ES2022', module: 'ESNext', moduleResolution: 'Bundler', noEmit: true },
    }),
  );
  writeFileSync(shapes, SHAPES);
  writeFileSync(use, USE);
  client = new LspClient({ rootPath: dir });
  features = lspHoverAndRename(client);
});

afterAll(async () => {
  await client?.shutdown();
  rmSync(root, { recursive: true, force: true });
}, 60_000);

const at = (line: number, character: number) => ({ line, character });

describe('v0.1.7 language features over LSP (typescript-language-server)', () => {
  it('hover: the type and the doc comment, with the range', { timeout: SLOW }, async () => {
    const h = await features.hover(use, at(3, 14), signal); // `first`
    if (isUnavailable(h)) throw new Error(h.unavailable);
    const text = h.contents.map((c) => c.value).join('\n');
    expect(text).toContain('const first: Shape');
    expect(text).toContain('The first shape.');
    expect(h.range).toEqual({ start: at(3, 13), end: at(3, 18) });
  });

  it('typeDefinition points at the type, not the declaration', { timeout: SLOW }, async () => {
    const t = await features.typeDefinition(use, at(4, 21), signal); // `first` in first.area()
    if (isUnavailable(t)) throw new Error(t.unavailable);
    expect(t.map((d) => [d.filePath, d.range.start.line])).toEqual([[shapes, 0]]);
  });

  it("implementation: the interface's two classes", { timeout: SLOW }, async () => {
    const impl = await features.implementation(shapes, at(0, 18), signal); // `Shape`
    if (isUnavailable(impl)) throw new Error(impl.unavailable);
    expect(impl.map((d) => [d.filePath, d.range.start.line]).sort()).toEqual([
      [shapes, 10],
      [shapes, 4],
    ]);
  });

  it('prepareRename names the symbol; a keyword is refused with the server message', { timeout: SLOW }, async () => {
    expect(await features.prepareRename(shapes, at(4, 15), signal)).toMatchObject({
      range: { start: at(4, 13), end: at(4, 19) },
    });
    const refused = await features.prepareRename(shapes, at(6, 11), signal).catch((e: unknown) => e); // `4`
    expect(refused).toBeInstanceOf(RenameRejectedError);
    expect((refused as Error).message).toBe('You cannot rename this element.');
  });

  it('rename: every occurrence in both files', { timeout: SLOW }, async () => {
    const edits = await features.rename(shapes, at(4, 15), 'Box', signal);
    if (isUnavailable(edits) || !edits) throw new Error('no edits');
    const byFile = Object.fromEntries(edits.map((f) => [f.filePath, f.edits.map((e) => e.range.start.line).sort()]));
    expect(byFile).toEqual({ [shapes]: [4], [use]: [0, 3] });
    expect(edits.flatMap((f) => f.edits).every((e) => e.newText.includes('Box'))).toBe(true);
  });

  // clause H16: a rename over LSP writes every file through the core's write path; a dry run writes nothing.
  it("through the core's edit/rename: both files written, a dry run writes nothing", { timeout: SLOW }, async () => {
    const svc = coreContext(fakeHost(root, { language: { ...lspLanguageFeatures(client), ...features } }));
    const rename = editRename(svc, features.rename);
    const ctx = { topic: '/app/vscode/edit/rename' as const, requestId: 'r', signal };
    const params = {
      filePath: shapes,
      line: 10,
      character: 15,
      newName: 'Round',
      diagnostics: false,
      diagnosticsWaitMs: 5000,
    };
    const dry = await rename({ ...params, dryRun: true }, ctx);
    expect(dry.editCount).toBe(1);
    expect(readFileSync(shapes, 'utf8')).toBe(SHAPES);
    await expect(rename({ ...params, newName: 'not valid', dryRun: true }, ctx)).rejects.toMatchObject({
      code: 'INVALID_REQUEST',
    });
    const done = await rename({ ...params, dryRun: false }, ctx);
    expect(done.changedFiles).toEqual([shapes]);
    expect(readFileSync(shapes, 'utf8')).toBe(SHAPES.replace('class Circle', 'class Round'));
  });
});

describe('LSP answers as the core shapes', () => {
  it('hover contents of every LSP form; nothing for junk', () => {
    expect(toHoverAnswer({ contents: { kind: 'plaintext', value: 'p' } })).toEqual({
      contents: [{ kind: 'plaintext', value: 'p' }],
    });
    expect(toHoverAnswer({ contents: ['md', { language: 'ts', value: 'let x = "```"' }, ''] }).contents).toEqual([
      { kind: 'markdown', value: 'md' },
      { kind: 'markdown', value: '````ts\nlet x = "```"\n````' },
    ]);
    expect(toHoverAnswer(null)).toEqual({ contents: [] });
    expect(toHoverAnswer({ contents: 5, range: 'x' })).toEqual({ contents: [] });
  });

  it('workspace edits: changes and documentChanges; file operations and junk refused', () => {
    const range = { start: at(0, 0), end: at(0, 1) };
    expect(toRenameEdits({ changes: { 'file:///w/a.ts': [{ range, newText: 'x' }] } })).toEqual([
      { filePath: '/w/a.ts', edits: [{ range, newText: 'x' }] },
    ]);
    expect(
      toRenameEdits({
        documentChanges: [{ textDocument: { uri: 'untitled:1', version: 1 }, edits: [{ range, newText: 'y' }] }],
      }),
    ).toEqual([{ filePath: 'untitled:1', edits: [{ range, newText: 'y' }] }]);
    expect(() =>
      toRenameEdits({ documentChanges: [{ kind: 'rename', oldUri: 'file:///a', newUri: 'file:///b' }] }),
    ).toThrow(/create, rename or delete/);
    expect(() => toRenameEdits({ changes: { 'file:///w/a.ts': [{ range: 1, newText: 'x' }] } })).toThrow(/malformed/);
    expect(toRenameEdits(null)).toBeNull();
  });
});
