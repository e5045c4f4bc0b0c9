// What follows a change of spec/ or spec/releases.json: the version's generated code (protocol.md
// shows the release date) and docs/CHANGELOG.md (dates, summaries, amendments, diffs).
import { spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { versionFolder } from '@idea-kit/spec-lib/version';
import { updateChangelog } from './changelog';

/** Why `root` has no codegen to run, or undefined when it has one. Commands ask before writing anything. */
export function codegenMissing(root: string): string | undefined {
  if (existsSync(join(root, 'codegen', 'src', 'cli.ts')) && existsSync(join(root, 'node_modules', 'tsx')))
    return undefined;
  return `${root} has no codegen to run (codegen/src/cli.ts and node_modules/tsx, as in an installed clone of idea-kit): run it there, or pass --no-codegen (then regenerate the code your own way)`;
}

/** Runs the checkout's own codegen for one version (`npm run codegen -- --version <v>`), in `root`. */
function runCodegen(root: string, version: string): void {
  const missing = codegenMissing(root);
  if (missing) throw new Error(missing);
  const r = spawnSync(
    process.execPath,
    [
      join(root, 'node_modules', 'tsx', 'dist', 'cli.mjs'),
      join(root, 'codegen', 'src', 'cli.ts'),
      '--version',
      version,
    ],
    {
      cwd: root,
      encoding: 'utf8',
    },
  );
  if (r.status !== 0) throw new Error(`codegen for v${version} failed (exit ${r.status}):\n${r.stdout}${r.stderr}`);
}

/** Regenerates after `version` changed; returns one line per thing written. */
export function regenerate(root: string, version: string, opts: { codegen?: boolean } = {}): string[] {
  const lines: string[] = [];
  if (opts.codegen !== false) {
    runCodegen(root, version);
    lines.push(`generated generated/${versionFolder(version)}/ (npm run codegen -- --version ${version})`);
  }
  const cl = updateChangelog(root);
  lines.push(cl.upToDate ? `${cl.path} already up to date` : `updated ${cl.path}`);
  return lines;
}
