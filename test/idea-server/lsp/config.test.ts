// Which server serves which file: LANG=COMMAND specs, the default TypeScript server from node_modules,
// and files mapped to a language by extension.
import { existsSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import {
  defaultTypeScriptServer,
  languageOfFile,
  parseServerSpec,
  serverTable,
  splitCommand,
} from '../../../idea-server/src/lsp/config';

describe('parseServerSpec', () => {
  it('splits LANG=COMMAND, quotes keeping spaces, no shell', () => {
    expect(parseServerSpec('python=pyright-langserver --stdio')).toEqual({
      language: 'python',
      command: 'pyright-langserver',
      args: ['--stdio'],
    });
    expect(parseServerSpec(' Go = gopls  serve ')).toEqual({ language: 'go', command: 'gopls', args: ['serve'] });
    expect(parseServerSpec(`rust="/opt/my tools/ra" --x='a b' ''`)).toEqual({
      language: 'rust',
      command: '/opt/my tools/ra',
      args: ['--x=a b', ''],
    });
    expect(parseServerSpec('x=a;rm -rf /')).toEqual({ language: 'x', command: 'a;rm', args: ['-rf', '/'] });
  });

  it('refuses what is not a spec', () => {
    expect(() => parseServerSpec('pyright-langserver')).toThrow(/not LANG=COMMAND/);
    expect(() => parseServerSpec('python=  ')).toThrow(/no command/);
    expect(() => parseServerSpec('../x=cmd')).toThrow(/not a language name/);
    expect(() => parseServerSpec('=cmd')).toThrow(/not a language name/);
    expect(() => splitCommand('a "b')).toThrow(/unterminated/);
  });
});

describe('serverTable', () => {
  it('TypeScript by default, from node_modules, run by this Node', () => {
    const ts = defaultTypeScriptServer();
    expect(ts.command).toBe(process.execPath);
    expect(ts.args[1]).toBe('--stdio');
    expect(existsSync(ts.args[0]!)).toBe(true);
    expect([...serverTable([]).keys()]).toEqual(['typescript']);
  });

  it('configured servers are added; a typescript= one replaces the default (which is then not resolved)', () => {
    const table = serverTable(['typescript=my-ts --stdio', 'python=pylsp'], () => {
      throw new Error('resolved');
    });
    expect(table.get('typescript')).toEqual({ language: 'typescript', command: 'my-ts', args: ['--stdio'] });
    expect(table.get('python')?.command).toBe('pylsp');
  });
});

describe('languageOfFile', () => {
  const langs = new Set(['typescript', 'python', 'zig', 'constructor']);
  it('maps by extension, case-insensitively, with the languageId didOpen carries', () => {
    expect(languageOfFile('/p/a.ts', langs)).toEqual({ language: 'typescript', languageId: 'typescript' });
    expect(languageOfFile('/p/A.TSX', langs)).toEqual({ language: 'typescript', languageId: 'typescriptreact' });
    expect(languageOfFile('/p/a.mjs', langs)).toEqual({ language: 'typescript', languageId: 'javascript' });
    expect(languageOfFile('/p/a.pyi', langs)).toEqual({ language: 'python', languageId: 'python' });
  });

  it('an unknown configured language serves .<language>; unconfigured and extension-less files have none', () => {
    expect(languageOfFile('/p/main.zig', langs)).toEqual({ language: 'zig', languageId: 'zig' });
    expect(languageOfFile('/p/x.constructor', langs)).toEqual({ language: 'constructor', languageId: 'constructor' });
    expect(languageOfFile('/p/main.go', langs)).toBeUndefined();
    expect(languageOfFile('/p/Makefile', langs)).toBeUndefined();
    expect(languageOfFile('/p/x.toString', new Set(['typescript']))).toBeUndefined();
  });
});
