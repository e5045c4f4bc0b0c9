// clause T57, H21: every write is a transaction that can be undone. Through a session of the served
// version over a stand-in host: an edit/apply that edits, moves a folder, creates and deletes, undone
// leaves the tree byte-identical (modes too), the undo's own transaction undone redoes it, a path
// changed since refuses the undo naming it, a dry run writes nothing, edit/replace's transactions undo
// too, and the log (newest first, undone flagged, only this workspace's) outlives the server.
import {
  chmodSync,
  lstatSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  rmSync,
  writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { join, relative } from 'node:path';
import { afterAll, beforeEach, describe, expect, it } from 'vitest';
import { type AnswerFrame, coreSession } from '../core-session';
import { type FakeHost, fakeHost } from '../fake-host';

const root = mkdtempSync(join(tmpdir(), 'idea-edit-undo-'));
const ws = join(root, 'ws');
let host: FakeHost;
let ask: (topic: string, params: object) => Promise<AnswerFrame>;

beforeEach(() => {
  for (const d of [ws, join(root, 'state'), join(root, 'History'), join(root, 'other')])
    rmSync(d, { recursive: true, force: true });
  mkdirSync(join(ws, 'src', 'lib', 'deep'), { recursive: true });
  writeFileSync(join(ws, 'a.ts'), 'export const a = 1;\r\n');
  writeFileSync(join(ws, 'gone.ts'), 'gone\n');
  chmodSync(join(ws, 'gone.ts'), 0o600);
  writeFileSync(join(ws, 'src', 'lib', 'one.ts'), 'one\n');
  writeFileSync(join(ws, 'src', 'lib', 'deep', 'two.ts'), 'two\n');
  chmodSync(join(ws, 'src', 'lib', 'deep', 'two.ts'), 0o750);
  host = fakeHost(root);
  ({ ask } = coreSession(host));
});
afterAll(() => rmSync(root, { recursive: true, force: true }));

/** Every path under the workspace with its kind, mode and bytes. */
function tree(): Record<string, string> {
  const out: Record<string, string> = {};
  const walk = (d: string) => {
    for (const n of readdirSync(d).sort()) {
      const p = join(d, n);
      const st = lstatSync(p);
      const mode = (st.mode & 0o777).toString(8);
      if (st.isDirectory()) {
        out[`${relative(ws, p)}/`] = mode;
        walk(p);
      } else out[relative(ws, p)] = `${mode} ${readFileSync(p, 'latin1')}`;
    }
  };
  walk(ws);
  return out;
}

const ok = async (topic: string, params: object) => {
  const a = await ask(topic, params);
  expect(a.error, `${topic}: ${a.error?.message}`).toBeUndefined();
  return a.result as Record<string, unknown> & {
    transactionId?: string;
    files: { change: string; filePath: string }[];
  };
};
const range = (line: number, character: number, endLine: number, endCharacter: number, newText: string) => ({
  line,
  character,
  endLine,
  endCharacter,
  newText,
});
/** An edit/apply touching everything undo must put back. */
const everything = () =>
  ok('edit/apply', {
    label: 'everything',
    changes: [
      { kind: 'edit', filePath: 'a.ts', edits: [range(0, 17, 0, 18, '2\nexport const b = 3;')] },
      { kind: 'rename', filePath: 'src/lib', newFilePath: 'pkg/lib' },
      { kind: 'edit', filePath: 'pkg/lib/one.ts', edits: [range(0, 0, 0, 3, 'ONE')] },
      { kind: 'delete', filePath: 'gone.ts' },
      { kind: 'create', filePath: 'new/util.ts', content: 'util\n' },
    ],
  });

describe('edit/undo', () => {
  it('puts every file and folder back byte for byte, modes too; undoing the undo redoes', async () => {
    const start = tree();
    const applied = await everything();
    const after = tree();
    expect(after).not.toEqual(start);
    const undo = await ok('edit/undo', { transactionId: applied.transactionId });
    expect(tree()).toEqual(start);
    expect(undo).toMatchObject({ dryRun: false, editCount: 0, transactionId: expect.any(String) });
    expect(undo.transactionId).not.toBe(applied.transactionId);
    // In the record's order (the changes' order), then the folders as the transaction makes them.
    expect(undo.files.map((f) => [f.change, relative(ws, f.filePath)])).toEqual([
      ['edited', 'a.ts'],
      ['created', 'src/lib/one.ts'],
      ['created', 'src/lib/deep/two.ts'],
      ['deleted', 'pkg/lib/deep/two.ts'],
      ['deleted', 'pkg/lib/one.ts'],
      ['created', 'gone.ts'],
      ['deleted', 'new/util.ts'],
      ['createdFolder', 'src/lib'],
      ['createdFolder', 'src/lib/deep'],
      ['deletedFolder', 'pkg/lib/deep'],
      ['deletedFolder', 'pkg/lib'],
      ['deletedFolder', 'pkg'],
      ['deletedFolder', 'new'],
    ]);
    const redo = await ok('edit/undo', { transactionId: undo.transactionId });
    expect(tree()).toEqual(after);
    const listed = await ok('edit/transactions', {});
    expect(listed.totalCount).toBe(3);
    expect(
      (listed.transactions as { transactionId: string; undone: boolean; topic: string; label?: string }[]).map((t) => [
        t.transactionId,
        t.topic,
        t.undone,
        t.label,
      ]),
    ).toEqual([
      [redo.transactionId, '/app/vscode/edit/undo', false, undefined],
      [undo.transactionId, '/app/vscode/edit/undo', true, undefined],
      [applied.transactionId, '/app/vscode/edit/apply', false, 'everything'],
    ]);
  });

  it('is refused, naming the path, when anything it would put back changed since; nothing is changed', async () => {
    const applied = await everything();
    const after = tree();
    const refusedBy = async (change: () => void, why: RegExp) => {
      change();
      const changed = tree();
      for (const dryRun of [true, false]) {
        const a = await ask('edit/undo', { transactionId: applied.transactionId, dryRun });
        expect(a.error?.code).toBe('INVALID_REQUEST');
        expect(a.error?.message).toMatch(why);
        expect(a.error?.message).toMatch(/nothing was changed/);
      }
      expect(tree()).toEqual(changed);
    };
    await refusedBy(() => writeFileSync(join(ws, 'a.ts'), 'edited by hand'), /a\.ts changed since/);
    writeFileSync(join(ws, 'a.ts'), after['a.ts']!.slice(4), 'latin1');
    await refusedBy(() => writeFileSync(join(ws, 'gone.ts'), 'back'), /gone\.ts exists again/);
    rmSync(join(ws, 'gone.ts'));
    await refusedBy(() => writeFileSync(join(ws, 'new', 'theirs.ts'), 'theirs'), /new holds theirs\.ts/);
    rmSync(join(ws, 'new', 'theirs.ts'));
    await refusedBy(() => rmSync(join(ws, 'new', 'util.ts')), /util\.ts was deleted since/);
    writeFileSync(join(ws, 'new', 'util.ts'), 'util\n');
    host.docs.push({ path: join(ws, 'pkg', 'lib', 'one.ts'), text: 'unsaved', dirty: true });
    await refusedBy(() => undefined, /one\.ts has unsaved changes/);
    host.docs.length = 0;
    expect(tree()).toEqual(after);
    await ok('edit/undo', { transactionId: applied.transactionId });
  });

  it('a dry run answers the undo and writes nothing', async () => {
    const applied = await everything();
    const after = tree();
    const dry = await ok('edit/undo', { transactionId: applied.transactionId, dryRun: true });
    expect(tree()).toEqual(after);
    expect(dry).toMatchObject({ dryRun: true, changedFiles: [] });
    expect(dry.transactionId).toBeUndefined();
    const edited = dry.files.find((f) => f.filePath === join(ws, 'a.ts')) as unknown as { diff: string };
    expect(edited.diff).toContain('+export const a = 1;');
  });

  it('undoes the transactions of the v0.1.7 write topics too (edit/replace)', async () => {
    const start = tree();
    const replaced = await ok('edit/replace', { pattern: 'one', replacement: 'uno' });
    expect(readFileSync(join(ws, 'src', 'lib', 'one.ts'), 'utf8')).toBe('uno\n');
    await ok('edit/undo', { transactionId: replaced.transactionId });
    expect(tree()).toEqual(start);
  });

  it('an id the server does not keep is INVALID_REQUEST; a malformed one too', async () => {
    for (const transactionId of ['1796550000000-abcdef12', '../../etc', 'x'])
      expect((await ask('edit/undo', { transactionId })).error?.code).toBe('INVALID_REQUEST');
  });
});

describe('edit/transactions', () => {
  it('lists what the server keeps, newest first, at most maxCount, after a restart too', async () => {
    const ids: string[] = [];
    for (const n of [1, 2, 3])
      ids.push(
        (await ok('edit/apply', { changes: [{ kind: 'create', filePath: `f${n}.ts`, content: `${n}` }] }))
          .transactionId!,
      );
    // A new server over the same state folder: the log is on disk.
    const restarted = coreSession(fakeHost(root));
    const listed = (await restarted.ask('edit/transactions', { maxCount: 2 })).result!;
    expect(listed.totalCount).toBe(3);
    expect((listed.transactions as { transactionId: string; files: string[] }[]).map((t) => t.transactionId)).toEqual([
      ids[2],
      ids[1],
    ]);
    expect((listed.transactions as { files: string[] }[])[0]!.files).toEqual([join(ws, 'f3.ts')]);
    expect((await restarted.ask('edit/undo', { transactionId: ids[0] })).error).toBeUndefined();
    expect(readdirSync(ws)).not.toContain('f1.ts');
  });

  it("leaves out another workspace's transactions (a state folder shared by windows)", async () => {
    await ok('edit/apply', { changes: [{ kind: 'create', filePath: 'mine.ts' }] });
    const other = fakeHost(root);
    other.folders = { ...other.folders, paths: () => [join(root, 'other')] };
    mkdirSync(join(root, 'other'));
    const o = coreSession(other);
    expect((await o.ask('edit/transactions', {})).result).toEqual({ transactions: [], totalCount: 0 });
    const mine = ((await ask('edit/transactions', {})).result!.transactions as { transactionId: string }[])[0]!;
    const a = await o.ask('edit/undo', { transactionId: mine.transactionId });
    expect(a.error?.message).toMatch(/outside every open workspace folder/);
  });
});
