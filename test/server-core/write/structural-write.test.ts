// clause H21: files and folders created, moved and deleted in the transaction of H12. A plan that moves
// a folder (its files created at the new place, deleted at the old, the folders made and removed),
// edits a file, deletes one and creates one in new folders is written all or nothing: a failure at any
// step, or a crash (the process killing itself at each kind of step, or SIGKILLed at spread-out
// moments) followed by recovery, leaves the tree byte-identical to before, modes included; a committed
// write is kept as the transaction's record for edit/undo.
import { spawn } from 'node:child_process';
import {
  chmodSync,
  existsSync,
  lstatSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  rmSync,
  writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import { isDeepStrictEqual } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { recoverInterruptedWrites, WriteJournal } from '../../../server-core/write/journal';
import { applyAllOrNothing, type PlannedFolder, type PlannedWrite } from '../../../server-core/write/transaction';

let root: string;
beforeAll(() => {
  root = mkdtempSync(join(tmpdir(), 'idea-structural-'));
});
afterAll(() => rmSync(root, { recursive: true, force: true }));
let n = 0;
const fresh = (name: string) => {
  const d = join(root, `${name}-${n++}`);
  mkdirSync(d, { recursive: true });
  return d;
};
const here = dirname(fileURLToPath(import.meta.url));

/** Every path under `dir` with its kind, mode and content: what "byte-identical, modes included" compares. */
function tree(dir: string): Record<string, string> {
  const out: Record<string, string> = {};
  const walk = (d: string) => {
    for (const name of readdirSync(d).sort()) {
      const p = join(d, name);
      const st = lstatSync(p);
      const mode = (st.mode & 0o777).toString(8);
      if (st.isDirectory()) {
        out[`${relative(dir, p)}/`] = mode;
        walk(p);
      } else out[relative(dir, p)] = `${mode} ${readFileSync(p, 'utf8')}`;
    }
  };
  walk(dir);
  return out;
}

interface Scene {
  ws: string;
  writes: PlannedWrite[];
  folders: PlannedFolder[];
  before: Record<string, string>;
  after: Record<string, string>;
  /** Puts the tree back as before (for the next run). */
  reset: () => void;
}

/**
 * src/old (a.txt 640, b.txt, deep/c.txt) moved to src/new; keep.txt edited; gone.txt (600) deleted;
 * fresh/x/y.txt created in two new folders. `spread` more files in src/old make the write longer.
 */
function scene(spread = 0): Scene {
  const ws = fresh('ws');
  const old = join(ws, 'src', 'old');
  const files: { rel: string; content: string; mode: number }[] = [
    { rel: 'a.txt', content: 'a\n', mode: 0o640 },
    { rel: 'b.txt', content: 'b\n', mode: 0o644 },
    { rel: 'deep/c.txt', content: 'c\n', mode: 0o644 },
    ...Array.from({ length: spread }, (_, i) => ({
      rel: `deep/s${String(i).padStart(3, '0')}.txt`,
      content: `spread ${i}\n`.repeat(40),
      mode: 0o644,
    })),
  ];
  const reset = () => {
    rmSync(ws, { recursive: true, force: true });
    mkdirSync(join(old, 'deep'), { recursive: true });
    chmodSync(join(old, 'deep'), 0o750);
    for (const f of files) {
      writeFileSync(join(old, f.rel), f.content);
      chmodSync(join(old, f.rel), f.mode);
    }
    writeFileSync(join(ws, 'keep.txt'), 'keep old\n');
    writeFileSync(join(ws, 'gone.txt'), 'gone\n');
    chmodSync(join(ws, 'gone.txt'), 0o600);
  };
  reset();
  const before = tree(ws);
  const moved = join(ws, 'src', 'new');
  const writes: PlannedWrite[] = [
    ...files.map((f) => ({
      path: join(moved, f.rel),
      target: join(moved, f.rel),
      before: null,
      after: Buffer.from(f.content),
      mode: f.mode,
    })),
    {
      path: join(ws, 'keep.txt'),
      target: join(ws, 'keep.txt'),
      before: Buffer.from('keep old\n'),
      after: Buffer.from('keep NEW\n'),
    },
    { path: join(ws, 'fresh/x/y.txt'), target: join(ws, 'fresh/x/y.txt'), before: null, after: Buffer.from('y\n') },
    ...files.map((f) => ({
      path: join(old, f.rel),
      target: join(old, f.rel),
      before: Buffer.from(f.content),
      after: null,
      mode: f.mode,
    })),
    {
      path: join(ws, 'gone.txt'),
      target: join(ws, 'gone.txt'),
      before: Buffer.from('gone\n'),
      after: null,
      mode: 0o600,
    },
  ];
  const folder = (rel: string, change: 'create' | 'remove', mode: number): PlannedFolder => ({
    path: join(ws, rel),
    target: join(ws, rel),
    change,
    mode,
  });
  const folders = [
    folder('src/new', 'create', 0o755),
    folder('src/new/deep', 'create', 0o750),
    folder('fresh', 'create', 0o755),
    folder('fresh/x', 'create', 0o755),
    folder('src/old/deep', 'remove', 0o750),
    folder('src/old', 'remove', 0o755),
  ];
  const after: Record<string, string> = {
    'fresh/': '755',
    'fresh/x/': '755',
    'fresh/x/y.txt': '644 y\n',
    'keep.txt': '644 keep NEW\n',
    'src/': before['src/']!,
    'src/new/': '755',
    'src/new/deep/': '750',
  };
  for (const f of files) after[`src/new/${f.rel}`] = `${f.mode.toString(8)} ${f.content}`;
  return { ws, writes, folders, before, after, reset };
}

const journalEmpty = (stateDir: string) =>
  !existsSync(join(stateDir, 'journal')) || readdirSync(join(stateDir, 'journal')).length === 0;

describe('files and folders created, moved and deleted, all or nothing', () => {
  it('writes the whole plan: the folder moved with its modes, the file deleted, the new folders made', async () => {
    const s = scene();
    const stateDir = fresh('state');
    const id = await applyAllOrNothing(s.writes, { stateDir, what: 'edit/apply', folders: s.folders });
    expect(id).toBeUndefined(); // not kept without `keep`
    expect(tree(s.ws)).toEqual(s.after);
    expect(journalEmpty(stateDir)).toBe(true);
    expect(existsSync(join(stateDir, 'transactions'))).toBe(false);
  });

  it('a failure after any step leaves the tree as before, modes included', async () => {
    const s = scene();
    const fileSteps = s.writes.length;
    const folderSteps = s.folders.length;
    for (const [kind, k] of [
      ...Array.from({ length: fileSteps }, (_, k) => ['file', k] as const),
      ...Array.from({ length: folderSteps }, (_, k) => ['folder', k] as const),
    ]) {
      s.reset();
      const stateDir = fresh('state');
      const fail = (i: number) => {
        if (i === k) throw new Error(`disk full (simulated) at ${kind} step ${k}`);
      };
      await expect(
        applyAllOrNothing(s.writes, {
          stateDir,
          what: 'edit/apply',
          folders: s.folders,
          ...(kind === 'file' ? { afterEach: (_w, i) => fail(i) } : { afterFolder: (_f, i) => fail(i) }),
        }),
        `${kind} ${k}`,
      ).rejects.toThrow(/disk full \(simulated\).*; nothing was changed/);
      expect(tree(s.ws), `${kind} ${k}`).toEqual(s.before);
      expect(journalEmpty(stateDir), `${kind} ${k}`).toBe(true);
    }
  });

  it('a folder someone put a file in meanwhile is not removed: the write stops and puts everything back', async () => {
    const s = scene();
    const stranger = join(s.ws, 'src', 'old', 'deep', 'stranger.txt');
    await expect(
      applyAllOrNothing(s.writes, {
        stateDir: fresh('state'),
        what: 'edit/apply',
        folders: s.folders,
        afterEach: (_w, i) => {
          if (i === s.writes.length - 1) writeFileSync(stranger, 'not ours');
        },
      }),
    ).rejects.toThrow(/ENOTEMPTY.*nothing was changed/);
    expect(tree(s.ws)).toEqual({ ...s.before, 'src/old/deep/stranger.txt': '644 not ours' });
  });

  it('a file created meanwhile where the write creates one stops it (the check before each step)', async () => {
    const s = scene();
    const y = join(s.ws, 'fresh', 'x', 'y.txt');
    await expect(
      applyAllOrNothing(s.writes, {
        stateDir: fresh('state'),
        what: 'edit/apply',
        folders: s.folders,
        afterPrepared: () => {
          writeFileSync(`${y}.other`, '');
          writeFileSync(y, 'someone else');
        },
      }),
    ).rejects.toThrow(/y\.txt changed on disk/);
    // Theirs stay; the folders the write made hold them, so those stay too and the rollback says so.
    expect(readFileSync(y, 'utf8')).toBe('someone else');
    expect(tree(s.ws)['src/old/a.txt']).toBe(s.before['src/old/a.txt']);
    expect(existsSync(join(s.ws, 'src', 'new'))).toBe(false);
  });

  it('kept: the journal becomes the transaction record (originals, modes, folders, label), id returned', async () => {
    const s = scene();
    const stateDir = fresh('state');
    const id = await applyAllOrNothing(s.writes, {
      stateDir,
      what: 'edit/apply',
      folders: s.folders,
      keep: { label: 'move old to new' },
    });
    expect(id).toMatch(/^[A-Za-z0-9_-]{8,64}$/);
    expect(journalEmpty(stateDir)).toBe(true);
    const dir = join(stateDir, 'transactions', id!);
    expect(readdirSync(dir).sort()).toEqual(['originals', 'record.json']);
    const record = JSON.parse(readFileSync(join(dir, 'record.json'), 'utf8'));
    expect(record).toMatchObject({ version: 3, id, what: 'edit/apply', label: 'move old to new' });
    expect(record.folders).toHaveLength(s.folders.length);
    const gone = record.files.find((f: { path: string }) => f.path.endsWith('gone.txt'));
    expect(gone).toMatchObject({ afterSha256: null, mode: 0o600 });
    // The originals of every file that existed: keep.txt, a, b, c and gone.
    expect(readFileSync(join(dir, 'originals'), 'utf8').length).toBe(
      'keep old\n'.length + 'a\nb\nc\n'.length + 'gone\n'.length,
    );
  });
});

describe('recovery of a structural write', () => {
  it('a crash with some steps done is put back: folders made again and removed, files restored with their modes', async () => {
    const s = scene();
    const stateDir = fresh('state');
    await WriteJournal.begin(stateDir, 'edit/apply', s.writes, s.folders);
    // As the killed process left it: the new folders made, a.txt moved, gone.txt deleted, old/deep removed
    // after its file went.
    mkdirSync(join(s.ws, 'src', 'new', 'deep'), { recursive: true });
    writeFileSync(join(s.ws, 'src', 'new', 'a.txt'), 'a\n');
    rmSync(join(s.ws, 'src', 'old', 'a.txt'));
    rmSync(join(s.ws, 'gone.txt'));
    rmSync(join(s.ws, 'src', 'old', 'deep'), { recursive: true });
    const log: string[] = [];
    const report = await recoverInterruptedWrites(stateDir, (m) => log.push(m));
    expect(report.leftAlone).toEqual([]);
    expect(tree(s.ws)).toEqual(s.before);
    expect(journalEmpty(stateDir)).toBe(true);
    expect(log.join('\n')).toMatch(/recovered an interrupted edit\/apply/);
  });

  it('a folder the write created that now holds another file stays, and is reported left alone', async () => {
    const s = scene();
    const stateDir = fresh('state');
    await WriteJournal.begin(stateDir, 'edit/apply', s.writes, s.folders);
    mkdirSync(join(s.ws, 'fresh', 'x'), { recursive: true });
    writeFileSync(join(s.ws, 'fresh', 'x', 'theirs.txt'), 'theirs');
    const report = await recoverInterruptedWrites(stateDir, () => undefined);
    expect(report.leftAlone.sort()).toEqual([join(s.ws, 'fresh'), join(s.ws, 'fresh', 'x')]);
    expect(readFileSync(join(s.ws, 'fresh', 'x', 'theirs.txt'), 'utf8')).toBe('theirs');
  });

  it('a journal committed but not yet moved (record.json, no manifest) is moved into the undo log', async () => {
    const stateDir = fresh('state');
    const jdir = join(stateDir, 'journal', '1796550000000-abcdef12');
    mkdirSync(jdir, { recursive: true });
    writeFileSync(join(jdir, 'record.json'), '{"version":3,"files":[]}');
    writeFileSync(join(jdir, 'originals'), '');
    await recoverInterruptedWrites(stateDir, () => undefined);
    expect(journalEmpty(stateDir)).toBe(true);
    expect(readdirSync(join(stateDir, 'transactions', '1796550000000-abcdef12')).sort()).toEqual([
      'originals',
      'record.json',
    ]);
  });
});

/** Writes the scene's plan file for killed-writer.ts (the bytes in files beside it). */
function planFile(s: Scene, dir: string): string {
  const bytes = (b: Buffer | null, name: string) => {
    if (b === null) return null;
    writeFileSync(join(dir, name), b);
    return join(dir, name);
  };
  const file = join(dir, 'plan.json');
  writeFileSync(
    file,
    JSON.stringify({
      writes: s.writes.map((w, i) => ({
        path: w.path,
        target: w.target,
        beforeFile: bytes(w.before, `${i}.old`),
        afterFile: bytes(w.after, `${i}.new`),
        mode: w.mode,
      })),
      folders: s.folders,
    }),
  );
  return file;
}

/** Runs killed-writer.ts: to its end, to the crash it makes itself at `crashAt`, or SIGKILLed `killAfterMs` after it started. */
function runWriter(
  stateDir: string,
  plan: string,
  opts: { crashAt?: string; killAfterMs?: number } = {},
): Promise<{ committed: boolean; ms: number }> {
  return new Promise((done) => {
    // node itself with tsx as a loader: the tsx CLI would run the script in a grandchild the kill misses.
    const child = spawn(
      process.execPath,
      ['--import', 'tsx', join(here, 'killed-writer.ts'), stateDir, plan, ...(opts.crashAt ? [opts.crashAt] : [])],
      { stdio: ['ignore', 'pipe', 'inherit'] },
    );
    let out = '';
    let t0 = 0;
    child.stdout.on('data', (c: Buffer) => {
      out += c.toString();
      if (!t0 && out.includes('start')) {
        t0 = performance.now();
        if (opts.killAfterMs !== undefined) setTimeout(() => child.kill('SIGKILL'), opts.killAfterMs);
      }
    });
    child.on('close', () => done({ committed: out.includes('committed'), ms: performance.now() - t0 }));
  });
}

describe('a structural write killed (SIGKILL), then recovered', () => {
  it('at each kind of step (prepared, folders made, files moved, folders removed) recovery puts the tree back', async () => {
    const s = scene();
    const plan = planFile(s, fresh('plan'));
    const files = s.writes.length;
    const creates = s.folders.filter((f) => f.change === 'create').length;
    const crashes = [
      'folder:1',
      `folder:${creates}`,
      'prepared',
      'renamed:1',
      `renamed:${Math.ceil(files / 2)}`,
      `renamed:${files}`,
      `folder:${creates + 1}`,
      `folder:${s.folders.length}`,
    ];
    for (const crashAt of crashes) {
      s.reset();
      const stateDir = fresh('state');
      expect((await runWriter(stateDir, plan, { crashAt })).committed, crashAt).toBe(false);
      if (crashAt !== 'folder:1') expect(tree(s.ws), `${crashAt}: changed before recovery`).not.toEqual(s.before);
      await recoverInterruptedWrites(stateDir, () => undefined);
      expect(tree(s.ws), crashAt).toEqual(s.before);
      expect(journalEmpty(stateDir), crashAt).toBe(true);
    }
    s.reset();
    expect((await runWriter(fresh('state'), plan)).committed).toBe(true);
    expect(tree(s.ws)).toEqual(s.after);
  }, 120_000);

  it('at spread-out moments: before or after, never between, once recovered', async () => {
    const RUNS = 12;
    const s = scene(120); // a longer write: 123 files moved
    const plan = planFile(s, fresh('plan'));
    const full = await runWriter(fresh('state'), plan);
    expect(full.committed).toBe(true);
    expect(tree(s.ws)).toEqual(s.after);
    const span = Math.max(20, full.ms);
    const outcomes = { before: 0, after: 0, mixedBeforeRecovery: 0 };
    for (let i = 0; i < RUNS; i++) {
      s.reset();
      const stateDir = fresh('state');
      const r = await runWriter(stateDir, plan, { killAfterMs: Math.floor((i / RUNS) * span * 1.5) });
      const seen = tree(s.ws);
      if (!isDeepStrictEqual(seen, s.before) && !isDeepStrictEqual(seen, s.after)) outcomes.mixedBeforeRecovery++;
      await recoverInterruptedWrites(stateDir, () => undefined);
      const now = tree(s.ws);
      const isAfter = isDeepStrictEqual(now, s.after);
      if (!isAfter) expect(now, `run ${i}: neither before nor after`).toEqual(s.before);
      if (r.committed) expect(isAfter, `run ${i}: committed, then undone`).toBe(true);
      outcomes[isAfter ? 'after' : 'before']++;
    }
    const summary = `full write ${Math.round(full.ms)} ms, outcomes ${JSON.stringify(outcomes)}`;
    console.log(`structural SIGKILL runs: ${RUNS}, ${summary}`);
    // The kills must have landed before and after the commit point, and inside the write.
    expect(outcomes.before, summary).toBeGreaterThan(0);
    expect(outcomes.after, summary).toBeGreaterThan(0);
    expect(outcomes.mixedBeforeRecovery, summary).toBeGreaterThan(0);
  }, 180_000);
});
