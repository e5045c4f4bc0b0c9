// Builds @idea-kit/conformance: the idea-conformance bin as one ESM file (dist/idea-conformance.mjs;
// fixtures, workspace builder, reporters, recorder and the generated validators inside or beside it)
// and the protocol text its reports link to (dist/protocol.md). `--launch` starts our extension from
// a clone of idea-kit (livehost/), so the packaged bin says so instead of carrying a VS Code launcher.
import { cpSync, readFileSync, rmSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { bundleBin, cloneOnly } from '../scripts/bundle-bin.mjs';

const here = dirname(fileURLToPath(import.meta.url));
const root = join(here, '..');

rmSync(join(here, 'dist'), { recursive: true, force: true });
await bundleBin({
  entry: join(here, 'cli.ts'),
  outfile: join(here, 'dist', 'idea-conformance.mjs'),
  define: { __IDEA_PACKAGED__: 'true' },
  plugins: [cloneOnly(/^\.\/launch$/, ['runWithLaunch'],
    '--launch starts our extension in a live VS Code and needs a clone of idea-kit. With this package: install the extension (.vsix) in VS Code, build a fixture workspace (idea-conformance workspace <dir>), open it, then run --workspace <dir> [--url … --token …]')],
});
// The served version's reference (spec/served.json, the version generated/current.ts names), where clause links point.
const served = JSON.parse(readFileSync(join(root, 'spec', 'served.json'), 'utf8')).version;
cpSync(join(root, 'generated', `v${served}`, 'protocol.md'), join(here, 'dist', 'protocol.md'));
console.log('@idea-kit/conformance → dist/idea-conformance.mjs');
