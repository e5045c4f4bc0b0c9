// The files a search looks at, without ripgrep: the same selection as ripgrep.ts's rg invocation
// (`--hidden --no-require-git --no-ignore-global --no-ignore-parent`, `--glob` overrides), walked in
// JavaScript for servers that have no rg (idea-server on a machine without it). Per entry, in rg's order:
// - symbolic links are skipped (rg does not follow them, so nothing outside the folder is read);
// - the `--glob` overrides decide first, the last matching one winning (the include, then `!` the
//   excludes): an excluded folder is not entered; an included entry is taken whatever the ignore files
//   say; with an include, a file it does not match is left out (folders are still entered);
// - then, with useIgnoreFiles, the ignore files: `.ignore`/`.rgignore` of the entry's folder and its
//   parents up to the searched folder, then `.gitignore` the same way, then `.git/info/exclude` of
//   a repository root on the way; the deepest file with a rule about the entry decides.
// listFiles() is what callers use: rg when the host has one, this walk otherwise.
import { type Dirent, existsSync } from 'node:fs';
import { opendir, readFile } from 'node:fs/promises';
import { join } from 'node:path';
import ignore, { type Ignore } from 'ignore';
import { type CompiledGlob, compileGlob } from './glob';
import { anchorGlob, type FileProblem, type FileSelection, rgListFiles } from './ripgrep';

interface Override {
  glob: CompiledGlob;
  whitelist: boolean;
}

/** One folder's ignore rules: explicit (.ignore, .rgignore over it), .gitignore, the repository's exclude. */
interface IgnoreLayer {
  /** The folder, relative to the searched one ("" for itself). */
  base: string;
  explicit?: Ignore;
  git?: Ignore;
  exclude?: Ignore;
}

/** Largest ignore file read (a bigger one is read up to this); rg has no bound, but a file this big is no ignore file. */
const MAX_IGNORE_FILE_BYTES = 1024 * 1024;

async function readRules(path: string): Promise<string | undefined> {
  try {
    const buf = await readFile(path);
    return buf.subarray(0, MAX_IGNORE_FILE_BYTES).toString('utf8');
  } catch {
    return undefined; // none, or unreadable: rg says nothing either (--no-ignore-messages)
  }
}

async function layerOf(dir: string, base: string): Promise<IgnoreLayer | undefined> {
  const [dotIgnore, rgIgnore, gitIgnore] = await Promise.all(
    ['.ignore', '.rgignore', '.gitignore'].map((n) => readRules(join(dir, n))),
  );
  const exclude = existsSync(join(dir, '.git')) ? await readRules(join(dir, '.git', 'info', 'exclude')) : undefined;
  if (dotIgnore === undefined && rgIgnore === undefined && gitIgnore === undefined && exclude === undefined)
    return undefined;
  const make = (...texts: (string | undefined)[]) => {
    const t = texts.filter((x): x is string => x !== undefined);
    return t.length ? ignore({ allowRelativePaths: true }).add(t.join('\n')) : undefined;
  };
  return { base, explicit: make(dotIgnore, rgIgnore), git: make(gitIgnore), exclude: make(exclude) };
}

/** Whether the ignore files leave `rel` out; layers from the searched folder down to the entry's. */
function ignoredByFiles(layers: IgnoreLayer[], rel: string, isDir: boolean): boolean {
  for (const kind of ['explicit', 'git', 'exclude'] as const) {
    for (let i = layers.length - 1; i >= 0; i--) {
      const layer = layers[i]!;
      const ig = layer[kind];
      if (!ig) continue;
      const sub = layer.base ? rel.slice(layer.base.length + 1) : rel;
      const r = ig.test(isDir ? `${sub}/` : sub);
      if (r.ignored) return true;
      if (r.unignored) return false;
    }
  }
  return false;
}

/** The last override matching `rel` (later globs win), or undefined. */
function override(overrides: Override[], rel: string, isDir: boolean): Override | undefined {
  for (let i = overrides.length - 1; i >= 0; i--) {
    const o = overrides[i]!;
    if ((!o.glob.dirOnly || isDir) && o.glob.matches(rel)) return o;
  }
  return undefined;
}

/**
 * Every file rg would list under `cwd` with this selection, as "/"-separated paths relative to it,
 * walked in JavaScript. Resolves with the folders that could not be read; INVALID_REQUEST for a
 * malformed glob. `onFile` returning false stops the walk.
 */
export async function jsListFiles(
  cwd: string,
  sel: FileSelection,
  onFile: (relPath: string) => boolean | void,
  signal?: AbortSignal,
): Promise<FileProblem[]> {
  const overrides: Override[] = [];
  const hasInclude = !!sel.include && sel.include !== '**/*' && sel.include !== '**';
  if (hasInclude) overrides.push({ glob: compileGlob(anchorGlob(sel.include!)), whitelist: true });
  for (const g of sel.excludes) overrides.push({ glob: compileGlob(anchorGlob(g)), whitelist: false });
  const problems: FileProblem[] = [];
  let stopped = false;

  const walk = async (dir: string, rel: string, layers: IgnoreLayer[]): Promise<void> => {
    signal?.throwIfAborted();
    const own = sel.useIgnoreFiles ? await layerOf(dir, rel) : undefined;
    const here = own ? [...layers, own] : layers;
    let entries: Dirent[];
    try {
      entries = [];
      for await (const e of await opendir(dir)) entries.push(e);
    } catch (e) {
      const err = e as NodeJS.ErrnoException;
      // Gone meanwhile: nothing in it can be missed (as rg's "os error 2").
      if (err.code !== 'ENOENT') problems.push({ relPath: rel || '.', message: err.message });
      return;
    }
    for (const e of entries) {
      if (stopped) return;
      if (e.isSymbolicLink()) continue;
      const isDir = e.isDirectory();
      if (!isDir && !e.isFile()) continue; // sockets, fifos, devices: rg lists files only
      const childRel = rel ? `${rel}/${e.name}` : e.name;
      const o = override(overrides, childRel, isDir);
      if (o && !o.whitelist) continue;
      if (!o) {
        if (hasInclude && !isDir) continue;
        if (sel.useIgnoreFiles && ignoredByFiles(here, childRel, isDir)) continue;
      }
      if (isDir) await walk(join(dir, e.name), childRel, here);
      else if (onFile(childRel) === false) stopped = true;
    }
  };
  await walk(cwd, '', []);
  return problems;
}

/** The files a search looks at: rg's listing when the host has rg, the JavaScript walk otherwise. */
export function listFiles(
  rg: string | null,
  cwd: string,
  sel: FileSelection,
  onFile: (relPath: string) => boolean | void,
  signal?: AbortSignal,
): Promise<FileProblem[]> {
  return rg === null ? jsListFiles(cwd, sel, onFile, signal) : rgListFiles(rg, cwd, sel, onFile, signal);
}
