import { describe, expect, it } from 'vitest';
import { type Invocation, parseArgs, UsageError } from '../../cli/src/args';
import { checkParams } from '../../cli/src/validate';
import { FRAMES } from '../../generated/v0.1.6/frames';
import { CMDS } from './spec';

const parse = (argv: string[]) => parseArgs(argv, CMDS);
function params(argv: string[]): Record<string, unknown> {
  const inv = parse(argv);
  if (inv.kind !== 'topic') throw new Error(`not a topic invocation: ${inv.kind}`);
  return inv.params;
}
function usage(argv: string[]): string {
  try {
    const inv = parse(argv);
    if (inv.kind === 'topic') checkParams(FRAMES.params.get(inv.command.topic), inv.params, inv.command);
  } catch (e) {
    if (e instanceof UsageError) return e.message;
    throw e;
  }
  return 'no usage error';
}

describe('parseArgs', () => {
  it('positionals and flags make the same params; values typed by the schema', () => {
    expect(params(['find', 'TODO'])).toEqual({ pattern: 'TODO' });
    expect(params(['edit/find', '--pattern', 'TODO', '--include=src/**', '--is-regex'])).toEqual({
      pattern: 'TODO',
      include: 'src/**',
      isRegex: true,
    });
    expect(params(['definition', 'src/a.ts', '4', '10'])).toEqual({ filePath: 'src/a.ts', line: 4, character: 10 });
    expect(params(['nav', 'definition', '--line', '4', '--file-path', 'a.ts', '--character', '0'])).toEqual({
      filePath: 'a.ts',
      line: 4,
      character: 0,
    });
    expect(params(['history', 'list', 'a.ts', '--max-count', '5'])).toEqual({ filePath: 'a.ts', maxCount: 5 });
    expect(params(['references', 'a.ts', '1', '2', '--no-include-declaration'])).toEqual({
      filePath: 'a.ts',
      line: 1,
      character: 2,
      includeDeclaration: false,
    });
    expect(params(['references', 'a.ts', '1', '2', '--include-declaration=false'])).toEqual({
      filePath: 'a.ts',
      line: 1,
      character: 2,
      includeDeclaration: false,
    });
    expect(params(['find', '--', '--not-a-flag'])).toEqual({ pattern: '--not-a-flag' });
  });

  it('a repeatable flag collects an array; once, it is sent as the schema allows', () => {
    expect(params(['diag', 'list', '--file-path', 'a.ts', '--file-path', 'b.ts'])).toEqual({
      filePath: ['a.ts', 'b.ts'],
    });
    expect(params(['diag', 'list', '--file-path', 'a.ts', '--severity', 'error'])).toEqual({
      filePath: 'a.ts',
      severity: 'error',
    });
    expect(params(['diag', 'list'])).toEqual({});
  });

  it('files are arguments wherever the topic has a file param: an optional one last, all the remaining words when it takes a list', () => {
    expect(params(['diag', 'list', 'src/app.ts'])).toEqual({ filePath: 'src/app.ts' });
    expect(params(['diag', 'list', 'a.ts', 'b.ts', '--severity', 'error'])).toEqual({
      filePath: ['a.ts', 'b.ts'],
      severity: 'error',
    });
    expect(params(['symbols', 'src/app.ts'])).toEqual({ filePath: 'src/app.ts' });
    expect(usage(['diag', 'list', 'a.ts', '--file-path', 'b.ts'])).toBe(
      'FILE_PATH given both as an argument and as --file-path',
    );
    // The file params are found by the spec's FilePath type, not by name: every topic with one takes it as an argument.
    for (const c of CMDS)
      for (const p of c.params.filter((q) => q.file && q.type === 'string'))
        expect(c.positionals, `${c.name} ${p.name}`).toContain(p);
  });

  it("grep's spellings: -E/--regex for --is-regex, -i/--ignore-case for --no-is-case-sensitive; other unknown flags are named, with the flag meant", () => {
    expect(params(['find', '-E', 'a.b'])).toEqual({ pattern: 'a.b', isRegex: true });
    expect(params(['find', 'a.b', '--regex'])).toEqual({ pattern: 'a.b', isRegex: true });
    expect(params(['replace', 'a', 'b', '-E', '-i'])).toEqual({
      pattern: 'a',
      replacement: 'b',
      isRegex: true,
      isCaseSensitive: false,
    });
    expect(params(['find', 'x', '--ignore-case'])).toEqual({ pattern: 'x', isCaseSensitive: false });
    expect(params(['find', '--include', '-E', 'x'])).toEqual({ pattern: 'x', include: '-E' }); // a flag's value stays a value
    expect(params(['definition', 'a.ts', '1', '2'])).toEqual({ filePath: 'a.ts', line: 1, character: 2 });
    expect(usage(['find', 'x', '--regexp'])).toBe("unknown flag --regexp for 'edit/find' (did you mean --is-regex?)");
    expect(usage(['find', '--case-sensitive', 'x'])).toBe(
      "unknown flag --case-sensitive for 'edit/find' (did you mean --is-case-sensitive?)",
    );
    expect(usage(['symbols', 'a.ts', '-E'])).toBe(
      "'nav/symbols' takes at most 1 argument(s) (FILE_PATH); unexpected: -E",
    ); // no isRegex there
  });

  it('global flags anywhere, before or after the command', () => {
    const inv = parse([
      '--url',
      'ws://127.0.0.1:7201',
      '--json',
      'find',
      'x',
      '--timeout',
      '500',
      '--no-color',
      '--token=t',
    ]) as Extract<Invocation, { kind: 'topic' }>;
    expect(inv.command.name).toBe('edit/find');
    expect(inv.globals).toEqual({ json: true, url: 'ws://127.0.0.1:7201', timeoutMs: 500, color: false, token: 't' });
    expect(inv.params).toEqual({ pattern: 'x' });
  });

  it('call, servers, help, version', () => {
    expect(parse(['call', '/app/vscode/edit/find', '--params', '{"pattern":"x"}'])).toMatchObject({
      kind: 'call',
      topic: '/app/vscode/edit/find',
      params: { pattern: 'x' },
    });
    expect(parse(['call', 'history/list', '--params', '{}'])).toMatchObject({
      kind: 'call',
      topic: '/app/vscode/history/list',
    });
    expect(parse(['call', '/app/vscode/new/topic'])).toMatchObject({
      kind: 'call',
      topic: '/app/vscode/new/topic',
      params: {},
    });
    expect(parse(['servers', '--json'])).toMatchObject({ kind: 'servers', globals: { json: true } });
    expect(parse([])).toMatchObject({ kind: 'help' });
    expect(parse(['history', 'diff', '--help'])).toMatchObject({ kind: 'help', command: { name: 'history/diff' } });
    expect(parse(['help', 'symbols'])).toMatchObject({ kind: 'help', command: { name: 'nav/symbols' } });
    expect(parse(['--version'])).toMatchObject({ kind: 'version' });
  });

  it('usage errors name the flag or argument', () => {
    expect(usage(['history', 'list', 'a.ts', '--max-count', 'x'])).toBe("--max-count expects an integer, got 'x'");
    expect(usage(['history', 'list', 'a.ts', '--max-count', '0'])).toBe('--max-count must be ≥ 1, got 0');
    expect(usage(['definition', 'a.ts', '1.5', '0'])).toBe("LINE expects an integer, got '1.5'");
    expect(usage(['diag', 'list', '--severity', 'fatal'])).toBe(
      "--severity must be one of error, warning, information, hint, all, got 'fatal'",
    );
    expect(usage(['find', 'x', '--is-regex=maybe'])).toBe("--is-regex is true or false, got 'maybe'");
    expect(usage(['find', 'x', '--frobnicate', '1'])).toBe("unknown flag --frobnicate for 'edit/find'");
    expect(usage(['find', 'x', 'y'])).toBe("'edit/find' takes at most 1 argument(s) (PATTERN); unexpected: y");
    expect(usage(['find', 'x', '--pattern', 'y'])).toBe('PATTERN given both as an argument and as --pattern');
    expect(usage(['find', 'x', '--include', 'a', '--include', 'b'])).toBe('--include given twice');
    expect(usage(['find', '--url'])).toBe('--url needs a value');
    expect(usage(['frobnicate'])).toBe("unknown command 'frobnicate' (idea --help lists them)");
    expect(usage(['history'])).toBe("unknown command 'history' (idea --help lists them)");
    expect(usage(['call', 'x', '--params', '{'])).toMatch(/^--params is not JSON: /);
    expect(usage(['call', 'x', '--params', '[]'])).toBe('--params must be a JSON object');
    expect(usage(['find', 'x', '--timeout', '0'])).toBe("--timeout expects milliseconds (a positive integer), got '0'");
  });

  it('the schema check before sending names the flag: required, minLength, anyOf', () => {
    expect(usage(['find'])).toBe('missing PATTERN (--pattern)');
    expect(usage(['find', ''])).toBe('PATTERN (--pattern) must NOT have fewer than 1 characters');
    expect(usage(['localhistory', 'diff', 'a.ts'])).toBe('give --from-id or --to-id');
    expect(usage(['history', 'diff', 'a.ts', '--from-ref', '-x'])).toMatch(/^--from-ref must match pattern/);
    expect(usage(['localhistory', 'diff', 'a.ts', '--to-id', 'AbCd.ts'])).toBe('no usage error');
  });
});

