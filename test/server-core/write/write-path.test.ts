// The write path under failure and crash: protected files, atomic replacement (mode kept, never a
// truncation), all-or-nothing across many files, and recovery of a write killed half-way.
import { spawn } from 'node:child_process';
import { createHash } from 'node:crypto';
import {
  chmodSync,
  existsSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  rmSync,
  statSync,
  writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { replaceFileAtomically } from '../../../server-core/write/atomic-file';
import { recoverInterruptedWrites, WriteJournal } from '../../../server-core/write/journal';
import { protectedReason } from '../../../server-core/write/protected-paths';
import { applyAllOrNothing, type PlannedWrite } from '../../../server-core/write/transaction';

let root: string;
beforeAll(() => {
  root = mkdtempSync(join(tmpdir(), 'idea-write-'));
});
afterAll(() => rmSync(root, { recursive: true, force: true }));
const fresh = (name: string) => {
  const d = join(root, name);
  mkdirSync(d, { recursive: true });
  return d;
};
const noTemps = (dir: string) => readdirSync(dir).filter((n) => n.includes('.idea-tmp-'));

// clause H11: .git, .vscode and *.code-workspace are never written.
describe('protected paths', () => {
  it('refuses .git, .vscode, *.code-workspace and the folder itself; allows ordinary files', () => {
    const ws = '/w/proj';
    expect(protectedReason('/w/proj/.git/config', [ws])).toMatch(/\.git/);
    expect(protectedReason('/w/proj/vendor/lib/.git/hooks/pre-commit', [ws])).toMatch(/\.git/);
    expect(protectedReason('/w/proj/.GIT/config', [ws])).toMatch(/\.git/);
    expect(protectedReason('/w/proj/.vscode/settings.json', [ws])).toMatch(/\.vscode/);
    expect(protectedReason('/w/proj/sub/.vscode/tasks.json', [ws])).toMatch(/\.vscode/);
    expect(protectedReason('/w/proj/team.code-workspace', [ws])).toMatch(/code-workspace/);
    expect(protectedReason('/w/proj', [ws])).toMatch(/folder itself/);
    expect(protectedReason('/w/proj/src/.gitignore', [ws])).toBeUndefined();
    expect(protectedReason('/w/proj/src/a.ts', [ws])).toBeUndefined();
    // A folder opened from inside some .vscode directory is not itself off limits.
    expect(
      protectedReason('/home/u/.vscode/extensions/mine/src/a.ts', ['/home/u/.vscode/extensions/mine']),
    ).toBeUndefined();
  });
});

// clause H12: atomic replacement, all or nothing across files, recovery after a crash (the describes below).
describe('replaceFileAtomically', () => {
  it('keeps the mode, writes the exact bytes and leaves no temporary file', async () => {
    const dir = fresh('atomic');
    const f = join(dir, 'run.sh');
    writeFileSync(f, 'old');
    chmodSync(f, 0o750);
    await replaceFileAtomically(f, Buffer.from('new\r\nbytes'));
    expect(readFileSync(f, 'utf8')).toBe('new\r\nbytes');
    expect(statSync(f).mode & 0o777).toBe(0o750);
    expect(noTemps(dir)).toEqual([]);
  });
  it('replaces a file whose name is at the 255-byte limit (the temporary name is shortened)', async () => {
    const dir = fresh('atomic-long');
    const f = join(dir, `${'é'.repeat(120)}.txt`); // 244 bytes
    writeFileSync(f, 'old');
    await replaceFileAtomically(f, Buffer.from('new'));
    expect(readFileSync(f, 'utf8')).toBe('new');
    expect(noTemps(dir)).toEqual([]);
  });
  it('refuses a directory and leaves it alone', async () => {
    const dir = fresh('atomic-dir');
    mkdirSync(join(dir, 'd'));
    await expect(replaceFileAtomically(join(dir, 'd'), Buffer.from('x'))).rejects.toThrow(/not a regular file/);
    expect(noTemps(dir)).toEqual([]);
  });
});

/** A planned write of a file that exists before and after. */
type Rewrite = PlannedWrite & { before: Buffer; after: Buffer };

function plan(dir: string, n: number, size = 64): Rewrite[] {
  return Array.from({ length: n }, (_, i) => {
    const target = join(dir, `f${String(i).padStart(4, '0')}.txt`);
    const before = Buffer.from(`file ${i} old `.repeat(size));
    writeFileSync(target, before);
    return { path: target, target, before, after: Buffer.from(`file ${i} NEW `.repeat(size)) };
  });
}
const snapshot = (ws: PlannedWrite[]) => ws.map((w) => readFileSync(w.target).toString('utf8'));
const journalEmpty = (stateDir: string) =>
  !existsSync(join(stateDir, 'journal')) || readdirSync(join(stateDir, 'journal')).length === 0;

describe('applyAllOrNothing', () => {
  it('writes every file and leaves no journal', async () => {
    const dir = fresh('ok');
    const stateDir = fresh('ok-state');
    const ws = plan(dir, 60);
    await applyAllOrNothing(ws, { stateDir, what: 'edit/replace' });
    expect(snapshot(ws)).toEqual(ws.map((w) => w.after.toString('utf8')));
    expect(journalEmpty(stateDir)).toBe(true);
  });
  it('a failure after 30 of 60 files leaves all 60 byte-identical to before, and says so', async () => {
    const dir = fresh('fail-midway');
    const stateDir = fresh('fail-midway-state');
    const ws = plan(dir, 60);
    const before = snapshot(ws);
    await expect(
      applyAllOrNothing(ws, {
        stateDir,
        what: 'edit/replace',
        afterEach: (_w, i) => {
          if (i === 29) throw new Error('disk full (simulated)');
        },
      }),
    ).rejects.toThrow(/disk full \(simulated\); nothing was changed \(30 file\(s\) already written were restored\)/);
    expect(snapshot(ws)).toEqual(before);
    expect(journalEmpty(stateDir)).toBe(true);
    expect(noTemps(dir)).toEqual([]);
  });
  it('stops when a file changed on disk after planning, restoring the ones already written', async () => {
    const dir = fresh('changed');
    const stateDir = fresh('changed-state');
    const ws = plan(dir, 10);
    writeFileSync(ws[6]!.target, 'someone else wrote this');
    await expect(applyAllOrNothing(ws, { stateDir, what: 'edit/replace' })).rejects.toThrow(
      /f0006.txt changed on disk/,
    );
    expect(snapshot(ws).slice(0, 6)).toEqual(ws.slice(0, 6).map((w) => w.before!.toString('utf8')));
    expect(readFileSync(ws[6]!.target, 'utf8')).toBe('someone else wrote this');
  });
  it('sees a change made while earlier files were being renamed: each check is read right before its rename', async () => {
    const dir = fresh('changed-late');
    const stateDir = fresh('changed-late-state');
    const ws = plan(dir, 10);
    // Another process edits the 7th file once the 2nd has been replaced, long after planning.
    const afterEach = async (w: PlannedWrite) => {
      if (w === ws[1]) writeFileSync(ws[6]!.target, 'someone else wrote this meanwhile');
    };
    await expect(applyAllOrNothing(ws, { stateDir, what: 'edit/replace', afterEach })).rejects.toThrow(
      /f0006.txt changed on disk/,
    );
    expect(snapshot(ws).slice(0, 6)).toEqual(ws.slice(0, 6).map((w) => w.before!.toString('utf8')));
    expect(readFileSync(ws[6]!.target, 'utf8')).toBe('someone else wrote this meanwhile');
  });
  it('a precondition veto (unsaved editor changes) stops the write the same way', async () => {
    const dir = fresh('veto');
    const ws = plan(dir, 5);
    await expect(
      applyAllOrNothing(ws, {
        stateDir: fresh('veto-state'),
        what: 'edit/replace',
        precondition: (w) => (w.target.endsWith('f0003.txt') ? 'f0003 got unsaved editor changes' : undefined),
      }),
    ).rejects.toThrow(/unsaved editor changes; nothing was changed/);
    expect(snapshot(ws)).toEqual(ws.map((w) => w.before!.toString('utf8')));
  });
  it('refuses two paths of one file (their plans were made from the same bytes) before anything starts', async () => {
    const dir = fresh('same-file');
    const stateDir = fresh('same-file-state');
    const [a, b] = plan(dir, 2);
    const twice: PlannedWrite = { ...a!, path: join(dir, 'link-to-f0000.txt'), after: Buffer.from('other edit') };
    await expect(applyAllOrNothing([a!, b!, twice], { stateDir, what: 'edit/rename' })).rejects.toThrow(
      /f0000\.txt and .*link-to-f0000\.txt are the same file .*; nothing was changed/,
    );
    expect(snapshot([a!, b!])).toEqual([a!, b!].map((w) => w.before!.toString('utf8')));
    expect(journalEmpty(stateDir)).toBe(true);
  });
  it('re-creates a missing file and removes it again on failure', async () => {
    const dir = fresh('create');
    const target = join(dir, 'gone.txt');
    const w: PlannedWrite = { path: target, target, before: null, after: Buffer.from('back') };
    await expect(
      applyAllOrNothing([w, ...plan(dir, 1)], {
        stateDir: fresh('create-state'),
        what: 'x',
        afterEach: (_w, i) => {
          if (i === 1) throw new Error('boom');
        },
      }),
    ).rejects.toThrow(/boom/);
    expect(existsSync(target)).toBe(false);
    await applyAllOrNothing([w], { stateDir: fresh('create-state2'), what: 'x' });
    expect(readFileSync(target, 'utf8')).toBe('back');
  });
});

describe('recovery of an interrupted write', () => {
  it('restores files that hold the new content, leaves files changed since alone', async () => {
    const dir = fresh('recover');
    const stateDir = fresh('recover-state');
    const ws = plan(dir, 4);
    await WriteJournal.begin(stateDir, 'edit/replace', ws);
    // The process died after two files were replaced; then someone edited the third.
    writeFileSync(ws[0]!.target, ws[0]!.after);
    writeFileSync(ws[1]!.target, ws[1]!.after);
    writeFileSync(ws[2]!.target, 'edited by hand since');
    const log: string[] = [];
    const report = await recoverInterruptedWrites(stateDir, (m) => log.push(m));
    expect(report.restored.sort()).toEqual([ws[0]!.path, ws[1]!.path]);
    expect(report.leftAlone).toEqual([ws[2]!.path]);
    expect(readFileSync(ws[0]!.target)).toEqual(ws[0]!.before);
    expect(readFileSync(ws[2]!.target, 'utf8')).toBe('edited by hand since');
    expect(journalEmpty(stateDir)).toBe(true);
    expect(log.join('\n')).toMatch(/recovered an interrupted edit\/replace/);
  });
});

const here = dirname(fileURLToPath(import.meta.url));

/** Runs killed-writer.ts to its end, or to the crash it makes itself at `crashAt`; true when it committed. */
function runWriterTo(stateDir: string, planFile: string, crashAt?: string): Promise<boolean> {
  return new Promise((resolvePromise) => {
    const child = spawn(
      process.execPath,
      ['--import', 'tsx', join(here, 'killed-writer.ts'), stateDir, planFile, ...(crashAt ? [crashAt] : [])],
      { stdio: ['ignore', 'pipe', 'inherit'] },
    );
    let out = '';
    child.stdout.on('data', (c: Buffer) => void (out += c.toString()));
    child.on('close', () => resolvePromise(out.includes('committed')));
  });
}

/** `n` planned files in two folders (10 under a/, the rest under b/), with a plan file for killed-writer.ts. */
function crashPlan(dir: string, n: number): { ws: Rewrite[]; planFile: string; reset: () => void } {
  const ws = Array.from({ length: n }, (_, i) => {
    const target = join(dir, i < 10 ? 'a' : 'b', `f${String(i).padStart(3, '0')}.txt`);
    mkdirSync(dirname(target), { recursive: true });
    return { path: target, target, before: Buffer.from(`old ${i}\n`), after: Buffer.from(`NEW ${i}\n`.repeat(3)) };
  });
  const planFile = join(dir, 'plan.json');
  for (const [i, w] of ws.entries()) {
    writeFileSync(join(dir, `${i}.old`), w.before);
    writeFileSync(join(dir, `${i}.new`), w.after);
  }
  writeFileSync(
    planFile,
    JSON.stringify(
      ws.map((w, i) => ({
        path: w.path,
        target: w.target,
        beforeFile: join(dir, `${i}.old`),
        afterFile: join(dir, `${i}.new`),
      })),
    ),
  );
  const reset = () => {
    for (const w of ws) writeFileSync(w.target, w.before!);
  };
  reset();
  return { ws, planFile, reset };
}
const tempsUnder = (dir: string) => [...noTemps(join(dir, 'a')), ...noTemps(join(dir, 'b'))];
const state = (ws: Rewrite[]) =>
  ws.map((w) => {
    const now = readFileSync(w.target);
    return now.equals(w.after) ? 'new' : now.equals(w.before!) ? 'old' : 'neither';
  });

// Issue 33 (bench/FINDINGS.md finding 2): every temp file is written and fsynced before the first
// rename, the journal is one file of originals; a crash at each of those points is still all or nothing.
describe('the order of a many-file write: prepared together, then renamed', () => {
  it('once every temp file is prepared nothing is replaced yet; a failure there leaves every original, no temp, no journal', async () => {
    const dir = fresh('prepared-throw');
    const stateDir = fresh('prepared-throw-state');
    const { ws } = crashPlan(dir, 20);
    let seen: { state: string[]; temps: number; journal: string[] } | undefined;
    await expect(
      applyAllOrNothing(ws, {
        stateDir,
        what: 'edit/rename',
        afterPrepared: () => {
          const [id] = readdirSync(join(stateDir, 'journal'));
          seen = {
            state: state(ws),
            temps: tempsUnder(dir).length,
            journal: readdirSync(join(stateDir, 'journal', id!)).sort(),
          };
          throw new Error('crash (simulated) after the temp files');
        },
      }),
    ).rejects.toThrow(/crash \(simulated\) after the temp files; nothing was changed \(no file had been written\)/);
    // At that point: every file still old, one temp file per file, and the journal is written once.
    expect(seen).toEqual({ state: ws.map(() => 'old'), temps: 20, journal: ['manifest.json', 'originals'] });
    expect(state(ws)).toEqual(ws.map(() => 'old'));
    expect(tempsUnder(dir)).toEqual([]);
    expect(journalEmpty(stateDir)).toBe(true);
  });

  it('a crash once every temp file is prepared leaves every original; recovery removes the temp files and the journal', async () => {
    const dir = fresh('prepared-crash');
    const stateDir = fresh('prepared-crash-state');
    const { ws, planFile } = crashPlan(dir, 20);
    expect(await runWriterTo(stateDir, planFile, 'prepared')).toBe(false);
    expect(state(ws)).toEqual(ws.map(() => 'old'));
    expect(tempsUnder(dir)).toHaveLength(20);
    const report = await recoverInterruptedWrites(stateDir, () => undefined);
    expect(report).toEqual({ restored: [], leftAlone: [] });
    expect(state(ws)).toEqual(ws.map(() => 'old'));
    expect(tempsUnder(dir)).toEqual([]);
    expect(journalEmpty(stateDir)).toBe(true);
  }, 60_000);

  it('a crash after the k-th rename (k = 1, 13, all 20) is undone by recovery: every original back', async () => {
    const dir = fresh('renamed-crash');
    const { ws, planFile, reset } = crashPlan(dir, 20);
    for (const k of [1, 13, 20]) {
      reset();
      const stateDir = fresh(`renamed-crash-state-${k}`);
      expect(await runWriterTo(stateDir, planFile, `renamed:${k}`)).toBe(false);
      expect(state(ws), `k = ${k}`).toEqual(ws.map((_, i) => (i < k ? 'new' : 'old')));
      expect(tempsUnder(dir), `k = ${k}`).toHaveLength(20 - k);
      const report = await recoverInterruptedWrites(stateDir, () => undefined);
      expect(report.restored.sort(), `k = ${k}`).toEqual(ws.slice(0, k).map((w) => w.path));
      expect(state(ws), `k = ${k}`).toEqual(ws.map(() => 'old'));
      expect(tempsUnder(dir), `k = ${k}`).toEqual([]);
      expect(journalEmpty(stateDir), `k = ${k}`).toBe(true);
    }
    // Without a crash the same plan commits.
    reset();
    const stateDir = fresh('renamed-crash-state-none');
    expect(await runWriterTo(stateDir, planFile)).toBe(true);
    expect(state(ws)).toEqual(ws.map(() => 'new'));
    expect(journalEmpty(stateDir)).toBe(true);
  }, 60_000);

  it('a damaged copy in the journal is not put back: the journal is kept and the failure logged', async () => {
    const dir = fresh('damaged');
    const stateDir = fresh('damaged-state');
    const ws = plan(dir, 3);
    const journal = await WriteJournal.begin(stateDir, 'edit/replace', ws);
    writeFileSync(ws[1]!.target, ws[1]!.after);
    const originals = join(journal.dir, 'originals');
    const bytes = readFileSync(originals);
    const k = ws[0]!.before!.length + 2; // a byte of the second file's original
    bytes[k] = bytes[k]! ^ 1;
    writeFileSync(originals, bytes);
    const log: string[] = [];
    const report = await recoverInterruptedWrites(stateDir, (m) => log.push(m));
    expect(report).toEqual({ restored: [], leftAlone: [] });
    expect(readFileSync(ws[1]!.target)).toEqual(ws[1]!.after);
    expect(log.join('\n')).toMatch(
      /could not recover .*copy of .*f0001\.txt does not match its hash; its originals are kept there/,
    );
    expect(existsSync(join(journal.dir, 'manifest.json'))).toBe(true);
  });

  it('recovers a journal of the earlier layout (one file per original)', async () => {
    const dir = fresh('legacy');
    const stateDir = fresh('legacy-state');
    const ws = plan(dir, 2);
    const jdir = join(stateDir, 'journal', '1-legacy');
    mkdirSync(jdir, { recursive: true });
    writeFileSync(join(jdir, '0.before'), ws[0]!.before!);
    writeFileSync(join(jdir, '1.before'), ws[1]!.before!);
    const sha = (b: Buffer) => createHash('sha256').update(b).digest('hex');
    writeFileSync(
      join(jdir, 'manifest.json'),
      JSON.stringify({
        version: 1,
        id: '1-legacy',
        createdAt: '2026-11-28T00:00:00.000Z',
        what: 'edit/replace',
        files: ws.map((w, i) => ({
          path: w.path,
          target: w.target,
          beforeSha256: sha(w.before!),
          afterSha256: sha(w.after),
          backup: `${i}.before`,
        })),
      }),
    );
    writeFileSync(ws[0]!.target, ws[0]!.after);
    const report = await recoverInterruptedWrites(stateDir, () => undefined);
    expect(report).toEqual({ restored: [ws[0]!.path], leftAlone: [] });
    expect(snapshot(ws)).toEqual(ws.map((w) => w.before!.toString('utf8')));
    expect(journalEmpty(stateDir)).toBe(true);
  });
});

describe('SIGKILL during a large write', () => {
  const RUNS = 24;

  function runWriter(
    stateDir: string,
    planFile: string,
    killAfterMs: number | null,
  ): Promise<{ committed: boolean; ms: number }> {
    return new Promise((resolvePromise) => {
      // node itself with tsx as a loader: the tsx CLI would run the script in a grandchild the kill misses.
      const child = spawn(process.execPath, ['--import', 'tsx', join(here, 'killed-writer.ts'), stateDir, planFile], {
        stdio: ['ignore', 'pipe', 'inherit'],
      });
      let out = '';
      let t0 = 0;
      child.stdout.on('data', (c: Buffer) => {
        out += c.toString();
        if (!t0 && out.includes('start')) {
          t0 = Date.now();
          if (killAfterMs !== null) setTimeout(() => child.kill('SIGKILL'), killAfterMs);
        }
      });
      child.on('close', () => resolvePromise({ committed: out.includes('committed'), ms: Date.now() - t0 }));
    });
  }

  it(`leaves the old or the new bytes, never a truncation, and recovery makes it all or nothing (${RUNS} kills)`, async () => {
    const dir = fresh('kill');
    const big = join(dir, 'big.txt');
    const small = join(dir, 'small.txt');
    const oldBig = Buffer.from('old line of a large file\n'.repeat(750_000)); // ~18 MB
    const newBig = Buffer.from('NEW line of a large file\n'.repeat(750_000));
    const files = [
      { path: small, target: small, old: Buffer.from('small old\n'), new: Buffer.from('small NEW\n') },
      { path: big, target: big, old: oldBig, new: newBig },
    ];
    for (const f of files) {
      writeFileSync(`${f.target}.old`, f.old);
      writeFileSync(`${f.target}.new`, f.new);
    }
    const planFile = join(dir, 'plan.json');
    writeFileSync(
      planFile,
      JSON.stringify(
        files.map((f) => ({
          path: f.path,
          target: f.target,
          beforeFile: `${f.target}.old`,
          afterFile: `${f.target}.new`,
        })),
      ),
    );
    const reset = () => {
      for (const f of files) writeFileSync(f.target, f.old);
    };

    reset();
    const full = await runWriter(fresh('kill-calibrate'), planFile, null);
    expect(full.committed).toBe(true);
    const span = Math.max(20, full.ms);

    const outcomes = { old: 0, new: 0, recoveredToOld: 0, mixedBeforeRecovery: 0 };
    for (let i = 0; i < RUNS; i++) {
      reset();
      const stateDir = fresh(`kill-state-${i}`);
      const r = await runWriter(stateDir, planFile, Math.floor((i / RUNS) * span * 2));
      const seen = new Set<string>();
      for (const f of files) {
        const now = readFileSync(f.target);
        expect(
          now.equals(f.old) || now.equals(f.new),
          `run ${i}: ${f.path} is neither old nor new (${now.length} bytes)`,
        ).toBe(true);
        seen.add(now.equals(f.new) ? 'new' : 'old');
      }
      if (seen.size > 1) outcomes.mixedBeforeRecovery++;
      await recoverInterruptedWrites(stateDir, () => undefined);
      const state = files.map((f) => (readFileSync(f.target).equals(f.new) ? 'new' : 'old'));
      expect(new Set(state).size, `run ${i}: mixed after recovery: ${state}`).toBe(1);
      if (r.committed) expect(state[0]).toBe('new');
      if (state[0] === 'new') outcomes.new++;
      else outcomes.old++;
      if (!r.committed && state[0] === 'old') outcomes.recoveredToOld++;
      expect(noTemps(dir)).toEqual([]);
    }
    // The kills must have landed both before and after the commit point, or the test proved little.
    const summary = `full write ${full.ms} ms, outcomes ${JSON.stringify(outcomes)}`;
    expect(outcomes.old, summary).toBeGreaterThan(0);
    expect(outcomes.new, summary).toBeGreaterThan(0);
    console.log(`SIGKILL runs: ${RUNS}, ${summary}`);
  }, 180_000);
});
