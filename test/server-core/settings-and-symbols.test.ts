import { execFileSync } from 'node:child_process';
import { chmodSync, mkdirSync, mkdtempSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { parseJsonc } from '../../runtime/jsonc';
import { codeOf, severityFilter, toWireDiagnostic } from '../../server-core/diagnostics';
import { enabledGlobs } from '../../server-core/search/excludes';
import { keepOutOfGit, setSettingsKeys, writeSettingsKeys } from '../../server-core/settings-file';
import { filterSymbols, flattenSymbols, innermostContaining, type TreeSymbol } from '../../server-core/symbols';

const r = (l: number, c: number, el: number, ec: number) => ({
  start: { line: l, character: c },
  end: { line: el, character: ec },
});

describe('settings file writer', () => {
  it('creates a file, replaces values in place and keeps comments and other keys', () => {
    expect(JSON.parse(setSettingsKeys('', { 'idea.server.port': 7201 }))).toEqual({ 'idea.server.port': 7201 });
    const before =
      '{\n  // keep me\n  "files.exclude": { "**/hidden": true },\n  "idea.server.port": 7200,\n  "idea.server.authToken": "old",\n}\n';
    const after = setSettingsKeys(before, { 'idea.server.port': 7203, 'idea.server.authToken': 'new-token' });
    expect(after).toContain('// keep me');
    expect(parseJsonc(after)).toEqual({
      'files.exclude': { '**/hidden': true },
      'idea.server.port': 7203,
      'idea.server.authToken': 'new-token',
    });
  });
  it('inserts missing keys into empty and non-empty objects', () => {
    expect(parseJsonc(setSettingsKeys('{}', { a: 1, b: 'x' }))).toEqual({ a: 1, b: 'x' });
    expect(parseJsonc(setSettingsKeys('{ /* c */ "z": true }', { a: 1 }))).toEqual({ z: true, a: 1 });
  });
  it('refuses to touch a file that is not a JSON object', () => {
    expect(() => setSettingsKeys('[1,2]', { a: 1 })).toThrow();
    expect(() => setSettingsKeys('{ broken', { a: 1 })).toThrow();
  });
});

describe('symbols', () => {
  const tree: TreeSymbol[] = [
    {
      name: 'Circle',
      kind: 4,
      range: r(12, 0, 21, 1),
      selectionRange: r(12, 13, 12, 19),
      children: [
        { name: 'scale', kind: 5, range: r(18, 2, 20, 3), selectionRange: r(18, 2, 18, 7) },
        { name: 'area', kind: 5, range: r(15, 2, 17, 3), selectionRange: r(15, 2, 15, 6) },
      ],
    },
    { name: 'Shape', kind: 10, range: r(1, 0, 4, 1), selectionRange: r(1, 17, 1, 22) },
  ];
  it('flattens parent-first in source order with lower-case kinds and container names', () => {
    const flat = flattenSymbols(tree);
    expect(flat.map((s) => `${s.name}:${s.kind}:${s.containerName}`)).toEqual([
      'Shape:interface:null',
      'Circle:class:null',
      'area:method:Circle',
      'scale:method:Circle',
    ]);
    expect(flat[1]).toMatchObject({
      line: 12,
      character: 0,
      endLine: 21,
      endCharacter: 1,
      selectionLine: 12,
      selectionCharacter: 13,
    });
  });
  it('handles SymbolInformation lists and filters by name case-insensitively', () => {
    const flat = flattenSymbols([
      { name: 'makeX', kind: 11, containerName: '', location: { range: r(3, 0, 5, 1) } },
      { name: 'y', kind: 21, containerName: 'E', location: { range: r(7, 2, 7, 3) } },
    ]);
    expect(flat.map((s) => [s.kind, s.containerName, s.selectionLine])).toEqual([
      ['function', null, 3],
      ['enummember', 'E', 7],
    ]);
    expect(filterSymbols(flattenSymbols(tree), 'AR').map((s) => s.name)).toEqual(['area']);
    expect(filterSymbols(flattenSymbols(tree), undefined)).toHaveLength(4);
  });
  it('finds the innermost symbol around a position', () => {
    expect(innermostContaining(tree, { line: 16, character: 4 })?.name).toBe('area');
    expect(innermostContaining(tree, { line: 13, character: 0 })?.name).toBe('Circle');
    expect(innermostContaining(tree, { line: 30, character: 0 })).toBeUndefined();
  });
});

describe('diagnostics and excludes', () => {
  it('serialises codes (object codes as their value) and severities', () => {
    expect(codeOf({ value: 2322, target: {} })).toBe('2322');
    expect(codeOf('no-unused')).toBe('no-unused');
    expect(codeOf(undefined)).toBeNull();
    const d = toWireDiagnostic('/w/a.ts', { range: r(3, 6, 3, 11), severity: 1, message: 'm', code: { value: 'x' } });
    expect(d).toEqual({
      filePath: '/w/a.ts',
      line: 3,
      character: 6,
      endLine: 3,
      endCharacter: 11,
      severity: 'warning',
      message: 'm',
      source: null,
      code: 'x',
    });
    expect(severityFilter('error')(d)).toBe(false);
    expect(severityFilter('all')(d)).toBe(true);
  });
  it('keeps only unconditional true exclude globs', () => {
    expect(
      enabledGlobs(
        { '**/.git': true, '**/x': false, '**/*.js': { when: '$(basename).ts' } },
        { '**/node_modules': true, '**/.git': true },
      ),
    ).toEqual(['**/.git', '**/node_modules']);
  });
});

// clause H14: the settings file is 0600 (a stricter mode kept) and listed in .git/info/exclude.
describe('settings file at rest (it carries the token)', () => {
  const dir = mkdtempSync(join(tmpdir(), 'idea-settings-'));
  afterAll(() => rmSync(dir, { recursive: true, force: true }));
  const mode = (f: string) => statSync(f).mode & 0o777;

  it('creates it 0600, narrows an existing 0644 to 0600 and keeps a stricter 0400', () => {
    const f = join(dir, 'a', '.vscode', 'settings.json');
    writeSettingsKeys(f, { 'idea.server.port': 7200 });
    expect(mode(f)).toBe(0o600);
    writeFileSync(f, '{ "x": 1 }');
    chmodSync(f, 0o644);
    writeSettingsKeys(f, { 'idea.server.authToken': 't' });
    expect(mode(f)).toBe(0o600);
    writeSettingsKeys(f, { 'idea.server.authToken': 't' }); // unchanged content: mode still enforced
    chmodSync(f, 0o640);
    writeSettingsKeys(f, { 'idea.server.authToken': 't' });
    expect(mode(f)).toBe(0o600);
    chmodSync(f, 0o400);
    writeSettingsKeys(f, { 'idea.server.authToken': 'u' });
    expect(mode(f)).toBe(0o400);
    expect(parseJsonc(readFileSync(f, 'utf8'))).toEqual({ x: 1, 'idea.server.authToken': 'u' });
  });

  it('lists an untracked settings file in .git/info/exclude, once, and says when it cannot', async () => {
    const repo = join(dir, 'repo');
    mkdirSync(join(repo, '.vscode'), { recursive: true });
    execFileSync('git', ['-C', repo, 'init', '-q']);
    const f = join(repo, '.vscode', 'settings.json');
    writeSettingsKeys(f, { 'idea.server.authToken': 'secret' });
    const status = () => execFileSync('git', ['-C', repo, 'status', '--porcelain', '--untracked-files=all']).toString();
    expect(status()).toContain('.vscode/settings.json');
    expect(await keepOutOfGit(f)).toBe('added');
    expect(status()).not.toContain('.vscode/settings.json');
    expect(await keepOutOfGit(f)).toBe('already-ignored');
    expect(
      readFileSync(join(repo, '.git', 'info', 'exclude'), 'utf8').match(/\/\.vscode\/settings\.json/g),
    ).toHaveLength(1);
    expect(await keepOutOfGit(join(dir, 'a', '.vscode', 'settings.json'))).toBe('not-a-repository');
    const tracked = join(dir, 'tracked');
    mkdirSync(join(tracked, '.vscode'), { recursive: true });
    execFileSync('git', ['-C', tracked, 'init', '-q']);
    writeFileSync(join(tracked, '.vscode', 'settings.json'), '{}');
    execFileSync('git', ['-C', tracked, 'add', '.']);
    expect(await keepOutOfGit(join(tracked, '.vscode', 'settings.json'))).toBe('tracked');
  });
});
