import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadCases } from '../../conformance/lib/load';
import { checkManifest } from '../../conformance/manifest';
import {
  buildFixtureWorkspace,
  type FixtureWorkspaceInfo,
  readFixtureWorkspace,
  resetFixtureWorkspace,
} from '../../conformance/workspace';

let tmp: string;
let a: FixtureWorkspaceInfo;

beforeAll(() => {
  tmp = mkdtempSync(join(tmpdir(), 'fixture-ws-'));
  a = buildFixtureWorkspace(join(tmp, 'a'));
});
afterAll(() => rmSync(tmp, { recursive: true, force: true }));

const lines = (rel: string) => readFileSync(join(a.dir, rel), 'utf8').split('\n');

describe('fixture workspace', () => {
  it('is deterministic: the same commit hashes on every build', () => {
    const b = buildFixtureWorkspace(join(tmp, 'b'));
    expect(b.commits).toEqual(a.commits);
    expect(Object.keys(a.commits)).toEqual(['initial', 'main', 'scale', 'texts', 'examples', 'docs', 'notes']);
    expect(readFixtureWorkspace(a.dir).commits).toEqual(a.commits);
    expect(a.vars['short.docs']).toBe(a.commits.docs!.slice(0, 7));
  });

  it('has the positions the fixtures rely on', () => {
    expect(lines('src/broken.ts')[3]!.slice(6, 11)).toBe('label');
    expect(lines('src/unused.ts')[1]!.slice(8, 19)).toBe('unusedValue');
    expect(lines('src/shapes.ts')[12]!.slice(13, 19)).toBe('Circle');
    expect(lines('src/main.ts')[7]!.slice(12, 21)).toBe('totalArea');
    expect(lines('text/search.txt')[4]).toBe('order-1234 order-5678 order-90');
    // The solution fixture (v0.1.8 cases): name starts and the lines the body and call cases count on.
    const ledger = lines('solution/src/ledger.ts');
    expect(ledger[1]!.slice(13, 19)).toBe('Ledger');
    expect(ledger.slice(7, 11).map((l) => l.slice(2, 8))).toEqual(['record', '/** Re', 'record', 'record']);
    expect(ledger[16]!.slice(2, 10)).toBe("'in/out'");
    expect(ledger[24]!.slice(2, 7)).toBe('total');
    expect(ledger[29]!.slice(16, 21)).toBe('total');
    expect(ledger[34]!.slice(16, 21)).toBe('sumOf');
    expect(ledger[35]!.slice(52, 57)).toBe('sumOf');
    expect(ledger[48]).toBe('  * 3;');
    expect(ledger[51]!.slice(16, 22)).toBe('scaled');
    expect(ledger[71]!.slice(4, 12)).toBe('describe');
    expect(lines('solution/src/report.ts')[8]!.slice(16, 21)).toBe('grüße');
    expect(lines('solution/test/ledger.test.ts')[10]).toBe('new Ledger().record(1);');
    // Solution-style: no files of its own, a build and a tests project, the tests not referencing the build.
    const config = (rel: string) => JSON.parse(readFileSync(join(a.dir, 'solution', rel), 'utf8'));
    expect(config('tsconfig.json')).toEqual({
      files: [],
      references: [{ path: './tsconfig.build.json' }, { path: './tsconfig.test.json' }],
    });
    expect(config('tsconfig.test.json').references).toBeUndefined();
    const log = execFileSync('git', ['log', '--format=%s', '--', 'src/shapes.ts'], { cwd: a.dir, encoding: 'utf8' })
      .trim()
      .split('\n');
    expect(log).toEqual(['Document shapes', 'Add Circle.scale', 'Initial commit: shapes and readme']);
    expect(execFileSync('git', ['status', '--porcelain'], { cwd: a.dir, encoding: 'utf8' })).toContain(
      ' M src/config.ts',
    );
  });

  it('reset restores the fresh state, keeps the server keys in .vscode/settings.json, and is a no-op when fresh', () => {
    expect(resetFixtureWorkspace(a.dir)).toBe(false);
    const settings = join(a.dir, '.vscode', 'settings.json');
    writeFileSync(settings, JSON.stringify({ 'idea.server.port': 7201, 'files.exclude': {} }));
    writeFileSync(join(a.dir, 'README.md'), 'changed\n');
    writeFileSync(join(a.dir, 'src', 'config.ts'), 'export const config = {};\n');
    writeFileSync(join(a.dir, 'stray.txt'), 'x');
    expect(resetFixtureWorkspace(a.dir)).toBe(true);
    expect(lines('README.md')[0]).toBe('# Fixture project');
    expect(lines('src/config.ts')[2]).toBe('  verbose: true,');
    expect(() => readFileSync(join(a.dir, 'stray.txt'))).toThrow();
    // The server's key and the fixture's are kept, and the traps' keys (traps.ts) planted again.
    const after = JSON.parse(readFileSync(settings, 'utf8'));
    expect(after).toMatchObject({ 'idea.server.port': 7201, 'files.exclude': { '**/hidden': true } });
    expect(after['git.path']).toBe(join(a.dir, '.vscode/idea-traps/bin/setting-git-path'));
    expect(resetFixtureWorkspace(a.dir)).toBe(false);
  });
});

describe('fixtures', () => {
  it('all validate against fixture.schema.json, have unique ids, and the manifest is up to date', () => {
    const cases = loadCases();
    expect(cases.length).toBeGreaterThanOrEqual(100);
    expect(checkManifest()).toBeNull();
  });
});
