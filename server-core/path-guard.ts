// Confines every filePath a client sends to the open workspace folders, after resolving symlinks, so
// that neither a `..` nor a symlink planted in the workspace can make a handler read or write elsewhere.
import { existsSync, realpathSync } from 'node:fs';
import { basename, dirname, isAbsolute, join, relative, resolve, sep } from 'node:path';
import { invalidRequest } from './errors';

export interface ResolvedPath {
  /** Absolute path as the client named it (normalised, symlinks kept): what results report. */
  path: string;
  /** The same path with every existing symlink resolved: what was checked. */
  real: string;
  /** The workspace folder (as opened) that contains it. */
  folder: string;
}

/** realpath of the nearest existing ancestor, with the not-yet-existing rest appended. */
export function realpathOfNearestAncestor(p: string): string {
  const missing: string[] = [];
  let cur = p;
  for (;;) {
    try {
      const real = realpathSync.native(cur);
      return missing.length ? join(real, ...missing.reverse()) : real;
    } catch {
      const parent = dirname(cur);
      if (parent === cur) return p;
      missing.push(basename(cur));
      cur = parent;
    }
  }
}

function isInside(child: string, parent: string): boolean {
  if (child === parent) return true;
  const rel = relative(parent, child);
  return rel !== '' && !rel.startsWith(`..${sep}`) && rel !== '..' && !isAbsolute(rel);
}

/**
 * Resolves `filePath` (absolute, or relative to a workspace folder: the first folder in which it
 * exists, else the first folder) and checks it lies inside an open workspace folder.
 * Throws INVALID_REQUEST otherwise. Existence is not checked: a missing file is the handler's
 * HANDLER_ERROR (or an empty result), not bad input.
 */
export function resolveWorkspacePath(filePath: string, folders: readonly string[]): ResolvedPath {
  // "" would name the workspace folder itself, not a file in it (the schema refuses it too).
  if (filePath.length === 0) throw invalidRequest('filePath must be a non-empty string');
  if (filePath.includes('\0')) throw invalidRequest('filePath contains a NUL character');
  if (folders.length === 0) throw invalidRequest('no workspace folder is open');
  let abs: string;
  if (isAbsolute(filePath)) abs = resolve(filePath);
  else {
    const candidates = folders.map((f) => resolve(f, filePath));
    abs = candidates.find((c) => existsSync(c)) ?? candidates[0]!;
  }
  const real = realpathOfNearestAncestor(abs);
  for (const folder of folders) {
    const folderReal = realpathOfNearestAncestor(resolve(folder));
    if (isInside(real, folderReal)) {
      return { path: abs, real, folder: resolve(folder) };
    }
  }
  throw invalidRequest(`filePath is outside every open workspace folder: ${filePath}`);
}

/** True when an absolute path (symlinks resolved) lies in one of the folders; used to filter results. */
export function isInWorkspace(absPath: string, folders: readonly string[]): boolean {
  const real = realpathOfNearestAncestor(absPath);
  return folders.some((f) => isInside(real, realpathOfNearestAncestor(resolve(f))));
}
