// Writes the derived history folders (spec/v0.1.0 … v0.1.5), refusing to touch a released one.
import { existsSync, mkdirSync, rmSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { releaseOf } from '@idea-kit/spec-lib/releases';
import { formatJson, loadSpec, versionDir } from '@idea-kit/spec-lib/spec';
import { deriveVersion } from './derive';
import { HISTORY, HISTORY_BASE } from './facts';

export function writeHistory(specRoot: string, opts: { force?: boolean } = {}): string[] {
  const base = loadSpec(specRoot, HISTORY_BASE);
  const log: string[] = [];
  for (const facts of HISTORY) {
    if (facts.version === HISTORY_BASE) continue;
    const dir = versionDir(specRoot, facts.version);
    const release = releaseOf(specRoot, facts.version);
    if (!release)
      throw new Error(`v${facts.version} has no entry in spec/releases.json (its release date comes from there)`);
    if (!opts.force) {
      log.push(`skip v${facts.version}: released (frozen); --force rewrites it`);
      continue;
    }
    if (existsSync(dir)) rmSync(dir, { recursive: true });
    for (const [rel, doc] of deriveVersion(base, facts, release.released)) {
      const path = join(dir, rel);
      mkdirSync(dirname(path), { recursive: true });
      writeFileSync(path, formatJson(doc));
    }
    log.push(`wrote spec/v${facts.version}`);
  }
  return log;
}
