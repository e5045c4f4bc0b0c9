// idea-server's language edits against the real typescript-language-server on a small TS project:
// code actions listed (a quick fix for a missing import with its diagnostic, organize imports, fix-all,
// refactors) and collected into plans that nothing wrote yet — a "Move to a new file" refactoring,
// which typescript-language-server's own command would create on disk at once, plans the file's
// creation instead (H22) —, formatting with the file's indentation or the one given, and the
// importers' edits for a file about to move (workspace/willRenameFiles). One client for the file.
import { existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { LspClient } from '../../../idea-server/src/lsp/client';
import { lspCodeActions } from '../../../idea-server/src/lsp/code-actions';
import { lspWillRenameFiles } from '../../../idea-server/src/lsp/file-renames';
import { lspFormat } from '../../../idea-server/src/lsp/formatting';
import {
  type CodeActionOffer,
  isUnavailable,
  type PlannedChange,
  type Range,
  type Unavailable,
} from '../../../server-core/host';
import { applyPlanInMemory } from './plan-in-memory';

const SLOW = 180_000; // the first request waits for tsserver to load the project; the machine is shared

const dir = mkdtempSync(join(tmpdir(), 'idea-lsp-actions-'));
const file = (name: string) => join(dir, name);
const FILES: Record<string, string> = {
  'b.ts': [
    'export function greet(name: string): string {',
    '  return `hello ${name}`;',
    '}',
    'export const PI = 3.14;',
    '',
  ].join('\n'),
  // `greet` is not imported: a quick fix adds it to the import of './b'
  'a.ts': [
    "import { PI } from './b';",
    '',
    "export const message = greet('world');",
    'export const area = PI * 2;',
    '',
  ].join('\n'),
  // two imports of one module: organize imports combines them
  'c.ts': [
    "import { PI } from './b';",
    "import { greet } from './b';",
    '',
    "export const x = PI + greet('x').length;",
    '',
  ].join('\n'),
  // an import nothing uses: organize imports removes it, as VS Code's does
  'u.ts': ["import { PI } from './b';", "import { greet } from './b';", '', "export const z = greet('u');", ''].join(
    '\n',
  ),
  // only an unused import: nothing to sort or merge, organize imports is offered all the same
  'v.ts': ["import { PI } from './b';", '', 'export const w = 1;', ''].join('\n'),
  // a function to move to a new file, an expression to extract
  'd.ts': ['export function helper(): number {', '  return 1;', '}', '', 'export const y = helper() + 40;', ''].join(
    '\n',
  ),
  // two missing names of one kind: a fix-all, resolved when applied, imports both
  'f.ts': ["export const one = greet('a');", 'export const two = PI;', ''].join('\n'),
  // formatted badly, indented by 2
  'g.ts': ['export   function   f( a:number ){', '  if (a) {', '      return a}', '  return 0', '}', ''].join('\n'),
};

let client: LspClient;
let actions: ReturnType<typeof lspCodeActions>;
const signal = new AbortController().signal;
const at = (line: number, character: number) => ({ line, character });
const range = (l: number, c: number, el = l, ec = c): Range => ({ start: at(l, c), end: at(el, ec) });

function ok<T>(x: T | Unavailable): T {
  if (isUnavailable(x)) throw new Error(x.unavailable);
  return x;
}

/** Every file of the project, with its text: what the disk holds. */
const disk = () => Object.fromEntries(readdirSync(dir).map((n) => [n, readFileSync(join(dir, n), 'utf8')]));

beforeAll(() => {
  writeFileSync(
    join(dir, 'tsconfig.json'),
    JSON.stringify({
      compilerOptions: { strict: true, target: 'ES2022', module: 'ESNext', moduleResolution: 'Bundler', noEmit: true },
    }),
  );
  for (const [name, text] of Object.entries(FILES)) writeFileSync(file(name), text);
  client = new LspClient({ rootPath: dir });
  actions = lspCodeActions(client);
});

afterAll(async () => {
  await client?.shutdown();
  rmSync(dir, { recursive: true, force: true });
}, 60_000);

const titled = (list: CodeActionOffer[], title: string) => {
  const found = list.find((a) => a.title === title);
  if (!found) throw new Error(`no action "${title}" in ${JSON.stringify(list.map((a) => a.title))}`);
  return found;
};

describe('code actions over LSP (typescript-language-server)', () => {
  it('a quick fix for the diagnostic at a position, with it; applied as a plan, nothing written', {
    timeout: SLOW,
  }, async () => {
    const before = disk();
    const list = ok(await actions.codeActions(file('a.ts'), range(2, 24), undefined, signal));
    const fix = titled(list, 'Update import from "./b"');
    expect(fix).toMatchObject({ kind: 'quickfix', isPreferred: true });
    expect(fix.disabled).toBeUndefined();
    expect(fix.diagnostics).toMatchObject([{ code: 2304, source: 'ts', message: "Cannot find name 'greet'." }]);
    const plan = await actions.collectCodeAction!(file('a.ts'), fix, signal);
    expect(plan.map((c) => [c.kind, c.filePath])).toEqual([['edit', file('a.ts')]]);
    expect(applyPlanInMemory(plan, FILES, dir)['a.ts']).toBe(FILES['a.ts']!.replace('{ PI }', '{ greet, PI }'));
    expect(disk()).toEqual(before);
  });

  it('only: organize imports, asked by its kind; combines the imports', { timeout: SLOW }, async () => {
    const list = ok(await actions.codeActions(file('c.ts'), range(0, 0), ['source.organizeImports'], signal));
    expect(list.map((a) => a.kind)).toEqual(['source.organizeImports.ts']);
    const plan = await actions.collectCodeAction!(file('c.ts'), list[0]!, signal);
    expect(applyPlanInMemory(plan, FILES, dir)['c.ts']).toBe(
      FILES['c.ts']!.replace(
        "import { PI } from './b';\nimport { greet } from './b';",
        "import { greet, PI } from './b';",
      ),
    );
    // a kind not asked for is left out
    const quick = ok(await actions.codeActions(file('a.ts'), range(2, 24), ['refactor'], signal));
    expect(quick.every((a) => a.kind.startsWith('refactor'))).toBe(true);
  });

  it("organize imports removes an unused import, as VS Code's does, and is offered for that alone", {
    timeout: SLOW,
  }, async () => {
    const list = ok(await actions.codeActions(file('u.ts'), range(0, 0), ['source.organizeImports'], signal));
    const organize = list.find((a) => a.kind === 'source.organizeImports.ts')!;
    const plan = await actions.collectCodeAction!(file('u.ts'), organize, signal);
    expect(applyPlanInMemory(plan, FILES, dir)['u.ts']).toBe(
      ["import { greet } from './b';", '', "export const z = greet('u');", ''].join('\n'),
    );
    const alone = ok(await actions.codeActions(file('v.ts'), range(0, 0), ['source'], signal));
    const offered = alone.filter((a) => a.kind === 'source.organizeImports.ts');
    expect(offered.map((a) => a.title)).toEqual(['Organize Imports']);
    const removed = await actions.collectCodeAction!(file('v.ts'), offered[0]!, signal);
    expect(applyPlanInMemory(removed, FILES, dir)['v.ts']).toBe(['', 'export const w = 1;', ''].join('\n'));
  });

  it('a fix-all is resolved when applied, after other lists: both missing imports in one edit', {
    timeout: SLOW,
  }, async () => {
    const list = ok(await actions.codeActions(file('f.ts'), range(0, 20), ['quickfix'], signal));
    const all = titled(list, 'Add all missing imports');
    // typescript-language-server forgets how to resolve what it listed at its next list
    ok(await actions.codeActions(file('a.ts'), range(2, 24), undefined, signal));
    const plan = await actions.collectCodeAction!(file('f.ts'), all, signal);
    expect(applyPlanInMemory(plan, FILES, dir)['f.ts']).toBe(`import { greet, PI } from "./b";\n\n${FILES['f.ts']}`);
  });

  it('a refactoring: extract to a constant, planned through tsserver, not run', { timeout: SLOW }, async () => {
    const before = disk();
    const list = ok(await actions.codeActions(file('d.ts'), range(4, 17, 4, 30), ['refactor.extract'], signal));
    const extract = titled(list, 'Extract to constant in enclosing scope');
    expect(extract.kind).toBe('refactor.extract.constant');
    const plan = await actions.collectCodeAction!(file('d.ts'), extract, signal);
    const after = applyPlanInMemory(plan, FILES, dir)['d.ts']!;
    expect(after).toContain('= helper() + 40;\nexport const y = ');
    expect(disk()).toEqual(before);
  });

  // H22: typescript-language-server's _typescript.applyRefactoring creates the new file on disk itself.
  it('"Move to a new file" plans the new file; nothing appears on disk', { timeout: SLOW }, async () => {
    const before = disk();
    const list = ok(await actions.codeActions(file('d.ts'), range(0, 0, 2, 1), ['refactor.move'], signal));
    const move = titled(list, 'Move to a new file');
    const plan = await actions.collectCodeAction!(file('d.ts'), move, signal);
    const created = plan.find((c) => c.kind === 'create');
    expect(created).toEqual({ kind: 'create', filePath: file('helper.ts') });
    const after = applyPlanInMemory(plan, FILES, dir);
    expect(after['helper.ts']).toContain('export function helper(): number {');
    expect(after['d.ts']).toContain('import { helper } from "./helper";');
    expect(existsSync(file('helper.ts'))).toBe(false);
    expect(disk()).toEqual(before);
  });

  it('a file no server is configured for: unavailable, kind none', async () => {
    writeFileSync(file('notes.txt'), 'x\n');
    const answer = await actions.codeActions(file('notes.txt'), range(0, 0), undefined, signal);
    expect(isUnavailable(answer) && answer.kind).toBe('none');
  });
});

describe('formatting over LSP', () => {
  it("the file's own indentation (2), or the tab size given", { timeout: SLOW }, async () => {
    const { format } = lspFormat(client);
    const detected = applyPlanInMemory(
      [{ kind: 'edit', filePath: file('g.ts'), edits: ok(await format(file('g.ts'), undefined, {}, signal)) }],
      FILES,
      dir,
    )['g.ts'];
    expect(detected).toBe(
      ['export function f(a: number) {', '  if (a) {', '    return a', '  }', '  return 0', '}', ''].join('\n'),
    );
    const four = ok(await format(file('g.ts'), undefined, { tabSize: 4 }, signal));
    expect(applyPlanInMemory([{ kind: 'edit', filePath: file('g.ts'), edits: four }], FILES, dir)['g.ts']).toContain(
      '\n    if (a) {\n        return a\n',
    );
    // a range: only its lines change
    const ranged = ok(await format(file('g.ts'), range(0, 0, 0, 33), {}, signal));
    const after = applyPlanInMemory([{ kind: 'edit', filePath: file('g.ts'), edits: ranged }], FILES, dir)['g.ts']!;
    expect(after.split('\n').slice(1)).toEqual(FILES['g.ts']!.split('\n').slice(1));
    expect(after.split('\n')[0]).toBe('export function f(a: number) {');
  });
});

describe('a file about to move: the importers, over LSP', () => {
  it("b.ts → lib/b.ts: every import of './b' planned as './lib/b'", { timeout: SLOW }, async () => {
    const { willRenameFiles } = lspWillRenameFiles(client);
    mkdirSync(file('lib'), { recursive: true });
    const plan = ok(await willRenameFiles([{ oldPath: file('b.ts'), newPath: file('lib/b.ts') }], signal));
    const after = applyPlanInMemory(plan, FILES, dir);
    for (const name of ['a.ts', 'c.ts']) expect(after[name]).toBe(FILES[name]!.replaceAll("'./b'", "'./lib/b'"));
    expect(plan.every((c: PlannedChange) => c.kind === 'edit')).toBe(true);
    expect(existsSync(file('b.ts'))).toBe(true);
  });
});
