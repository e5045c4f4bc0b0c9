// idea-server's language edits end to end, in-process (serveWorkspace) with the real
// typescript-language-server, over the wire: a quick fix listed and applied by id (its dry run first:
// a diff, nothing written), an id refused on another connection and once its file changed (T54); a
// "Move to a new file" refactoring whose new file appears only when the transaction writes it (H22);
// formatting, a dry run and a file already formatted (T55); a file and a folder moved with their
// importers updated, as one transaction (T56), undone whole (T57).
import {
  existsSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  realpathSync,
  rmSync,
  writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { join, relative } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { connect, type IdeaClient } from '../../generated/current';
import { type ServedWorkspace, serveWorkspace } from '../../idea-server/src/serve';

const SLOW = 180_000; // tsserver loads the project on the first request; the machine is shared

let tmp: string;
let ws: string;
let served: ServedWorkspace;
let client: IdeaClient;

const FILES: Record<string, string> = {
  'src/util.ts': ['export function greet(name: string): string {', '  return `hello ${name}`;', '}', ''].join('\n'),
  'src/main.ts': ["import { PI } from './consts';", '', "export const message = greet('world') + PI;", ''].join('\n'),
  'src/consts.ts': ['export const PI = 3.14;', ''].join('\n'),
  'src/shapes.ts': [
    "import { PI } from './consts';",
    '',
    'export function area(r: number): number {',
    '  return PI * r * r;',
    '}',
    '',
    'export const unit = area(1);',
    '',
  ].join('\n'),
  'src/decls.ts': [
    'export enum Color {',
    "  Red = 'red',",
    "  Green = 'green',",
    "  Blue = 'blue',",
    '}',
    '',
    'export enum Size { S, M, L }',
    '',
    '/** Spare. */',
    'export const spare = new Date(2);',
    '',
    'export const kept = 2, dropped = 3;',
    '',
    'export const options = {',
    '  a: 1,',
    '  b: 2',
    '};',
    '',
    'export interface Opts {',
    '  a: number;',
    '  b: string;',
    '}',
    '',
    'export class Box {',
    '  /** Width. */',
    '  w = 1;',
    '  h = 2;',
    '}',
    '',
  ].join('\n'),
  'src/ugly.ts': ['export   function   f( a:number ){', '  return a}', ''].join('\n'),
  'src/deep/leaf.ts': ["import { PI } from '../consts';", '', 'export const twice = PI * 2;', ''].join('\n'),
  'src/uses-leaf.ts': ["import { twice } from './deep/leaf';", '', 'export const four = twice * 2;', ''].join('\n'),
};
const file = (name: string) => join(ws, name);
const read = (name: string) => readFileSync(file(name), 'utf8');

/** Every file under src/, with its text. */
function tree(): Record<string, string> {
  const out: Record<string, string> = {};
  const walk = (dir: string) => {
    for (const e of readdirSync(dir, { withFileTypes: true })) {
      const p = join(dir, e.name);
      if (e.isDirectory()) walk(p);
      else out[relative(ws, p)] = readFileSync(p, 'utf8');
    }
  };
  walk(file('src'));
  return out;
}

const failure = (p: Promise<unknown>) =>
  p.then(
    () => 'no error',
    (e: Error & { code?: string }) => `${e.code}: ${e.message}`,
  );

beforeAll(async () => {
  tmp = realpathSync(mkdtempSync(join(tmpdir(), 'idea-server-lang-edits-')));
  ws = join(tmp, 'ws');
  mkdirSync(join(ws, 'src', 'deep'), { recursive: true });
  writeFileSync(
    join(ws, 'tsconfig.json'),
    JSON.stringify({ compilerOptions: { strict: true, module: 'ESNext', moduleResolution: 'Bundler', noEmit: true } }),
  );
  for (const [name, text] of Object.entries(FILES)) writeFileSync(file(name), text);
  served = await serveWorkspace({
    workspace: ws,
    port: 0,
    registry: false,
    home: join(tmp, 'home'),
    historyDir: join(tmp, 'history'),
    log: () => {},
  });
  client = await connect({ url: served.url, token: served.token, validate: true, timeoutMs: SLOW });
}, 60_000);

afterAll(async () => {
  await client?.close();
  await served?.close();
  rmSync(tmp, { recursive: true, force: true });
}, 60_000);

describe('code actions over the wire (idea-server)', () => {
  it('a quick fix listed with its diagnostic, dry run first, applied by id; then its id is stale', {
    timeout: SLOW,
  }, async () => {
    for (const t of ['/app/vscode/edit/codeActions', '/app/vscode/edit/applyCodeAction', '/app/vscode/edit/format'])
      expect(client.supports(t as never)).toBe(true);
    const { actions } = await client.editCodeActions({ filePath: 'src/main.ts', line: 2, character: 24 });
    const fix = actions.find((a) => a.title === 'Add import from "./util"');
    expect(fix).toMatchObject({ kind: 'quickfix', diagnostics: [{ code: '2304', source: 'ts' }] });
    const before = tree();
    const dry = await client.editApplyCodeAction({ id: fix!.id, dryRun: true });
    expect(dry).toMatchObject({ dryRun: true, changedFiles: [], editCount: 1 });
    expect(dry.files.map((f) => [relative(ws, f.filePath), f.change])).toEqual([['src/main.ts', 'edited']]);
    expect(dry.files[0]!.diff).toContain("+import { greet } from './util';");
    expect(tree()).toEqual(before);

    // another connection was not given this id
    const other = await connect({ url: served.url, token: served.token, timeoutMs: SLOW });
    expect(await failure(other.editApplyCodeAction({ id: fix!.id }))).toMatch(
      /^INVALID_REQUEST: no code action ca-\d+-\w+ was listed on this connection in the last 10 minutes; list the actions again/,
    );
    await other.close();

    const done = await client.editApplyCodeAction({ id: fix!.id, diagnostics: true });
    expect(done.dryRun).toBe(false);
    // T58: the fixed file's diagnostics in the same answer, the error gone
    const after = done.diagnostics!.files;
    expect(after.map((f) => f.filePath)).toEqual([file('src/main.ts')]);
    expect(after[0]!.diagnostics.filter((d) => d.code === '2304')).toEqual([]);
    expect(done.transactionId).toMatch(/^[A-Za-z0-9_-]{8,64}$/);
    expect(done.changedFiles).toEqual([file('src/main.ts')]);
    expect(read('src/main.ts')).toContain("import { greet } from './util';");
    expect(await failure(client.editApplyCodeAction({ id: fix!.id }))).toMatch(
      /^INVALID_REQUEST: .*main\.ts changed since the code action "Add import from "\.\/util"" was listed; list the actions again/,
    );
  });

  // tsserver fails a position past its line's end ("Debug Failure"): refused before it is asked.
  it("a character past its line's end is INVALID_REQUEST naming the field and the line's length", {
    timeout: SLOW,
  }, async () => {
    expect(await failure(client.editCodeActions({ filePath: 'src/consts.ts', line: 0, character: 40 }))).toBe(
      'INVALID_REQUEST: character 40 is past the end of line 0 (23 characters)',
    );
    expect(
      await failure(
        client.editCodeActions({ filePath: 'src/consts.ts', line: 0, character: 0, endLine: 0, endCharacter: 24 }),
      ),
    ).toBe('INVALID_REQUEST: endCharacter 24 is past the end of line 0 (23 characters)');
    expect(await failure(client.editFormat({ filePath: 'src/consts.ts', line: 0, character: 99, dryRun: true }))).toBe(
      'INVALID_REQUEST: character 99 is past the end of line 0 (23 characters)',
    );
    // the line's end itself is a position
    const atEnd = await client.editCodeActions({ filePath: 'src/consts.ts', line: 0, character: 23 });
    expect(Array.isArray(atEnd.actions)).toBe(true);
  });

  // tsserver reads a character past its line's end on into the following lines: clamped to the line's
  // end first, as LSP says and VS Code does, a position topic answers about that end, not another symbol.
  it("a position topic's character past its line's end means the line's end", { timeout: SLOW }, async () => {
    const at = (character: number) => client.navDefinition({ filePath: 'src/shapes.ts', line: 0, character });
    const end = await at(30); // `import { PI } from './consts';` has 30 characters
    expect(await at(40)).toEqual(end); // 40 on, tsserver's offset lands in line 2's `function area`
    expect(await client.navHover({ filePath: 'src/shapes.ts', line: 0, character: 40 })).toEqual(
      await client.navHover({ filePath: 'src/shapes.ts', line: 0, character: 30 }),
    );
  });

  // clause H22: typescript-language-server's own refactoring command creates the new file on disk itself.
  it('"Move to a new file": the dry run creates nothing; the apply writes both files as one transaction', {
    timeout: SLOW,
  }, async () => {
    const { actions } = await client.editCodeActions({
      filePath: 'src/shapes.ts',
      namePath: 'area',
      only: ['refactor.move'],
    });
    const move = actions.find((a) => a.title === 'Move to a new file');
    expect(move).toBeDefined();
    const before = tree();
    const dry = await client.editApplyCodeAction({ id: move!.id, dryRun: true });
    expect(dry.files.map((f) => [relative(ws, f.filePath), f.change]).sort()).toEqual([
      ['src/area.ts', 'created'],
      ['src/shapes.ts', 'edited'],
    ]);
    expect(tree()).toEqual(before);
    expect(existsSync(file('src/area.ts'))).toBe(false);
    const done = await client.editApplyCodeAction({ id: move!.id });
    expect(done.changedFiles.map((p) => relative(ws, p)).sort()).toEqual(['src/area.ts', 'src/shapes.ts']);
    expect(read('src/area.ts')).toContain('export function area(r: number): number {');
    expect(read('src/shapes.ts')).toContain("import { area } from './area';");
  });
});

// clause T53: a language server's range of a variable or a list member leaves out its keyword, its
// semicolon or its comma; a delete takes them.
describe('symbol deletes of variables and members (idea-server)', () => {
  const del = (...namePaths: string[]) =>
    client.editApply({
      changes: [
        {
          kind: 'edit',
          filePath: 'src/decls.ts',
          edits: namePaths.map((namePath) => ({ namePath, operation: 'delete' as const })),
        },
      ],
    });
  it('the only declarator takes its statement; a member its comma, or the comma before it when last', {
    timeout: SLOW,
  }, async () => {
    await del('Color/Green', 'spare', 'Size/L', 'options/b');
    expect(read('src/decls.ts')).toBe(
      [
        'export enum Color {',
        "  Red = 'red',",
        "  Blue = 'blue',",
        '}',
        '',
        'export enum Size { S, M }',
        '',
        'export const kept = 2, dropped = 3;',
        '',
        'export const options = {',
        '  a: 1',
        '};',
        '',
        'export interface Opts {',
        '  a: number;',
        '  b: string;',
        '}',
        '',
        'export class Box {',
        '  /** Width. */',
        '  w = 1;',
        '  h = 2;',
        '}',
        '',
      ].join('\n'),
    );
    await del('Opts/b', 'Box/w');
    expect(read('src/decls.ts')).toContain(['export interface Opts {', '  a: number;', '}'].join('\n'));
    expect(read('src/decls.ts')).toContain(['export class Box {', '  h = 2;', '}'].join('\n'));
    await del('dropped', 'Size/S');
    expect(read('src/decls.ts')).toContain('export const kept = 2;\n');
    expect(read('src/decls.ts')).toContain('export enum Size { M }\n');
    await del('kept');
    expect(read('src/decls.ts')).not.toMatch(/kept|export const ;|^\s*,/m);
  });
});

describe('formatting over the wire (idea-server)', () => {
  it("a dry run's diff, the write, then nothing left to change", { timeout: SLOW }, async () => {
    const dry = await client.editFormat({ filePath: 'src/ugly.ts', dryRun: true });
    expect(dry.files[0]!.diff).toContain('+export function f(a: number) {');
    expect(read('src/ugly.ts')).toBe(FILES['src/ugly.ts']);
    const done = await client.editFormat({ filePath: 'src/ugly.ts' });
    expect(done.changedFiles).toEqual([file('src/ugly.ts')]);
    expect(read('src/ugly.ts')).toBe(['export function f(a: number) {', '  return a', '}', ''].join('\n'));
    expect(await client.editFormat({ filePath: 'src/ugly.ts' })).toEqual({
      dryRun: false,
      files: [],
      changedFiles: [],
      editCount: 0,
    });
  });

  it('a file no formatter serves is refused, saying so', { timeout: SLOW }, async () => {
    writeFileSync(file('src/notes.txt'), 'x\n');
    expect(await failure(client.editFormat({ filePath: 'src/notes.txt' }))).toMatch(
      /^INVALID_REQUEST: no formatter for .*notes\.txt: language server unavailable for \.txt: no language server is configured for \.txt files$/,
    );
  });
});

describe('fs/move over the wire (idea-server)', () => {
  it('a file: its importers and its own imports updated, dry run first, one transaction', {
    timeout: SLOW,
  }, async () => {
    const before = tree();
    const dry = await client.fsMove({ filePath: 'src/consts.ts', newFilePath: 'src/lib/consts.ts', dryRun: true });
    const changes = Object.fromEntries(dry.files.map((f) => [relative(ws, f.filePath), f.change]));
    expect(changes).toMatchObject({
      'src/consts.ts': 'renamed',
      'src/main.ts': 'edited',
      'src/deep/leaf.ts': 'edited',
    });
    expect(tree()).toEqual(before);
    const done = await client.fsMove({ filePath: 'src/consts.ts', newFilePath: 'src/lib/consts.ts' });
    expect(done.transactionId).toBeDefined();
    expect(existsSync(file('src/consts.ts'))).toBe(false);
    expect(read('src/lib/consts.ts')).toBe(FILES['src/consts.ts']);
    expect(read('src/main.ts')).toContain("from './lib/consts'");
    expect(read('src/deep/leaf.ts')).toContain("from '../lib/consts'");
  });

  it('a folder: every importer of a file in it updated; an existing target refused', { timeout: SLOW }, async () => {
    expect(await failure(client.fsMove({ filePath: 'src/deep', newFilePath: 'src/lib' }))).toMatch(
      /^INVALID_REQUEST: .*lib exists; overwrite: true replaces a file$/,
    );
    const before = tree();
    const moved = await client.fsMove({ filePath: 'src/deep', newFilePath: 'src/nested/deeper' });
    expect(read('src/nested/deeper/leaf.ts')).toContain("from '../../lib/consts'");
    expect(read('src/uses-leaf.ts')).toContain("from './nested/deeper/leaf'");
    expect(existsSync(file('src/deep'))).toBe(false);
    // T57: the move is one transaction, undone whole
    await client.editUndo({ transactionId: moved.transactionId! });
    expect(tree()).toEqual(before);
    expect(existsSync(file('src/nested'))).toBe(false);
  });
});
