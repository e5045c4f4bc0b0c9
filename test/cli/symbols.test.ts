// The commands of v0.1.8's symbols, derived from its spec: a name path wherever a position is taken
// (FILE LINE CHARACTER, FILE:LINE:COL, FILE NAME_PATH, NAME_PATH alone), `idea symbol NAME_PATH --body`,
// `idea symbols --workspace QUERY`, `idea callers NAME_PATH` / `idea callees`, `idea def`.
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { parseArgs, UsageError } from '../../cli/src/args';
import { commandsFromSpec, findCommand } from '../../cli/src/commands';
import { commandHelp, mainHelp } from '../../cli/src/help';
import { loadSpecDir } from '../../cli/src/spec';
import { checkParams } from '../../cli/src/validate';
import { FRAMES } from '../../generated/v0.1.8/frames';
import { REPO, CMDS as SERVED } from './spec';

const SPEC = loadSpecDir(join(REPO, 'spec', 'v0.1.8'));
const CMDS = commandsFromSpec(SPEC);
const V017 = commandsFromSpec(loadSpecDir(join(REPO, 'spec', 'v0.1.7')));

function invoked(argv: string[]) {
  const inv = parseArgs(argv, CMDS);
  if (inv.kind !== 'topic') throw new Error(`not a topic invocation: ${inv.kind}`);
  return inv;
}
const params = (argv: string[]) => invoked(argv).params;
const topicOf = (argv: string[]) => invoked(argv).command.topic.replace('/app/vscode/', '');
/** The usage error of `argv`, parse and schema check both (as main.ts runs them), or 'no usage error'. */
function usage(argv: string[]): string {
  try {
    const inv = parseArgs(argv, CMDS);
    if (inv.kind === 'topic') checkParams(FRAMES.params.get(inv.command.topic), inv.params, inv.command);
  } catch (e) {
    if (e instanceof UsageError) return e.message;
    throw e;
  }
  return 'no usage error';
}

const POSITION_TOPICS = [
  'nav/definition',
  'nav/references',
  'nav/hover',
  'nav/typeDefinition',
  'nav/implementation',
  'edit/rename',
  'nav/referencingSymbols',
  'nav/callHierarchy',
  'edit/codeActions',
];

