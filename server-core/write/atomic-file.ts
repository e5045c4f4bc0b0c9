// One file replaced so that a reader, or a crash at any instant, sees the old bytes or the new ones,
// never a truncation or a mix: the new bytes go to a temporary file in the same folder, are flushed to
// disk, get the mode of the file they replace, and are renamed over it (an atomic step of the file
// system); the folder is then flushed so the rename itself is durable. The temporary file is named
// after the target so a crash leftover can be recognised and removed.
//
// The steps are also offered apart, for a write of many files (write/transaction.ts, issue 33 finding
// 2): prepareReplacement (temp file written, mode set, fsynced, closed) for every file at once, then
// commitReplacement (the rename) for each in turn, then syncFolders (each folder fsynced once, not
// once per file). What makes that as safe as the one-file sequence, per file:
// - the temp file's bytes and mode are durable before its rename is issued (the fsync of a prepared
//   file completes before its commitReplacement can be called), so a rename that survives a crash
//   names complete bytes: never a truncation;
// - until syncFolders returns, a power loss may undo any of the renames (the folder's entry still
//   names the old file, which is intact, or the new one, which is complete): each file is old or new,
//   and the caller keeps what makes the whole write all or nothing (the write journal) until
//   syncFolders has returned;
// - a prepared file that is never renamed is an ordinary leftover temp file: removed by
//   discardReplacement, or after a crash by removeLeftoverTemps (recovery). Its folder entry need not be
//   durable: losing it loses nothing.
import { randomBytes } from 'node:crypto';
import { constants } from 'node:fs';
import { access, chmod, mkdir, open, readdir, rename, rm, stat } from 'node:fs/promises';
import { basename, dirname, join } from 'node:path';
import { settleBounded } from './bounded';
import { writeNewFile } from './fd-io';

const TMP_MARK = '.idea-tmp-';

/** `.<name>.idea-tmp-`, the name cut to 200 bytes so the temporary name stays within 255 bytes. */
function tempPrefix(target: string): string {
  let name = basename(target);
  while (Buffer.byteLength(name) > 200) name = name.slice(0, -1);
  return `.${name}${TMP_MARK}`;
}

/** Name of a temporary file for `target` (hidden, same folder). */
function tempNameFor(target: string): string {
  return join(dirname(target), `${tempPrefix(target)}${randomBytes(6).toString('hex')}`);
}

/** A temp file holding a target's new bytes durably, not yet renamed over it. */
export interface PreparedReplacement {
  target: string;
  tmp: string;
}

/**
 * Writes `bytes` for `target` (a real path: symlinks already resolved, so a link is never turned into
 * a file) to a temp file beside it, with the target's mode (`modeIfNew`, default 0o644, where there is
 * no file yet), and fsyncs it. A read-only file is refused rather than silently replaced. On failure no
 * temp file is left.
 */
export async function prepareReplacement(
  target: string,
  bytes: Uint8Array,
  modeIfNew = 0o644,
): Promise<PreparedReplacement> {
  const st = await stat(target).catch(() => null);
  if (st && !st.isFile()) throw new Error(`${target} is not a regular file`);
  if (st) {
    try {
      await access(target, constants.W_OK);
    } catch {
      throw new Error(`${target} is read-only`);
    }
  }
  const tmp = tempNameFor(target);
  // removed again when it cannot be finished
  await writeNewFile(tmp, bytes, {
    exclusive: true,
    mode: 0o600,
    chmod: st ? st.mode & 0o7777 : modeIfNew & 0o7777,
    sync: true,
  });
  return { target, tmp };
}

/** Renames the prepared file over its target (atomic; durable once its folder is synced). On failure the temp file is removed. */
export async function commitReplacement(p: PreparedReplacement): Promise<void> {
  try {
    await rename(p.tmp, p.target);
  } catch (e) {
    await discardReplacement(p);
    throw e;
  }
}

/** Removes a prepared file that will not be renamed. */
export async function discardReplacement(p: PreparedReplacement): Promise<void> {
  await rm(p.tmp, { force: true });
}

/**
 * Replaces `target` (a real path: symlinks already resolved, so a link is never turned into a file)
 * with `bytes`. A read-only file is refused rather than silently replaced.
 */
export async function replaceFileAtomically(target: string, bytes: Uint8Array, modeIfNew?: number): Promise<void> {
  await commitReplacement(await prepareReplacement(target, bytes, modeIfNew));
  await syncFolder(dirname(target));
}

/**
 * Creates the folder `target` (its parent exists) with exactly `mode` (mkdir's is cut by the umask; a
 * folder put back must get the mode it had). Fails when something is there already.
 */
export async function makeFolder(target: string, mode = 0o755): Promise<void> {
  await mkdir(target, { mode: 0o700 });
  try {
    await chmod(target, mode & 0o7777);
  } catch (e) {
    await rm(target, { recursive: false, force: true }).catch(() => undefined);
    throw e;
  }
}

/** fsyncs the folder of every path once (concurrently): the renames and unlinks in them become durable. */
export async function syncFolders(paths: Iterable<string>): Promise<void> {
  const folders = [...new Set([...paths].map((p) => dirname(p)))];
  await settleBounded(folders, syncFolder);
}

/** fsyncs a folder; never throws (see below). */
export async function syncFolder(dir: string): Promise<void> {
  try {
    const fh = await open(dir, 'r');
    try {
      await fh.sync();
    } finally {
      await fh.close();
    }
  } catch {
    // Some file systems refuse fsync on a directory; the rename is still atomic, only its durability
    // across a power loss is then the file system's.
  }
}

/** Removes temporary files a killed write left next to `target`. */
export async function removeLeftoverTemps(target: string): Promise<number> {
  const prefix = tempPrefix(target);
  let names: string[];
  try {
    names = await readdir(dirname(target));
  } catch {
    return 0;
  }
  const stale = names.filter((n) => n.startsWith(prefix) && /^[0-9a-f]{12}$/.test(n.slice(prefix.length)));
  await Promise.all(stale.map((n) => rm(join(dirname(target), n), { force: true })));
  return stale.length;
}