describe('flags anywhere (issue 34)', () => {
  it('global flags before the command are the same as after it', () => {
    for (const argv of [
      ['--headless', 'symbols', 'src/index.ts'],
      ['--headless', '--json', 'symbols', 'src/index.ts'],
      ['symbols', 'src/index.ts', '--json', '--headless'],
      ['--url', 'ws://127.0.0.1:7200', '--headless', 'symbols', 'src/index.ts'],
      ['--timeout=500', '--headless', 'symbols', 'src/index.ts'],
    ]) {
      const inv = parse(argv);
      expect(inv.kind, argv.join(' ')).toBe('topic');
      if (inv.kind === 'topic') expect(inv.params, argv.join(' ')).toEqual({ filePath: 'src/index.ts' });
    }
    const inv = parse(['--headless', '--json', 'hover', 'src/util.ts:2:17']);
    expect(inv.kind === 'topic' && inv.globals).toMatchObject({ headless: true, json: true });
  });

  it("a command's boolean flag before the command never takes the command as its value", () => {
    const before = parse(['--dry-run', 'rename', 'src/a.ts:3:17', 'sum']);
    const after = parse(['rename', 'src/a.ts:3:17', 'sum', '--dry-run']);
    expect(before.kind).toBe('topic');
    expect(before).toEqual(after);
    // A value flag before the command still takes its value.
    expect(params(['--max-count', '5', 'history', 'list', 'a.ts'])).toEqual({ filePath: 'a.ts', maxCount: 5 });
    // `--` ends the flags: what follows is a word, even when it looks like one.
    expect(params(['--json', 'find', '--', '--dry-run'])).toEqual({ pattern: '--dry-run' });
  });
});
