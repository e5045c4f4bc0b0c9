// The language edits against a real VS Code (clauses T54-T56, H22): a quick fix listed with its
// diagnostic and applied by id after its dry run; a refactoring and organize imports, whose edits VS
// Code computes on demand, resolved and applied without running their commands; an action whose command
// would run in the editor listed as disabled and refused; formatting with VS Code's formatter; and a
// file moved with its importers updated. Every write through the core's transaction: what the disk
// holds after each is what the answer said.
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { connect, type IdeaClient } from '../../generated/current';
import { type LiveFixture, startLiveFixture } from './helpers';

const FILES: Record<string, string> = {
  'src/lang/util.ts': ['export function greet(name: string): string {', '  return `hello ${name}`;', '}', ''].join(
    '\n',
  ),
  'src/lang/main.ts': ["export const message = greet('world');", ''].join('\n'),
  'src/lang/imports.ts': [
    "import { greet } from './util';",
    "import { PI } from './consts';",
    '',
    "export const both = greet('x') + PI;",
    '',
  ].join('\n'),
  'src/lang/consts.ts': ['export const PI = 3.14;', ''].join('\n'),
  'src/lang/calc.ts': ['export function calc(r: number): number {', '  return r * 2 + 40;', '}', ''].join('\n'),
  'src/lang/ugly.ts': ['export   function   f( a:number ){', '    return a}', ''].join('\n'),
};

let fx: LiveFixture;
let client: IdeaClient;
const file = (name: string) => join(fx.ws.dir, name);
const read = (name: string) => readFileSync(file(name), 'utf8');
const failure = (p: Promise<unknown>) =>
  p.then(
    () => 'no error',
    (e: Error & { code?: string }) => `${e.code}: ${e.message}`,
  );

beforeAll(async () => {
  fx = await startLiveFixture({
    userSettings: { 'files.autoSave': 'off' },
    prepare: (dir) => {
      mkdirSync(join(dir, 'src', 'lang'), { recursive: true });
      for (const [name, text] of Object.entries(FILES)) writeFileSync(join(dir, name), text);
    },
  });
  client = await connect({ url: fx.host.url, token: fx.host.token, validate: true, timeoutMs: 120_000 });
});
afterAll(async () => {
  client?.close();
  await fx?.close();
});

describe('code actions (live)', () => {
  it('a quick fix with its diagnostic: a dry run writes nothing, the apply writes the import', {
    timeout: 180_000,
  }, async () => {
    for (const t of ['edit/codeActions', 'edit/applyCodeAction', 'edit/format', 'fs/move'])
      expect(client.supports(`/app/vscode/${t}` as never)).toBe(true);
    const { actions } = await client.editCodeActions({ filePath: 'src/lang/main.ts', line: 0, character: 24 });
    const fix = actions.find((a) => a.title === 'Add import from "./util"');
    expect(fix).toMatchObject({ kind: 'quickfix', diagnostics: [{ code: '2304', source: 'ts', line: 0 }] });
    const dry = await client.editApplyCodeAction({ id: fix!.id, dryRun: true });
    expect(dry.files.map((f) => [relative(fx.ws.dir, f.filePath), f.change])).toEqual([['src/lang/main.ts', 'edited']]);
    expect(read('src/lang/main.ts')).toBe(FILES['src/lang/main.ts']);
    const done = await client.editApplyCodeAction({ id: fix!.id });
    expect(done.transactionId).toBeDefined();
    expect(read('src/lang/main.ts')).toBe(`import { greet } from "./util";\n\n${FILES['src/lang/main.ts']}`);
  });

  it('a refactoring computed on demand is resolved and written, its command not run', {
    timeout: 180_000,
  }, async () => {
    const { actions } = await client.editCodeActions({
      filePath: 'src/lang/calc.ts',
      line: 1,
      character: 9,
      endLine: 1,
      endCharacter: 19,
      only: ['refactor.extract'],
    });
    const extract = actions.find((a) => a.kind === 'refactor.extract.constant');
    expect(extract).toBeDefined();
    await client.editApplyCodeAction({ id: extract!.id });
    expect(read('src/lang/calc.ts')).toMatch(/const \w+ = r \* 2 \+ 40;\n\s+return \w+;/);
  });

  it('organize imports, asked by its kind, resolved and written', { timeout: 180_000 }, async () => {
    const { actions } = await client.editCodeActions({
      filePath: 'src/lang/imports.ts',
      line: 0,
      character: 0,
      only: ['source.organizeImports'],
    });
    expect(actions.map((a) => a.kind)).toEqual(['source.organizeImports']);
    await client.editApplyCodeAction({ id: actions[0]!.id });
    expect(read('src/lang/imports.ts').split('\n').slice(0, 2)).toEqual([
      "import { PI } from './consts';",
      "import { greet } from './util';",
    ]);
  });

  // H22: an action whose command runs in the editor (it asks for a target file) is never run.
  it('"Move to file" would run an editor command: listed disabled, refused, nothing written', {
    timeout: 180_000,
  }, async () => {
    const { actions } = await client.editCodeActions({
      filePath: 'src/lang/calc.ts',
      line: 0,
      character: 17,
      only: ['refactor.move'],
    });
    const moveTo = actions.find((a) => a.title.startsWith('Move to file'));
    expect(moveTo?.disabled).toBe(
      'its command _typescript.moveToFileRefactoring runs in the editor, outside the transaction',
    );
    const before = read('src/lang/calc.ts');
    expect(await failure(client.editApplyCodeAction({ id: moveTo!.id }))).toMatch(
      /^INVALID_REQUEST: the code action "Move to file" cannot be applied: its command _typescript\.moveToFileRefactoring/,
    );
    expect(read('src/lang/calc.ts')).toBe(before);
  });
});

describe('formatting and moves (live)', () => {
  it("VS Code's formatter, with the indentation given", { timeout: 180_000 }, async () => {
    const done = await client.editFormat({ filePath: 'src/lang/ugly.ts', tabSize: 2, insertSpaces: true });
    expect(done.changedFiles).toEqual([file('src/lang/ugly.ts')]);
    expect(read('src/lang/ugly.ts')).toBe(['export function f(a: number) {', '  return a', '}', ''].join('\n'));
  });

  it('a file moved with its importers updated, one transaction', { timeout: 180_000 }, async () => {
    const dry = await client.fsMove({
      filePath: 'src/lang/consts.ts',
      newFilePath: 'src/lang/lib/consts.ts',
      dryRun: true,
    });
    expect(Object.fromEntries(dry.files.map((f) => [relative(fx.ws.dir, f.filePath), f.change]))).toMatchObject({
      'src/lang/consts.ts': 'renamed',
      'src/lang/imports.ts': 'edited',
    });
    expect(existsSync(file('src/lang/lib/consts.ts'))).toBe(false);
    await client.fsMove({ filePath: 'src/lang/consts.ts', newFilePath: 'src/lang/lib/consts.ts' });
    expect(existsSync(file('src/lang/consts.ts'))).toBe(false);
    expect(read('src/lang/lib/consts.ts')).toBe(FILES['src/lang/consts.ts']);
    expect(read('src/lang/imports.ts')).toContain("from './lib/consts'");
  });
});
