// The topics the suite knows (the served version's, generated/current.ts), with the version that introduced each: what a
// server's capabilities and version claim are read against.

import { compareVersions } from '@idea-kit/spec-lib/version';
import { TOPICS } from '../../generated/current';

export const KNOWN_TOPICS: readonly string[] = TOPICS.map((t) => t.topic);
const SINCE = new Map<string, string>(TOPICS.map((t) => [t.topic, t.since]));
/** The newest version the suite knows (that of its newest topic). */
const NEWEST = TOPICS.map((t) => t.since)
  .sort(compareVersions)
  .at(-1)!;

export function isKnownTopic(topic: string): boolean {
  return SINCE.has(topic);
}

export function topicSince(topic: string): string | undefined {
  return SINCE.get(topic);
}

/** `edit/find` or `/app/vscode/edit/find` → the full topic; throws on a topic the suite does not know. */
export function fullTopic(t: string): string {
  const full = t.startsWith('/app/vscode/') ? t : `/app/vscode/${t.replace(/^\//, '')}`;
  if (!SINCE.has(full))
    throw new Error(
      `unknown topic "${t}" (known: ${KNOWN_TOPICS.map((k) => k.replace('/app/vscode/', '')).join(', ')})`,
    );
  return full;
}

/**
 * The version a server actually speaks: the newest of the version it announced and the versions that
 * introduced the topics it serves (a topic exists only from its version on). An announcement that is
 * not a version at all says nothing: the newest version is assumed (the version-claim case fails it).
 */
export function spokenVersion(
  announced: string,
  capabilities: readonly string[],
): { version: string; newestTopic?: { topic: string; since: string } } {
  let version = /^\d+\.\d+\.\d+$/.test(announced) ? announced : NEWEST;
  let newestTopic: { topic: string; since: string } | undefined;
  for (const t of capabilities) {
    const since = SINCE.get(t);
    if (since && compareVersions(since, version) > 0) {
      version = since;
      newestTopic = { topic: t, since };
    }
  }
  return { version, newestTopic };
}
