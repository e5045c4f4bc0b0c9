import { mkdirSync, mkdtempSync, readFileSync, rmSync, utimesSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  fileUriString,
  formatUtcLabel,
  historyHomeFromGlobalStorage,
  LocalHistory,
  resourcePath,
  vscodeStringHash,
} from '../../server-core/local-history';

let home: string;
const file = '/work/proj/docs/release notes.md';
beforeAll(() => {
  home = mkdtempSync(join(tmpdir(), 'idea-lh-'));
  // Desktop-style folder (file://) with two entries, one listed with a source.
  mkdirSync(join(home, 'aaa'));
  writeFileSync(join(home, 'aaa/AbC1.md'), 'v1');
  writeFileSync(join(home, 'aaa/XyZ2.md'), 'v2');
  writeFileSync(
    join(home, 'aaa/entries.json'),
    JSON.stringify({
      version: 1,
      resource: fileUriString(file),
      entries: [
        { id: 'AbC1.md', timestamp: 1000 },
        { id: 'XyZ2.md', source: 'Workspace Edit', timestamp: 3000 },
        { id: 'Gone.md', timestamp: 4000 },
      ],
    }),
  );
  // code-server-style folder (vscode-remote://host:port/) with one listed entry and one unlisted file.
  mkdirSync(join(home, 'bbb'));
  writeFileSync(join(home, 'bbb/QqQ3.md'), 'v3');
  writeFileSync(join(home, 'bbb/Unl4.md'), 'v4');
  utimesSync(join(home, 'bbb/Unl4.md'), 5, 5); // 5 s → timestamp 5000 ms
  writeFileSync(
    join(home, 'bbb/entries.json'),
    JSON.stringify({
      version: 1,
      resource: 'vscode-remote://127.0.0.1:8080/work/proj/docs/release%20notes.md',
      entries: [{ id: 'QqQ3.md', timestamp: 2000 }],
    }),
  );
  // Another file's history and junk.
  mkdirSync(join(home, 'ccc'));
  writeFileSync(
    join(home, 'ccc/entries.json'),
    JSON.stringify({ version: 1, resource: 'file:///work/proj/other.md', entries: [] }),
  );
  mkdirSync(join(home, 'ddd'));
  writeFileSync(join(home, 'ddd/entries.json'), '{not json');
});
afterAll(() => rmSync(home, { recursive: true, force: true }));

