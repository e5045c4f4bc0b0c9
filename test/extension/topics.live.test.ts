// Every topic against a real VS Code (code-server + headless Chromium) running our extension on the
// fixture workspace: success paths, error paths, and that replace/rollback lose nothing.
import { execFileSync } from 'node:child_process';
import { readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { basename, dirname, join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { TOPICS as CURRENT_TOPICS, CURRENT_VERSION } from '../../generated/current';
import { vscodeStringHash } from '../../server-core/local-history';
import { col, errorCode, type LiveFixture, startLiveFixture } from './helpers';

let fx: LiveFixture;
let dir: string;
const read = (rel: string) => readFileSync(join(dir, rel), 'utf8');
const gitShow = (rev: string, rel: string) => execFileSync('git', ['-C', dir, 'cat-file', 'blob', `${rev}:${rel}`]);

beforeAll(async () => {
  // VS Code merges saves of one file within 10 s into one entry; distinct entries make the checks exact.
  fx = await startLiveFixture({ userSettings: { 'workbench.localHistory.mergeWindow': 0 } });
  dir = fx.ws.dir;
});
afterAll(async () => {
  await fx?.close();
});

describe('handshake', () => {
  it('advertises every topic of the served version and the workspace', () => {
    expect(fx.client.handshake.version).toBe(CURRENT_VERSION);
    expect(fx.client.handshake.authRequired).toBe(true);
    expect(fx.client.handshake.capabilities).toHaveLength(CURRENT_TOPICS.length);
    expect(fx.client.handshake.workspaces).toEqual([dir]);
  });
  it('wrote the bound port and the token into .vscode/settings.json, keeping the other keys', () => {
    const s = JSON.parse(read('.vscode/settings.json'));
    expect(s['idea.server.port']).toBe(fx.host.port);
    expect(s['idea.server.authToken']).toBe(fx.host.token);
    expect(s['files.exclude']).toEqual({ '**/hidden': true });
  });
});

describe('nav/symbols, nav/definition, nav/references', () => {
  it('symbols: flattened parent-first with container names, filtered by query', async () => {
    const r = await fx.client.navSymbols({ filePath: 'src/shapes.ts' });
    const names = r.symbols.map((s) => `${s.name}/${s.kind}/${s.containerName}`);
    expect(names.slice(0, 3)).toEqual(['Shape/interface/null', 'name/property/Shape', 'area/method/Shape']);
    expect(names).toContain('Circle/class/null');
    expect(names).toContain('scale/method/Circle');
    expect(names.indexOf('Circle/class/null')).toBeLessThan(names.indexOf('scale/method/Circle'));
    const circle = r.symbols.find((s) => s.name === 'Circle')!;
    expect([circle.line, circle.endLine, circle.selectionLine, circle.selectionCharacter]).toEqual([12, 21, 12, 13]);
    expect(r.totalCount).toBe(r.symbols.length);
    const q = await fx.client.navSymbols({ filePath: join(dir, 'src/shapes.ts'), query: 'AREA' });
    expect(q.symbols.map((s) => s.name).sort()).toEqual(['area', 'area', 'totalArea']);
  });
  it('definition: full declaration text from the LocationLink target range', async () => {
    const r = await fx.client.navDefinition({
      filePath: 'src/main.ts',
      line: 7,
      character: col(dir, 'src/main.ts', 7, 'totalArea') + 2,
    });
    expect(r.locations).toHaveLength(1);
    const d = r.locations[0]!;
    expect(d.filePath).toBe(join(dir, 'src/shapes.ts'));
    expect([d.line, d.character]).toEqual([23, 0]);
    expect(d.code.startsWith('export function totalArea(shapes: Shape[]): number {')).toBe(true);
    expect(d.code.trimEnd().endsWith('}')).toBe(true);
    expect(d.code.split('\n')).toHaveLength(d.endLine - d.line + 1);
  });
  it('definition: nothing at a blank position is an empty list', async () => {
    const r = await fx.client.navDefinition({ filePath: 'src/main.ts', line: 2, character: 0 });
    expect(r.locations).toEqual([]);
  });
  it('references with and without the declaration', async () => {
    const at = { filePath: 'src/shapes.ts', line: 12, character: col(dir, 'src/shapes.ts', 12, 'Circle') };
    const all = await fx.client.navReferences(at);
    const where = all.locations.map((l) => `${basename(l.filePath)}:${l.line}`);
    for (const w of ['main.ts:0', 'main.ts:3', 'main.ts:4', 'format.ts:0', 'format.ts:6', 'shapes.ts:12'])
      expect(where).toContain(w);
    expect(all.totalCount).toBe(all.locations.length);
    const noDecl = await fx.client.navReferences({ ...at, includeDeclaration: false });
    expect(noDecl.locations.map((l) => `${basename(l.filePath)}:${l.line}`)).not.toContain('shapes.ts:12');
    expect(noDecl.totalCount).toBe(all.totalCount - 1);
  });
  it('error paths: line out of range is INVALID_REQUEST, a missing file HANDLER_ERROR', async () => {
    expect(await errorCode(fx.client.navDefinition({ filePath: 'src/main.ts', line: 500, character: 0 }))).toBe(
      'INVALID_REQUEST',
    );
    expect(await errorCode(fx.client.navSymbols({ filePath: 'src/nope.ts' }))).toBe('HANDLER_ERROR');
    expect(await errorCode(fx.client.navReferences({ filePath: '../outside.ts', line: 0, character: 0 }))).toBe(
      'INVALID_REQUEST',
    );
  });
});

describe('diag/list', () => {
  it('reports the one known type error with its numeric code as a string', async () => {
    const r = await fx.client.diagList({ filePath: 'src/broken.ts' });
    expect(r.diagnostics).toEqual([
      {
        filePath: join(dir, 'src/broken.ts'),
        line: 3,
        character: 6,
        endLine: 3,
        endCharacter: 11,
        severity: 'error',
        message: "Type 'string' is not assignable to type 'number'.",
        source: 'ts',
        code: '2322',
      },
    ]);
    expect(r.totalCount).toBe(1);
  });
  it('takes several files and filters by severity', async () => {
    const r = await fx.client.diagList({ filePath: ['src/unused.ts', 'src/broken.ts'], severity: 'warning' });
    expect(r.diagnostics.map((d) => [basename(d.filePath), d.code, d.line, d.character, d.endCharacter])).toEqual([
      ['unused.ts', '6133', 1, 8, 19],
    ]);
    const clean = await fx.client.diagList({ filePath: 'src/shapes.ts' });
    expect(clean.diagnostics).toEqual([]);
  });
  // clause T48 (0.1.8): the empty answers also say why, a field older clients ignore.
  it('a file without a language server answers at once instead of waiting for one, and says why', async () => {
    const t0 = Date.now();
    const none = {
      kind: 'none',
      reason: 'no language server for plaintext files: no installed extension serves the language',
    };
    expect(await fx.client.diagList({ filePath: 'text/search.txt' })).toEqual({
      diagnostics: [],
      totalCount: 0,
      unavailable: none,
    });
    expect(await fx.client.navSymbols({ filePath: 'text/search.txt' })).toEqual({
      symbols: [],
      totalCount: 0,
      unavailable: none,
    });
    expect(Date.now() - t0).toBeLessThan(5000);
  });
  it('without filePath returns what VS Code already knows', async () => {
    const r = await fx.client.diagList({});
    const files = new Set(r.diagnostics.map((d) => basename(d.filePath)));
    expect(files.has('broken.ts') && files.has('unused.ts')).toBe(true);
    expect(await errorCode(fx.client.diagList({ filePath: '/etc/hosts' }))).toBe('INVALID_REQUEST');
  });
});

describe('edit/find and fs/findFiles', () => {
  it('finds literal text across the workspace, honouring .gitignore and files.exclude', async () => {
    const r = await fx.client.editFind({ pattern: 'needle' });
    expect(r.matches.map((m) => `${m.filePath.slice(dir.length + 1)}:${m.line}:${m.character}`)).toEqual([
      'docs/release notes.md:2:24',
      'text/search.txt:6:4',
    ]);
    expect(r.matches[1]!.lineText).toBe('the needle is here');
    expect(r.totalCount).toBe(2);
  });
  it('case sensitivity, literal metacharacters, regex \\b, groups and look-around', async () => {
    const f = (pattern: string, o: { isRegex?: boolean; isCaseSensitive?: boolean } = {}) =>
      fx.client
        .editFind({ pattern, include: 'text/**', ...o })
        .then((r) => r.matches.map((m) => `${m.line}:${m.character}`));
    expect(await f('alpha')).toEqual(['0:0', '1:0', '2:0', '3:0', '3:9', '3:22']);
    expect(await f('ALPHA', { isCaseSensitive: true })).toEqual(['2:0']);
    expect(await f('a+b')).toEqual(['7:23']);
    expect(await f('\\balpha\\b', { isRegex: true })).toEqual(['0:0', '1:0', '2:0', '3:22']);
    expect(await f('order-(?<num>\\d{4})\\b', { isRegex: true })).toEqual(['4:0', '4:11']);
    expect(await f('(?<=order-)\\d+', { isRegex: true })).toEqual(['4:6', '4:17', '4:28']);
    expect(await errorCode(fx.client.editFind({ pattern: '(unclosed', isRegex: true }))).toBe('INVALID_REQUEST');
  });
  it('findFiles: case-insensitive name match, include glob, glob characters literal, files.exclude applied', async () => {
    const r = await fx.client.fsFindFiles({ query: 'SHAPES' });
    expect(r.files).toEqual([
      { fileName: 'shapes.ts', filePath: join(dir, 'src/shapes.ts'), relativePath: 'src/shapes.ts' },
    ]);
    const md = await fx.client.fsFindFiles({ query: 'e', include: '**/*.md' });
    expect(md.files.map((f) => f.relativePath)).toEqual(['README.md', 'docs/release notes.md']);
    expect((await fx.client.fsFindFiles({ query: '*.ts' })).files).toEqual([]);
    expect((await fx.client.fsFindFiles({ query: 'secret' })).files).toEqual([]);
    const capped = await fx.client.fsFindFiles({ query: '.', maxResults: 2 });
    expect([capped.files.length, capped.totalCount]).toEqual([2, 2]);
  });
});

describe('history/list, history/diff, history/rollback (git)', () => {
  it('lists only the commits that touched the file; index 2 is not HEAD~1', async () => {
    const r = await fx.client.historyList({ filePath: 'src/shapes.ts' });
    const c = fx.ws.commits;
    expect(r.entries.map((e) => [e.index, e.hash])).toEqual([
      [1, c.docs],
      [2, c.scale],
      [3, c.initial],
    ]);
    expect(r.entries[0]).toMatchObject({
      shortHash: c.docs!.slice(0, 7),
      authorName: 'Grace Hopper',
      authorEmail: 'grace@example.invalid',
      authorDate: '2026-01-10T14:00:00+00:00',
    });
    expect((await fx.client.historyList({ filePath: 'src/shapes.ts', maxCount: 1 })).entries).toHaveLength(1);
  });
  it('diff index mode: working tree vs HEAD by default, older → newer for any pair, sides named as requested (R2)', async () => {
    const wt = await fx.client.historyDiff({ filePath: 'src/config.ts' });
    expect(wt.fromRef).toBe('working-tree');
    expect(wt.toRef).toBe('HEAD');
    expect(wt.diff).toContain('-  verbose: false,');
    expect(wt.diff).toContain('+  verbose: true,');
    const a = await fx.client.historyDiff({ filePath: 'src/shapes.ts', fromIndex: 1, toIndex: 2 });
    const b = await fx.client.historyDiff({ filePath: 'src/shapes.ts', fromIndex: 2, toIndex: 1 });
    expect(a.diff).toBe(b.diff);
    expect([a.fromRef, a.toRef]).toEqual(['HEAD', fx.ws.commits.scale]);
    expect([b.fromRef, b.toRef]).toEqual([fx.ws.commits.scale, 'HEAD']);
    expect(await errorCode(fx.client.historyDiff({ filePath: 'src/shapes.ts', fromIndex: 1, toIndex: 0 }))).toBe(
      'INVALID_REQUEST',
    );
    expect(await errorCode(fx.client.historyDiff({ filePath: 'src/shapes.ts', fromIndex: 0, toIndex: 2 }))).toBe(
      'INVALID_REQUEST',
    );
    expect(a.diff).toContain('+/** Geometric shapes used across the fixture project. */');
    expect((await fx.client.historyDiff({ filePath: 'src/shapes.ts', fromIndex: 0, toIndex: 1 })).diff).toBe('');
  });
  it('diff ref mode, and its error paths', async () => {
    const r = await fx.client.historyDiff({
      filePath: 'src/shapes.ts',
      fromRef: fx.ws.commits.initial,
      toRef: fx.ws.commits.scale,
    });
    expect(r.diff).toContain('+  scale(factor: number): Circle {');
    expect(await errorCode(fx.client.historyDiff({ filePath: 'src/shapes.ts', fromRef: '--output=/tmp/pwned' }))).toBe(
      'INVALID_REQUEST',
    );
    expect(await errorCode(fx.client.historyDiff({ filePath: 'src/shapes.ts', fromRef: 'no-such-ref' }))).toBe(
      'INVALID_REQUEST',
    );
    expect(await errorCode(fx.client.historyDiff({ filePath: 'src/shapes.ts', fromIndex: 0, toIndex: 9 }))).toBe(
      'INVALID_REQUEST',
    );
  });
  it('rollback writes exactly the committed bytes and keeps what it overwrote', async () => {
    const before = read('src/shapes.ts');
    const r = await fx.client.historyRollback({ filePath: 'src/shapes.ts', toIndex: 3 });
    expect(r).toEqual({
      filePath: join(dir, 'src/shapes.ts'),
      toRef: fx.ws.commits.initial,
      restoredIndex: 3,
      transactionId: expect.any(String),
    });
    expect(readFileSync(join(dir, 'src/shapes.ts')).equals(gitShow(fx.ws.commits.initial!, 'src/shapes.ts'))).toBe(
      true,
    );
    // shapes.ts is open in VS Code (earlier tests): a replace right after the rollback must edit the
    // restored text, not a stale editor copy that it would then save over the rollback.
    const initial = gitShow(fx.ws.commits.initial!, 'src/shapes.ts').toString('utf8');
    await fx.client.editReplace({ pattern: 'public radius', replacement: 'public r4dius', include: 'src/shapes.ts' });
    expect(read('src/shapes.ts')).toBe(initial.replace('public radius', 'public r4dius'));
    // The overwritten version is a local-history entry: roll back to it.
    const lh = await fx.client.localhistoryList({ filePath: 'src/shapes.ts' });
    const kept = lh.entries.find((e) => e.source === 'IDEA: before rollback');
    expect(kept).toBeDefined();
    await fx.client.localhistoryRollback({ filePath: 'src/shapes.ts', toId: kept!.id });
    expect(read('src/shapes.ts')).toBe(before);
    expect(await errorCode(fx.client.historyRollback({ filePath: 'src/shapes.ts', toIndex: 4 }))).toBe(
      'INVALID_REQUEST',
    );
  });
});

describe('edit/replace and local history', () => {
  it('replaces with capture groups as one edit, saved to disk, touching nothing else', async () => {
    const untouched = ['src/shapes.ts', 'docs/release notes.md', 'README.md'].map((f) => [f, read(f)] as const);
    const r = await fx.client.editReplace({
      pattern: 'order-(\\d+)',
      replacement: 'ORD[$1]',
      isRegex: true,
      include: 'text/**',
    });
    expect(r).toEqual({
      replacedCount: 3,
      affectedFiles: [join(dir, 'text/search.txt')],
      transactionId: expect.any(String),
    });
    expect(read('text/search.txt').split('\n')[4]).toBe('ORD[1234] ORD[5678] ORD[90]');
    for (const [f, text] of untouched) expect(read(f)).toBe(text);
    expect(await fx.client.editReplace({ pattern: 'zzz-not-there', replacement: 'x' })).toEqual({
      replacedCount: 0,
      affectedFiles: [],
    });
  });
  it('each save is a local-history entry; list, diff and rollback agree, and rollback loses nothing', async () => {
    await fx.client.editReplace({ pattern: 'draft-0', replacement: 'draft-1', include: 'notes/**' });
    await fx.client.editReplace({ pattern: 'draft-1', replacement: 'draft-2', include: 'notes/**' });
    const list = await fx.client.localhistoryList({ filePath: 'notes/journal.md' });
    expect(list.entries.length).toBeGreaterThanOrEqual(2);
    const [newest, older] = list.entries;
    expect(newest!.timestamp).toBeGreaterThanOrEqual(older!.timestamp);
    expect(newest!.timestampLabel).toMatch(/^\d{4}-\d{2}-\d{2} \d{2}:\d{2}:\d{2}$/);
    expect(newest!.timestampLabel).toBe(new Date(newest!.timestamp).toISOString().slice(0, 19).replace('T', ' '));

    const same = await fx.client.localhistoryDiff({ filePath: 'notes/journal.md', fromId: newest!.id });
    expect(same).toEqual({ diff: '', fromLabel: newest!.timestampLabel, toLabel: 'current' });
    const d = await fx.client.localhistoryDiff({ filePath: 'notes/journal.md', fromId: older!.id, toId: newest!.id });
    expect(d.diff).toMatch(/-status: draft-1\n\+status: draft-2/);
    expect(await errorCode(fx.client.localhistoryDiff({ filePath: 'notes/journal.md', fromId: 'Nope.md' }))).toBe(
      'INVALID_REQUEST',
    );

    // VS Code named the history folder by hashing the resource URI; our hash must agree (it names backups).
    const folder = dirname(
      `${
        readdirSync(join(fx.host.userDataDir, 'User/History'), { recursive: true, withFileTypes: true }).find(
          (e) => e.name === newest!.id,
        )!.parentPath
      }/x`,
    );
    const resource = JSON.parse(readFileSync(join(folder, 'entries.json'), 'utf8')).resource as string;
    expect(basename(folder)).toBe(vscodeStringHash(resource).toString(16));

    const r = await fx.client.localhistoryRollback({ filePath: 'notes/journal.md', toId: older!.id });
    expect(r).toEqual({
      filePath: join(dir, 'notes/journal.md'),
      restoredId: older!.id,
      restoredLabel: older!.timestampLabel,
      transactionId: expect.any(String),
    });
    expect(read('notes/journal.md')).toContain('status: draft-1');
    // draft-2 (what the rollback overwrote) is still recoverable.
    const after = await fx.client.localhistoryList({ filePath: 'notes/journal.md' });
    const entriesWithDraft2 = after.entries.filter((e) => e.id !== older!.id);
    expect(entriesWithDraft2.length).toBeGreaterThanOrEqual(list.entries.length - 1);
    await fx.client.localhistoryRollback({ filePath: 'notes/journal.md', toId: newest!.id });
    expect(read('notes/journal.md')).toContain('status: draft-2');
  });
  it('no history is an empty list; unknown ids are INVALID_REQUEST', async () => {
    expect(await fx.client.localhistoryList({ filePath: 'tsconfig.json' })).toEqual({ entries: [], totalCount: 0 });
    expect(await errorCode(fx.client.localhistoryRollback({ filePath: 'tsconfig.json', toId: 'AbCd.json' }))).toBe(
      'INVALID_REQUEST',
    );
  });
  it('a rollback over content never saved through VS Code keeps it as a new entry', async () => {
    writeFileSync(join(dir, 'notes/journal.md'), 'edited outside VS Code\n');
    const list = await fx.client.localhistoryList({ filePath: 'notes/journal.md' });
    await fx.client.localhistoryRollback({ filePath: 'notes/journal.md', toId: list.entries[0]!.id });
    const after = await fx.client.localhistoryList({ filePath: 'notes/journal.md' });
    const backup = after.entries.find(
      (e) => e.source === 'IDEA: before rollback' && !list.entries.some((x) => x.id === e.id),
    );
    expect(backup).toBeDefined();
    await fx.client.localhistoryRollback({ filePath: 'notes/journal.md', toId: backup!.id });
    expect(read('notes/journal.md')).toBe('edited outside VS Code\n');
  });
});
