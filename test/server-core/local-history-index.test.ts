// LocalHistory's folder index (server-core/local-history-index.ts, issue 33 finding 1): a write of many
// files lists the History folder once and resolves each folder's file once (readdir, realpath and
// entries.json opens counted: no timing), and the index still sees what other processes do to the
// History folder (new folders, an entries.json written late, a deleted folder) and symlinked paths.
import { mkdirSync, mkdtempSync, readFileSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeEach, describe, expect, it, vi } from 'vitest';
import { fileUriString, Listings, LocalHistory, vscodeStringHash } from '../../server-core/local-history';

const calls = vi.hoisted(() => ({
  readdir: [] as string[],
  realpath: 0,
  open: [] as string[],
  asyncOpen: [] as string[],
}));
vi.mock('node:fs', async (original) => {
  const real = await original<typeof import('node:fs')>();
  const realpathSync = Object.assign(
    (...args: Parameters<typeof real.realpathSync>) => {
      calls.realpath++;
      return real.realpathSync(...args);
    },
    {
      native: (...args: Parameters<typeof real.realpathSync.native>) => {
        calls.realpath++;
        return real.realpathSync.native(...args);
      },
    },
  );
  return {
    ...real,
    realpathSync,
    readdirSync: ((...args: Parameters<typeof real.readdirSync>) => {
      calls.readdir.push(String(args[0]));
      return real.readdirSync(...args);
    }) as typeof real.readdirSync,
    openSync: (...args: Parameters<typeof real.openSync>) => {
      calls.open.push(String(args[0]));
      return real.openSync(...args);
    },
    readFileSync: ((...args: Parameters<typeof real.readFileSync>) => {
      calls.open.push(String(args[0]));
      return real.readFileSync(...args);
    }) as typeof real.readFileSync,
    // The write path's own file calls (write/fd-io.ts): opens counted by path.
    open: ((...args: Parameters<typeof real.open>) => {
      calls.asyncOpen.push(String(args[0]));
      return real.open(...args);
    }) as typeof real.open,
  };
});

const tmp = mkdtempSync(join(tmpdir(), 'idea-lh-index-'));
afterAll(() => rmSync(tmp, { recursive: true, force: true }));
let n = 0;
/** A fresh History folder and workspace. */
function fresh(): { home: string; ws: string } {
  const base = join(tmp, `case${n++}`);
  mkdirSync(join(base, 'History'), { recursive: true });
  mkdirSync(join(base, 'ws'), { recursive: true });
  return { home: join(base, 'History'), ws: join(base, 'ws') };
}
const folderOf = (home: string, path: string) => join(home, vscodeStringHash(fileUriString(path)).toString(16));
/** One entry added (addEntries of one item), returned. */
async function addOne(lh: LocalHistory, path: string, content: string, source: string, timestamp?: number) {
  const [entry] = await lh.addEntries([{ path, content: Buffer.from(content), source, timestamp }]);
  if (!entry) throw new Error(`no entry added for ${path}`);
  return entry;
}
function reset(): void {
  calls.readdir.length = 0;
  calls.realpath = 0;
  calls.open.length = 0;
  calls.asyncOpen.length = 0;
}
beforeEach(reset);

