// Builds a tree's idea-server bin (and the bundles it finds beside it) into a folder of its own, for the
// same-run A/Bs of date-fns-nav.mts: idea-server/dist is shared with everyone who builds in the tree,
// so an A/B's two sides are built elsewhere. node_modules is linked beside the folder (typescript and
// typescript-language-server resolve from there, as from idea-server/dist).
//   npx tsx bench/profiling/build-bin.mts <tree> <out> [--no-minify]   (prints the bin's path)
import { existsSync, mkdirSync, rmSync, symlinkSync } from 'node:fs';
import { basename, join, resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import { build } from 'esbuild';

const [tree, out, flag] = process.argv.slice(2) as [string, string, string | undefined];
const root = resolve(tree);
const dest = resolve(out);
const { TARGETS, esbuildOptions } = (await import(pathToFileURL(join(root, 'scripts', 'build.ts')).href)) as {
  TARGETS: { server: { bundles: { outfile: string; bin?: boolean }[] } };
  esbuildOptions(b: unknown): Promise<Record<string, unknown>>;
};
rmSync(join(dest, 'dist'), { recursive: true, force: true });
mkdirSync(join(dest, 'dist'), { recursive: true });
if (!existsSync(join(dest, 'node_modules'))) symlinkSync(join(root, 'node_modules'), join(dest, 'node_modules'));
for (const b of TARGETS.server.bundles) {
  const o = await esbuildOptions(b);
  await build({
    ...o,
    outfile: join(dest, 'dist', basename(b.outfile)),
    ...(flag === '--no-minify' ? { minify: false, sourcemap: false } : {}),
  });
}
console.log(join(dest, 'dist', 'idea-server.mjs'));
