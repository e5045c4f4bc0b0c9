// Every bin answers --help and --version the way the ecosystem's do: usage or the package version on
// stdout, exit 0, nothing on stderr. Run as processes, built as they are published (one bundled file
// each, written to a temp dir so the packages' dist/ is left alone).
import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { build } from 'esbuild';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { esbuildOptions, TARGETS } from '../../scripts/build';

const ROOT = resolve(import.meta.dirname, '../..');
const version = (pkg: string) =>
  (JSON.parse(readFileSync(join(ROOT, pkg, 'package.json'), 'utf8')) as { version: string }).version;

let tmp: string;
const bins: Record<string, { file: string; pkg: string; args?: string[] }> = {};

beforeAll(async () => {
  tmp = mkdtempSync(join(tmpdir(), 'idea-bins-'));
  // The build table's own rows, written to the temp dir instead of the packages' dist/.
  for (const [name, pkg] of [
    ['idea', 'cli'],
    ['idea-mcp', 'mcp'],
    ['idea-conformance', 'conformance'],
    ['idea-spec', 'spec-tools'],
    ['idea-server', 'server'],
  ] as const) {
    const row = TARGETS[pkg].bundles[0]!;
    const file = join(tmp, `${name}.${row.format === 'cjs' ? 'cjs' : 'mjs'}`);
    await build({ ...(await esbuildOptions(row)), outfile: file });
    bins[name] = { file, pkg: pkg === 'server' ? 'idea-server' : pkg };
  }
  // The recorder is a bin of its own inside idea-conformance.
  bins['idea-conformance record'] = { ...bins['idea-conformance']!, args: ['record'] };
}, 120_000);
afterAll(() => rmSync(tmp, { recursive: true, force: true }));

function run(name: string, flag: string) {
  const b = bins[name]!;
  // An empty folder: no spec repository, no registry, nothing to find.
  const r = spawnSync(process.execPath, [b.file, ...(b.args ?? []), flag], {
    cwd: tmp,
    encoding: 'utf8',
    timeout: 20_000,
    env: { ...process.env, IDEA_REGISTRY_DIR: join(tmp, 'no-registry') },
  });
  return { code: r.status, stdout: r.stdout, stderr: r.stderr };
}

describe.each(['idea', 'idea-mcp', 'idea-conformance', 'idea-conformance record', 'idea-spec', 'idea-server'])(
  '%s',
  (name) => {
    it('--help prints its usage on stdout and exits 0', () => {
      const r = run(name, '--help');
      expect(r).toMatchObject({ code: 0, stderr: '' });
      expect(r.stdout).toMatch(new RegExp(`${name.split(' ')[0]}\\b`));
      expect(r.stdout).toMatch(/usage|Commands/i);
    });

    it('--version prints the package version and exits 0', () => {
      const r = run(name, '--version');
      expect(r).toMatchObject({ code: 0, stderr: '' });
      expect(r.stdout).toMatch(
        new RegExp(`^${name.split(' ')[0]} ${version(bins[name]!.pkg).replace(/\./g, '\\.')}( |\\n)`),
      );
    });
  },
);
