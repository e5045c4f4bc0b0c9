// Thin wrapper over the git CLI, disarmed: reading history must never run a program the repository
// (or a client that can edit workspace files) chose. Every call:
// - is an argument vector (no shell); paths come after `--` as literal pathspecs; client-supplied refs
//   pass only after `--end-of-options` and a `-` check, so no parameter can become an option;
// - overrides, on the command line (which beats every config file), the settings through which git
//   runs programs or reaches out: hooks, fsmonitor, pager, credential helpers, transports (a partial
//   clone's lazy fetch), signature verification; replace refs are ignored so history cannot be faked;
// - starts from an environment without inherited GIT_* variables (GIT_DIR, GIT_EXTERNAL_DIFF, …);
// - runs the git found in PATH's absolute folders, never one a relative PATH entry would find inside
//   the workspace (runtime/programs.ts).
// Working-tree diffs never let git read the working tree (which would run clean filters and fsmonitor
// named by .gitattributes or an included config file): the committed blob and the file's bytes are
// compared by `git diff --no-index` in an empty temporary folder with no configuration at all.
import { existsSync } from 'node:fs';
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { dirname, join, relative, sep } from 'node:path';
import { DISARMING_ARGS, disarmedEnv } from '../runtime/git-disarm';
import { absolutePathFolders, findProgram } from '../runtime/programs';
import { invalidRequest } from './errors';
import { withProcessSlot } from './limits/process-slots';
import { realpathOfNearestAncestor } from './path-guard';
import { type ExecResult, execProcess } from './spawn/processes';

const MAX_OUTPUT = 64 * 1024 * 1024;

class GitError extends Error {}

/** Every git process waits for a slot of the fair process limiter shared with rg (limits/process-slots.ts). */
function run(cwd: string, args: readonly string[], env: NodeJS.ProcessEnv, signal?: AbortSignal): Promise<Buffer> {
  return withProcessSlot(signal, () => spawnGit(cwd, args, env, signal));
}

async function spawnGit(
  cwd: string,
  args: readonly string[],
  env: NodeJS.ProcessEnv,
  signal?: AbortSignal,
): Promise<Buffer> {
  let res: ExecResult;
  try {
    res = await execProcess(
      { file: gitProgram(env), args: ['-C', cwd, '--no-pager', ...DISARMING_ARGS, ...args], cwd, env },
      { maxBuffer: MAX_OUTPUT, signal },
    );
  } catch (e) {
    throw new GitError(`git ${args[0]} failed: ${(e as Error).message.slice(0, 2000)}`);
  }
  // `diff --no-index` exits 1 when the files differ: that is an answer, not a failure.
  if (res.code === 0 || (res.code === 1 && args[0] === 'diff' && args.includes('--no-index'))) return res.stdout;
  const why = res.signal ? `killed by ${res.signal}` : `exit code ${res.code}`;
  throw new GitError(`git ${args[0]} failed: ${(res.stderr.toString('utf8').trim() || why).slice(0, 2000)}`);
}

/** The git program found for the last PATH seen (found again only when PATH's absolute folders change). */
let gitFound: { folders: string; file: string } | undefined;

/** git's absolute path, found in PATH's absolute folders (runtime/programs.ts); throws ProgramNotFoundError. */
function gitProgram(env: NodeJS.ProcessEnv): string {
  const folders = absolutePathFolders(env).join('\0');
  if (gitFound?.folders !== folders) gitFound = { folders, file: findProgram('git', env) };
  return gitFound.file;
}

/** Runs git in `cwd`; resolves with stdout bytes, rejects with GitError (stderr) on a non-zero exit. */
export function git(cwd: string, args: readonly string[], signal?: AbortSignal): Promise<Buffer> {
  return run(cwd, args, disarmedEnv(), signal);
}

export interface RepoFile {
  /** Repository top level (symlinks resolved). */
  root: string;
  /** Path of the file relative to `root`, "/"-separated. */
  rel: string;
}

// Repository top levels by the folder git was asked from: every history request starts by finding its
// repository, and each git process costs the event loop a fork (tens of ms from a large process).
const TOPS_MAX = 256;
const TOP_MAX_AGE_MS = 30_000;
const tops = new Map<string, { top: string; at: number }>();

/**
 * The remembered top level for `dir` while git would still find it: `<top>/.git` exists and no folder
 * from `dir` up to `top` has gained a `.git` (`git init` or a nested clone). Other changes (ownership, a
 * broken .git) make the next git call in `top` fail by itself; an entry is at most 30 s old.
 */
function rememberedTop(dir: string): string | undefined {
  const hit = tops.get(dir);
  if (!hit) return undefined;
  let valid = Date.now() - hit.at <= TOP_MAX_AGE_MS && existsSync(join(hit.top, '.git'));
  for (let d = dir; valid && d !== hit.top; d = dirname(d)) {
    if (dirname(d) === d || existsSync(join(d, '.git'))) valid = false;
  }
  if (valid) return hit.top;
  tops.delete(dir);
  return undefined;
}

