// Files no write topic (edit/replace, history/rollback, localhistory/rollback) may change, whatever the
// user's exclude settings say, because changing them would let a client run programs or take over the
// server: git's own files (.git/config names fsmonitor, hooks, filters), any `.vscode` folder (its
// settings.json carries this server's token and port and can re-enable excluded files; tasks.json and
// launch.json run commands) and `*.code-workspace` files (workspace settings and tasks). Reading them
// is not restricted here: a token holder may search them like any other file.
import { basename, relative, resolve, sep } from 'node:path';
import { realpathOfNearestAncestor } from '../path-guard';

/** Globs (rg/VS Code syntax) that keep protected files out of a replace's file selection. */
export const PROTECTED_GLOBS: readonly string[] = ['**/.git/**', '**/.git', '**/.vscode/**', '**/*.code-workspace'];

/** The workspace folders' real paths, for checking many files with protectedReason. */
export const realFolders = (folders: readonly string[]): string[] =>
  folders.map((f) => realpathOfNearestAncestor(resolve(f)));

/**
 * Why `real` (an absolute path with symlinks resolved) must not be written, or undefined when it may
 * be. Path components are compared case-insensitively: on a case-insensitive disk `.GIT` is `.git`.
 * `folderReals`: realFolders(folders), when the caller checks many files.
 */
export function protectedReason(
  real: string,
  folders: readonly string[],
  folderReals?: readonly string[],
): string | undefined {
  if (real.split(sep).some((p) => p.toLowerCase() === '.git'))
    return "it is inside a .git folder (git's configuration and hooks)";
  if (basename(real).toLowerCase().endsWith('.code-workspace'))
    return 'it is a .code-workspace file (workspace settings and tasks)';
  for (const folderReal of folderReals ?? realFolders(folders)) {
    const rel = relative(folderReal, real);
    if (rel === '') return 'it is a workspace folder itself';
    // Below the folder only: a folder opened from inside some .vscode directory is not itself protected.
    if (!rel.startsWith('..') && rel.split(sep).some((p) => p.toLowerCase() === '.vscode')) {
      return 'it is inside a .vscode folder (workspace settings, the server token, tasks)';
    }
  }
  return undefined;
}
