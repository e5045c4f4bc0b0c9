import { execFileSync } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  blobAt,
  commitAtIndex,
  commitsAtIndices,
  diffFile,
  fileCommitCount,
  fileLog,
  repoFileOf,
  resolveRef,
} from '../../server-core/git';
import { until } from '../support/wait';
import { clientSignal } from './limits/client-signal';
import { expectThroughSpawner, useTestSpawner } from './spawn/spawner-build';

// git/rg run through the spawner process, as in the servers.
useTestSpawner();

let dir: string;
const hashes: Record<string, string> = {};
function commit(name: string, files: Record<string, string | Buffer>, date: string) {
  for (const [f, c] of Object.entries(files)) writeFileSync(join(dir, f), c);
  execFileSync('git', ['-C', dir, 'add', '-A']);
  const env = { ...process.env, GIT_AUTHOR_DATE: date, GIT_COMMITTER_DATE: date };
  execFileSync(
    'git',
    [
      '-C',
      dir,
      '-c',
      'user.name=Ada',
      '-c',
      'user.email=ada@x.invalid',
      'commit',
      '-q',
      '-m',
      `${name}\n\nbody of ${name}`,
    ],
    { env },
  );
  hashes[name] = execFileSync('git', ['-C', dir, 'rev-parse', 'HEAD']).toString().trim();
}

beforeAll(() => {
  dir = mkdtempSync(join(tmpdir(), 'idea-git-'));
  execFileSync('git', ['-C', dir, 'init', '-q', '-b', 'main']);
  commit('one', { 'f.txt': 'v1\n', 'other.txt': 'o1\n' }, '2026-01-01T10:00:00Z');
  commit('other', { 'other.txt': 'o2\n' }, '2026-01-02T10:00:00Z');
  commit('two', { 'f.txt': Buffer.from('v2\r\nmixed\n\u00e9\n') }, '2026-01-03T10:00:00Z');
  commit('other2', { 'other.txt': 'o3\n' }, '2026-01-04T10:00:00Z');
  writeFileSync(join(dir, 'f.txt'), 'working\n');
  writeFileSync(join(dir, '-rf'), 'x');
});
afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe('git wrapper', () => {
  it('lists only commits that touched the file, newest first', async () => {
    const repo = await repoFileOf(join(dir, 'f.txt'));
    const log = await fileLog(repo, 20);
    expect(log.map((c) => c.hash)).toEqual([hashes.two, hashes.one]);
    expect(log[0]!.message).toBe('two\n\nbody of two');
    expect(log[0]!.authorName).toBe('Ada');
    expect(log[0]!.authorDate).toBe('2026-01-03T10:00:00+00:00');
    expectThroughSpawner();
    expect(await commitAtIndex(repo, 2)).toBe(hashes.one);
    await expect(commitAtIndex(repo, 3)).rejects.toMatchObject({ code: 'INVALID_REQUEST' });
    // Numbers git would misread (`--skip=1e+21` is 1) are refused, not mapped to another version.
    for (const n of [1e21, 2 ** 53, 1.5, Number.MAX_VALUE])
      await expect(commitAtIndex(repo, n)).rejects.toMatchObject({ code: 'INVALID_REQUEST' });
  });
  it('reads exact committed bytes', async () => {
    const repo = await repoFileOf(join(dir, 'f.txt'));
    const bytes = await blobAt(repo, hashes.two!);
    expect(bytes.equals(Buffer.from('v2\r\nmixed\n\u00e9\n'))).toBe(true);
  });
  it('diffs older → newer and working tree vs a commit (not the index)', async () => {
    const repo = await repoFileOf(join(dir, 'f.txt'));
    execFileSync('git', ['-C', dir, 'add', 'f.txt']); // staged: a diff against the index would be empty
    const wt = await diffFile(repo, hashes.two!, null);
    expect(wt).toContain('+working');
    expect(wt).toContain('-mixed');
    const rev = await diffFile(repo, hashes.two!, null, true);
    expect(rev).toContain('-working');
    const old = await diffFile(repo, hashes.one!, hashes.two!);
    expect(old).toContain('-v1');
    expect(await diffFile(repo, hashes.two!, hashes.two!)).toBe('');
    execFileSync('git', ['-C', dir, 'reset', '-q', 'f.txt']);
  });
  it('refuses refs that could become options, and unknown refs', async () => {
    await expect(resolveRef(dir, '-rf')).rejects.toMatchObject({ code: 'INVALID_REQUEST' });
    await expect(resolveRef(dir, '--output=/tmp/x')).rejects.toMatchObject({ code: 'INVALID_REQUEST' });
    await expect(resolveRef(dir, 'no-such-branch')).rejects.toMatchObject({ code: 'INVALID_REQUEST' });
    expect(await resolveRef(dir, 'main~1')).toBe(hashes.two);
    expect(readFileSync(join(dir, '-rf'), 'utf8')).toBe('x');
  });
  it('treats a file path that looks like an option or a glob literally', async () => {
    writeFileSync(join(dir, '*.txt'), 'star\n');
    const repo = await repoFileOf(join(dir, '*.txt'));
    expect(await fileLog(repo, 5)).toEqual([]);
  });
});

