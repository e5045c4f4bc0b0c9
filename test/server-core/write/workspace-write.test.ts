// The write path over a host (no editor needed): unsaved editor text and protected files are refused
// with nothing changed, originals are kept in local history, the result is recorded only when the host
// says a save would be, and the host hears about every file written.
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { coreContext } from '../../../server-core/context';
import { applyAllOrNothing } from '../../../server-core/write/transaction';
import { BACKUP_SOURCES, writeFiles } from '../../../server-core/write/workspace-write';
import { fakeHost } from '../fake-host';

let root: string;
let file: string;
beforeEach(() => {
  root = mkdtempSync(join(tmpdir(), 'idea-ww-'));
  mkdirSync(join(root, 'ws', '.git'), { recursive: true });
  file = join(root, 'ws', 'a.txt');
  writeFileSync(file, 'old\n');
});
afterEach(() => rmSync(root, { recursive: true, force: true }));

const plan = (path: string, after: string) => ({
  path,
  target: path,
  before: readFileSync(path),
  after: Buffer.from(after),
});
const opts = { what: 'edit/replace', recordResult: true, backupSource: BACKUP_SOURCES.replace };

describe('writeFiles over a host', () => {
  it('writes, keeps the original and records the result in local history, and tells the host', async () => {
    const host = fakeHost(root);
    const core = coreContext(host);
    await writeFiles(core, [plan(file, 'new\n')], opts);
    expect(readFileSync(file, 'utf8')).toBe('new\n');
    const sources = core.history.list(file).map((e) => e.source);
    expect(sources.sort()).toEqual([BACKUP_SOURCES.replace, 'IDEA: edit/replace']);
    expect(host.caughtUp).toEqual([file]);
  });

  it('records no result when the host says a save would not be recorded', async () => {
    const core = coreContext(fakeHost(root, { recordsSave: false }));
    await writeFiles(core, [plan(file, 'new\n')], opts);
    expect(core.history.list(file).map((e) => e.source)).toEqual([BACKUP_SOURCES.replace]);
  });

  // clause H12: a file with unsaved editor changes is refused, never saved or overwritten.
  it('refuses a file with unsaved editor text (HANDLER_ERROR), changing nothing', async () => {
    const host = fakeHost(root);
    host.docs.push({ path: file, text: 'unsaved', dirty: true });
    const core = coreContext(host);
    await expect(writeFiles(core, [plan(file, 'new\n')], opts)).rejects.toMatchObject({
      code: 'HANDLER_ERROR',
      message: expect.stringContaining('unsaved changes in the editor'),
    });
    expect(readFileSync(file, 'utf8')).toBe('old\n');
    expect(core.history.list(file)).toEqual([]);
  });

  // clause H11: a protected file is refused before anything is written.
  it('refuses a protected file of a workspace folder (INVALID_REQUEST)', async () => {
    const config = join(root, 'ws', '.git', 'config');
    writeFileSync(config, '[core]\n');
    const core = coreContext(fakeHost(root));
    await expect(writeFiles(core, [plan(config, 'x')], opts)).rejects.toMatchObject({ code: 'INVALID_REQUEST' });
    expect(readFileSync(config, 'utf8')).toBe('[core]\n');
  });
});

describe('a cancelled write (ctx.signal)', () => {
  it('cancelled before its turn: nothing is written, nothing kept in local history', async () => {
    const core = coreContext(fakeHost(root));
    const ctl = new AbortController();
    ctl.abort(new Error('cancelled'));
    await expect(writeFiles(core, [plan(file, 'new\n')], { ...opts, signal: ctl.signal })).rejects.toThrow('cancelled');
    expect(readFileSync(file, 'utf8')).toBe('old\n');
    expect(core.history.list(file)).toEqual([]);
  });

  it('cancelled between files, before the commit point: the files already written are restored', async () => {
    const second = join(root, 'ws', 'b.txt');
    writeFileSync(second, 'old b\n');
    const ctl = new AbortController();
    const writes = [plan(file, 'new\n'), plan(second, 'new b\n')];
    await expect(
      applyAllOrNothing(writes, {
        stateDir: join(root, 'state'),
        what: 'edit/replace',
        signal: ctl.signal,
        afterEach: (_, i) => {
          if (i === 0) ctl.abort(new Error('cancelled'));
        },
      }),
    ).rejects.toThrow(/cancelled; nothing was changed \(1 file\(s\) already written were restored\)/);
    expect(readFileSync(file, 'utf8')).toBe('old\n');
    expect(readFileSync(second, 'utf8')).toBe('old b\n');
  });

  it('cancelled after the commit point: the write is finished', async () => {
    const host = fakeHost(root);
    const ctl = new AbortController();
    const caughtUp = host.documents.afterWrite!.bind(host.documents);
    host.documents.afterWrite = (path, bytes) => {
      ctl.abort(new Error('cancelled'));
      return caughtUp(path, bytes);
    };
    const core = coreContext(host);
    await writeFiles(core, [plan(file, 'new\n')], { ...opts, signal: ctl.signal });
    expect(readFileSync(file, 'utf8')).toBe('new\n');
    expect(
      core.history
        .list(file)
        .map((e) => e.source)
        .sort(),
    ).toEqual([BACKUP_SOURCES.replace, 'IDEA: edit/replace']);
  });
});
