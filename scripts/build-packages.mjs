// Builds every package users install, and with --pack <dir> packs them there:
//   @idea-kit/protocol (packages/protocol)  @idea-kit/conformance (conformance/)  @idea-kit/spec-tools (spec-tools/)
//   @idea-kit/cli (cli/)  @idea-kit/mcp (mcp/)  and the extension's .vsix (extension/)
// Prints one line per artefact (file, packed size, files) and, with --json <file>, writes them as JSON.
//   node scripts/build-packages.mjs [--pack <dir>] [--json <file>]
import { execFileSync } from 'node:child_process';
import { copyFileSync, mkdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const { values } = parseArgs({ options: { pack: { type: 'string' }, json: { type: 'string' } } });

/** Workspace folder → how it is built. Order matters only for reading the log. */
const PACKAGES = [
  { dir: 'packages/protocol', build: ['node', 'packages/protocol/build.mjs'] },
  { dir: 'conformance', build: ['node', 'conformance/build.mjs'] },
  { dir: 'spec-tools', build: ['node', 'spec-tools/build.mjs'] },
  { dir: 'cli', build: ['npx', 'tsx', 'cli/build.ts'] },
  { dir: 'mcp', build: ['node', 'mcp/build.mjs'] },
];

const run = (cmd, args, opts = {}) => execFileSync(cmd, args, { cwd: root, encoding: 'utf8', stdio: ['ignore', 'pipe', 'inherit'], ...opts });

const artefacts = [];
for (const p of PACKAGES) {
  run(p.build[0], p.build.slice(1));
  copyFileSync(join(root, 'LICENSE'), join(root, p.dir, 'LICENSE'));
}
run('npm', ['run', '--silent', 'package:extension']);
const ext = JSON.parse(readFileSync(join(root, 'extension', 'package.json'), 'utf8'));
const vsix = join(root, 'extension', 'dist', `${ext.name}-${ext.version}.vsix`);

if (values.pack) {
  const dest = resolve(values.pack);
  mkdirSync(dest, { recursive: true });
  for (const p of PACKAGES) {
    const [info] = JSON.parse(run('npm', ['pack', '--json', '--pack-destination', dest], { cwd: join(root, p.dir) }));
    artefacts.push({ name: info.name, file: join(dest, info.filename), size: info.size, unpackedSize: info.unpackedSize, files: info.entryCount });
  }
  const vsixCopy = join(dest, `${ext.name}-${ext.version}.vsix`);
  copyFileSync(vsix, vsixCopy);
  artefacts.push({ name: `${ext.publisher}.${ext.name} (.vsix)`, file: vsixCopy, size: statSync(vsixCopy).size });
} else artefacts.push({ name: `${ext.publisher}.${ext.name} (.vsix)`, file: vsix, size: statSync(vsix).size });

for (const a of artefacts) {
  process.stdout.write(`${a.name.padEnd(32)} ${(a.size / 1024).toFixed(1).padStart(8)} kB${a.files ? `  ${a.files} files, ${(a.unpackedSize / 1024).toFixed(0)} kB unpacked` : ''}  ${a.file}\n`);
}
if (values.json) writeFileSync(values.json, JSON.stringify(artefacts, null, 2) + '\n');
