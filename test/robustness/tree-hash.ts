// Content snapshot of a folder (every file's path, mode and SHA-256), to prove a run changed nothing.
import { createHash } from 'node:crypto';
import { lstatSync, readdirSync, readFileSync, readlinkSync } from 'node:fs';
import { join, relative } from 'node:path';

/** Map of relative path → "mode sha256" for every file and symlink under `dir`, minus `skip` top-level names. */
export function snapshotTree(dir: string, skip: string[] = ['.git']): Map<string, string> {
  const out = new Map<string, string>();
  const walk = (d: string) => {
    for (const name of readdirSync(d).sort()) {
      const p = join(d, name);
      const rel = relative(dir, p);
      if (d === dir && skip.includes(name)) continue;
      const st = lstatSync(p);
      if (st.isDirectory()) walk(p);
      else if (st.isSymbolicLink()) out.set(rel, `link ${readlinkSync(p)}`);
      else
        out.set(rel, `${(st.mode & 0o777).toString(8)} ${createHash('sha256').update(readFileSync(p)).digest('hex')}`);
    }
  };
  walk(dir);
  return out;
}

/** Human-readable differences between two snapshots (empty when equal). */
export function diffSnapshots(before: Map<string, string>, after: Map<string, string>): string[] {
  const out: string[] = [];
  for (const [k, v] of before)
    if (!after.has(k)) out.push(`deleted ${k}`);
    else if (after.get(k) !== v) out.push(`changed ${k}`);
  for (const k of after.keys()) if (!before.has(k)) out.push(`created ${k}`);
  return out;
}
