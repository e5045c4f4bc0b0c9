// Scratch copies of the repository for tests that write (bump, release, frozen edits).
import {
  cpSync,
  existsSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  rmSync,
  symlinkSync,
  writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { compareVersions } from '../../spec-lib/version';

export const REPO = resolve(dirname(fileURLToPath(import.meta.url)), '../..');
export const FIXTURES = join(REPO, 'test', 'spec-tools', 'fixtures');

/** A temp dir holding copies of `paths` (relative to the repo) and, if asked, a node_modules symlink. */
export function scratchRepo(paths: string[], opts: { nodeModules?: boolean } = {}): { root: string; dispose(): void } {
  const root = mkdtempSync(join(tmpdir(), 'idea-spec-'));
  for (const p of paths) {
    const from = join(REPO, p);
    if (existsSync(from))
      cpSync(from, join(root, p), { recursive: true, filter: (src) => !/[\\/](dist|out|node_modules)$/.test(src) });
  }
  mkdirSync(join(root, 'docs'), { recursive: true });
  if (opts.nodeModules) symlinkSync(join(REPO, 'node_modules'), join(root, 'node_modules'), 'dir');
  return { root, dispose: () => rmSync(root, { recursive: true, force: true }) };
}

/**
 * Removes from a scratch copy every spec version spec/releases.json does not record (a draft such as
 * the one being worked on) with its generated/ folder, so a test of the release workflow starts from
 * the newest released version whatever is in progress. Returns the versions removed; the caller
 * regenerates what lists versions (generated/versions.ts, latest.ts; the changelog).
 */
export function dropUnreleased(root: string): string[] {
  const spec = join(root, 'spec');
  const released = new Set(
    (JSON.parse(readFileSync(join(spec, 'releases.json'), 'utf8')) as { releases: { version: string }[] }).releases.map(
      (r) => r.version,
    ),
  );
  const drafts = readdirSync(spec)
    .filter((f) => /^v\d+\.\d+\.\d+$/.test(f))
    .map((f) => f.slice(1))
    .filter((v) => !released.has(v));
  for (const v of drafts) {
    rmSync(join(spec, `v${v}`), { recursive: true, force: true });
    rmSync(join(root, 'generated', `v${v}`), { recursive: true, force: true });
    rmSync(join(root, 'conformance', 'fixtures', `v${v}`), { recursive: true, force: true });
  }
  // A served draft is served no more: the copy serves the newest released version instead.
  const servedFile = join(spec, 'served.json');
  if (drafts.length > 0 && existsSync(servedFile)) {
    const served = JSON.parse(readFileSync(servedFile, 'utf8')) as { version: string };
    if (drafts.includes(served.version)) {
      const newest = [...released].sort(compareVersions).at(-1);
      if (newest) writeFileSync(servedFile, `${JSON.stringify({ ...served, version: newest }, null, 2)}\n`);
    }
  }
  return drafts;
}