function remember(dir: string, top: string): void {
  if (tops.size >= TOPS_MAX) tops.delete(tops.keys().next().value!); // the oldest entry
  tops.set(dir, { top, at: Date.now() });
}

/** Finds the repository containing `realPath` (an absolute path with symlinks resolved). */
export async function repoFileOf(realPath: string, signal?: AbortSignal): Promise<RepoFile> {
  let dir = dirname(realPath);
  while (!existsSync(dir) && dirname(dir) !== dir) dir = dirname(dir);
  let top = rememberedTop(dir);
  if (top === undefined) {
    try {
      top = (await git(dir, ['rev-parse', '--show-toplevel'], signal)).toString('utf8').trim();
    } catch (e) {
      if (signal?.aborted) throw e;
      throw new GitError(`not inside a git repository: ${realPath}`);
    }
    remember(dir, top);
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

/** A repository without any commit has no HEAD: the file simply has no history yet. */
function noHistoryYet(e: Error): Buffer {
  if (/does not have any commits|unknown revision|bad revision|ambiguous argument 'HEAD'/.test(e.message))
    return Buffer.alloc(0);
  throw e;
}

/** Commits that touched the file, newest first: position i (0-based) is the file's version index i+1. */
export async function fileLog(repo: RepoFile, maxCount: number, skip = 0, signal?: AbortSignal): Promise<Commit[]> {
  const out = await git(
    repo.root,
    [
      'log',
      `--max-count=${maxCount}`,
      `--skip=${skip}`,
      '--no-color',
      `--format=%H${FIELD}%an${FIELD}%ae${FIELD}%aI${FIELD}%B${RECORD}`,
      'HEAD',
      '--',
      repo.rel,
    ],
    signal,
  ).catch(noHistoryYet);
  return out
    .toString('utf8')
    .split(RECORD)
    .map((r) => r.replace(/^\n/, ''))
    .filter((r) => r.length > 0)
    .map((r) => {
      const [hash = '', an = '', ae = '', ad = '', ...msg] = r.split(FIELD);
      return {
        hash,
        authorName: an || null,
        authorEmail: ae || null,
        authorDate: ad || null,
        message: msg.join(FIELD).replace(/\s+$/, ''),
      };
    });
}

/** Number of commits that touched the file (the whole history, not just what a list returned). */
export async function fileCommitCount(repo: RepoFile, signal?: AbortSignal): Promise<number> {
  const out = await git(repo.root, ['rev-list', '--count', 'HEAD', '--', repo.rel], signal).catch(() =>
    Buffer.from('0'),
  );
  return Number(out.toString('utf8').trim()) || 0;
}

/** The commit holding the file's version `index` (>= 1) as fileLog lists it; INVALID_REQUEST when there is none. */
export async function commitAtIndex(repo: RepoFile, index: number, signal?: AbortSignal): Promise<string> {
  // 1e21 is a JSON integer, but git would read `--skip=1e+21` as 1: only exact integers reach git.
  if (!Number.isSafeInteger(index) || index < 1) throw invalidRequest(`index ${index} is beyond the file's history`);
  const [c] = await fileLog(repo, 1, index - 1, signal);
  if (!c) throw invalidRequest(`index ${index} is beyond the file's history`);
  return c.hash;
}

/**
 * The commits holding several of the file's versions (indices >= 1, as commitAtIndex) with one git
 * process when all are within the first MAX_INDEX_BATCH versions; INVALID_REQUEST for any beyond history.
 */
export async function commitsAtIndices(
  repo: RepoFile,
  indices: readonly number[],
  signal?: AbortSignal,
): Promise<string[]> {
  if (indices.length === 0) return [];
  const deepest = Math.max(...indices);
  if (!indices.every((i) => Number.isSafeInteger(i) && i >= 1) || deepest > MAX_INDEX_BATCH)
    return Promise.all(indices.map((i) => commitAtIndex(repo, i, signal)));
  const out = await git(
    repo.root,
    ['log', `--max-count=${deepest}`, '--no-color', '--format=%H', 'HEAD', '--', repo.rel],
    signal,
  ).catch(noHistoryYet);
  const hashes = out.toString('utf8').split('\n').filter(Boolean);
  return indices.map((i) => {
    const hash = hashes[i - 1];
    if (!hash) throw invalidRequest(`index ${i} is beyond the file's history`);
    return hash;
  });
}
const MAX_INDEX_BATCH = 1000;

/** Validates a client-supplied ref and resolves it to a commit hash. */
export async function resolveRef(root: string, ref: unknown, signal?: AbortSignal): Promise<string> {
  if (typeof ref !== 'string' || ref.length === 0) throw invalidRequest('ref must be a non-empty string');
  if (ref.startsWith('-')) throw invalidRequest(`invalid ref (starts with "-"): ${ref}`);
  if (/[\0\n]/.test(ref)) throw invalidRequest('invalid ref');
  try {
    const out = await git(root, ['rev-parse', '--verify', '--quiet', '--end-of-options', `${ref}^{commit}`], signal);
    return out.toString('utf8').trim();
  } catch (e) {
    if (signal?.aborted) throw e;
    throw invalidRequest(`unknown git ref: ${ref}`);
  }
}

/** Exact committed bytes of the file at `hash` (no textconv, no filters). */
export function blobAt(repo: RepoFile, hash: string, signal?: AbortSignal): Promise<Buffer> {
  return git(repo.root, ['cat-file', 'blob', '--end-of-options', `${hash}:${repo.rel}`], signal);
}

/**
 * Unified diff of the file from `older` to `newer` (commit hashes; `newer` null = the working tree),
 * "" when they are equal. `reverse` swaps the sides (working tree → commit).
 */
export async function diffFile(
  repo: RepoFile,
  older: string,
  newer: string | null,
  reverse = false,
  signal?: AbortSignal,
): Promise<string> {
  if (newer) {
    const out = await git(
      repo.root,
      ['diff', '--no-color', '--no-ext-diff', '--no-textconv', '--end-of-options', older, newer, '--', repo.rel],
      signal,
    );
    return out.toString('utf8');
  }
  // The file may not exist in that commit.
  const committed = await blobAt(repo, older, signal).catch((e) => {
    if (signal?.aborted) throw e;
    return null;
  });
  const current = await readFile(join(repo.root, ...repo.rel.split('/'))).catch(() => null);
  return reverse ? diffBytes(repo.rel, current, committed) : diffBytes(repo.rel, committed, current);
}

/**
 * `git diff` of two versions of `rel` given as bytes (null = the file does not exist on that side),
 * computed by `git diff --no-index` in an empty folder outside any repository with no configuration
 * read at all, then labelled with `rel` as `git diff` would label it.
 */
async function diffBytes(rel: string, from: Uint8Array | null, to: Uint8Array | null): Promise<string> {
  const dir = await mkdtemp(join(tmpdir(), 'idea-diff-'));
  try {
    const paths: string[] = [];
    for (const [name, bytes] of [
      ['a', from],
      ['b', to],
    ] as const) {
      if (bytes === null) {
        paths.push('/dev/null');
        continue;
      }
      await writeFile(join(dir, name), bytes);
      paths.push(name);
    }
    if (paths[0] === '/dev/null' && paths[1] === '/dev/null') return '';
    // No system, global or repository configuration: nothing can name a program to run.
    const env = disarmedEnv({
      GIT_CONFIG_NOSYSTEM: '1',
      GIT_CONFIG_GLOBAL: '/dev/null',
      GIT_CEILING_DIRECTORIES: dirname(dir),
      HOME: dir,
      XDG_CONFIG_HOME: dir,
    });
    const out = await run(
      dir,
      ['diff', '--no-index', '--no-color', '--no-ext-diff', '--no-textconv', '--', ...paths],
      env,
    );
    return relabel(out.toString('utf8'), rel, from, to);
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
}

/** Replaces the temporary names in a --no-index diff's header lines with `a/<rel>` and `b/<rel>`. */
function relabel(diff: string, rel: string, from: unknown, to: unknown): string {
  if (diff === '') return '';
  const a = quotePath(`a/${rel}`);
  const b = quotePath(`b/${rel}`);
  const lines = diff.split('\n');
  for (let i = 0; i < lines.length && !lines[i]!.startsWith('@@'); i++) {
    const l = lines[i]!;
    if (l.startsWith('diff --git ')) lines[i] = `diff --git ${a} ${b}`;
    else if (l.startsWith('--- ') && l !== '--- /dev/null') lines[i] = `--- ${a}`;
    else if (l.startsWith('+++ ') && l !== '+++ /dev/null') lines[i] = `+++ ${b}`;
    else if (l.startsWith('Binary files '))
      lines[i] = `Binary files ${from === null ? '/dev/null' : a} and ${to === null ? '/dev/null' : b} differ`;
  }
  return lines.join('\n');
}

/** A path as git prints it with core.quotepath=off: quoted, C-style, only when it holds `"`, `\\` or control characters. */
function quotePath(p: string): string {
  if (!/["\\\x00-\x1f\x7f]/.test(p)) return p;
  const named: Record<string, string> = {
    '"': '\\"',
    '\\': '\\\\',
    '\x07': '\\a',
    '\b': '\\b',
    '\t': '\\t',
    '\n': '\\n',
    '\v': '\\v',
    '\f': '\\f',
    '\r': '\\r',
  };
  return `"${p.replace(/["\\\x00-\x1f\x7f]/g, (c) => named[c] ?? `\\${c.charCodeAt(0).toString(8).padStart(3, '0')}`)}"`;
}
