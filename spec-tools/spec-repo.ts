// Where the spec lives in a checkout: the repository root and its spec/ folder. Reading the spec is
// the spec library's job (codegen/src/spec.ts, refs.ts, releases.ts, version.ts).
import { existsSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

/** The repository root: the nearest ancestor of this file holding package.json and spec-tools/. */
export function defaultRoot(): string {
  let dir = dirname(fileURLToPath(import.meta.url));
  while (!(existsSync(join(dir, 'package.json')) && existsSync(join(dir, 'spec-tools')))) {
    const up = dirname(dir);
    if (up === dir) throw new Error('repository root not found');
    dir = up;
  }
  return dir;
}

export function specDir(root: string): string {
  return join(root, 'spec');
}
