// spec/releases.json: the released versions, each with its release date and the sha256 its folder is
// frozen at. The only source of release dates (protocol.md and the changelog read them here). Written
// by spec-tools (`idea-spec release` / `amend`); checked by `idea-spec check-frozen`.
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { isObject, readJson } from './spec';
import { compareVersions, normalizeVersion } from './version';

/** A deliberate change of a released folder (errata): the hash it replaced and why. */
export interface Amendment {
  date: string;
  reason: string;
  previousSha256: string;
}

export interface Release {
  version: string;
  /** YYYY-MM-DD (UTC). */
  released: string;
  /** hashFolder of spec/v<version>/ as it is now (after the last amendment). */
  sha256: string;
  amendments?: Amendment[];
}

export interface Releases {
  description: string;
  releases: Release[];
}

export const RELEASES_DESCRIPTION =
  "Released protocol versions are frozen: each spec/v<version> folder must keep this sha256 (`idea-spec check-frozen`). Change the protocol in a new version (`idea-spec bump`); correct a released folder's text only with `idea-spec amend` (docs/maintainers.md). Entries are never removed. The only source of release dates.";

export function releasesPath(specRoot: string): string {
  return join(specRoot, 'releases.json');
}

const DATE = /^\d{4}-\d{2}-\d{2}$/;
const SHA = /^[0-9a-f]{64}$/;

/** Checks the shape of a releases.json document (from the tree or from git history). */
export function parseReleases(doc: unknown, where: string): Releases {
  const fail = (why: string): never => {
    throw new Error(`${where}: ${why}`);
  };
  if (!isObject(doc) || !Array.isArray(doc.releases)) fail('expected {"releases": [...]}');
  const d = doc as unknown as Releases;
  const seen = new Set<string>();
  for (const r of d.releases) {
    if (!isObject(r) || typeof r.version !== 'string') fail(`entry without a version: ${JSON.stringify(r)}`);
    const v = normalizeVersion(r.version);
    if (seen.has(v)) fail(`${v} is listed twice`);
    seen.add(v);
    if (typeof r.released !== 'string' || !DATE.test(r.released)) fail(`${v}: released must be YYYY-MM-DD`);
    if (typeof r.sha256 !== 'string' || !SHA.test(r.sha256)) fail(`${v}: sha256 must be 64 hex digits`);
    for (const a of r.amendments ?? []) {
      if (
        !isObject(a) ||
        typeof a.date !== 'string' ||
        !DATE.test(a.date) ||
        typeof a.reason !== 'string' ||
        !a.reason.trim() ||
        typeof a.previousSha256 !== 'string' ||
        !SHA.test(a.previousSha256)
      ) {
        fail(
          `${v}: amendments need {"date": "YYYY-MM-DD", "reason": "…", "previousSha256": "<64 hex>"}, got ${JSON.stringify(a)}`,
        );
      }
    }
  }
  return {
    description: typeof d.description === 'string' ? d.description : RELEASES_DESCRIPTION,
    releases: d.releases,
  };
}

export function readReleases(specRoot: string): Releases {
  const p = releasesPath(specRoot);
  if (!existsSync(p)) return { description: RELEASES_DESCRIPTION, releases: [] };
  return parseReleases(readJson(p), p);
}

export function releaseOf(specRoot: string, version: string): Release | undefined {
  const v = normalizeVersion(version);
  return readReleases(specRoot).releases.find((r) => r.version === v);
}

/** The newest released version, or undefined. */
export function newestRelease(releases: Releases): string | undefined {
  return releases.releases
    .map((r) => r.version)
    .sort(compareVersions)
    .at(-1);
}