// clause H13: hooks, fsmonitor, pagers, external diff, textconv, filters and inherited GIT_* run nothing.
describe('git is disarmed: a hostile repository configuration runs nothing', () => {
  let outer: string;
  let repo: string;
  let marker: string;
  let shared: string;
  const planted = () => (existsSync(marker) ? readFileSync(marker, 'utf8') : '');
  beforeAll(() => {
    // The repository in a folder of its own, the planted program and its marker beside it (outside the work tree).
    outer = mkdtempSync(join(tmpdir(), 'idea-git-hostile-'));
    repo = join(outer, 'repo');
    mkdirSync(repo);
    marker = join(outer, 'ran.txt');
    const script = join(outer, 'evil.sh');
    writeFileSync(script, `#!/bin/sh\necho "$0 $*" >> '${marker}'\ncat\n`, { mode: 0o755 });
    execFileSync('git', ['-C', repo, 'init', '-q', '-b', 'main']);
    writeFileSync(join(repo, 'f.txt'), 'one\n');
    writeFileSync(join(repo, '.gitattributes'), '* filter=evil diff=evil\n');
    execFileSync('git', ['-C', repo, 'add', '-A']);
    execFileSync('git', ['-C', repo, '-c', 'user.name=A', '-c', 'user.email=a@x.invalid', 'commit', '-q', '-m', 'one']);
    writeFileSync(join(repo, 'f.txt'), 'two\n');
    // Everything a repository's config can name as a program, some of it through an included file
    // that lives in the working tree (a client able to edit workspace files could write it).
    shared = join(repo, 'shared.gitconfig');
    writeFileSync(
      shared,
      `[filter "evil"]\n\tclean = ${script} clean\n\tsmudge = ${script} smudge\n[diff "evil"]\n\ttextconv = ${script} textconv\n\tcommand = ${script} extdiff\n`,
    );
    for (const [k, v] of [
      ['core.fsmonitor', script],
      ['core.hooksPath', join(repo, 'hooks')],
      ['core.pager', script],
      ['diff.external', script],
      ['include.path', shared],
      ['log.showSignature', 'true'],
      ['gpg.program', script],
    ])
      execFileSync('git', ['-C', repo, 'config', k!, v!]);
  });
  afterAll(() => rmSync(outer, { recursive: true, force: true }));

  it('the planted configuration does run a program under plain git (the test can fail)', () => {
    execFileSync('git', ['-C', repo, 'diff', 'HEAD', '--', 'f.txt'], { stdio: 'pipe' });
    expect(planted()).not.toBe('');
    rmSync(marker, { force: true });
  });
  it('log, count, refs, blobs and every kind of diff run nothing', async () => {
    const r = await repoFileOf(join(repo, 'f.txt'));
    const [c] = await fileLog(r, 5);
    expect(await fileCommitCount(r)).toBe(1);
    expect(await resolveRef(r.root, 'main')).toBe(c!.hash);
    expect((await blobAt(r, c!.hash)).toString()).toBe('one\n');
    const wt = await diffFile(r, c!.hash, null);
    expect(wt).toContain('-one');
    expect(wt).toContain('+two');
    expect(wt).toContain('--- a/f.txt');
    expect(await diffFile(r, c!.hash, null, true)).toContain('-two');
    expect(await diffFile(r, c!.hash, c!.hash)).toBe('');
    expect(planted()).toBe('');
  });
  it('ignores inherited GIT_* variables', async () => {
    const saved = process.env.GIT_EXTERNAL_DIFF;
    process.env.GIT_EXTERNAL_DIFF = join(outer, 'evil.sh');
    try {
      const r = await repoFileOf(join(repo, 'f.txt'));
      const [c] = await fileLog(r, 5);
      await diffFile(r, c!.hash, c!.hash);
      await diffFile(r, c!.hash, null);
    } finally {
      if (saved === undefined) delete process.env.GIT_EXTERNAL_DIFF;
      else process.env.GIT_EXTERNAL_DIFF = saved;
    }
    expect(planted()).toBe('');
  });
});

