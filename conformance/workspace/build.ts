// Builds the fixture workspace deterministically: same content, authors and dates → same commit hashes.
import { execFileSync } from 'node:child_process';
import { lstatSync, mkdirSync, readFileSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { DISARMING_ARGS, disarmedEnv } from '../../runtime/git-disarm';
import { findProgram, programEnv } from '../../runtime/programs';
import { BASE_TAG, commits, type FileSet, overlay, workspaceSettings } from './content';
import { clearTrapMarkers, type PlantedTraps, plantTraps, readTrapManifest } from './traps';
import { lstatOrUndefined, writeInside } from './write-inside';

export { lstatOrUndefined, writeInside };

export interface FixtureWorkspaceInfo {
  /** Absolute path of the workspace root. */
  dir: string;
  /** Tag of the fresh HEAD; `resetFixtureWorkspace` returns to it. */
  baseTag: string;
  /** Commit name → full 40-hex hash, in commit order (oldest first). */
  commits: Record<string, string>;
  /** Variables for fixture placeholders: `workspace`, `commit.<name>`, `short.<name>`. */
  vars: Record<string, string>;
  /** The hostile-repository traps it carries (traps.ts); undefined for a workspace an older builder made. */
  traps?: PlantedTraps;
}

export interface BuildOptions {
  /** Remove `dir` first when it exists (default true). */
  clean?: boolean;
}

/**
 * git with no user/system config, so hooks, signing or templates on the machine cannot change hashes,
 * and disarmed (runtime/git-disarm.ts): the server under test can write into this workspace, .git/
 * included, and nothing it plants there may run here (see restoreGitConfig). The program itself comes
 * from PATH's absolute folders (runtime/programs.ts): the workspace has a `git` of its own at its root.
 */
export function git(dir: string, args: string[], env: Record<string, string> = {}): string {
  return execFileSync(
    findProgram('git'),
    [...DISARMING_ARGS, '-c', 'core.autocrlf=false', '-c', 'commit.gpgsign=false', '-c', 'tag.gpgsign=false', ...args],
    {
      cwd: dir,
      encoding: 'utf8',
      stdio: ['ignore', 'pipe', 'pipe'],
      env: programEnv(disarmedEnv({ GIT_CONFIG_NOSYSTEM: '1', GIT_CONFIG_GLOBAL: '/dev/null', ...env })),
    },
  ).trim();
}

/** The repository configuration of a fixture workspace: nothing that names a program. */
const FIXTURE_GIT_CONFIG =
  '[core]\n\trepositoryformatversion = 0\n\tfilemode = true\n\tbare = false\n\tlogallrefupdates = true\n';

/**
 * Puts back the fixture's own .git/config before git reads the work tree, without the traps (traps.ts:
 * the reset plants them again once git is done), since a server under test may have
 * written filter drivers, textconv, diff.external, fsmonitor or include.path there, which `git diff`,
 * `status` and `reset` would run. Replaced by rename, so a symlink planted there is replaced, not followed.
 */
export function restoreGitConfig(dir: string): void {
  const dotGit = join(dir, '.git');
  if (!lstatSync(dotGit).isDirectory())
    throw new NotAFixtureWorkspaceError(`${dotGit} is not a folder: not a fixture workspace`);
  const tmp = join(dotGit, `config.idea-${process.pid}.tmp`);
  writeFileSync(tmp, FIXTURE_GIT_CONFIG);
  renameSync(tmp, join(dotGit, 'config'));
}

function writeFiles(dir: string, files: FileSet): void {
  for (const [rel, text] of Object.entries(files)) writeInside(dir, rel, text);
}

/** Merges the fixture's settings into .vscode/settings.json, keeping keys a server wrote there. */
export function writeWorkspaceSettings(dir: string): void {
  const file = join(dir, '.vscode', 'settings.json');
  let current: Record<string, unknown> = {};
  if (lstatOrUndefined(file)?.isFile()) {
    try {
      current = JSON.parse(readFileSync(file, 'utf8')) as Record<string, unknown>;
    } catch {
      current = {};
    }
  }
  writeInside(dir, '.vscode/settings.json', `${JSON.stringify({ ...current, ...workspaceSettings }, null, 2)}\n`);
}

/** Lays the non-committed part of the fresh state over a checked-out HEAD. */
export function applyOverlay(dir: string): void {
  writeFiles(dir, overlay);
  writeWorkspaceSettings(dir);
}

/**
 * Where the fixture's traps leave their markers: `<dir>.traps`, a sibling of the workspace, so outside
 * what a server serving the workspace writes, and removed with a temp folder holding both.
 */
export function trapMarkerDir(dir: string): string {
  return `${resolve(dir)}.traps`;
}

export function buildFixtureWorkspace(dirArg: string, opts: BuildOptions = {}): FixtureWorkspaceInfo {
  const dir = resolve(dirArg);
  if (opts.clean !== false) rmSync(dir, { recursive: true, force: true });
  mkdirSync(dir, { recursive: true });
  git(dir, ['init', '-q', '-b', 'main']);
  const hashes: Record<string, string> = {};
  for (const c of commits) {
    writeFiles(dir, c.files);
    for (const r of c.remove ?? []) git(dir, ['rm', '-q', '--', r]);
    git(dir, ['add', '--', ...Object.keys(c.files)]);
    git(dir, ['commit', '-q', '-m', c.message], {
      GIT_AUTHOR_NAME: c.author.name,
      GIT_AUTHOR_EMAIL: c.author.email,
      GIT_AUTHOR_DATE: c.date,
      GIT_COMMITTER_NAME: c.author.name,
      GIT_COMMITTER_EMAIL: c.author.email,
      GIT_COMMITTER_DATE: c.date,
    });
    hashes[c.name] = git(dir, ['rev-parse', 'HEAD']);
  }
  git(dir, ['tag', BASE_TAG]);
  applyOverlay(dir);
  // Last: git is done, so none of the planted programs can run here. A fresh workspace has no marker.
  const markerDir = trapMarkerDir(dir);
  clearTrapMarkers(markerDir);
  const traps = plantTraps(dir, { markerDir });
  return { dir, baseTag: BASE_TAG, commits: hashes, vars: varsFor(dir, hashes), traps };
}

/**
 * A fingerprint of everything a case can change, as git sees it: tracked changes vs the base tag, untracked
 * files, overlay contents. reset.ts uses it only when it leaves the decision to git.
 */
export function stateFingerprint(dirArg: string): string {
  const dir = resolve(dirArg);
  restoreGitConfig(dir);
  const overlayNow = Object.keys(overlay).map((rel) => {
    try {
      return readFileSync(join(dir, rel), 'utf8');
    } catch {
      return '<missing>';
    }
  });
  return JSON.stringify([git(dir, ['diff', BASE_TAG]), git(dir, ['status', '--porcelain', '-uall']), overlayNow]);
}

class NotAFixtureWorkspaceError extends Error {}

/** Reads the info of an existing fixture workspace (e.g. one a third-party server has open). */
export function readFixtureWorkspace(dirArg: string): FixtureWorkspaceInfo {
  const dir = resolve(dirArg);
  const hashes: Record<string, string> = {};
  let listed: string[];
  try {
    listed = git(dir, ['rev-list', '--reverse', BASE_TAG]).split('\n').filter(Boolean);
  } catch {
    // git's own message ("not a git repository", "unknown revision") would not say what to do.
    throw new NotAFixtureWorkspaceError(
      `${dir} is not a fixture workspace (no git tag ${BASE_TAG}): build one with \`idea-conformance workspace ${dirArg}\` and open it in the server`,
    );
  }
  commits.forEach((c, i) => {
    const h = listed[i];
    if (h) hashes[c.name] = h;
  });
  let traps: PlantedTraps | undefined;
  try {
    traps = readTrapManifest(dir);
  } catch {
    // unreadable: the case that checks the traps says so (lib/security-cases.ts); the other cases run
  }
  return { dir, baseTag: BASE_TAG, commits: hashes, vars: varsFor(dir, hashes), ...(traps ? { traps } : {}) };
}

function varsFor(dir: string, hashes: Record<string, string>): Record<string, string> {
  const vars: Record<string, string> = { workspace: dir };
  for (const [name, h] of Object.entries(hashes)) {
    vars[`commit.${name}`] = h;
    vars[`short.${name}`] = h.slice(0, 7);
  }
  return vars;
}
