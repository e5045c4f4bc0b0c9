// Where the spec lives: the repository (or package) root and its spec/ folder. Reading the spec is
// the spec library's job (spec-lib/spec.ts, refs.ts, releases.ts, version.ts).
import { existsSync, realpathSync } from 'node:fs';
import { dirname, join, resolve, sep } from 'node:path';
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

/**
 * `root`, for a command that writes to it; throws when it lies inside node_modules (the spec an
 * installed package ships with, reached when no spec repository is around): installed packages are
 * never written to.
 */
export function writableRoot(root: string, command: string): string {
  let real = resolve(root);
  try {
    real = realpathSync(real);
  } catch {
    // not there (yet): judged by the name given
  }
  if ([resolve(root), real].some((p) => p.split(sep).includes('node_modules'))) {
    throw new Error(
      `idea-spec ${command} writes to the spec repository, and ${root} is inside node_modules (an installed package's copy of the spec): run it in your spec repository (a folder holding spec/releases.json) or pass --root <dir>`,
    );
  }
  return root;
}
