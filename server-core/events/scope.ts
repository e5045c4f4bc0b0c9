// Which paths an event may name: the same confinement as requests. Inside an open workspace folder
// (symlinks resolved), not under a protected path (.git, .vscode, *.code-workspace: they hold the token
// and settings) and, for file and diagnostics events, not in a folder the user excluded
// (files.exclude / search.exclude, unconditional entries).
import { isAbsolute, relative, resolve, sep } from 'node:path';
import type { WorkspaceFolders } from '../host';
import { realpathOfNearestAncestor } from '../path-guard';
import { compileExcludes, enabledGlobs, excludedBy } from '../search/excludes';
import type { CompiledGlob } from '../search/glob';
import { protectedReason } from '../write/protected-paths';

/** Exclude settings are re-read at most this often (each event would otherwise read them). */
const SETTINGS_TTL_MS = 1000;

export class EventScope {
  private cache: { at: number; folders: { real: string; globs: CompiledGlob[] }[]; paths: string[] } | undefined;

  constructor(private readonly folders: WorkspaceFolders) {}

  /** For files/changed and diagnostics/changed: inside a folder, not protected, not excluded. */
  reportable(path: string): boolean {
    return this.check(path, true);
  }

  /** For editor/changed: inside a folder and not protected (an open excluded file is still the person's view). */
  visible(path: string): boolean {
    return this.check(path, false);
  }

  private check(path: string, withExcludes: boolean): boolean {
    if (typeof path !== 'string' || path.length === 0 || path.includes('\0')) return false;
    const { folders, paths } = this.current();
    const real = realpathOfNearestAncestor(resolve(path));
    const folder = folders.find((f) => isInside(real, f.real));
    if (!folder) return false;
    if (protectedReason(real, paths) !== undefined) return false;
    return !withExcludes || !excludedBy(relative(folder.real, real).split(sep).join('/'), folder.globs);
  }

  private current() {
    const now = Date.now();
    if (this.cache && now - this.cache.at < SETTINGS_TTL_MS) return this.cache;
    const paths = this.folders.paths();
    const folders = paths.map((f) => {
      const s = this.folders.searchSettings(f);
      const globs = compileExcludes(enabledGlobs(s.filesExclude, s.searchExclude));
      return { real: realpathOfNearestAncestor(resolve(f)), globs };
    });
    this.cache = { at: now, folders, paths };
    return this.cache;
  }
}

function isInside(child: string, parent: string): boolean {
  const rel = relative(parent, child);
  return rel !== '' && rel !== '..' && !rel.startsWith(`..${sep}`) && !isAbsolute(rel);
}
