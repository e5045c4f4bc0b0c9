// Thin wrapper over the git CLI. Every call is an argument vector (no shell), paths come after `--` with
// literal pathspecs, and client-supplied refs pass only after `--end-of-options` and a `-` check, so
// no parameter can ever become a git option.
import { execFile } from 'node:child_process';
import { existsSync } from 'node:fs';
import { dirname, relative, sep } from 'node:path';
import { invalidRequest } from './errors';
import { realpathOfNearestAncestor } from './pathGuard';

const MAX_OUTPUT = 64 * 1024 * 1024;

export class GitError extends Error {}

/** Runs git in `cwd`; resolves with stdout bytes, rejects with GitError (stderr) on a non-zero exit. */
export function git(cwd: string, args: readonly string[], signal?: AbortSignal): Promise<Buffer> {
  return new Promise((resolvePromise, reject) => {
    execFile(
      'git',
      ['-C', cwd, '-c', 'core.quotepath=off', ...args],
      {
        encoding: 'buffer',
        maxBuffer: MAX_OUTPUT,
        signal,
        // Literal pathspecs: a file named `*.ts` or `:(glob)x` means itself. No prompts, no pager,
        // no optional locks (we only read, except rollback which writes through Node, not git).
        env: { ...process.env, GIT_LITERAL_PATHSPECS: '1', GIT_TERMINAL_PROMPT: '0', GIT_OPTIONAL_LOCKS: '0', GIT_PAGER: 'cat', LC_ALL: 'C' },
        windowsHide: true,
      },
      (err, stdout, stderr) => {
        if (err) reject(new GitError(`git ${args[0]} failed: ${String(stderr || err.message).trim().slice(0, 2000)}`));
        else resolvePromise(stdout);
      },
    );
  });
}

export interface RepoFile {
  /** Repository top level (symlinks resolved). */
  root: string;
  /** Path of the file relative to `root`, "/"-separated. */
  rel: string;
}

/** Finds the repository containing `realPath` (an absolute path with symlinks resolved). */
export async function repoFileOf(realPath: string): Promise<RepoFile> {
  let dir = dirname(realPath);
  while (!existsSync(dir) && dirname(dir) !== dir) dir = dirname(dir);
  let top: string;
  try {
    top = (await git(dir, ['rev-parse', '--show-toplevel'])).toString('utf8').trim();
  } catch {
    throw new GitError(`not inside a git repository: ${realPath}`);
  }
  const root = realpathOfNearestAncestor(top);
  const rel = relative(root, realPath).split(sep).join('/');
  return { root, rel };
}

export interface Commit {
  hash: string;
  authorName: string | null;
  authorEmail: string | null;
  authorDate: string | null;
  message: string;
}

const FIELD = '\x1f';
const RECORD = '\x1e';

/** Commits that touched the file, newest first: position i (0-based) is the file's version index i+1. */
export async function fileLog(repo: RepoFile, maxCount: number, skip = 0): Promise<Commit[]> {
  const out = await git(repo.root, [
    'log', `--max-count=${maxCount}`, `--skip=${skip}`, '--no-color',
    `--format=%H${FIELD}%an${FIELD}%ae${FIELD}%aI${FIELD}%B${RECORD}`, 'HEAD', '--', repo.rel,
  ]).catch((e: Error) => {
    // A repository without any commit has no HEAD: the file simply has no history yet.
    if (/does not have any commits|unknown revision|bad revision|ambiguous argument 'HEAD'/.test(e.message)) return Buffer.alloc(0);
    throw e;
  });
  return out
    .toString('utf8')
    .split(RECORD)
    .map((r) => r.replace(/^\n/, ''))
    .filter((r) => r.length > 0)
    .map((r) => {
      const [hash = '', an = '', ae = '', ad = '', ...msg] = r.split(FIELD);
      return { hash, authorName: an || null, authorEmail: ae || null, authorDate: ad || null, message: msg.join(FIELD).replace(/\s+$/, '') };
    });
}

/** Number of commits that touched the file (the whole history, not just what a list returned). */
export async function fileCommitCount(repo: RepoFile): Promise<number> {
  const out = await git(repo.root, ['rev-list', '--count', 'HEAD', '--', repo.rel]).catch(() => Buffer.from('0'));
  return Number(out.toString('utf8').trim()) || 0;
}

/** The commit holding the file's version `index` (>= 1) as fileLog lists it; INVALID_REQUEST when there is none. */
export async function commitAtIndex(repo: RepoFile, index: number): Promise<string> {
  const [c] = await fileLog(repo, 1, index - 1);
  if (!c) throw invalidRequest(`index ${index} is beyond the file's history`);
  return c.hash;
}

/** Validates a client-supplied ref and resolves it to a commit hash. */
export async function resolveRef(root: string, ref: unknown): Promise<string> {
  if (typeof ref !== 'string' || ref.length === 0) throw invalidRequest('ref must be a non-empty string');
  if (ref.startsWith('-')) throw invalidRequest(`invalid ref (starts with "-"): ${ref}`);
  if (/[\0\n]/.test(ref)) throw invalidRequest('invalid ref');
  try {
    const out = await git(root, ['rev-parse', '--verify', '--quiet', '--end-of-options', `${ref}^{commit}`]);
    return out.toString('utf8').trim();
  } catch {
    throw invalidRequest(`unknown git ref: ${ref}`);
  }
}

/** Exact committed bytes of the file at `hash` (no textconv, no filters). */
export function blobAt(repo: RepoFile, hash: string): Promise<Buffer> {
  return git(repo.root, ['cat-file', 'blob', '--end-of-options', `${hash}:${repo.rel}`]);
}

/**
 * Unified diff of the file from `older` to `newer` (commit hashes; `newer` null = the working tree),
 * "" when they are equal. `reverse` swaps the sides (working tree → commit).
 */
export async function diffFile(repo: RepoFile, older: string, newer: string | null, reverse = false): Promise<string> {
  const revs = newer ? [older, newer] : [older];
  const flags = ['--no-color', '--no-ext-diff', '--no-textconv', ...(reverse ? ['-R'] : [])];
  const out = await git(repo.root, ['diff', ...flags, '--end-of-options', ...revs, '--', repo.rel]);
  return out.toString('utf8');
}