describe('local history folder index', () => {
  it('a write of N files lists the History folder once and resolves each folder once, not N × H times', async () => {
    const { home, ws } = fresh();
    // H = 300 other files' folders (their files exist), and junk: folders without entries.json, broken
    // listings, a foreign scheme, a stray file.
    const H = 300;
    for (let i = 0; i < H; i++) {
      const f = join(ws, `other${i}.ts`);
      writeFileSync(f, '');
      mkdirSync(folderOf(home, f));
      writeFileSync(
        join(folderOf(home, f), 'entries.json'),
        JSON.stringify({ version: 1, resource: fileUriString(f), entries: [] }),
      );
    }
    for (let i = 0; i < 20; i++) mkdirSync(join(home, `empty${i}`));
    for (let i = 0; i < 20; i++) {
      mkdirSync(join(home, `broken${i}`));
      writeFileSync(join(home, `broken${i}`, 'entries.json'), '{not json');
    }
    mkdirSync(join(home, 'foreign'));
    writeFileSync(
      join(home, 'foreign', 'entries.json'),
      JSON.stringify({ version: 1, resource: 'untitled:Untitled-1' }),
    );
    writeFileSync(join(home, 'stray'), 'x');
    const N = 40;
    const files = Array.from({ length: N }, (_, i) => join(ws, `f${i}.ts`));
    for (const f of files) writeFileSync(f, 'before');
    const lh = new LocalHistory(home);
    reset();
    // Three lookups per file, one file at a time: list (is the newest entry the content?), the backup,
    // the result (the write path's addEntries does one lookup for all its files: the next test).
    for (const f of files) {
      expect(lh.list(f)).toEqual([]);
      await addOne(lh, f, 'before', 'backup', 1000);
      await addOne(lh, f, 'after', 'result', 2000);
    }
    expect(calls.readdir.filter((p) => p === home)).toHaveLength(1);
    // One per indexed folder, one per lookup (the wanted path): 300 + 3 × 40, against 3 × 40 × 300 listed.
    expect(calls.realpath).toBeLessThanOrEqual(H + 3 * N + 10);
    // Junk is read once, not again on every lookup.
    const junk = calls.open.filter((p) => /(empty|broken)\d+|foreign|stray/.test(p));
    expect(junk.length).toBeLessThanOrEqual(41 + 1 + 1);
    for (const f of files) expect(lh.list(f).map((e) => e.source)).toEqual(['result', 'backup']);
    // Another reader (a restart, another window) sees the same.
    expect(new LocalHistory(home).list(files[7]!).map((e) => e.source)).toEqual(['result', 'backup']);
  });

  it('addEntries (the write path, issue 33 finding 2): N new folders made and filed at once, no listing and no realpath per file', async () => {
    const { home, ws } = fresh();
    const H = 100;
    for (let i = 0; i < H; i++) {
      const f = join(ws, `other${i}.ts`);
      mkdirSync(folderOf(home, f));
      writeFileSync(
        join(folderOf(home, f), 'entries.json'),
        JSON.stringify({ version: 1, resource: fileUriString(f), entries: [] }),
      );
    }
    const N = 40;
    const files = Array.from({ length: N }, (_, i) => join(ws, `f${i}.ts`));
    for (const f of files) writeFileSync(f, 'before');
    const lh = new LocalHistory(home);
    reset();
    // What workspace-write.ts does per write: the originals (unless already kept), then the results.
    const kept = (content: string, source: string, unlessNewest = false) =>
      lh.addEntries(files.map((f) => ({ path: f, real: f, content: Buffer.from(content), source, unlessNewest })));
    expect((await kept('before', 'backup', true)).every((e) => e !== undefined)).toBe(true);
    expect((await kept('after', 'result')).every((e) => e !== undefined)).toBe(true);
    // The second write finds each original already kept (the newest entry holds it): nothing added.
    expect((await kept('after', 'backup', true)).every((e) => e === undefined)).toBe(true);
    expect(calls.readdir.filter((p) => p === home)).toHaveLength(1); // the index's first build, only
    expect(calls.realpath).toBeLessThanOrEqual(H + 5); // the indexed folders' files, none per written file
    for (const f of files) expect(lh.list(f).map((e) => e.source)).toEqual(['result', 'backup']);
    expect(calls.readdir.filter((p) => p === home)).toHaveLength(1);
    expect(new LocalHistory(home).list(files[7]!).map((e) => e.source)).toEqual(['result', 'backup']);
  });

  it("one write reads each folder's entries.json once: the results go into the listing read for the originals, unless it changed (Listings)", async () => {
    const { home, ws } = fresh();
    const N = 10;
    const files = Array.from({ length: N }, (_, i) => join(ws, `f${i}.ts`));
    const lh = new LocalHistory(home);
    // What workspace-write.ts does per write: the originals unless already kept, then the results.
    const write = async (before: string, after: string, at: number, meanwhile?: () => Promise<unknown>) => {
      const listings = new Listings();
      const entry = (content: string, source: string, timestamp: number, unlessNewest = false) =>
        files.map((f) => ({ path: f, real: f, content: Buffer.from(content), source, timestamp, unlessNewest }));
      await lh.addEntries(entry(before, 'backup', at, true), undefined, listings);
      await meanwhile?.();
      await lh.addEntries(entry(after, 'result', at + 1), undefined, listings);
    };
    const listingOpens = () => calls.asyncOpen.filter((p) => p.endsWith('entries.json')).length;
    await write('v0', 'v1', 100);
    reset();
    await write('v1', 'v2', 200); // every original is its file's newest entry already: only the results added
    expect(listingOpens()).toBe(N); // read for the originals, not again for the results
    for (const f of files) expect(lh.list(f).map((e) => e.source)).toEqual(['result', 'result', 'backup']);
    // Another process adds an entry to one file's folder in between: that listing is read again, its entry kept.
    reset();
    await write('v2', 'v3', 300, () => addOne(new LocalHistory(home), files[3]!, 'theirs', 'other', 250));
    expect(listingOpens()).toBe(N + 2); // the other's read of it, and ours again
    const listed = JSON.parse(readFileSync(join(folderOf(home, files[3]!), 'entries.json'), 'utf8'));
    expect(listed.entries.map((e: { source: string }) => e.source)).toEqual([
      'backup',
      'result',
      'result',
      'other',
      'result',
    ]);
  });

  it("sees another process's new folder, and appends to it, after the index was built", async () => {
    const { home, ws } = fresh();
    const [a, b] = [join(ws, 'a.ts'), join(ws, 'b.ts')];
    const ours = new LocalHistory(home);
    const other = new LocalHistory(home);
    await addOne(ours, a, 'a1', 'ours');
    expect(ours.list(b)).toEqual([]);
    const e = await addOne(other, b, 'b1', 'other');
    expect(ours.list(b).map((x) => x.id)).toEqual([e.id]);
    await addOne(ours, b, 'b2', 'ours');
    const listing = JSON.parse(readFileSync(join(folderOf(home, b), 'entries.json'), 'utf8'));
    expect(listing.entries.map((x: { source: string }) => x.source)).toEqual(['other', 'ours']);
    expect(other.list(a).map((x) => x.source)).toEqual(['ours']);
  });

  it('sees an entries.json written late into a folder it had indexed without one (VS Code desktop flushes it lazily)', () => {
    const { home, ws } = fresh();
    const c = join(ws, 'c.ts');
    const folder = folderOf(home, c);
    mkdirSync(folder);
    writeFileSync(join(folder, 'AbCd.ts'), 'c0');
    const lh = new LocalHistory(home);
    expect(lh.list(c)).toEqual([]); // no listing yet: not known to be c's (as before the index)
    reset();
    writeFileSync(
      join(folder, 'entries.json'),
      JSON.stringify({
        version: 1,
        resource: fileUriString(c),
        entries: [{ id: 'AbCd.ts', source: 'vs', timestamp: 5 }],
      }),
    );
    expect(lh.list(c).map((e) => [e.id, e.source, e.timestamp])).toEqual([['AbCd.ts', 'vs', 5]]);
    expect(calls.readdir.filter((p) => p === home)).toEqual([]); // the History folder itself did not change
  });

  it('forgets a folder deleted under it and makes it again on the next entry', async () => {
    const { home, ws } = fresh();
    const d = join(ws, 'd.ts');
    const lh = new LocalHistory(home);
    await addOne(lh, d, 'd1', 'one');
    rmSync(folderOf(home, d), { recursive: true });
    expect(lh.list(d)).toEqual([]);
    await addOne(lh, d, 'd2', 'two');
    expect(lh.list(d).map((e) => e.source)).toEqual(['two']);
  });

  it('matches a folder recorded under a symlinked path by the real path, and the other way round', async () => {
    const { home, ws } = fresh();
    mkdirSync(join(ws, 'real'));
    symlinkSync(join(ws, 'real'), join(ws, 'link'));
    writeFileSync(join(ws, 'real', 'x.ts'), 'x');
    writeFileSync(join(ws, 'real', 'y.ts'), 'y');
    const lh = new LocalHistory(home);
    expect(lh.list(join(ws, 'real', 'x.ts'))).toEqual([]); // index built before the other writer's folders
    const other = new LocalHistory(home);
    const x = await addOne(other, join(ws, 'link', 'x.ts'), 'x', 'via link');
    const y = await addOne(other, join(ws, 'real', 'y.ts'), 'y', 'via real');
    expect(lh.list(join(ws, 'real', 'x.ts')).map((e) => e.id)).toEqual([x.id]);
    expect(lh.list(join(ws, 'link', 'y.ts')).map((e) => e.id)).toEqual([y.id]);
    // An entry added through the other spelling goes to the same folder.
    await addOne(lh, join(ws, 'real', 'x.ts'), 'x2', 'again');
    expect(lh.foldersFor(join(ws, 'link', 'x.ts'))).toHaveLength(1);
    expect(lh.list(join(ws, 'link', 'x.ts'))).toHaveLength(2);
  });

  it('reads the resource of a huge entries.json from its start, and skips a path no OS resolves', () => {
    const { home, ws } = fresh();
    const big = join(ws, 'big.ts');
    mkdirSync(folderOf(home, big));
    writeFileSync(join(folderOf(home, big), 'AAAA.ts'), 'big');
    const filler = Array.from({ length: 70_000 }, (_, i) => ({ id: `z${i}`, source: 'x'.repeat(60), timestamp: i }));
    const text = JSON.stringify({
      version: 1,
      resource: fileUriString(big),
      entries: [{ id: 'AAAA.ts', timestamp: 7 }, ...filler],
    });
    expect(text.length).toBeGreaterThan(4 << 20);
    writeFileSync(join(folderOf(home, big), 'entries.json'), text);
    mkdirSync(join(home, 'long'));
    writeFileSync(
      join(home, 'long', 'entries.json'),
      JSON.stringify({ version: 1, resource: `file:///${'a/'.repeat(5000)}z.ts` }),
    );
    const lh = new LocalHistory(home);
    expect(lh.list(big).map((e) => [e.id, e.timestamp])).toEqual([['AAAA.ts', 7]]);
    expect(lh.list(`/${'a/'.repeat(5000)}z.ts`)).toHaveLength(0); // indexed by its recorded path, no entries
    expect(lh.foldersFor(`/${'a/'.repeat(5000)}z.ts`)).toHaveLength(1);
  });
});
