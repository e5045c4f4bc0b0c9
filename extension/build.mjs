// Bundles the extension into one CommonJS file: VS Code loads `main` with require(), and the bundle
// must carry its dependencies (ws, diff, the generated dispatcher) because the .vsix ships no node_modules.
// The regex worker thread is a second bundle next to it (dist/regexWorker.cjs), loaded by file name.
import { build } from 'esbuild';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const here = dirname(fileURLToPath(import.meta.url));
const watch = process.argv.includes('--watch');

const options = {
  entryPoints: [join(here, 'src/extension.ts')],
  outfile: join(here, 'dist/extension.cjs'),
  bundle: true,
  format: 'cjs',
  platform: 'node',
  target: 'node20',
  // bufferutil/utf-8-validate are optional native speed-ups that ws requires lazily.
  external: ['vscode', 'bufferutil', 'utf-8-validate'],
  sourcemap: true,
  logLevel: 'info',
};

const worker = { ...options, entryPoints: [join(here, 'src/search/regexWorker.ts')], outfile: join(here, 'dist/regexWorker.cjs') };

if (watch) {
  const { context } = await import('esbuild');
  for (const o of [options, worker]) await (await context(o)).watch();
} else {
  await Promise.all([build(options), build(worker)]);
}
