// idea-spec bump: the next protocol version starts as a copy of the latest one (version strings and
// $ids rewritten), gets its generated code, and its changelog entry drafted from the diff.
import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { updateChangelog } from './changelog';
import { isReleased } from './frozen';
import { listFiles, listVersions, specDir, versionDir, type Json } from './spec-repo';
import { compareVersions, nextPatch, normalizeVersion } from './versions';
import { formatJson, rewriteVersion } from './version-rewrite';

export interface BumpOptions {
  /** Target version; default: the latest version's next patch. */
  version?: string | undefined;
  /** Run codegen for the new version (default true). */
  codegen?: boolean;
  /** Bump even when the latest version is not released yet. */
  force?: boolean;
  /** Date written as the new index's `released` (default: today, UTC). */
  today?: string;
  log?: (s: string) => void;
}

export async function bump(root: string, opts: BumpOptions = {}): Promise<{ version: string; from: string }> {
  const spec = specDir(root);
  const from = listVersions(spec).at(-1);
  if (!from) throw new Error('no spec version to bump from');
  const version = normalizeVersion(opts.version ?? nextPatch(from));
  if (compareVersions(version, from) <= 0) throw new Error(`v${version} is not newer than the latest version v${from}`);
  if (existsSync(versionDir(spec, version))) throw new Error(`spec/v${version} already exists`);
  if (!opts.force && !isReleased(spec, from)) {
    throw new Error(`v${from} is not released yet: edit it, or record its release first (idea-spec release ${from}); --force bumps anyway`);
  }
  const srcDir = versionDir(spec, from);
  const dstDir = versionDir(spec, version);
  for (const rel of listFiles(srcDir)) {
    const text = readFileSync(join(srcDir, rel), 'utf8');
    const out = join(dstDir, rel);
    mkdirSync(dirname(out), { recursive: true });
    if (!rel.endsWith('.json')) {
      writeFileSync(out, text);
      continue;
    }
    const doc = rewriteVersion(JSON.parse(text) as Json, from, version);
    if (rel === 'index.json' && typeof doc === 'object' && doc !== null && !Array.isArray(doc)) {
      doc.released = opts.today ?? new Date().toISOString().slice(0, 10);
    }
    writeFileSync(out, formatJson(doc));
  }
  const log = opts.log ?? (() => {});
  log(`copied spec/v${from} → spec/v${version}\n`);
  if (opts.codegen !== false) runCodegen(root, version);
  const cl = updateChangelog(root);
  log(`updated ${cl.path}\n`);
  return { version, from };
}

/** Runs the project's codegen for one version (`npm run codegen -- --version <v>`). */
export function runCodegen(root: string, version: string): void {
  const r = spawnSync(process.execPath, [join(root, 'node_modules', 'tsx', 'dist', 'cli.mjs'), join(root, 'codegen', 'src', 'cli.ts'), '--version', version], {
    cwd: root,
    encoding: 'utf8',
  });
  if (r.status !== 0) throw new Error(`codegen for v${version} failed (exit ${r.status}):\n${r.stdout}${r.stderr}`);
}
