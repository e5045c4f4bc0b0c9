// Scratch copies of the repository for tests that write (bump, release, frozen edits).
import { cpSync, existsSync, mkdirSync, mkdtempSync, rmSync, symlinkSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

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
