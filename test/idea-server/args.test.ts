import { describe, expect, it } from 'vitest';
import { MIN_TOKEN_LENGTH, parseServerArgs, USAGE, UsageError } from '../../idea-server/src/args';

const parse = (...argv: string[]) => parseServerArgs(argv, {});
const usage = (argv: string[], env: NodeJS.ProcessEnv = {}) => {
  try {
    parseServerArgs(argv, env);
  } catch (e) {
    expect(e).toBeInstanceOf(UsageError);
    return (e as Error).message;
  }
  throw new Error(`no usage error for ${argv.join(' ')}`);
};

describe('idea-server arguments', () => {
  it('takes the workspace, port, language servers, token and switches, in both spellings', () => {
    const a = parse(
      '--workspace',
      'w',
      '--port=0',
      '--lsp',
      'python=pyright-langserver --stdio',
      '--lsp=go=gopls',
      '--token',
      't'.repeat(16),
      '--no-auth',
      '--history-dir',
      'h',
      '--no-registry',
    );
    expect(a).toMatchObject({ workspace: 'w', port: 0, token: 't'.repeat(16), auth: false, historyDir: 'h' });
    expect(a.register).toBe(false);
    expect(a.lsp.map((c) => [c.language, c.command, c.args])).toEqual([
      ['python', 'pyright-langserver', ['--stdio']],
      ['go', 'gopls', []],
    ]);
    expect(parse('--workspace', 'w')).toMatchObject({ auth: true, register: true, writeSettings: false, lsp: [] });
    expect(parse('--workspace', 'w', '--write-settings').writeSettings).toBe(true);
    expect(() => parse('--workspace', 'w', '--write-settings=yes')).toThrow(/takes no value/);
    expect(parse('--workspace', 'w').port).toBeUndefined();
  });

  it('takes the token from IDEA_SERVER_TOKEN when --token is not given', () => {
    expect(parseServerArgs(['--workspace', 'w'], { IDEA_SERVER_TOKEN: ` ${'e'.repeat(20)} ` }).token).toBe(
      'e'.repeat(20),
    );
    expect(
      parseServerArgs(['--workspace', 'w', '--token', 'f'.repeat(16)], { IDEA_SERVER_TOKEN: 'e'.repeat(20) }).token,
    ).toBe('f'.repeat(16));
  });

  it('refuses what cannot be served, with a message naming the flag', () => {
    expect(usage([])).toMatch(/--workspace DIR is required/);
    expect(usage(['--workspace'])).toMatch(/--workspace needs a value/);
    expect(usage(['--workspace', 'a', '--workspace', 'b'])).toMatch(/given twice/);
    expect(usage(['--workspace', 'w', '--port', '65536'])).toMatch(/--port must be an integer 0–65535/);
    expect(usage(['--workspace', 'w', '--port', '-1'])).toMatch(/--port must be/);
    expect(usage(['--workspace', 'w', '--port', '1e3'])).toMatch(/--port must be/);
    expect(usage(['--workspace', 'w', '--lsp', 'nolang'])).toMatch(/--lsp: .*not LANG=COMMAND/);
    expect(usage(['--workspace', 'w', '--lsp', 'py='])).toMatch(/--lsp: .*has no command/);
    expect(usage(['--workspace', 'w', '--token', 'short'])).toMatch(new RegExp(`at least ${MIN_TOKEN_LENGTH}`));
    expect(usage(['--workspace', 'w', '--token', `${'a'.repeat(16)} b`])).toMatch(/white space/);
    expect(usage(['--workspace', 'w'], { IDEA_SERVER_TOKEN: 'short' })).toMatch(/at least/);
    expect(usage(['--workspace', 'w', '--no-auth=yes'])).toMatch(/takes no value/);
    expect(usage(['--workspace', 'w', '--frobnicate'])).toMatch(/unknown argument --frobnicate/);
    expect(usage(['--workspace='])).toMatch(/non-empty/);
  });

  it("--trust-workspace is off unless given (then the workspace's TypeScript may run); a switch, no value", () => {
    expect(parse('--workspace', 'w').trustWorkspace).toBe(false);
    expect(parse('--workspace', 'w', '--trust-workspace').trustWorkspace).toBe(true);
    expect(usage(['--workspace', 'w', '--trust-workspace=yes'])).toMatch(/--trust-workspace takes no value/);
    // --lsp commands are kept as typed: nothing is looked up while parsing.
    expect(parse('--workspace', 'w', '--lsp', 'x=./ls --stdio').lsp[0]!.command).toBe('./ls');
    expect(USAGE).toMatch(/--trust-workspace: let typescript-language-server run DIR's own TypeScript/);
  });

  it('--help and --version answer before the rest is read', () => {
    expect(parseServerArgs(['--help', '--frob'], {}).info).toBe('help');
    expect(usage(['--frob', '--help'])).toMatch(/unknown argument/);
    expect(parseServerArgs(['--version'], {}).info).toBe('version');
  });
});