describe('git waits for a slot of the shared process limiter', () => {
  it('does not start while every process slot is taken, and runs once one is free', async () => {
    const { configureLimits } = await import('../../server-core/limits/config');
    const { withProcessSlot, processSlotStats } = await import('../../server-core/limits/process-slots');
    const repo = await repoFileOf(join(dir, 'f.txt'));
    configureLimits({ maxChildProcesses: 2 });
    try {
      const releases: (() => void)[] = [];
      const holders = ['a', 'b'].map((id) =>
        withProcessSlot(clientSignal(id), () => new Promise<void>((r) => releases.push(r))),
      );
      await until('both holders in their slots', () => processSlotStats().active === 2);
      let done = false;
      const call = fileLog(repo, 1, 0, clientSignal('c')).then(() => {
        done = true;
      });
      // Queued behind the holders: it has not started, and cannot until a slot is given back.
      await until('git to queue for a slot', () => processSlotStats().queued === 1, { detail: processSlotStats });
      expect(done).toBe(false);
      expect(processSlotStats().active).toBe(2);
      for (const r of releases) r();
      await Promise.all([call, ...holders]);
      expect(done).toBe(true);
    } finally {
      configureLimits({});
    }
  });
});

/** Holds every process slot (capacity 1) while `fn` runs: a git process started by `fn` must wait. */
async function withSlotsTaken<T>(fn: () => Promise<T>): Promise<T> {
  const { configureLimits } = await import('../../server-core/limits/config');
  const { withProcessSlot, processSlotStats } = await import('../../server-core/limits/process-slots');
  configureLimits({ maxChildProcesses: 1 });
  let release = () => {};
  const holder = withProcessSlot(clientSignal('holder'), () => new Promise<void>((r) => (release = r)));
  try {
    await until('the holder in its slot', () => processSlotStats().active === 1);
    return await fn();
  } finally {
    release();
    await holder;
    configureLimits({});
  }
}

/** Settles within `ms` (true) or is still waiting (false). */
function settlesWithin(p: Promise<unknown>, ms: number): Promise<boolean> {
  return Promise.race([p.then(() => true), new Promise<boolean>((r) => setTimeout(() => r(false), ms))]);
}

describe('the repository root is remembered, and found again when git would find another', () => {
  it('a second lookup from the same folder starts no git process', async () => {
    const first = await repoFileOf(join(dir, 'f.txt'));
    await withSlotsTaken(async () => {
      const again = repoFileOf(join(dir, 'other.txt'));
      expect(await settlesWithin(again, 500)).toBe(true);
      expect(await again).toEqual({ root: first.root, rel: 'other.txt' });
    });
  });
  it('a folder never asked about still asks git (the check above can fail)', async () => {
    const sub = join(dir, 'fresh-sub');
    mkdirSync(sub, { recursive: true });
    const { processSlotStats } = await import('../../server-core/limits/process-slots');
    await withSlotsTaken(async () => {
      let settled = false;
      const lookup = repoFileOf(join(sub, 'x.txt')).finally(() => (settled = true));
      // It asks git: its process waits for the slot the holder has.
      await until('the lookup to queue for a process slot', () => processSlotStats().queued === 1);
      expect(settled).toBe(false);
      lookup.catch(() => {});
    });
  });
  it('a repository created later inside the remembered one is the one found', async () => {
    const nested = join(dir, 'nested');
    mkdirSync(join(nested, 'deeper'), { recursive: true });
    const outer = await repoFileOf(join(nested, 'deeper', 'n.txt'));
    expect(outer.rel).toBe('nested/deeper/n.txt');
    execFileSync('git', ['-C', nested, 'init', '-q', '-b', 'main']);
    try {
      const inner = await repoFileOf(join(nested, 'deeper', 'n.txt'));
      expect(inner.rel).toBe('deeper/n.txt');
      expect(inner.root).not.toBe(outer.root);
    } finally {
      rmSync(join(nested, '.git'), { recursive: true, force: true });
    }
    expect((await repoFileOf(join(nested, 'deeper', 'n.txt'))).rel).toBe('nested/deeper/n.txt');
  });
});

describe('commitsAtIndices', () => {
  it('answers as commitAtIndex does, each index on its own', async () => {
    const repo = await repoFileOf(join(dir, 'f.txt'));
    expect(await commitsAtIndices(repo, [2, 1, 2])).toEqual([hashes.one, hashes.two, hashes.one]);
    expect(await commitsAtIndices(repo, [1])).toEqual([await commitAtIndex(repo, 1)]);
    expect(await commitsAtIndices(repo, [])).toEqual([]);
  });
  it('refuses an index beyond the history, a huge one and a non-integer', async () => {
    const repo = await repoFileOf(join(dir, 'f.txt'));
    for (const bad of [[1, 3], [2 ** 53], [1.5], [0]])
      await expect(commitsAtIndices(repo, bad)).rejects.toThrow(/beyond the file's history/);
  });
});
