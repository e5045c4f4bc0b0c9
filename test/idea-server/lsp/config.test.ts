// Which server serves which file: LANG=COMMAND specs, the default TypeScript server from node_modules
// with idea-server's own tsserver (the workspace's only with --trust-workspace), and files mapped to a
// language by extension.
import { existsSync, mkdtempSync, rmSync, statSync, unlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import {
  defaultTypeScriptServer,
  languageOfFile,
  ownTypeScript,
  parseServerSpec,
  serverTable,
  splitCommand,
  typeScriptChoice,
} from '../../../idea-server/src/lsp/config';
import { ROOT } from '../../../scripts/build';

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

describe("TypeScript: idea-server's own tsserver (issue 30)", () => {
  const tsOptions = (c: { initializationOptions?: unknown }) =>
    (c.initializationOptions as { tsserver: { path?: string; fallbackPath?: string; useSyntaxServer?: string } })
      .tsserver;

  it('is the tsserver of its own typescript dependency, a file, given as tsserver.path', () => {
    const own = ownTypeScript();
    expect(own.tsserver).toBe(join(ROOT, 'node_modules', 'typescript', 'lib', 'tsserver.js'));
    expect(statSync(own.tsserver).isFile()).toBe(true);
    expect(own.version).toMatch(/^5\.9\./);
    const ts = defaultTypeScriptServer();
    expect(tsOptions(ts)).toEqual({ useSyntaxServer: 'never', path: own.tsserver });
    expect(ts.preflight?.()).toBeUndefined();
    expect(tsOptions(serverTable([]).get('typescript')!).path).toBe(own.tsserver);
    expect(typeScriptChoice().description).toBe(
      `idea-server's own tsserver (${own.tsserver}, ${own.version}); the workspace's TypeScript is not run (--trust-workspace to allow)`,
    );
  });

  it('--trust-workspace gives no path (the workspace is looked at first), its own as the fallback', () => {
    const own = ownTypeScript();
    const choice = typeScriptChoice({ trustWorkspace: true });
    const ts = defaultTypeScriptServer(choice);
    expect(tsOptions(ts)).toEqual({ useSyntaxServer: 'never', fallbackPath: own.tsserver });
    expect(ts.preflight).toBeUndefined();
    expect(choice.description).toMatch(/^--trust-workspace: the workspace's TypeScript may run/);
  });

  it("without its own TypeScript the server is unavailable, never started on the workspace's", () => {
    const gone = typeScriptChoice({}, () => {
      throw new Error("Cannot find module 'typescript/package.json'");
    });
    expect(gone.preflight?.()).toBe(
      "idea-server's own TypeScript was not found (Cannot find module 'typescript/package.json'); the workspace's TypeScript is not run (--trust-workspace to allow)",
    );
    expect(tsOptions(defaultTypeScriptServer(gone)).path).toBeUndefined();
    // Found at start-up, deleted later: checked again before every start.
    const dir = mkdtempSync(join(tmpdir(), 'idea-own-ts-'));
    const tsserver = join(dir, 'tsserver.js');
    writeFileSync(tsserver, '');
    try {
      const later = typeScriptChoice({}, () => ({ tsserver, version: '5.9.0' }));
      expect(later.preflight?.()).toBeUndefined();
      unlinkSync(tsserver);
      expect(later.preflight?.()).toMatch(
        /^idea-server's own tsserver is missing \(.*tsserver\.js: ENOENT\); the workspace's TypeScript is not run/,
      );
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
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
