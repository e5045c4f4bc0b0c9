// Restoring the fresh fixture workspace after a destructive case, fast: the fresh state is known (content.ts),
// so the work tree is compared with it directly and only what a case changed is put back, without
// running git. Whenever the repository itself changed (HEAD, the branch, the index), a path is not a plain
// file or folder any more (a symlink, say), or there are files git would have to judge (untracked ones:
// git clean decides with the repository's own ignore rules), the reset falls back to git exactly as
// before: fingerprint, `git reset --hard`, `git clean -fd`, overlay.
//
// The server under test can write anywhere in this workspace, .git/ included: nothing here follows a
// symlink (every path is lstat-ed from the root down; a file is rewritten only where a regular file
// sits in real folders), and git, when it runs, runs disarmed with the fixture's own .git/config put back.
//
// The hostile-repository traps (traps.ts) are not part of what a case changes: the scan leaves their files
// alone, and once git is done they are planted again (only what differs is written; .git/config always,
// since its trap block was taken out before git ran). A reset plants the default set, never `full`.
import { lstatSync, mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import {
  applyOverlay,
  buildFixtureWorkspace,
  git,
  restoreGitConfig,
  stateFingerprint,
  writeWorkspaceSettings,
} from './build';
import { BASE_TAG, commits, gitignore, overlay, workspaceSettings } from './content';
import { type PlantedTraps, plantTraps, readTrapManifest, trapWorkTreeFiles } from './traps';
import { lstatOrUndefined, writeInside } from './write-inside';

/** One file the reset wrote back or removed. */
interface RestoredFile {
  /** Workspace-relative, "/"-separated. */
  path: string;
  /** Its fresh text; null when the reset removed it. */
  text: string | null;
  /** A text search of the workspace (edit/find without include tricks) can see it: not ignored, not hidden by files.exclude. */
  searchable: boolean;
}

export interface ResetOutcome {
  /** Something differed from the fresh state and was put back. */
  changed: boolean;
  /** How: `files` (only work-tree files rewritten or removed, no git) or `git` (reset --hard, clean, overlay). */
  via?: 'files' | 'git';
  /** What the reset found different and restored (with `via: "git"`, what the work-tree scan saw; git may restore more). */
  restored: RestoredFile[];
}

export interface ResetOptions {
  /** Always restore through git, as before the fast path existed (for comparisons and tests). */
  forceGit?: boolean;
}

// --- the fresh state, from content.ts -------------------------------------------------------------

/** The fixture's .gitignore as name tests; only the pattern shapes it uses are understood. */
function ignoreRules(text: string): { dirs: Set<string>; suffixes: string[] } {
  const dirs = new Set<string>();
  const suffixes: string[] = [];
  for (const raw of text.split('\n')) {
    const p = raw.trim();
    if (!p || p.startsWith('#')) continue;
    if (/^[\w.-]+\/$/.test(p)) dirs.add(p.slice(0, -1));
    else if (/^\*\.[\w-]+$/.test(p)) suffixes.push(p.slice(1));
    // Anything else would need git's full matcher: refuse here, so a change to content.ts shows up in the tests.
    else
      throw new Error(
        `fixture .gitignore pattern ${JSON.stringify(p)} is not understood by the fast reset (conformance/workspace/reset.ts)`,
      );
  }
  return { dirs, suffixes };
}

/** `**\/name` keys of the fixture's files.exclude: folders a search does not see. */
function excludedNames(): Set<string> {
  const names = new Set<string>();
  for (const [k, on] of Object.entries((workspaceSettings['files.exclude'] ?? {}) as Record<string, boolean>)) {
    const m = /^\*\*\/([\w.-]+)$/.exec(k);
    if (on && m) names.add(m[1]!);
  }
  return names;
}

interface FreshState {
  /** Files of the work tree git sees (not ignored): HEAD's files with the overlay on top. */
  files: Map<string, string>;
  /** Overlay files under ignored folders (node_modules/): git never looks at them. */
  ignoredFiles: Map<string, string>;
  /** Paths tracked at HEAD. */
  tracked: Set<string>;
  ignore: { dirs: Set<string>; suffixes: string[] };
  hidden: Set<string>;
}

const isIgnored = (ig: FreshState['ignore'], name: string, isDir: boolean) =>
  (isDir && ig.dirs.has(name)) || ig.suffixes.some((s) => name.endsWith(s));
const underIgnored = (ig: FreshState['ignore'], rel: string) =>
  rel.split('/').some((seg, i, all) => isIgnored(ig, seg, i < all.length - 1));

let fresh: FreshState | undefined;
function freshState(): FreshState {
  if (fresh) return fresh;
  const head = new Map<string, string>();
  for (const c of commits) {
    for (const [p, t] of Object.entries(c.files)) head.set(p, t);
    for (const r of c.remove ?? []) head.delete(r);
  }
  const ignore = ignoreRules(gitignore);
  const files = new Map(head);
  const ignoredFiles = new Map<string, string>();
  for (const [p, t] of Object.entries(overlay)) (underIgnored(ignore, p) ? ignoredFiles : files).set(p, t);
  fresh = { files, ignoredFiles, tracked: new Set(head.keys()), ignore, hidden: excludedNames() };
  return fresh;
}

/** What git holds for a fresh workspace (a throwaway build, once per process): HEAD, the branch, the index entries, the fingerprint. */
interface FreshRepo {
  headFile: string;
  branch: string;
  commit: string;
  index: string;
  fingerprint: string;
}
let freshRepo: FreshRepo | undefined;
function freshRepoState(): FreshRepo {
  if (!freshRepo) {
    const tmp = mkdtempSync(join(tmpdir(), 'idea-fixture-fp-'));
    try {
      const { dir } = buildFixtureWorkspace(join(tmp, 'ws'));
      const headFile = readFileSync(join(dir, '.git', 'HEAD'), 'utf8');
      const branch = /^ref: (refs\/heads\/[\w.-]+)\n$/.exec(headFile)?.[1];
      const index = indexEntries(readFileSync(join(dir, '.git', 'index')));
      if (!branch || index === undefined) throw new Error('unexpected layout of a freshly built fixture repository');
      freshRepo = {
        headFile,
        branch,
        commit: readFileSync(join(dir, '.git', ...branch.split('/')), 'utf8').trim(),
        index,
        fingerprint: stateFingerprint(dir),
      };
    } finally {
      rmSync(tmp, { recursive: true, force: true });
    }
  }
  return freshRepo;
}

/** The fingerprint (build.ts stateFingerprint) of a fresh workspace. */
export function freshFingerprint(): string {
  return freshRepoState().fingerprint;
}

// --- reading git's state without running git --------------------------------------------------------

/**
 * The entries of a git index file (version 2 or 3) as text: path, mode, object id and stage of each, in
 * order; the stat data git caches there is left out (it changes whenever anyone refreshes the index).
 * undefined for anything this does not read with certainty (version 4, split or sparse index, damage).
 */
export function indexEntries(buf: Buffer): string | undefined {
  if (buf.length < 12 || buf.toString('latin1', 0, 4) !== 'DIRC') return undefined;
  const version = buf.readUInt32BE(4);
  if (version !== 2 && version !== 3) return undefined;
  const count = buf.readUInt32BE(8);
  const idLen = 20; // sha1 repositories (the fixture's); a sha256 index would not parse to the same entries
  const out: string[] = [];
  let off = 12;
  for (let i = 0; i < count; i++) {
    const fixed = 40 + idLen + 2;
    if (off + fixed > buf.length) return undefined;
    const mode = buf.readUInt32BE(off + 24);
    const id = buf.toString('hex', off + 40, off + 40 + idLen);
    const flags = buf.readUInt16BE(off + 40 + idLen);
    let head = fixed;
    if (flags & 0x4000) {
      if (version < 3) return undefined;
      head += 2;
    }
    const nameStart = off + head;
    const nul = buf.indexOf(0, nameStart);
    if (nul < 0) return undefined;
    const nameLen = flags & 0xfff;
    if (nameLen !== 0xfff && nameLen !== nul - nameStart) return undefined;
    out.push(`${buf.toString('utf8', nameStart, nul)}\0${mode.toString(8)}\0${id}\0${(flags >> 12) & 3}`);
    off += (head + (nul - nameStart) + 8) & ~7; // the entry is NUL-padded to a multiple of 8
  }
  // Extensions: the cache tree and friends are caches; a split index (link) or sparse directories (sdir) hold entries elsewhere.
  while (off + 8 <= buf.length - idLen) {
    const sig = buf.toString('latin1', off, off + 4);
    if (sig === 'link' || sig === 'sdir') return undefined;
    off += 8 + buf.readUInt32BE(off + 4);
  }
  return out.join('\n');
}

function readRegular(path: string): string | undefined {
  const st = lstatOrUndefined(path);
  return st?.isFile() ? readFileSync(path, 'utf8') : undefined;
}

/** HEAD on the fixture's branch, the branch at the fixture's commit, the index as built: 'fresh'; 'changed' or 'unknown' otherwise. */
function repoState(dir: string): 'fresh' | 'changed' | 'unknown' {
  const want = freshRepoState();
  const dotGit = join(dir, '.git');
  const head = readRegular(join(dotGit, 'HEAD'));
  if (head === undefined) return 'unknown';
  if (head !== want.headFile) return 'changed';
  const branch = readRegular(join(dotGit, ...want.branch.split('/')));
  if (branch === undefined) return 'unknown'; // packed, say: git can tell
  if (branch.trim() !== want.commit) return 'changed';
  const st = lstatOrUndefined(join(dotGit, 'index'));
  if (!st?.isFile()) return 'unknown';
  const index = indexEntries(readFileSync(join(dotGit, 'index')));
  if (index === undefined) return 'unknown';
  return index === want.index ? 'fresh' : 'changed';
}

// --- scanning the work tree -------------------------------------------------------------------------

interface Scan {
  /** Regular files with other content or the executable bit, and missing files in real folders: rewritable in place. */
  fixes: { path: string; text: string }[];
  /** Untracked entries git would judge (clean, or keep when its ignore rules say so). */
  unexpected: string[];
  /** Something only git should restore: a symlink or other non-file where a file belongs, a file where a folder belongs. */
  odd: string[];
}

/** `traps`: the planted trap files, left to plantTraps (a root impostor is no untracked file of a case). */
function scanWorkTree(dir: string, st: FreshState, traps: ReadonlySet<string>): Scan {
  const scan: Scan = { fixes: [], unexpected: [], odd: [] };
  const seen = new Set<string>();
  const walk = (rel: string): void => {
    for (const e of readdirSync(rel ? join(dir, rel) : dir, { withFileTypes: true })) {
      const path = rel ? `${rel}/${e.name}` : e.name;
      if (!rel && e.name === '.git') continue;
      if (isIgnored(st.ignore, e.name, e.isDirectory()) || traps.has(path)) continue;
      if (e.isDirectory()) {
        walk(path);
        continue;
      }
      const want = st.files.get(path);
      if (want === undefined) {
        scan.unexpected.push(path);
        continue;
      }
      seen.add(path);
      if (!e.isFile()) {
        scan.odd.push(path);
        continue;
      }
      const abs = join(dir, path);
      if ((lstatSync(abs).mode & 0o111) !== 0 || readFileSync(abs, 'utf8') !== want)
        scan.fixes.push({ path, text: want });
    }
  };
  walk('');
  for (const [path, text] of st.files) {
    if (seen.has(path)) continue;
    // Missing: fine to create when every folder on the way is a real folder or missing.
    if (foldersOnTheWay(dir, path)) scan.fixes.push({ path, text });
    else scan.odd.push(path);
  }
  for (const [path, text] of st.ignoredFiles) {
    const s = lstatOrUndefined(join(dir, path));
    if (!foldersOnTheWay(dir, path) || (s && !s.isFile())) scan.odd.push(path);
    else if (!s || (s.mode & 0o111) !== 0 || readFileSync(join(dir, path), 'utf8') !== text)
      scan.fixes.push({ path, text });
  }
  return scan;
}

/** Every folder on the way to `rel` is a real folder (not a symlink) or does not exist yet. */
function foldersOnTheWay(dir: string, rel: string): boolean {
  const segs = rel.split('/');
  let at = dir;
  for (const seg of segs.slice(0, -1)) {
    at = join(at, seg);
    const s = lstatOrUndefined(at);
    if (!s) return true;
    if (!s.isDirectory()) return false;
  }
  return true;
}

function settingsFresh(dir: string): boolean {
  const file = join(dir, '.vscode', 'settings.json');
  try {
    if (!lstatSync(file).isFile()) return false;
    const current = JSON.parse(readFileSync(file, 'utf8')) as Record<string, unknown>;
    return Object.entries(workspaceSettings).every(([k, v]) => JSON.stringify(current[k]) === JSON.stringify(v));
  } catch {
    return false;
  }
}

// --- the reset --------------------------------------------------------------------------------------

/**
 * Restores the fresh state after a destructive case (replace, rollback); keeps .vscode/ (with the
 * server's keys in settings.json) and node_modules/. Touches nothing when nothing had changed (but
 * .git/config, which is rewritten without the traps and then with them).
 */
export function resetFixtureWorkspaceDetailed(dirArg: string, opts: ResetOptions = {}): ResetOutcome {
  const dir = resolve(dirArg);
  const traps = plantedTraps(dir);
  const out = restore(dir, opts, traps);
  // After git: its config holds the traps again, for the next case.
  if (traps) plantTraps(dir, { markerDir: traps.markerDir });
  return out;
}

/** The workspace's trap manifest; none (an older build) or unreadable: the reset plants nothing. */
function plantedTraps(dir: string): PlantedTraps | undefined {
  try {
    return readTrapManifest(dir);
  } catch {
    return undefined;
  }
}

function restore(dir: string, opts: ResetOptions, traps: PlantedTraps | undefined): ResetOutcome {
  restoreGitConfig(dir); // first: nothing below may read a config the server wrote
  const st = freshState();
  const scan = scanWorkTree(dir, st, new Set(traps ? trapWorkTreeFiles(dir, { ...traps, full: false }) : []));
  const restored: RestoredFile[] = [
    ...scan.fixes.map((f) => ({ path: f.path, text: f.text, searchable: searchable(st, f.path) })),
    ...[...scan.odd, ...scan.unexpected].map((path) => ({
      path,
      text: st.files.get(path) ?? st.ignoredFiles.get(path) ?? null,
      searchable: searchable(st, path),
    })),
  ];
  const repo = opts.forceGit ? 'unknown' : repoState(dir);
  if (repo === 'fresh' && scan.odd.length === 0 && scan.unexpected.length === 0) {
    for (const f of scan.fixes) writeInside(dir, f.path, f.text);
    const settings = settingsFresh(dir);
    if (!settings) writeWorkspaceSettings(dir);
    return scan.fixes.length || !settings
      ? { changed: true, via: 'files', restored }
      : { changed: false, restored: [] };
  }
  // git decides. When the scan saw no difference of its own, git's view (the fingerprint) says whether anything changed.
  if (scan.fixes.length === 0 && scan.odd.length === 0 && stateFingerprint(dir) === freshFingerprint()) {
    return { changed: false, restored: [] };
  }
  git(dir, ['reset', '-q', '--hard', BASE_TAG]);
  git(dir, ['clean', '-q', '-fd']); // no -x: ignored files (.vscode/ with the server's keys) survive
  applyOverlay(dir);
  // An untracked file git keeps (its ignore rules, .git/info/exclude included, say so) was not removed.
  return {
    changed: true,
    via: 'git',
    restored: restored.filter((f) => f.text !== null || !lstatOrUndefined(join(dir, f.path))),
  };
}

/** A text search sees it: not git-ignored, not in a folder files.exclude hides, not a dotfile (search tools skip hidden files). */
function searchable(st: FreshState, path: string): boolean {
  const segs = path.split('/');
  return (
    !underIgnored(st.ignore, path) &&
    !segs.slice(0, -1).some((seg) => st.hidden.has(seg)) &&
    !segs.some((seg) => seg.startsWith('.'))
  );
}

/** resetFixtureWorkspaceDetailed, answering only whether anything had changed. */
export function resetFixtureWorkspace(dirArg: string, opts: ResetOptions = {}): boolean {
  return resetFixtureWorkspaceDetailed(dirArg, opts).changed;
}
