// edit/undo's plan (clause T57): a kept transaction (write/undo-log.ts) turned around. Every file it
// touched must still hold exactly what it left (its sha256 after, or no file where it deleted one), every
// folder it created must still be there holding only what the undo removes, every folder it removed
// must still be absent; otherwise the undo is refused naming the first path that changed. The plan then
// writes each file's original back (the transaction's originals, checked against their hashes), deletes
// what it created and makes again the folders it removed, as a transaction of its own: undoing that one
// redoes the first. Paths are confined as any write's: a transaction whose paths are no longer inside
// the workspace folders (or now resolve elsewhere) is refused.
import { lstat, readdir, readFile } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import { sha256 } from '../../runtime/hash';
import { type CoreContext, resolvePath } from '../context';
import { invalidRequest, ProtocolError } from '../errors';
import { fileDiff } from './diff';
import { type PlannedFolder, type PlannedWrite, transactionOrder } from './transaction';
import { type KeptTransaction, withOriginals } from './undo-log';
import type { FileWriteAnswer } from './workspace-edit';

export interface UndoPlan {
  writes: PlannedWrite[];
  folders: PlannedFolder[];
  files: FileWriteAnswer[];
  changedFiles: string[];
}

/** Plans the undo of `t` (see the header); throws INVALID_REQUEST naming the path that changed since. */
export async function planUndo(svc: CoreContext, t: KeptTransaction, signal: AbortSignal): Promise<UndoPlan> {
  const folders = svc.folders.paths();
  const refuse = (path: string, why: string) =>
    invalidRequest(`cannot undo transaction ${t.id}: ${path} ${why}; nothing was changed`);
  /** The path confined as a write's is, and still the real path the transaction wrote. */
  const confined = (path: string, target: string) => {
    let real: string;
    try {
      ({ real } = resolvePath(svc, path));
    } catch {
      throw refuse(path, 'is outside every open workspace folder');
    }
    if (real !== target) throw refuse(path, `now resolves to ${real}, not the ${target} the transaction wrote`);
    if (svc.documents.isDirty(path)) throw refuse(path, 'has unsaved changes in the editor; save or revert them first');
  };
  const now = async (target: string) => {
    const st = await lstat(target).catch((e: NodeJS.ErrnoException) => {
      if (e.code === 'ENOENT' || e.code === 'ENOTDIR') return null;
      throw new ProtocolError('HANDLER_ERROR', `cannot read ${target} (${e.code ?? e.message}); nothing was changed`);
    });
    return st;
  };

  const writes: PlannedWrite[] = [];
  const files: FileWriteAnswer[] = [];
  await withOriginals(svc.tools.stateDir, t.id, async (original) => {
    for (const f of t.record.files) {
      signal.throwIfAborted();
      confined(f.path, f.target);
      const st = await now(f.target);
      if (st !== null && !st.isFile()) throw refuse(f.path, 'is no longer a regular file');
      const current = st === null ? null : await readFile(f.target);
      const hash = current === null ? null : sha256(current);
      if (hash !== f.afterSha256)
        throw refuse(
          f.path,
          f.afterSha256 === null
            ? 'exists again since the transaction deleted it'
            : current === null
              ? 'was deleted since'
              : 'changed since (its sha256 is not what the transaction left)',
        );
      let back: Buffer | null;
      try {
        back = await original(f);
      } catch (e) {
        throw new ProtocolError(
          'HANDLER_ERROR',
          `cannot undo transaction ${t.id}: ${(e as Error).message}; nothing was changed`,
        );
      }
      if (current === null && back === null) continue;
      // Where the undo deletes a file, its mode goes with the record (undoing the undo makes it again so).
      const mode = back === null ? st!.mode & 0o7777 : f.mode;
      writes.push({
        path: f.path,
        target: f.target,
        before: current,
        after: back,
        ...(mode !== undefined && { mode }),
      });
      files.push({
        filePath: f.path,
        change: current === null ? 'created' : back === null ? 'deleted' : 'edited',
        diff: fileDiff(folders, current === null ? null : f.path, back === null ? null : f.path, current, back),
        sha256Before: hash,
        sha256After: back === null ? null : sha256(back),
      });
    }
  });

  const plannedFolders: PlannedFolder[] = [];
  const removedByUndo = new Set([
    ...writes.filter((w) => w.after === null).map((w) => w.target),
    ...(t.record.folders ?? []).filter((f) => f.change === 'create').map((f) => f.target),
  ]);
  for (const f of t.record.folders ?? []) {
    confined(f.path, f.target);
    const st = await now(f.target);
    if (f.change === 'create') {
      if (!st?.isDirectory()) throw refuse(f.path, 'is no longer the folder the transaction created');
      const others = (await readdir(f.target)).filter((n) => !removedByUndo.has(join(f.target, n)));
      if (others.length > 0) throw refuse(f.path, `holds ${others[0]}, which the transaction did not create`);
      plannedFolders.push({ path: f.path, target: f.target, change: 'remove', mode: st.mode & 0o7777 });
    } else {
      if (st !== null) throw refuse(f.path, 'exists again since the transaction removed it');
      plannedFolders.push({
        path: f.path,
        target: f.target,
        change: 'create',
        ...(f.mode !== undefined && { mode: f.mode }),
      });
    }
  }
  // What the undo makes again (a folder, a file) needs its parent: one the undo makes too, or one there now.
  const made = [
    ...plannedFolders.filter((f) => f.change === 'create'),
    ...writes.filter((w) => w.before === null && w.after !== null),
  ];
  for (const m of made)
    if (!plannedFolders.some((g) => g.change === 'create' && g.target === dirname(m.target))) {
      const parent = await now(dirname(m.target));
      if (!parent?.isDirectory()) throw refuse(m.path, `cannot be made again: ${dirname(m.path)} is gone`);
    }
  for (const f of [...plannedFolders].sort(transactionOrder))
    files.push({
      filePath: f.path,
      change: f.change === 'create' ? 'createdFolder' : 'deletedFolder',
      diff: '',
      sha256Before: null,
      sha256After: null,
    });
  const changedFiles = [...new Set([...writes.map((w) => w.path), ...plannedFolders.map((f) => f.path)])];
  return { writes, folders: plannedFolders, files, changedFiles };
}
