// Where the spec lives: the repository (or package) root and its spec/ folder. Reading the spec is
// the spec library's job (spec-lib/spec.ts, refs.ts, releases.ts, version.ts).
import { existsSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

/** The nearest of `from` and its ancestors holding spec/releases.json. */
function specRootAbove(from: string): string | undefined {
  for (let dir = resolve(from); ; dir = dirname(dir)) {
    if (existsSync(join(dir, 'spec', 'releases.json'))) return dir;
    if (dirname(dir) === dir) return undefined;
  }
}

/**
 * The spec repository to work on: the one around the working directory (a clone of idea-kit, or a
 * protocol fork); else the spec this tool comes with (its checkout, or the copy in the package's dist/).
 */
export function defaultRoot(cwd: string = process.cwd()): string {
  const root = specRootAbove(cwd) ?? specRootAbove(dirname(fileURLToPath(import.meta.url)));
  if (!root) throw new Error('no spec/releases.json here or in any parent folder: pass --root <dir>');
  return root;
}

export function specDir(root: string): string {
  return join(root, 'spec');
}
