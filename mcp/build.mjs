// Bundles the MCP server into one ESM file with its dependencies (the MCP SDK, ws, the generated
// client and tool tables), so `idea-mcp` runs without this repository's node_modules.
import { build } from 'esbuild';
import { chmodSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const here = dirname(fileURLToPath(import.meta.url));
const outfile = join(here, 'dist/idea-mcp.mjs');

await build({
  entryPoints: [join(here, 'src/cli.ts')],
  outfile,
  bundle: true,
  format: 'esm',
  platform: 'node',
  target: 'node20',
  // bufferutil/utf-8-validate are optional native speed-ups that ws requires lazily.
  external: ['bufferutil', 'utf-8-validate'],
  // Bundled CommonJS dependencies call require(): give the ESM bundle one.
  banner: { js: "#!/usr/bin/env node\nimport { createRequire as __ideaCreateRequire } from 'node:module'; const require = __ideaCreateRequire(import.meta.url);" },
  sourcemap: true,
  logLevel: 'info',
});
chmodSync(outfile, 0o755);
