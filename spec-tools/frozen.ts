// Released versions are frozen: spec/releases.json records the sha256 (spec-lib/spec.ts hashFolder)
// of each released folder, and the check fails when a folder no longer hashes to its latest recorded
// hash, when a release was dropped from releases.json's committed history, or when a release date is
// kept anywhere but releases.json.
import { existsSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import {
  newestRelease,
  RELEASES_DESCRIPTION,
  type Releases,
  readReleases,
  releasesPath,
} from '@idea-kit/spec-lib/releases';
import { formatJson, hashFolder, isObject, readJson, specVersions, versionDir } from '@idea-kit/spec-lib/spec';
import { compareVersions, normalizeVersion } from '@idea-kit/spec-lib/version';
import { checkReleasesHistory, type FrozenProblem } from './release-history';

export interface FrozenReport {
  problems: FrozenProblem[];
  /** Lines saying what was checked beyond the folders (the git history of releases.json). */
  notes: string[];
}

export function writeReleases(specRoot: string, r: Releases): void {
  const releases = [...r.releases].sort((a, b) => compareVersions(a.version, b.version));
  writeFileSync(releasesPath(specRoot), formatJson({ description: RELEASES_DESCRIPTION, releases }));
}

/**
 * Problems: a released folder missing or changed, an unreleased version older than the newest
 * release, an index.json `released` (dates live in releases.json only; the folders released before
 * that rule keep theirs, which must agree), and — unless `history: false` — an entry that the git
 * history of releases.json shows was there and is gone or changed without an amendment.
 */
export function checkFrozen(specRoot: string, opts: { history?: boolean } = {}): FrozenReport {
  const all = readReleases(specRoot);
  const problems: FrozenProblem[] = [];
  const released = new Map(all.releases.map((r) => [r.version, r]));
  for (const r of all.releases) {
    const dir = versionDir(specRoot, r.version);
    if (!existsSync(dir)) {
      problems.push({ version: r.version, message: `released version folder spec/v${r.version} is missing` });
      continue;
    }
    const actual = hashFolder(dir);
    if (actual !== r.sha256) {
      const amended = r.amendments?.length ? ` (amended ${r.amendments.length}x; only the latest hash counts)` : '';
      problems.push({
        version: r.version,
        message: `spec/v${r.version} changed after its release (sha256 ${actual}, recorded ${r.sha256}${amended}): released versions are frozen; revert it (git diff -- spec/v${r.version}) and make the change in a new version (idea-spec bump), or, for a correction of its text, record it with idea-spec amend ${r.version} --reason "…"`,
      });
    }
  }
  const newest = newestRelease(all);
  for (const v of specVersions(specRoot)) {
    if (newest && !released.has(v) && compareVersions(v, newest) < 0) {
      problems.push({ version: v, message: `spec/v${v} is not released but older than the released ${newest}` });
    }
    const indexPath = join(versionDir(specRoot, v), 'index.json');
    const index = existsSync(indexPath) ? readJson(indexPath) : undefined;
    const date = isObject(index) ? index.released : undefined;
    if (date === undefined) continue;
    const r = released.get(v);
    if (!r)
      problems.push({
        version: v,
        message: `spec/v${v}/index.json says released ${JSON.stringify(date)}, but release dates live in spec/releases.json only: remove it (idea-spec release records the date)`,
      });
    else if (date !== r.released)
      problems.push({
        version: v,
        message: `spec/v${v}/index.json says released ${JSON.stringify(date)}, spec/releases.json ${r.released}`,
      });
  }
  const notes: string[] = [];
  if (opts.history !== false) {
    const h = checkReleasesHistory(specRoot, all);
    problems.push(...h.problems);
    notes.push(h.summary);
  }
  return { problems, notes };
}

export function isReleased(specRoot: string, version: string): boolean {
  const v = normalizeVersion(version);
  return readReleases(specRoot).releases.some((r) => r.version === v);
}
