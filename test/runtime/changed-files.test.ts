// The files git reports as changed, for `idea diag list --changed` and idea-mcp's `changed: true`: what
// counts (modified, added, renamed, untracked; not deleted or ignored), and git running disarmed on a
// repository whose clean filter and fsmonitor are traps.
import { execFileSync } from 'node:child_process';
import {
  chmodSync,
  existsSync,
  mkdirSync,
  mkdtempSync,
  readFileSync,
  rmSync,
  utimesSync,
  writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { changedFiles, filterOverrides, parseStatus, withChangedFiles } from '../../runtime/changed-files';
import { DISARMING_ARGS, disarmedEnv } from '../../runtime/git-disarm';

const tmp = mkdtempSync(join(tmpdir(), 'idea-changed-'));
afterAll(() => rmSync(tmp, { recursive: true, force: true }));

function git(dir: string, ...args: string[]): string {
  return execFileSync('git', [...DISARMING_ARGS, '-c', 'user.name=t', '-c', 'user.email=t@example.invalid', ...args], {
    cwd: dir,
    env: disarmedEnv({ GIT_CONFIG_NOSYSTEM: '1', GIT_CONFIG_GLOBAL: '/dev/null' }),
    encoding: 'utf8',
  });
}

function repo(name: string): string {
  const dir = join(tmp, name);
  mkdirSync(join(dir, 'src'), { recursive: true });
  git(dir, 'init', '-q', '-b', 'main');
  for (const f of ['src/a.ts', 'src/b.ts', 'src/gone.ts', 'src/old-name.ts', 'README.md'])
    writeFileSync(join(dir, f), `// ${f}\n`);
  writeFileSync(join(dir, '.gitignore'), 'dist/\n');
  git(dir, 'add', '-A');
  git(dir, 'commit', '-q', '-m', 'base');
  return dir;
}

describe('changedFiles', () => {
  it('modified, staged-new, renamed (new name) and untracked files; never deleted or ignored ones', async () => {
    const dir = repo('plain');
    writeFileSync(join(dir, 'src/a.ts'), 'export const a: number = "x";\n'); // modified, unstaged
    writeFileSync(join(dir, 'src/new.ts'), 'export {};\n');
    git(dir, 'add', 'src/new.ts'); // added, staged
    writeFileSync(join(dir, 'src/untracked.ts'), '\n');
    rmSync(join(dir, 'src/gone.ts'));
    git(dir, 'mv', 'src/old-name.ts', 'src/new-name.ts');
    mkdirSync(join(dir, 'dist'));
    writeFileSync(join(dir, 'dist/out.js'), '\n'); // ignored
    const got = await changedFiles(join(dir, 'src'));
    expect(got.root).toBe(dir);
    expect(got.files).toEqual(
      ['src/a.ts', 'src/new-name.ts', 'src/new.ts', 'src/untracked.ts'].map((f) => join(dir, f)).sort(),
    );
  });

  it('a clean repository: nothing, and withChangedFiles asks nothing; outside a repository: an error', async () => {
    const dir = repo('clean');
    expect((await changedFiles(dir)).files).toEqual([]);
    expect(await withChangedFiles({ changed: true, severity: 'error' }, dir)).toBeUndefined();
    expect(await withChangedFiles({ severity: 'error' }, dir)).toEqual({ params: { severity: 'error' } });
    await expect(withChangedFiles({ changed: true, filePath: 'a.ts' }, dir)).rejects.toThrow(/not both/);
    const bare = join(tmp, 'no-repo');
    mkdirSync(bare);
    await expect(changedFiles(bare)).rejects.toThrow(/git rev-parse in .*no-repo/);
  });

  it("runs none of the repository's programs: clean filters, process filters and fsmonitor stay off", async () => {
    const dir = repo('hostile');
    const marker = join(tmp, 'hostile-marker');
    const trap = join(tmp, 'trap.sh');
    writeFileSync(trap, `#!/bin/sh\necho "$0 $*" >> ${marker}\ncat\n`);
    chmodSync(trap, 0o755);
    // Two drivers (one with a dot in its name), an fsmonitor, attributes on every file.
    git(dir, 'config', 'filter.evil.clean', trap);
    git(dir, 'config', 'filter.evil.smudge', trap);
    git(dir, 'config', 'filter.my.driver.process', trap);
    git(dir, 'config', 'core.fsmonitor', trap);
    writeFileSync(join(dir, '.git', 'info', 'attributes'), '* filter=evil\n*.md filter=my.driver\n');
    // Same content, new mtime: git must re-read the files (through their filters) to know they are unchanged.
    for (const f of ['src/a.ts', 'src/b.ts', 'README.md'])
      utimesSync(join(dir, f), new Date(), new Date(Date.now() + 5000));
    writeFileSync(join(dir, 'src/b.ts'), '// b, changed\n');
    const got = await changedFiles(dir);
    expect(got.files).toEqual([join(dir, 'src/b.ts')]);
    expect(existsSync(marker) ? readFileSync(marker, 'utf8') : 'no trap ran').toBe('no trap ran');
    // The traps are live: git status without the overrides runs the clean filter.
    execFileSync('git', ['-c', 'core.fsmonitor=false', 'status', '--porcelain'], {
      cwd: dir,
      env: { ...process.env },
      stdio: ['ignore', 'pipe', 'pipe'], // the trap process filter is no filter: git complains
    });
    expect(existsSync(marker)).toBe(true);
  });
});

describe('status and config parsing', () => {
  it('parseStatus keeps what exists after the change', () => {
    const out = [
      ' M src/a.ts',
      'A  src/new.ts',
      '?? notes.txt',
      ' D src/gone.ts',
      'D  src/staged-gone.ts',
      'R  b.ts',
      'a.ts',
      '',
    ].join('\0');
    expect(parseStatus(out)).toEqual(['src/a.ts', 'src/new.ts', 'notes.txt', 'b.ts']);
  });

  it('filterOverrides switches off every configured driver, names with dots included', () => {
    const listing = ['filter.lfs.clean\ngit-lfs clean -- %f', 'filter.my.driver.process\nx', ''].join('\0');
    expect(filterOverrides(listing)).toEqual([
      ...[
        '-c',
        'filter.lfs.clean=',
        '-c',
        'filter.lfs.smudge=',
        '-c',
        'filter.lfs.process=',
        '-c',
        'filter.lfs.required=false',
      ],
      ...[
        '-c',
        'filter.my.driver.clean=',
        '-c',
        'filter.my.driver.smudge=',
        '-c',
        'filter.my.driver.process=',
        '-c',
        'filter.my.driver.required=false',
      ],
    ]);
  });
});
