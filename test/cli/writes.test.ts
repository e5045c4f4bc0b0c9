// The part-2 commands' parsing, pure: `idea apply PARAMS.json` (the file read later, by main.ts), `idea
// fix` (where, which action, whether to write), the choice of an action among those listed, and the
// params file's mistakes named by file and JSON path. The commands as a process: edits.system.test.ts.
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { parseArgs, UsageError } from '../../cli/src/args';
import { chooseAction, FixError, withLineEnd } from '../../cli/src/fix';
import { checkParamsFile, readParamsFile } from '../../cli/src/params-file';
import { FRAMES } from '../../generated/current';
import { CMDS } from './spec';

const parse = (argv: string[]) => parseArgs(argv, CMDS);
function usage(argv: string[]): string {
  try {
    parse(argv);
  } catch (e) {
    if (e instanceof UsageError) return e.message;
    throw e;
  }
  return 'no usage error';
}
const fixOf = (argv: string[]) => {
  const inv = parse(argv);
  if (inv.kind !== 'fix') throw new Error(`not idea fix: ${inv.kind}`);
  return inv.fix;
};

describe('idea apply PARAMS.json', () => {
  it('takes the file as its one argument, the flags beside it', () => {
    const inv = parse(['apply', 'edit.json', '--dry-run']);
    expect(inv).toMatchObject({ kind: 'topic', paramsFile: 'edit.json', params: { dryRun: true } });
    expect(parse(['--json', 'apply', '-'])).toMatchObject({ kind: 'topic', paramsFile: '-', params: {} });
    expect(usage(['apply', 'a.json', 'b.json'])).toBe(
      "'apply' takes one argument, the params file (PARAMS.json|-); unexpected: b.json",
    );
    // Without a file, the flags as always.
    expect(parse(['apply', '--changes', '[]'])).toMatchObject({ kind: 'topic', params: { changes: [] } });
  });

  const tmp = mkdtempSync(join(tmpdir(), 'idea-params-file-'));
  afterAll(() => rmSync(tmp, { recursive: true, force: true }));
  const apply = CMDS.find((c) => c.name === 'edit/apply')!;
  const check = (params: Record<string, unknown>, flags: Record<string, unknown> = {}) => {
    try {
      checkParamsFile(FRAMES.params.get(apply.topic), { ...params, ...flags }, flags, 'edit.json', apply);
    } catch (e) {
      if (e instanceof UsageError) return e.message;
      throw e;
    }
    return 'no usage error';
  };

  it('reads an object, or the list of changes alone; anything else is named', async () => {
    writeFileSync(join(tmp, 'list.json'), '[{"kind":"delete","filePath":"a.ts"}]');
    expect(await readParamsFile('list.json', apply, { cwd: tmp })).toEqual({
      changes: [{ kind: 'delete', filePath: 'a.ts' }],
    });
    expect(await readParamsFile('-', apply, { cwd: tmp, stdin: async () => '{"changes":[],"label":"x"}' })).toEqual({
      changes: [],
      label: 'x',
    });
    writeFileSync(join(tmp, 'bad.json'), '{\n  "changes": [\n    {"kind": "edit",}\n  ]\n}\n');
    await expect(readParamsFile('bad.json', apply, { cwd: tmp })).rejects.toThrow(/^bad\.json is not JSON/);
    await expect(readParamsFile('-', apply, { cwd: tmp, stdin: async () => '3' })).rejects.toThrow(
      /^stdin must hold a JSON object \(the params of \/app\/vscode\/edit\/apply\), got number$/,
    );
    await expect(readParamsFile('nope.json', apply, { cwd: tmp })).rejects.toThrow(/^cannot read nope\.json: ENOENT/);
  });

  it('names a mistake by the file and its JSON path, or by the flag when a flag gave it', () => {
    const edit = (e: Record<string, unknown>) => ({ changes: [{ kind: 'edit', filePath: 'a.ts', edits: [e] }] });
    expect(check(edit({ line: 'x', character: 0, endLine: 0, endCharacter: 0, newText: '' }))).toBe(
      'edit.json: $.changes[0].edits[0].line must be integer',
    );
    expect(check(edit({ namePath: 'A', operation: 'swap', newText: '' }))).toBe(
      'edit.json: $.changes[0].edits[0].operation must be one of "replace", "insertBefore", "insertAfter", "delete"',
    );
    expect(check({ changes: [] })).toBe('edit.json: $.changes must NOT have fewer than 1 items');
    expect(check({ changes: [{ kind: 'delete', filePath: 'a.ts' }] }, { diagnosticsWaitMs: -1 })).toMatch(
      /^--diagnostics-wait-ms must be >= 0/,
    );
    expect(check({ changes: [{ kind: 'delete', filePath: 'a.ts' }] })).toBe('no usage error');
  });
});

