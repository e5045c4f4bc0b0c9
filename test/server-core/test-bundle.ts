// Unit tests run the TypeScript sources; server-core's regex worker thread and process spawner need
// JavaScript, so each is bundled once per test process with scripts/build.ts's options for the
// extension's bundle of it.
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { basename, join } from 'node:path';
import { buildSync } from 'esbuild';
import { bundleOptions, EXTENSION_BUNDLES } from '../../scripts/build';

const built = new Map<keyof typeof EXTENSION_BUNDLES, string>();

/** The path of a test build of one of the extension's bundles (built on first use). */
export function testBundle(name: keyof typeof EXTENSION_BUNDLES): string {
  let out = built.get(name);
  if (!out) {
    const spec = EXTENSION_BUNDLES[name];
    out = join(mkdtempSync(join(tmpdir(), `idea-${name}-`)), basename(spec.outfile));
    buildSync({ ...bundleOptions(spec), outfile: out });
    built.set(name, out);
  }
  return out;
}
