// Reading committed files through git, for the checks that need the past of spec/ (releases.json's
// history, a released folder's contents before an amendment). Read-only: never changes the repository,
// and disarmed (runtime/git-disarm.ts) like every git call here.
import { spawnSync } from 'node:child_process';
import { DISARMING_ARGS, disarmedEnv } from '../runtime/git-disarm';
import { findProgramOrUndefined, programEnv, RELATIVE_NEVER } from '../runtime/programs';

export interface GitResult {
  ok: boolean;
  stdout: Buffer;
  stderr: string;
}

/** git from PATH's absolute folders only (runtime/programs.ts): never one the checkout holds. */
export function git(cwd: string, args: string[], input?: string): GitResult {
  const exe = findProgramOrUndefined('git');
  if (!exe) return { ok: false, stdout: Buffer.alloc(0), stderr: `git: ENOENT (${RELATIVE_NEVER})` };
  const r = spawnSync(exe, [...DISARMING_ARGS, ...args], {
    cwd,
    input,
    env: programEnv(disarmedEnv()),
    maxBuffer: 256 * 1024 * 1024,
  });
  if (r.error) return { ok: false, stdout: Buffer.alloc(0), stderr: r.error.message };
  return { ok: r.status === 0, stdout: r.stdout, stderr: r.stderr.toString('utf8').trim() };
}

/** Why `dir` cannot be read through git (not a checkout, no git), or undefined when it can. */
export function notInGit(dir: string): string | undefined {
  const r = git(dir, ['rev-parse', '--is-inside-work-tree']);
  if (r.ok && r.stdout.toString().trim() === 'true') return undefined;
  return r.stderr.includes('ENOENT') ? 'git is not installed' : 'not a git checkout';
}

/** Commits (newest first) that touched `path` (relative to `cwd`), following the current branch. */
export function commitsTouching(cwd: string, path: string): string[] {
  const r = git(cwd, ['log', '--format=%H', '--', path]);
  if (!r.ok) throw new Error(`git log -- ${path} failed: ${r.stderr}`);
  return r.stdout.toString().split('\n').filter(Boolean);
}

/**
 * The contents of `<rev>:<path>` for each object name asked (paths relative to `cwd`, written "./x"),
 * in one `git cat-file --batch`; undefined for names that do not exist.
 */
export function readObjects(cwd: string, names: string[]): (string | undefined)[] {
  if (names.length === 0) return [];
  const r = git(cwd, ['cat-file', '--batch'], `${names.join('\n')}\n`);
  if (!r.ok) throw new Error(`git cat-file failed: ${r.stderr}`);
  const out: (string | undefined)[] = [];
  const buf = r.stdout;
  let at = 0;
  for (let i = 0; i < names.length; i++) {
    const eol = buf.indexOf(0x0a, at);
    const header = buf.subarray(at, eol).toString('utf8');
    at = eol + 1;
    const m = /^\S+ (\w+) (\d+)$/.exec(header);
    if (!m) {
      out.push(undefined); // "<name> missing" (or ambiguous)
      continue;
    }
    const size = Number(m[2]);
    out.push(m[1] === 'blob' ? buf.subarray(at, at + size).toString('utf8') : undefined);
    at += size + 1;
  }
  return out;
}

/** Paths of the files under `dir` (relative to `cwd`) in commit `rev`, relative to `dir`. */
export function filesAt(cwd: string, rev: string, dir: string): string[] {
  const r = git(cwd, ['ls-tree', '-r', '--name-only', rev, '--', `${dir}/`]);
  if (!r.ok) throw new Error(`git ls-tree ${rev} -- ${dir} failed: ${r.stderr}`);
  const prefix = `${dir}/`;
  return r.stdout
    .toString()
    .split('\n')
    .filter((p) => p.startsWith(prefix))
    .map((p) => p.slice(prefix.length));
}
