// Which protocol versions are released, as far as this runner knows: codegen writes generated/latest.ts
// as the newest *released* version's entry (spec/releases.json) and generated/versions.ts lists every
// version the tree has code for. Versions are released in order, so a version up to the newest released
// one is released, a newer one this runner has code for is a draft, and one newer than that is unknown
// (a runner older than the server's version cannot tell). What the draft-claim case (T34) judges by.
import { compareVersions, isVersion } from '@idea-kit/spec-lib/version';
import { PROTOCOL_VERSION as NEWEST_RELEASED } from '../../generated/latest';
import { NEWEST_VERSION } from '../../generated/versions';

export type ReleaseStatus = 'released' | 'draft' | 'unknown';

export interface KnownReleases {
  /** The newest released version. */
  newestReleased: string;
  /** The newest version this runner has code for (released or not). */
  newestKnown: string;
}

export const KNOWN_RELEASES: KnownReleases = { newestReleased: NEWEST_RELEASED, newestKnown: NEWEST_VERSION };

export function releaseStatus(version: string, known: KnownReleases = KNOWN_RELEASES): ReleaseStatus {
  if (!isVersion(version)) return 'unknown';
  if (compareVersions(version, known.newestReleased) <= 0) return 'released';
  return compareVersions(version, known.newestKnown) <= 0 ? 'draft' : 'unknown';
}
