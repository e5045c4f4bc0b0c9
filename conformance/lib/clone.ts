// Whether the suite runs from a clone of idea-kit (tsx, vitest) or from its package (one bundled file):
// only a clone has the spec of every version and the project's own tests to read.
import { existsSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

/** Set by scripts/build.ts in the packaged bin. */
declare const __IDEA_PACKAGED__: boolean | undefined;

export const PACKAGED = typeof __IDEA_PACKAGED__ !== 'undefined' && __IDEA_PACKAGED__;

/** The repository root around conformance/lib/, or undefined from the package. */
export function cloneRoot(): string | undefined {
  if (PACKAGED) return undefined;
  const root = resolve(fileURLToPath(new URL('../..', import.meta.url)));
  return existsSync(join(root, 'spec', 'served.json')) ? root : undefined;
}
