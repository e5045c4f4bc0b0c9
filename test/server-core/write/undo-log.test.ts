// clause T57, H21: every committed write is kept in the server's state folder (never the workspace) for
// edit/undo, bounded in count and size with the oldest dropped first, read back after a restart (from
// disk, nothing in memory), and an undo of an undo redoes.
import { mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { coreContext } from '../../../server-core/context';
import {
  keptTransaction,
  keptTransactions,
  pruneUndoLog,
  UNDO_MAX_TRANSACTIONS,
  undoneIds,
  withOriginals,
} from '../../../server-core/write/undo-log';
import { BACKUP_SOURCES, writeFiles } from '../../../server-core/write/workspace-write';
import { fakeHost } from '../fake-host';

let root: string;
let ws: string;
let stateDir: string;
beforeEach(() => {
  root = mkdtempSync(join(tmpdir(), 'idea-undo-log-'));
  ws = join(root, 'ws');
  stateDir = join(root, 'state');
  mkdirSync(ws, { recursive: true });
});
afterEach(() => rmSync(root, { recursive: true, force: true }));

const opts = { what: 'edit/apply', recordResult: false, backupSource: BACKUP_SOURCES.apply };

/** Writes `content` over `file` (created when missing) through the write path; the transaction id. */
async function write(file: string, content: string, extra: { label?: string; undoes?: string } = {}) {
  const core = coreContext(fakeHost(root));
  const before = (() => {
    try {
      return readFileSync(file);
    } catch {
      return null;
    }
  })();
  return writeFiles(core, [{ path: file, target: file, before, after: Buffer.from(content) }], { ...opts, ...extra });
}

describe('the undo log', () => {
  it('keeps every write with its originals in the state folder, newest first, across a restart', async () => {
    const f = join(ws, 'a.txt');
    const first = await write(f, 'one');
    const second = await write(f, 'two', { label: 'second' });
    expect(first).toBeDefined();
    expect(second).not.toBe(first);
    expect(readdirSync(ws)).toEqual(['a.txt']); // nothing in the workspace
    // "Restart": nothing is cached; the log is read from disk.
    const kept = await keptTransactions(stateDir);
    expect(kept.map((t) => t.id)).toEqual([second, first]);
    expect(kept[0]).toMatchObject({ topic: '/app/vscode/edit/apply', paths: [f], record: { label: 'second' } });
    const t = (await keptTransaction(stateDir, second!))!;
    const original = await withOriginals(stateDir, second!, (get) => get(t.record.files[0]!));
    expect(original?.toString()).toBe('one');
    // The first created the file: no original.
    const created = (await keptTransaction(stateDir, first!))!;
    expect(created.record.files[0]!.beforeSha256).toBeNull();
  });

  it('a write that changes nothing has no transaction', async () => {
    const core = coreContext(fakeHost(root));
    expect(await writeFiles(core, [], opts)).toBeUndefined();
    expect(await keptTransactions(stateDir)).toEqual([]);
  });

  it('ids that are not ids (a path, dots) are not kept transactions', async () => {
    const f = join(ws, 'a.txt');
    await write(f, 'one');
    for (const id of ['../state', '..', 'a/b', '', 'short', `${'x'.repeat(65)}`])
      expect(await keptTransaction(stateDir, id), id).toBeUndefined();
  });

  // clause H21: the originals kept for undo are bounded in count and size.
  it('is bounded in count: the oldest dropped first', async () => {
    const f = join(ws, 'a.txt');
    const ids: string[] = [];
    for (let i = 0; i < 6; i++) ids.push((await write(f, `v${i}`))!);
    await pruneUndoLog(stateDir, () => undefined, { transactions: 4, bytes: 1 << 30 });
    expect((await keptTransactions(stateDir)).map((t) => t.id)).toEqual(ids.slice(2).reverse());
    expect(UNDO_MAX_TRANSACTIONS).toBeGreaterThanOrEqual(50);
  });

  it('is bounded in size: the oldest dropped first, the newest always kept', async () => {
    const f = join(ws, 'a.txt');
    const ids: string[] = [];
    for (let i = 0; i < 4; i++) ids.push((await write(f, `${i}`.repeat(1000)))!);
    // originals: 0 (created), then 1000 bytes each.
    await pruneUndoLog(stateDir, () => undefined, { transactions: 100, bytes: 2000 });
    expect((await keptTransactions(stateDir)).map((t) => t.id)).toEqual([ids[3], ids[2]]);
    await pruneUndoLog(stateDir, () => undefined, { transactions: 100, bytes: 10 });
    expect((await keptTransactions(stateDir)).map((t) => t.id)).toEqual([ids[3]]);
  });

  it('an undo marks what it undid; undoing the undo marks it done again', async () => {
    const f = join(ws, 'a.txt');
    const a = (await write(f, 'a'))!;
    const undoA = (await write(f, '', { undoes: a }))!;
    expect(undoneIds(await keptTransactions(stateDir))).toEqual(new Set([a]));
    const redo = (await write(f, 'a', { undoes: undoA }))!;
    expect(undoneIds(await keptTransactions(stateDir))).toEqual(new Set([undoA]));
    await write(f, '', { undoes: a });
    expect(undoneIds(await keptTransactions(stateDir))).toEqual(new Set([undoA, a]));
    expect(redo).toBeDefined();
  });

  it('an unreadable record is left out of the list, the others listed', async () => {
    const f = join(ws, 'a.txt');
    const good = (await write(f, 'one'))!;
    const bad = (await write(f, 'two'))!;
    writeFileSync(join(stateDir, 'transactions', bad, 'record.json'), '{not json');
    expect((await keptTransactions(stateDir)).map((t) => t.id)).toEqual([good]);
  });
});
