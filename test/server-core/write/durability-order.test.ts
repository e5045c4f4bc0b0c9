// The order of durability that makes a crash or power loss recoverable (issue 33, bench/FINDINGS.md
// finding 2: the temp files, the journal and the local-history entries of a write are written many at
// a time). A power loss cannot be simulated here, so the file calls are recorded instead: node:fs and
// node:fs/promises are wrapped, every fsync is logged when it completed, every rename and removal when
// it was issued, and the log of one write through the write path (writeFiles over a fake host, local
// history included) is checked against the argument in the headers of write/transaction.ts,
// write/journal.ts, write/atomic-file.ts and local-history.ts.
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { basename, dirname, join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { coreContext } from '../../../server-core/context';
import { BACKUP_SOURCES, writeFiles } from '../../../server-core/write/workspace-write';
import { fakeHost } from '../fake-host';

type Event = { op: 'open' | 'fsync' | 'rename' | 'rm'; path: string; to?: string; flags?: string };
const calls = vi.hoisted(() => ({ log: [] as Event[], on: false, sync: [] as string[] }));

vi.mock('node:fs', async (importOriginal) => {
  const real = await importOriginal<typeof import('node:fs')>();
  // Synchronous calls (they block the main thread): counted by name.
  const counted = <F extends (...args: never[]) => unknown>(name: string, fn: F): F =>
    ((...args: Parameters<F>) => {
      if (calls.on) calls.sync.push(name);
      return fn(...args);
    }) as F;
  const syncCalls = Object.fromEntries(
    (
      [
        'openSync',
        'fsyncSync',
        'writeSync',
        'writeFileSync',
        'renameSync',
        'readFileSync',
        'readdirSync',
        'mkdirSync',
        'statSync',
        'fstatSync',
        'readSync',
      ] as const
    ).map((name) => [name, counted(name, real[name] as (...args: never[]) => unknown)]),
  );
  const paths = new Map<number, string>();
  type Cb<T> = (e: NodeJS.ErrnoException | null, r: T) => void;
  const open = (path: string, flags: string, mode: number, cb: Cb<number>) =>
    real.open(path, flags, mode, (e, fd) => {
      if (!e) {
        paths.set(fd, path);
        if (calls.on) calls.log.push({ op: 'open', path, flags });
      }
      cb(e, fd);
    });
  const fsync = (fd: number, cb: (e: NodeJS.ErrnoException | null) => void) =>
    real.fsync(fd, (e) => {
      if (!e && calls.on) calls.log.push({ op: 'fsync', path: paths.get(fd)! });
      cb(e);
    });
  return { ...real, ...syncCalls, default: { ...real, ...syncCalls, open, fsync }, open, fsync };
});

vi.mock('node:fs/promises', async (importOriginal) => {
  const real = await importOriginal<typeof import('node:fs/promises')>();
  const open = async (path: string, flags?: string, mode?: number) => {
    const fh = await real.open(path, flags, mode);
    if (calls.on) calls.log.push({ op: 'open', path, flags: flags ?? 'r' });
    return new Proxy(fh, {
      get(target, key) {
        if (key === 'sync')
          return async () => {
            await target.sync();
            if (calls.on) calls.log.push({ op: 'fsync', path });
          };
        const value = Reflect.get(target, key, target);
        return typeof value === 'function' ? value.bind(target) : value;
      },
    });
  };
  const rename = (from: string, to: string) => {
    if (calls.on) calls.log.push({ op: 'rename', path: from, to });
    return real.rename(from, to);
  };
  const rm = (path: string, opts?: Parameters<typeof real.rm>[1]) => {
    if (calls.on) calls.log.push({ op: 'rm', path });
    return real.rm(path, opts);
  };
  return { ...real, default: { ...real, open, rename, rm }, open, rename, rm };
});

let root: string;
beforeEach(() => {
  root = mkdtempSync(join(tmpdir(), 'idea-order-'));
  calls.log.length = 0;
  calls.sync.length = 0;
});
afterEach(() => {
  calls.on = false;
  rmSync(root, { recursive: true, force: true });
});

describe('the order of durability of one write (writeFiles, local history included)', () => {
  it('journal durable → temp files → their fsyncs and the originals kept → renames in order → folders fsynced → commit → results', async () => {
    const files = Array.from({ length: 24 }, (_, i) => join(root, 'ws', i % 2 ? 'a' : 'b', `f${i}.ts`));
    for (const f of files) {
      mkdirSync(dirname(f), { recursive: true });
      writeFileSync(f, `old ${f}\n`);
    }
    const writes = files.map((f) => ({
      path: f,
      target: f,
      before: readFileSync(f),
      after: Buffer.from(`new ${f}\n`),
    }));
    const core = coreContext(fakeHost(root));
    calls.on = true;
    await writeFiles(core, writes, { what: 'edit/rename', recordResult: true, backupSource: BACKUP_SOURCES.rename });
    calls.on = false;
    const log = calls.log;
    const journalRoot = join(root, 'state', 'journal');
    const history = join(root, 'History');
    const at = (pred: (e: Event) => boolean) => log.findIndex(pred);
    const all = (pred: (e: Event) => boolean) => log.flatMap((e, i) => (pred(e) ? [i] : []));
    const fsyncOf = (pred: (p: string) => boolean) => all((e) => e.op === 'fsync' && pred(e.path));

    // 1. The journal: the originals and the manifest fsynced, then the manifest renamed into place,
    //    then its folder and the journal root fsynced.
    const manifestRename = at((e) => e.op === 'rename' && e.to?.endsWith('manifest.json') === true);
    expect(manifestRename).toBeGreaterThan(-1);
    const jdir = dirname(log[manifestRename]!.to!);
    const originalsSynced = fsyncOf((p) => p === join(jdir, 'originals'));
    const manifestSynced = fsyncOf((p) => p === join(jdir, 'manifest.tmp'));
    expect(originalsSynced).toHaveLength(1);
    expect(manifestSynced).toHaveLength(1);
    expect(Math.max(...originalsSynced, ...manifestSynced)).toBeLessThan(manifestRename);
    const jdirSynced = fsyncOf((p) => p === jdir);
    const jrootSynced = fsyncOf((p) => p === journalRoot);
    expect(jdirSynced.length).toBeGreaterThan(0);
    expect(jrootSynced.length).toBeGreaterThan(0);
    expect(jdirSynced[0]!).toBeGreaterThan(manifestRename);
    const journalDurable = Math.max(jdirSynced[0]!, jrootSynced[0]!);

    // 2. Every temp file is created after the journal is durable, and fsynced before the first rename.
    const isTemp = (p: string) => p.includes('.idea-tmp-');
    const tempOpens = all((e) => e.op === 'open' && isTemp(e.path));
    expect(tempOpens).toHaveLength(files.length);
    expect(Math.min(...tempOpens)).toBeGreaterThan(journalDurable);
    const renames = all((e) => e.op === 'rename' && isTemp(e.path) && files.includes(e.to!));
    expect(renames.map((i) => log[i]!.to)).toEqual(files); // in the plan's order
    const firstRename = renames[0]!;
    const lastRename = renames.at(-1)!;
    const tempSyncs = fsyncOf(isTemp);
    expect(tempSyncs).toHaveLength(files.length);
    expect(Math.max(...tempSyncs)).toBeLessThan(firstRename);

    // 3. The originals are kept in local history (content fsynced) before the first rename; the new
    //    content is recorded only after the commit.
    const historySyncs = fsyncOf((p) => p.startsWith(history));
    const content = (i: number) => readFileSync(log[i]!.path, 'utf8');
    const originals = historySyncs.filter((i) => content(i).startsWith('old '));
    const results = historySyncs.filter((i) => content(i).startsWith('new '));
    expect(originals).toHaveLength(files.length);
    expect(results).toHaveLength(files.length);
    expect(Math.max(...originals)).toBeLessThan(firstRename);

    // 4. Every folder written is fsynced after the last rename and before the commit (the manifest
    //    renamed to the transaction's record), and the journal then moves into the undo log, durably
    //    (both roots fsynced after the move): nothing is copied, the originals go with it.
    const commit = at(
      (e) => e.op === 'rename' && e.path === join(jdir, 'manifest.json') && e.to === join(jdir, 'record.json'),
    );
    expect(commit).toBeGreaterThan(lastRename);
    for (const folder of [join(root, 'ws', 'a'), join(root, 'ws', 'b')]) {
      const synced = fsyncOf((p) => p === folder).filter((i) => i > lastRename);
      expect(synced.length, folder).toBe(1); // once per write, not once per file
      expect(synced[0]!, folder).toBeLessThan(commit);
    }
    const undoRoot = join(root, 'state', 'transactions');
    const moved = at((e) => e.op === 'rename' && e.path === jdir && e.to === join(undoRoot, basename(jdir)));
    expect(moved).toBeGreaterThan(commit);
    expect(Math.max(...fsyncOf((p) => p === jdir))).toBeGreaterThan(commit); // record.json durable
    expect(Math.max(...fsyncOf((p) => p === journalRoot))).toBeGreaterThan(moved);
    expect(Math.max(...fsyncOf((p) => p === undoRoot))).toBeGreaterThan(moved);
    expect(log.filter((e) => e.op === 'open' && e.path.startsWith(`${undoRoot}/`))).toEqual([]); // no copy
    expect(Math.min(...results)).toBeGreaterThan(commit);

    // 5. Nothing synchronous per file on the main thread: the only synchronous calls are the history
    //    index's (local-history-index.ts): a few stats of its folder per batch of entries, and the one
    //    listing of that folder that builds the index.
    expect(calls.sync.filter((name) => name !== 'statSync' && name !== 'readdirSync')).toEqual([]);
    expect(calls.sync.filter((name) => name === 'readdirSync')).toHaveLength(1);
    expect(calls.sync.length).toBeLessThanOrEqual(8);
  });

  it("reads each History folder's entries.json once per write: recording the results reuses what keeping the originals read", async () => {
    const files = Array.from({ length: 6 }, (_, i) => join(root, 'ws', `f${i}.ts`));
    mkdirSync(join(root, 'ws'), { recursive: true });
    for (const f of files) writeFileSync(f, 'v0\n');
    const core = coreContext(fakeHost(root));
    const write = (from: string, to: string) =>
      writeFiles(
        core,
        files.map((f) => ({ path: f, target: f, before: Buffer.from(from), after: Buffer.from(to) })),
        { what: 'edit/rename', recordResult: true, backupSource: BACKUP_SOURCES.rename },
      );
    await write('v0\n', 'v1\n');
    calls.on = true;
    await write('v1\n', 'v2\n'); // each original is its file's newest entry: only the results are added
    calls.on = false;
    const listingOpens = calls.log.filter((e) => e.op === 'open' && e.path.endsWith('entries.json'));
    expect(listingOpens).toHaveLength(files.length);
    for (const f of files) expect(readFileSync(f, 'utf8')).toBe('v2\n');
    const sources = core.history.list(files[0]!).map((e) => e.source);
    expect(sources.sort()).toEqual(['IDEA: before edit/rename', 'IDEA: edit/rename', 'IDEA: edit/rename']);
  });
});
