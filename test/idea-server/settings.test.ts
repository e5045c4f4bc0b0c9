import { mkdirSync, mkdtempSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { workspaceFolders } from '../../idea-server/src/host';
import {
  DEFAULT_FILES_EXCLUDE,
  DEFAULT_SEARCH_EXCLUDE,
  MAX_SETTINGS_BYTES,
  readWorkspaceSettings,
  searchExcludeGlobs,
  settingsFromText,
} from '../../idea-server/src/settings';

const tmp = mkdtempSync(join(tmpdir(), 'idea-server-settings-'));
afterAll(() => rmSync(tmp, { recursive: true, force: true }));

function workspaceWith(text: string | undefined, name: string): string {
  const ws = join(tmp, name);
  mkdirSync(join(ws, '.vscode'), { recursive: true });
  if (text !== undefined) writeFileSync(join(ws, '.vscode', 'settings.json'), text);
  return ws;
}

/** Settings through which VS Code or an extension would run a program or load code the workspace chose. */
const NAMES_PROGRAMS = `{
  "typescript.tsdk": "TRAP/node_modules/typescript/lib",
  "js/ts.tsdk.path": "TRAP/lib",
  "typescript.tsserver.pluginPaths": ["TRAP/plugins"],
  "typescript.npm": "TRAP/npm",
  "git.path": "TRAP/git",
  "search.ripgrep.path": "TRAP/rg",
  "search.ripgrep.args": ["--pre", "TRAP/pre"],
  "terminal.integrated.shell.linux": "TRAP/sh",
  "eslint.nodePath": "TRAP/node_modules",
  "python.defaultInterpreterPath": "TRAP/python",
}`;

describe('workspace settings', () => {
  it('never name a program or a path to load code from: such keys change nothing', () => {
    const s = settingsFromText(NAMES_PROGRAMS);
    expect(s).toEqual(settingsFromText('{}'));
    expect(JSON.stringify(s)).not.toContain('TRAP');
    const ws = workspaceWith(NAMES_PROGRAMS, 'names-programs');
    expect(JSON.stringify(readWorkspaceSettings(ws))).not.toContain('TRAP');
  });

  it('merges files.exclude / search.exclude over VS Code defaults, JSONC with comments and trailing commas', () => {
    const s = settingsFromText(`{
      // ours
      "files.exclude": { "**/.git": false, "out/**": true, "gen/**": { "when": "$(basename).ts" }, },
      "search.exclude": { "**/*.min.js": true, "bad": 3, "": true },
      "search.useIgnoreFiles": false,
      "workbench.localHistory.maxFileSize": 10,
      "idea.server.authToken": "never-read-here",
    }`);
    expect(s.problem).toBeUndefined();
    expect(s.filesExclude).toEqual({
      ...DEFAULT_FILES_EXCLUDE,
      '**/.git': false,
      'out/**': true,
      'gen/**': { when: '$(basename).ts' },
    });
    expect(s.searchExclude).toEqual({ ...DEFAULT_SEARCH_EXCLUDE, '**/*.min.js': true });
    expect(s.useIgnoreFiles).toBe(false);
    expect(s.localHistory).toEqual({ enabled: true, maxFileSizeKb: 10 });
    expect(searchExcludeGlobs(s)).not.toContain('**/.git');
    expect(searchExcludeGlobs(s)).toEqual(expect.arrayContaining(['out/**', '**/*.min.js', '**/node_modules']));
    expect(searchExcludeGlobs(s)).not.toContain('gen/**');
  });

  it('a missing, malformed, odd or huge file is VS Code defaults (with the problem said), never a throw', () => {
    expect(readWorkspaceSettings(join(tmp, 'nowhere'))).toMatchObject({
      filesExclude: DEFAULT_FILES_EXCLUDE,
      useIgnoreFiles: true,
    });
    expect(readWorkspaceSettings(join(tmp, 'nowhere')).problem).toBeUndefined();
    expect(readWorkspaceSettings(workspaceWith('{ "files.exclude": ', 'half')).problem).toMatch(/not JSON/);
    expect(readWorkspaceSettings(workspaceWith('[1, 2]', 'array')).problem).toMatch(/not a JSON object/);
    const big = workspaceWith(`{"a": "${'x'.repeat(MAX_SETTINGS_BYTES)}"}`, 'big');
    expect(readWorkspaceSettings(big).problem).toMatch(/larger than/);
    const dir = workspaceWith(undefined, 'dir');
    mkdirSync(join(dir, '.vscode', 'settings.json'));
    expect(readWorkspaceSettings(dir).problem).toMatch(/not a regular file|EISDIR/);
    expect(settingsFromText('{"files.exclude": [1], "search.useIgnoreFiles": "no"}')).toMatchObject({
      filesExclude: DEFAULT_FILES_EXCLUDE,
      useIgnoreFiles: true,
    });
  });

  it('the host reads the folder settings at every call (an edited file counts from the next request)', () => {
    const ws = workspaceWith('{"search.exclude": {"a/**": true}}', 'live');
    const folders = workspaceFolders(ws);
    expect(folders.paths()).toEqual([ws]);
    expect(folders.searchSettings(ws).searchExclude).toMatchObject({ 'a/**': true });
    writeFileSync(join(ws, '.vscode', 'settings.json'), '{"search.exclude": {"b/**": true}}');
    expect(folders.searchSettings(ws).searchExclude).toMatchObject({ 'b/**': true });
    expect(folders.searchSettings(ws).searchExclude).not.toHaveProperty('a/**');
  });

  it('follows a settings.json symlink only as far as reading a regular file', () => {
    const ws = workspaceWith(undefined, 'link');
    writeFileSync(join(tmp, 'real.json'), '{"search.useIgnoreFiles": false}');
    symlinkSync(join(tmp, 'real.json'), join(ws, '.vscode', 'settings.json'));
    expect(readWorkspaceSettings(ws).useIgnoreFiles).toBe(false);
  });
});
