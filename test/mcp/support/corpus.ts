// The real repository of the shared corpus (its README): date-fns at a pinned commit, 1,538 TypeScript
// files, unpacked into a folder of the test's and committed once, so the git topics have a HEAD to
// compare with and roll back to. The test's own git runs disarmed like every git we run.
import { execFileSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { DISARMING_ARGS, disarmedEnv } from '../../../runtime/git-disarm';
import { ROOT } from './idea-mcp';

const GIT_ENV = disarmedEnv({ GIT_CONFIG_NOSYSTEM: '1', GIT_CONFIG_GLOBAL: '/dev/null' });

/**
 * Beside the repository, as CI lays it out (`../shared` from the root); in a linked git worktree,
 * beside the main one (where the shared folder is), when it is not beside the worktree.
 */
export const CORPUS_DIR = corpusDir();
export const DATE_FNS_TARBALL = join(CORPUS_DIR, 'date-fns-dd6639830.tar.gz');

function corpusDir(): string {
  const beside = resolve(ROOT, '../shared/corpus');
  if (existsSync(beside)) return beside;
  try {
    const common = execFileSync('git', [...DISARMING_ARGS, 'rev-parse', '--path-format=absolute', '--git-common-dir'], {
      cwd: ROOT,
      env: GIT_ENV,
      encoding: 'utf8',
      timeout: 10_000,
      stdio: ['ignore', 'pipe', 'ignore'],
    }).trim();
    const main = resolve(dirname(common), '../shared/corpus');
    return existsSync(main) ? main : beside;
  } catch {
    return beside;
  }
}

const IDENTITY = [
  '-c',
  'user.name=idea-kit test',
  '-c',
  'user.email=test@idea-kit.invalid',
  '-c',
  'commit.gpgsign=false',
];

/** git in `cwd`, disarmed, bounded; its stdout. */
export function git(cwd: string, ...args: string[]): string {
  return execFileSync('git', [...DISARMING_ARGS, ...IDENTITY, '-c', 'init.defaultBranch=main', ...args], {
    cwd,
    env: GIT_ENV,
    encoding: 'utf8',
    timeout: 60_000,
    stdio: ['ignore', 'pipe', 'pipe'],
  });
}

/** date-fns unpacked into `into` and committed; its folder. Fails saying where the corpus was looked for. */
export function unpackDateFns(into: string): string {
  if (!existsSync(DATE_FNS_TARBALL))
    throw new Error(
      `the shared corpus is missing: no ${DATE_FNS_TARBALL} (CI has the shared folder at ../shared beside the repository root)`,
    );
  execFileSync('tar', ['-xzf', DATE_FNS_TARBALL, '-C', into], { timeout: 60_000, stdio: ['ignore', 'pipe', 'pipe'] });
  const dir = join(into, 'date-fns');
  git(dir, 'init', '-q');
  git(dir, 'add', '-A');
  git(dir, 'commit', '-q', '-m', 'date-fns dd66398 (shared corpus)');
  return dir;
}
