// One file replaced so that a reader, or a crash at any instant, sees the old bytes or the new ones,
// never a truncation or a mix: the new bytes go to a temporary file in the same folder, are flushed to
// disk, get the mode of the file they replace, and are renamed over it (an atomic step of the file
// system); the folder is then flushed so the rename itself is durable. The temporary file is named
// after the target so a crash leftover can be recognised and removed.
import { randomBytes } from 'node:crypto';
import { constants } from 'node:fs';
import { access, open, readdir, rename, rm, stat } from 'node:fs/promises';
import { basename, dirname, join } from 'node:path';

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

/**
 * Replaces `target` (a real path: symlinks already resolved, so a link is never turned into a file)
 * with `bytes`. A read-only file is refused rather than silently replaced.
 */
export async function replaceFileAtomically(target: string, bytes: Uint8Array): Promise<void> {
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
  const fh = await open(tmp, 'wx', 0o600);
  try {
    try {
      await fh.writeFile(bytes);
      await fh.chmod(st ? st.mode & 0o7777 : 0o644);
      await fh.sync();
    } finally {
      await fh.close();
    }
    await rename(tmp, target);
  } catch (e) {
    await rm(tmp, { force: true });
    throw e;
  }
  await syncFolder(dirname(target));
}

async function syncFolder(dir: string): Promise<void> {
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
