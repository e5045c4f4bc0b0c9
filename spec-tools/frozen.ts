// Released versions are frozen: spec/releases.json records a sha256 of each released version folder,
// and the check fails when a folder no longer hashes to it. The hash is that of the `sha256sum`
// listing of the folder's files in path order (CRLF read as LF, so a Windows checkout agrees):
//   (cd spec/v0.1.3 && find . -type f -printf '%P\n' | LC_ALL=C sort | xargs sha256sum) | sha256sum
import { createHash } from 'node:crypto';
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { listFiles, listVersions, readJson, versionDir } from './spec-repo';
import { compareVersions, normalizeVersion } from './versions';
import { formatJson } from './version-rewrite';

/** A deliberate correction of a released version: when, why, and the hash it had before. */
export interface Amendment {
  date: string;
  reason: string;
  previousSha256: string;
}

export interface Release {
  version: string;
  released: string;
  sha256: string;
  /** Corrections after the release, oldest first; `sha256` is the hash after the last one. */
  amendments?: Amendment[];
}

export interface Releases {
  description: string;
  releases: Release[];
}

const DESCRIPTION = 'Released protocol versions are frozen: each spec/v<version> folder must keep this sha256 (see spec-tools/frozen.ts; `npx tsx spec-tools/cli.ts check-frozen`). Change the protocol in a new version (`idea-spec bump`).';

export function releasesPath(specRoot: string): string {
  return join(specRoot, 'releases.json');
}

export function readReleases(specRoot: string): Releases {
  const p = releasesPath(specRoot);
  if (!existsSync(p)) return { description: DESCRIPTION, releases: [] };
  return readJson(p) as unknown as Releases;
}

export function writeReleases(specRoot: string, r: Releases): void {
  r.releases.sort((a, b) => compareVersions(a.version, b.version));
  writeFileSync(releasesPath(specRoot), formatJson({ description: DESCRIPTION, releases: r.releases }));
}

const sha256 = (data: string | Buffer) => createHash('sha256').update(data).digest('hex');

export function hashVersionFolder(dir: string): string {
  const listing = listFiles(dir)
    .map((rel) => `${sha256(readFileSync(join(dir, rel), 'utf8').replace(/\r\n/g, '\n'))}  ${rel}\n`)
    .join('');
  return sha256(listing);
}

export interface FrozenProblem {
  version: string;
  message: string;
}

/** Problems: a released folder missing or changed, or an unreleased version older than the newest release. */
export function checkFrozen(specRoot: string): FrozenProblem[] {
  const { releases } = readReleases(specRoot);
  const problems: FrozenProblem[] = [];
  for (const r of releases) {
    const dir = versionDir(specRoot, r.version);
    if (!existsSync(dir)) {
      problems.push({ version: r.version, message: `released version folder spec/v${r.version} is missing` });
      continue;
    }
    const actual = hashVersionFolder(dir);
    if (actual !== r.sha256) {
      problems.push({ version: r.version, message: `spec/v${r.version} changed after its release (sha256 ${actual}, released as ${r.sha256}): released versions are frozen; revert it (git diff -- spec/v${r.version}) and make the change in a new version (idea-spec bump)` });
    }
  }
  const newest = releases.map((r) => r.version).sort(compareVersions).at(-1);
  const released = new Set(releases.map((r) => r.version));
  for (const v of listVersions(specRoot)) {
    if (newest && !released.has(v) && compareVersions(v, newest) < 0) {
      problems.push({ version: v, message: `spec/v${v} is not released but older than the released ${newest}` });
    }
  }
  return problems;
}

export function isReleased(specRoot: string, version: string): boolean {
  const v = normalizeVersion(version);
  return readReleases(specRoot).releases.some((r) => r.version === v);
}

/**
 * Records `version` as released with its folder's current hash. Re-recording a released version with
 * other contents is refused unless `force` (a deliberate correction, visible in the releases.json diff).
 */
export function recordRelease(specRoot: string, version: string, opts: { force?: boolean } = {}): Release {
  const v = normalizeVersion(version);
  const dir = versionDir(specRoot, v);
  if (!existsSync(join(dir, 'index.json'))) throw new Error(`no spec/v${v} to release`);
  const index = readJson(join(dir, 'index.json')) as { released?: string };
  const all = readReleases(specRoot);
  const existing = all.releases.find((r) => r.version === v);
  // Re-recording keeps the amendment history of the version.
  const entry: Release = { version: v, released: index.released ?? new Date().toISOString().slice(0, 10), sha256: hashVersionFolder(dir), ...(existing?.amendments ? { amendments: existing.amendments } : {}) };
  if (existing && existing.sha256 !== entry.sha256 && !opts.force) {
    throw new Error(`v${v} is already released with other contents: released versions are frozen (use --force only to correct the record deliberately)`);
  }
  all.releases = [...all.releases.filter((r) => r.version !== v), entry];
  writeReleases(specRoot, all);
  return entry;
}