describe('local history reader', () => {
  it('merges file:// and vscode-remote:// folders, newest first, existing content only', () => {
    const lh = new LocalHistory(home);
    const list = lh.list(file);
    expect(list.map((e) => [e.id, e.timestamp, e.source])).toEqual([
      ['Unl4.md', 5000, undefined],
      ['XyZ2.md', 3000, 'Workspace Edit'],
      ['QqQ3.md', 2000, undefined],
      ['AbC1.md', 1000, undefined],
    ]);
    expect(readFileSync(lh.find(file, 'QqQ3.md')!.location, 'utf8')).toBe('v3');
    expect(lh.find(file, 'Gone.md')).toBeUndefined();
    expect(lh.list('/work/proj/none.md')).toEqual([]);
    expect(new LocalHistory(join(home, 'missing')).list(file)).toEqual([]);
  });
  it('adds an entry that the listing then shows first and whose content is kept', async () => {
    const lh = new LocalHistory(home);
    const [e] = await lh.addEntries([
      { path: file, content: Buffer.from('overwritten'), source: 'IDEA: before rollback', timestamp: 9000 },
    ]);
    if (!e) throw new Error('not added');
    expect(e.id).toMatch(/^[A-Za-z0-9]{4}\.md$/);
    const first = lh.list(file)[0]!;
    expect([first.id, first.source, first.timestamp]).toEqual([e.id, 'IDEA: before rollback', 9000]);
    expect(readFileSync(first.location, 'utf8')).toBe('overwritten');
    // A fresh reader (another window, or after a restart) sees it too.
    expect(new LocalHistory(home).find(file, e.id)).toBeDefined();
  });
  it('creates the folder VS Code would use for a file without history', async () => {
    const lh = new LocalHistory(home);
    const p = '/work/proj/new file.ts';
    const [e] = await lh.addEntries([{ path: p, content: Buffer.from('x'), source: 'test', timestamp: 1 }]);
    if (!e) throw new Error('not added');
    const uri = 'file:///work/proj/new%20file.ts';
    expect(fileUriString(p)).toBe(uri);
    expect(e.location).toBe(join(home, vscodeStringHash(uri).toString(16), e.id));
    expect(
      JSON.parse(readFileSync(join(home, vscodeStringHash(uri).toString(16), 'entries.json'), 'utf8')).resource,
    ).toBe(uri);
  });
  it('listAsync lists what list does', async () => {
    const lh = new LocalHistory(home);
    expect(await lh.listAsync(file)).toEqual(lh.list(file));
    expect(await lh.listAsync('/work/proj/none.md')).toEqual([]);
    expect(await new LocalHistory(join(home, 'missing')).listAsync(file)).toEqual([]);
  });
  it('addEntries: many files at once, two entries of one file in one folder, the newest kept once', async () => {
    const lh = new LocalHistory(home);
    const a = '/work/proj/batch/a.ts';
    const b = '/work/proj/batch/b.ts';
    const added = await lh.addEntries([
      { path: a, content: Buffer.from('a1'), source: 'one', timestamp: 100 },
      { path: b, content: Buffer.from('b1'), source: 'one', timestamp: 100 },
      { path: a, content: Buffer.from('a2'), source: 'two', timestamp: 200 },
    ]);
    expect(added.map((e) => e?.source)).toEqual(['one', 'one', 'two']);
    expect(lh.list(a).map((e) => [e.source, readFileSync(e.location, 'utf8')])).toEqual([
      ['two', 'a2'],
      ['one', 'a1'],
    ]);
    expect(new LocalHistory(home).list(b).map((e) => e.id)).toEqual([added[1]!.id]);
    // unlessNewest: a2 is a's newest entry, b's newest is b1, not b2.
    const again = await lh.addEntries([
      { path: a, content: Buffer.from('a2'), source: 'backup', unlessNewest: true },
      { path: b, content: Buffer.from('b2'), source: 'backup', unlessNewest: true },
    ]);
    expect(again.map((e) => e?.source)).toEqual([undefined, 'backup']);
    expect(lh.list(a)).toHaveLength(2);
    expect(lh.list(b).map((e) => e.source)).toEqual(['backup', 'one']);
  });
  it('addEntries: a file whose entry cannot be written fails alone (onError), or the call throws', async () => {
    const lh = new LocalHistory(home);
    const ok = '/work/proj/batch/ok.ts';
    const blocked = '/work/proj/batch/blocked.ts';
    // Something that is not a folder where VS Code's folder for `blocked` would go.
    writeFileSync(join(home, vscodeStringHash(fileUriString(blocked)).toString(16)), 'not a folder');
    const errors: string[] = [];
    const added = await lh.addEntries(
      [
        { path: ok, content: Buffer.from('ok'), source: 's' },
        { path: blocked, content: Buffer.from('x'), source: 's' },
      ],
      (item) => errors.push(item.path),
    );
    expect(added.map((e) => e?.source)).toEqual(['s', undefined]);
    expect(errors).toEqual([blocked]);
    await expect(lh.addEntries([{ path: blocked, content: Buffer.from('x'), source: 's' }])).rejects.toThrow();
  });
  it('helpers: labels in UTC, resource paths, history home under any profile', () => {
    expect(formatUtcLabel(Date.UTC(2026, 2, 2, 9, 5, 7))).toBe('2026-03-02 09:05:07');
    expect(resourcePath('vscode-remote://127.0.0.1:8080/a/b%20c.ts')).toBe('/a/b c.ts');
    expect(resourcePath('untitled:Untitled-1')).toBeNull();
    expect(historyHomeFromGlobalStorage('/u/udd/User/globalStorage/idea-kit.idea-vscode')).toBe('/u/udd/User/History');
    expect(historyHomeFromGlobalStorage('/u/udd/User/profiles/-5a1b/globalStorage/idea-kit.idea-vscode')).toBe(
      '/u/udd/User/History',
    );
  });
  it("computes VS Code's folder hash (known values from base/common/hash)", () => {
    // stringHash("") = numberHash(149417, 0) = 149417; a signed 32-bit result renders with a minus sign.
    expect(vscodeStringHash('')).toBe(149417);
    expect(vscodeStringHash('a')).toBe((149417 * 31 + 97) | 0);
    expect(typeof vscodeStringHash('file:///a/very/long/path/that/overflows.ts')).toBe('number');
  });
});
