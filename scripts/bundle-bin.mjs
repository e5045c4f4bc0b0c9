// One way to turn a TypeScript entry point of this repository into a package's bin: a single ESM file
// with its dependencies inside (ws, ajv, the generated code…), so it runs with plain Node ≥ 20 and
// no tsx, no clone and no node_modules. Used by the conformance/, spec-tools/ and mcp/ builds.
import { build } from 'esbuild';
import { chmodSync, readFileSync, writeFileSync } from 'node:fs';

/** A module that only says why it is missing: for code paths that need a clone of idea-kit. */
export function cloneOnly(filter, names, message) {
  return {
    name: 'clone-only',
    setup(b) {
      b.onResolve({ filter }, (args) => ({ path: args.path, namespace: 'clone-only' }));
      b.onLoad({ filter: /.*/, namespace: 'clone-only' }, () => ({
        contents: `const fail = () => { throw new Error(${JSON.stringify(message)}); };\n` + names.map((n) => `export const ${n} = fail;\n`).join(''),
        loader: 'js',
      }));
    },
  };
}

export async function bundleBin({ entry, outfile, define = {}, plugins = [] }) {
  await build({
    entryPoints: [entry],
    outfile,
    bundle: true,
    format: 'esm',
    platform: 'node',
    target: 'node20',
    // bufferutil/utf-8-validate are optional native speed-ups that ws requires lazily.
    external: ['bufferutil', 'utf-8-validate'],
    // Bundled CommonJS dependencies call require(): give the ESM bundle one.
    banner: { js: "import { createRequire as __ideaCreateRequire } from 'node:module'; const require = __ideaCreateRequire(import.meta.url);" },
    define,
    plugins,
    // No source map: for a minified bundle it is as large as the code, and the sources are not shipped.
    minify: true,
    legalComments: 'none',
    logLevel: 'warning',
  });
  // The entry's own hashbang (`npx tsx`, for running from a clone) is replaced by plain node's.
  const code = readFileSync(outfile, 'utf8');
  writeFileSync(outfile, '#!/usr/bin/env node\n' + (code.startsWith('#!') ? code.slice(code.indexOf('\n') + 1) : code));
  chmodSync(outfile, 0o755);
  return outfile;
}
