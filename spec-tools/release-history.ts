// The past of spec/releases.json and of the released folders, read from git: a release, once
// committed, can never disappear or change silently (deleting an entry would unfreeze its folder);
// and the contents a released folder had, which `idea-spec amend` compares an amendment with.
import { parseReleases, type Release, type Releases } from '@idea-kit/spec-lib/releases';
import { hashFiles } from '@idea-kit/spec-lib/spec';
import { versionFolder } from '@idea-kit/spec-lib/version';
import { commitsTouching, filesAt, git, notInGit, readObjects } from './git';

/** One reason a released version is not frozen as recorded (the freeze check's and the history's). */
export interface FrozenProblem {
  version: string;
  message: string;
}

export interface HistoryCheck {
  problems: FrozenProblem[];
  /** One line for the report: what was checked, or why the check was skipped. */
  summary: string;
}

const short = (sha: string) => sha.slice(0, 10);

/** Every committed version of spec/releases.json against `current` (the one in the tree). */
export function checkReleasesHistory(specRoot: string, current: Releases): HistoryCheck {
  const why = notInGit(specRoot);
  if (why) return { problems: [], summary: `spec/releases.json history: check skipped (${why})` };
  const commits = commitsTouching(specRoot, 'releases.json');
  const docs = readObjects(
    specRoot,
    commits.map((c) => `${c}:./releases.json`),
  );
  const now = new Map(current.releases.map((r) => [r.version, r]));
  const problems: FrozenProblem[] = [];
  const reported = new Set<string>();
  const problem = (version: string, message: string) => {
    if (reported.has(version)) return;
    reported.add(version);
    problems.push({ version, message });
  };
  // Oldest first: the first commit that shows a problem is the one to name.
  for (let i = commits.length - 1; i >= 0; i--) {
    const text = docs[i];
    if (text === undefined) continue; // a commit that deleted the file: no entries to compare
    const at = `spec/releases.json in commit ${short(commits[i]!)}`;
    let past: Releases;
    try {
      past = parseReleases(JSON.parse(text), at);
    } catch {
      continue; // a malformed past version recorded nothing reliable; the current file is validated on its own
    }
    for (const was of past.releases) checkEntry(was, now.get(was.version), at, problem);
  }
  const shallow = git(specRoot, ['rev-parse', '--is-shallow-repository']).stdout.toString().trim() === 'true';
  const summary = `spec/releases.json history: ${commits.length} committed version(s) checked${shallow ? ' (shallow clone: older history not available)' : ''}`;
  return { problems, summary };
}

function checkEntry(was: Release, now: Release | undefined, at: string, problem: (v: string, m: string) => void): void {
  const v = was.version;
  if (!now) {
    problem(
      v,
      `${v} was released (${at}) and its entry is gone from spec/releases.json: a release is never undone (restore the entry; correct the folder with idea-spec amend)`,
    );
    return;
  }
  if (now.released !== was.released) {
    problem(
      v,
      `${v}'s release date changed from ${was.released} (${at}) to ${now.released}: release dates are never rewritten`,
    );
  }
  const known = new Set([now.sha256, ...(now.amendments ?? []).map((a) => a.previousSha256)]);
  if (!known.has(was.sha256)) {
    problem(
      v,
      `${v} was released with sha256 ${was.sha256} (${at}); spec/releases.json now says ${now.sha256} without an amendment recording it: change a released folder only with idea-spec amend`,
    );
  }
  // Every amendment ever recorded stays, unchanged and in order. Amendments recorded on two branches
  // interleave when they merge, so those of one commit need only be a subsequence of today's.
  const current = (now.amendments ?? []).map((a) => JSON.stringify(a));
  let i = 0;
  for (const a of was.amendments ?? []) {
    const k = JSON.stringify(a);
    while (i < current.length && current[i] !== k) i++;
    if (i === current.length) {
      problem(v, `${v}'s amendments (${at}) were rewritten: an amendment is never changed, removed or reordered`);
      break;
    }
    i++;
  }
}

/**
 * The files (path → text) spec/v<version>/ had in the newest commit where it hashed to `sha256`, or
 * undefined when no commit has them (or the spec is not in git).
 */
export function releasedContents(specRoot: string, version: string, sha256: string): Map<string, string> | undefined {
  if (notInGit(specRoot)) return undefined;
  const folder = versionFolder(version);
  for (const commit of commitsTouching(specRoot, folder)) {
    const paths = filesAt(specRoot, commit, folder);
    const texts = readObjects(
      specRoot,
      paths.map((p) => `${commit}:./${folder}/${p}`),
    );
    if (texts.some((t) => t === undefined)) continue;
    const files = new Map(paths.map((p, i) => [p, texts[i]!]));
    if (hashFiles(files) === sha256) return files;
  }
  return undefined;
}