describe('v0.1.8 commands: symbols by name path', () => {
  it('every topic that takes a position (clause T44) takes a name path in its place, read from the schema', () => {
    const located = CMDS.filter((c) => c.locator && !c.fixed).map((c) => c.name);
    expect(located.sort()).toEqual([...POSITION_TOPICS].sort());
    for (const c of CMDS.filter((x) => x.locator)) {
      expect(c.locator!.namePath.flag).toBe('--name-path');
      // LINE CHARACTER follow the file, as when they were required: a v0.1.7 command line still works.
      expect(c.positionals.slice(0, 3).map((p) => p.name)).toEqual(['filePath', 'line', 'character']);
      expect(c.positionAt).toBe(true);
    }
    expect(V017.some((c) => c.locator)).toBe(false); // before 0.1.8: no name paths
  });

  it('shorter names (def, refs, symbol), presets (callers, callees) and the switch of symbols, where the spec has them', () => {
    const name = (w: string[]) => findCommand(CMDS, w)?.command;
    expect(name(['def'])?.name).toBe('nav/definition');
    expect(name(['refs'])?.name).toBe('nav/references');
    expect(name(['symbol'])?.name).toBe('nav/findSymbol');
    expect(name(['symbols'])?.name).toBe('nav/symbols');
    expect(name(['callers'])).toMatchObject({ name: 'nav/callHierarchy', fixed: { direction: 'incoming' } });
    expect(name(['callees'])).toMatchObject({ name: 'nav/callHierarchy', fixed: { direction: 'outgoing' } });
    // The topic's own names find the topic, never a preset.
    expect(name(['nav', 'callHierarchy'])?.fixed).toBeUndefined();
    expect(name(['callHierarchy'])?.fixed).toBeUndefined();
    expect(name(['symbols'])?.switchTo).toEqual({
      flag: '--workspace',
      name: 'nav/workspaceSymbols',
      action: 'workspaceSymbols',
      words: 'QUERY',
    });
    // v0.1.7 has no findSymbol, callHierarchy or workspaceSymbols: no symbol, callers, switch.
    expect(findCommand(V017, ['def'])?.command.name).toBe('nav/definition');
    expect(findCommand(V017, ['symbol'])).toBeUndefined();
    expect(findCommand(V017, ['callers'])).toBeUndefined();
    expect(findCommand(V017, ['symbols'])?.command.switchTo).toBeUndefined();
  });

  it('a position is FILE LINE CHARACTER, FILE:LINE:COL (1-based), FILE NAME_PATH or NAME_PATH alone', () => {
    expect(params(['def', 'src/a.ts', '4', '10'])).toEqual({ filePath: 'src/a.ts', line: 4, character: 10 });
    expect(params(['def', 'src/a.ts:5:11'])).toEqual({ filePath: 'src/a.ts', line: 4, character: 10 });
    expect(params(['def', 'src/app.ts', 'Hono/route'])).toEqual({ filePath: 'src/app.ts', namePath: 'Hono/route' });
    expect(params(['definition', 'Hono/route'])).toEqual({ namePath: 'Hono/route' });
    expect(params(['hover', 'src/a.ts', '/Shape/area[1]'])).toEqual({
      filePath: 'src/a.ts',
      namePath: '/Shape/area[1]',
    });
    expect(params(['references', 'a.ts', 'x', '--include-declaration'])).toEqual({
      filePath: 'a.ts',
      namePath: 'x',
      includeDeclaration: true,
    });
    // With the required words after the position: rename's NEW_NAME.
    expect(params(['rename', 'a.ts', '3', '16', 'sum'])).toEqual({
      filePath: 'a.ts',
      line: 3,
      character: 16,
      newName: 'sum',
    });
    expect(params(['rename', 'a.ts:4:17', 'sum'])).toEqual({
      filePath: 'a.ts',
      line: 3,
      character: 16,
      newName: 'sum',
    });
    expect(params(['rename', 'src/a.ts', 'Circle/area', 'surface', '--dry-run'])).toEqual({
      filePath: 'src/a.ts',
      namePath: 'Circle/area',
      newName: 'surface',
      dryRun: true,
    });
    expect(params(['rename', 'Circle/area', 'surface'])).toEqual({ namePath: 'Circle/area', newName: 'surface' });
    // Unicode and escapes pass as written: the server's parser judges them (clause T43).
    expect(params(['def', 'a.ts', 'Ünïcode/a\\/b[0]'])).toEqual({ filePath: 'a.ts', namePath: 'Ünïcode/a\\/b[0]' });
  });

  it('a part of the position given as a flag: the words are read as always', () => {
    expect(params(['def', 'a.ts', '--line', '3', '--character', '4'])).toEqual({
      filePath: 'a.ts',
      line: 3,
      character: 4,
    });
    expect(params(['def', 'a.ts', '--name-path', '7'])).toEqual({ filePath: 'a.ts', namePath: '7' });
    expect(params(['def', '--name-path', 'Circle/area'])).toEqual({ namePath: 'Circle/area' });
  });

  it('mistakes in the position are usage errors that say the forms', () => {
    expect(usage(['def', 'a.ts', '5'])).toBe(
      '5 stands where NAME_PATH goes, but it is a number: give FILE_PATH LINE CHARACTER, or FILE_PATH:LINE:COL, or FILE_PATH NAME_PATH, or NAME_PATH (a symbol named 5: --name-path 5)',
    );
    expect(usage(['rename', 'a.ts', '3', 'x'])).toMatch(
      /^3 stands where NAME_PATH goes.*FILE_PATH LINE CHARACTER NEW_NAME,/,
    );
    expect(usage(['def', 'a.ts:5'])).toMatch(/^a\.ts:5 has a line but no column: give /);
    expect(usage(['def', 'a.ts', '1', '2', '--name-path', 'x'])).toMatch(
      /^give either LINE CHARACTER or NAME_PATH, not both: a position, as FILE_PATH LINE CHARACTER, /,
    );
    expect(usage(['def', 'a.ts', '--line', '1'])).toMatch(/^give a position, as FILE_PATH LINE CHARACTER, or /);
    expect(usage(['def', 'a.ts', '1', '2', '3', '4'])).toMatch(/takes at most 3 argument\(s\)/);
    expect(usage(['def', 'src/a.ts', 'Hono/route'])).toBe('no usage error');
    // Bounded by the schema before anything is sent: a name path longer than any file, an absurd depth.
    expect(usage(['def', 'a.ts', 'x'.repeat(1025)])).toBe(
      'NAME_PATH (--name-path) must NOT have more than 1024 characters',
    );
    expect(usage(['def', 'a.ts', 'x'.repeat(1024)])).toBe('no usage error');
    expect(usage(['callers', 'a.ts', 'f', '--max-results', '1000000'])).toMatch(/^--max-results must be <= 2000/);
    expect(usage(['def', 'a.ts', ''])).toMatch(/^NAME_PATH \(--name-path\) must NOT have fewer than 1 characters/);
    expect(usage(['def', 'a.ts:0:1'])).toMatch(/1 or more/);
  });

  it('idea symbol NAME_PATH [FILE_OR_FOLDER] --body: nav/findSymbol', () => {
    expect(topicOf(['symbol', 'Hono/route', '--body'])).toBe('nav/findSymbol');
    expect(params(['symbol', 'Hono/route', '--body'])).toEqual({ namePath: 'Hono/route', includeBody: true });
    expect(params(['symbol', 'Circle', 'src', '--depth', '1', '--kind', 'class', '--kind', 'method'])).toEqual({
      namePath: 'Circle',
      filePath: 'src',
      depth: 1,
      includeKinds: ['class', 'method'],
    });
    expect(params(['symbol', 'are', '--substring', '--no-include-body'])).toEqual({
      namePath: 'are',
      substring: true,
      includeBody: false,
    });
    expect(usage(['symbol', 'x', '--kind', 'klass'])).toMatch(/--include-kinds must be one of file, module/);
    expect(usage(['symbol', 'x', '--depth', '99'])).toMatch(/--depth must be <= 10/);
    expect(usage(['symbol', 'x', '--max-answer-chars', '10'])).toMatch(/--max-answer-chars must be ≥ 1000, got 10/);
  });

  it('idea symbols --workspace QUERY is nav/workspaceSymbols; idea symbols FILE stays the outline', () => {
    expect(topicOf(['symbols', '--workspace', 'Shape'])).toBe('nav/workspaceSymbols');
    expect(params(['symbols', '--workspace', 'Shape', '--kind', 'class'])).toEqual({
      query: 'Shape',
      kinds: ['class'],
    });
    expect(params(['--workspace', 'symbols', 'Shape'])).toEqual({ query: 'Shape' });
    expect(params(['symbols', 'Shape', '--workspace', '--max-results', '5'])).toEqual({
      query: 'Shape',
      maxResults: 5,
    });
    expect(topicOf(['symbols', 'src/a.ts'])).toBe('nav/symbols');
    expect(params(['symbols', 'src/a.ts'])).toEqual({ filePath: 'src/a.ts' });
    // After --, it is a word.
    expect(params(['symbols', '--', '--workspace'])).toEqual({ filePath: '--workspace' });
    // The flag belongs to symbols alone.
    expect(usage(['find', 'x', '--workspace'])).toMatch(/^unknown flag --workspace for 'edit\/find'/);
  });

  it('idea callers / callees NAME_PATH: nav/callHierarchy with the direction fixed', () => {
    expect(params(['callers', 'Hono/route'])).toEqual({ namePath: 'Hono/route', direction: 'incoming' });
    expect(params(['callees', 'src/a.ts', 'Circle/scale', '--depth', '2'])).toEqual({
      filePath: 'src/a.ts',
      namePath: 'Circle/scale',
      depth: 2,
      direction: 'outgoing',
    });
    expect(params(['callers', 'src/a.ts:7:3'])).toEqual({
      filePath: 'src/a.ts',
      line: 6,
      character: 2,
      direction: 'incoming',
    });
    expect(usage(['callers', 'x', '--direction', 'outgoing'])).toMatch(
      /^unknown flag --direction for 'nav\/callHierarchy'/,
    );
    // The topic itself takes the direction as a word after the position.
    expect(params(['nav', 'callHierarchy', 'a.ts', 'f', 'outgoing'])).toEqual({
      filePath: 'a.ts',
      namePath: 'f',
      direction: 'outgoing',
    });
    expect(usage(['callers', 'a.ts', 'f', '--depth', '6'])).toMatch(/--depth must be <= 5/);
  });

  it('help says the forms and the shorter names', () => {
    const c = (n: string[]) => findCommand(CMDS, n)!.command;
    expect(
      commandHelp(c(['def']))
        .split('\n')
        .slice(0, 5),
    ).toEqual([
      'usage: idea definition FILE_PATH LINE CHARACTER [flags]',
      '       idea definition FILE_PATH:LINE:COL [flags]         (1-based, as text output prints it)',
      '       idea definition FILE_PATH NAME_PATH [flags]',
      '       idea definition NAME_PATH [flags]                  (the file: the one symbol of the workspace it names)',
      '       idea nav/definition …   (topic /app/vscode/nav/definition)',
    ]);
    expect(commandHelp(c(['def']))).toContain('also: idea def');
    expect(commandHelp(c(['callers']))).toMatch(/^usage: idea callers FILE_PATH LINE CHARACTER \[flags\]/);
    expect(commandHelp(c(['callers']))).toContain('= idea nav callHierarchy … --direction incoming');
    expect(commandHelp(c(['symbols']))).toContain('idea symbols --workspace QUERY = idea workspaceSymbols QUERY');
    expect(commandHelp(c(['symbol']))).toMatch(/--include-kinds <file\|.*\[--kind = --include-kinds; repeatable\]/);
    const main = mainHelp(CMDS, SPEC.version, SPEC.events);
    expect(main).toMatch(/\n {2}callers FILE_PATH LINE CHARACTER \[flags\] +Who calls a function/);
    expect(main).toContain('NAME_PATH');
  });

  it('the served version parses as before where it has no name paths', () => {
    // (Whatever is served: a v0.1.7 command line means the same.)
    const inv = parseArgs(['definition', 'a.ts', '1', '2'], SERVED);
    expect(inv.kind === 'topic' && inv.params).toEqual({ filePath: 'a.ts', line: 1, character: 2 });
  });
});