describe('idea fix', () => {
  it('FILE:LINE is the whole line; FILE:LINE:COL a position; FILE NAME_PATH a symbol; FILE alone its start', () => {
    expect(fixOf(['fix', 'src/a.ts:3'])).toMatchObject({
      listParams: { filePath: 'src/a.ts', line: 2, character: 0 },
      wholeLine: true,
    });
    expect(fixOf(['fix', 'src/a.ts:3:1']).wholeLine).toBeUndefined();
    expect(fixOf(['fix', 'src/a.ts:3:5']).listParams).toEqual({ filePath: 'src/a.ts', line: 2, character: 4 });
    expect(fixOf(['fix', 'src/a.ts', 'Circle/area']).listParams).toEqual({
      filePath: 'src/a.ts',
      namePath: 'Circle/area',
    });
    expect(fixOf(['fix', 'src/a.ts', '--only', 'source.organizeImports']).listParams).toEqual({
      filePath: 'src/a.ts',
      line: 0,
      character: 0,
      only: ['source.organizeImports'],
    });
  });

  it('a choice, --first, --yes; without --yes a dry run; the apply flags passed on', () => {
    const f = fixOf(['fix', 'src/a.ts', 'Circle/area', '2', '--yes', '--diagnostics']);
    expect(f).toMatchObject({ choice: { word: '2' }, yes: true, applyParams: { diagnostics: true } });
    expect(fixOf(['--json', 'fix', 'src/a.ts:3', '--first', '-y'])).toMatchObject({
      choice: { first: true },
      yes: true,
    });
    expect(fixOf(['fix', 'src/a.ts:3', 'quickfix']).yes).toBe(false);
    expect(fixOf(['fix', 'src/a.ts:3']).choice).toBeUndefined();
  });

  it('refuses what it cannot read', () => {
    expect(usage(['fix'])).toMatch(/^no file given \(usage: idea fix FILE/);
    expect(usage(['fix', 'src/a.ts:0'])).toMatch(/^the line and column in src\/a\.ts:0 are 1-based/);
    expect(usage(['fix', 'src/a.ts:3', '--yes'])).toMatch(/^--yes applies the action chosen/);
    expect(usage(['fix', 'src/a.ts:3', '1', '--first'])).toMatch(/^--first and 1 both choose/);
    expect(usage(['fix', 'src/a.ts:3', '1', '2'])).toMatch(/^unexpected: 2/);
    expect(usage(['fix', 'src/a.ts:3', '--frist'])).toMatch(/^unknown flag --frist for 'fix'/);
  });

  it("the whole line ends where the file's line does (UTF-16 units); no file: the line's start alone", async () => {
    const dir = mkdtempSync(join(tmpdir(), 'idea-fix-line-'));
    try {
      writeFileSync(join(dir, 'a.ts'), 'const a = 1;\r\nconst é𝒳 = 2;\n\n');
      const at = (line: number) => withLineEnd({ filePath: 'a.ts', line, character: 0 }, dir);
      expect(await at(0)).toEqual({ filePath: 'a.ts', line: 0, character: 0, endLine: 0, endCharacter: 12 });
      expect(await at(1)).toMatchObject({ endLine: 1, endCharacter: 14 }); // 𝒳 is two UTF-16 units
      expect(await at(2)).toEqual({ filePath: 'a.ts', line: 2, character: 0 }); // empty: nothing to span
      expect(await at(9)).toEqual({ filePath: 'a.ts', line: 9, character: 0 }); // the server says it is past the end
      expect(await withLineEnd({ filePath: 'none.ts', line: 0, character: 0 }, dir)).toEqual({
        filePath: 'none.ts',
        line: 0,
        character: 0,
      });
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  const actions = [
    { id: 'ca-1-a', title: 'Add import from "./shapes"', kind: 'quickfix' },
    { id: 'ca-2-b', title: 'Remove unused', kind: 'quickfix' },
    { id: 'ca-3-c', title: 'Organize Imports', kind: 'source.organizeImports.ts' },
  ];
  it('chooses by number (1-based), id, kind or title; none or several is an error listing them', () => {
    expect(chooseAction(actions, { word: '2' }).id).toBe('ca-2-b');
    expect(chooseAction(actions, { first: true }).id).toBe('ca-1-a');
    expect(chooseAction(actions, { word: 'ca-3-c' }).id).toBe('ca-3-c');
    expect(chooseAction(actions, { word: 'source.organizeImports.ts' }).id).toBe('ca-3-c');
    expect(chooseAction(actions, { word: 'organize imports' }).id).toBe('ca-3-c');
    expect(() => chooseAction(actions, { word: '4' })).toThrow(/^there is no action 4: 3 actions: 1\. Add import/);
    expect(() => chooseAction(actions, { word: 'quickfix' })).toThrow(/^'quickfix' names 2 actions: .*give its number/);
    expect(() => chooseAction(actions, { word: 'refactor' })).toThrow(FixError);
    expect(() => chooseAction([], { first: true })).toThrow(/^no code actions here to choose from$/);
  });
});
