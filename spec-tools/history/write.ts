// Writes the derived history folders (spec/v0.1.0 … v0.1.5), refusing to touch a released one.
import { existsSync, mkdirSync, rmSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { isReleased } from '../frozen';
import { loadVersion, versionDir } from '../spec-repo';
import { formatJson } from '../version-rewrite';
import { deriveVersion } from './derive';
import { HISTORY, HISTORY_BASE } from './facts';

export function writeHistory(specRoot: string, opts: { force?: boolean } = {}): string[] {
  const base = loadVersion(specRoot, HISTORY_BASE);
  const log: string[] = [];
  for (const facts of HISTORY) {
    if (facts.version === HISTORY_BASE) continue;
    const dir = versionDir(specRoot, facts.version);
    if (isReleased(specRoot, facts.version) && !opts.force) {
      log.push(`skip v${facts.version}: released (frozen); --force rewrites it`);
      continue;
    }
    if (existsSync(dir)) rmSync(dir, { recursive: true });
    for (const [rel, doc] of deriveVersion(base, facts)) {
      const path = join(dir, rel);
      mkdirSync(dirname(path), { recursive: true });
      writeFileSync(path, formatJson(doc));
    }
    log.push(`wrote spec/v${facts.version}`);
  }
  return log;
}
