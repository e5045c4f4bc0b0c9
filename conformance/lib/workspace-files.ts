// The runner acting on the workspace as another process would (a case's `writeFile`, `deleteFile`,
// `expectFiles`, `expectFilesUnchanged` steps), on a folder the server under test can write too: a path
// must stay inside the workspace, and nothing a server planted on the way (a symlinked folder) is
// followed, so no read, write or delete lands outside it.
import { lstatSync, readFileSync, rmSync } from 'node:fs';
import { isAbsolute, join, relative, sep } from 'node:path';
import { writeInside } from '../workspace/write-inside';

export class WorkspacePathError extends Error {}

/** A path a case names, workspace-relative and "/"-separated: an absolute one inside `dir` is made relative. */
export function workspaceRelative(dir: string, path: string): string {
  if (!isAbsolute(path)) return path;
  const rel = relative(dir, path);
  if (rel === '' || rel === '..' || rel.startsWith(`..${sep}`) || isAbsolute(rel))
    throw new WorkspacePathError(`not a path inside the workspace: ${JSON.stringify(path)}`);
  return rel.split(sep).join('/');
}

/** `rel` as checked "/"-separated segments: relative, no `.`/`..`/empty segment, no backslash or NUL. */
export function workspaceSegments(rel: string): string[] {
  const segs = rel.split('/');
  if (
    rel.startsWith('/') ||
    /^[A-Za-z]:/.test(rel) ||
    /[\\\0]/.test(rel) ||
    segs.some((s) => s === '' || s === '.' || s === '..')
  )
    throw new WorkspacePathError(`not a path inside the workspace: ${JSON.stringify(rel)}`);
  return segs;
}

function lstatOrUndefined(p: string) {
  try {
    return lstatSync(p);
  } catch {
    return undefined;
  }
}

/** The absolute path of `rel`, every folder on the way a real folder (not a symlink); undefined when one is missing. */
function throughRealFolders(dir: string, rel: string): string | undefined {
  const segs = workspaceSegments(rel);
  let at = dir;
  for (const seg of segs.slice(0, -1)) {
    at = join(at, seg);
    const st = lstatOrUndefined(at);
    if (!st) return undefined;
    if (!st.isDirectory())
      throw new WorkspacePathError(
        `${rel}: ${at} is not a real folder (${st.isSymbolicLink() ? 'a symbolic link' : 'a file'})`,
      );
  }
  return join(at, segs.at(-1)!);
}

/** Writes `text` at `rel` (created or replaced; folders made as needed; symlinks on the way replaced, not followed). */
export function writeWorkspaceFile(dir: string, path: string, text: string): void {
  const rel = workspaceRelative(dir, path);
  workspaceSegments(rel);
  writeInside(dir, rel, text);
}

/** Deletes the file at `rel` (a symlink there is removed itself). Throws when nothing is there or it is a folder. */
export function deleteWorkspaceFile(dir: string, path: string): void {
  const rel = workspaceRelative(dir, path);
  const abs = throughRealFolders(dir, rel);
  const st = abs ? lstatOrUndefined(abs) : undefined;
  if (!abs || !st) throw new WorkspacePathError(`${rel}: no such file to delete`);
  if (st.isDirectory()) throw new WorkspacePathError(`${rel}: a folder, not a file`);
  rmSync(abs, { force: true });
}

/** What is at `rel`: its bytes, nothing (undefined), or what it is instead of a regular file. */
export type FileState = { bytes: Buffer } | { other: string } | undefined;

export function readWorkspaceFile(dir: string, path: string): FileState {
  const rel = workspaceRelative(dir, path);
  let abs: string | undefined;
  try {
    abs = throughRealFolders(dir, rel);
  } catch (err) {
    if (err instanceof WorkspacePathError && !err.message.startsWith('not a path')) return { other: err.message };
    throw err;
  }
  const st = abs ? lstatOrUndefined(abs) : undefined;
  if (!abs || !st) return undefined;
  if (st.isFile()) return { bytes: readFileSync(abs) };
  return { other: st.isSymbolicLink() ? 'a symbolic link' : st.isDirectory() ? 'a folder' : 'not a regular file' };
}
