// Writing into a workspace a server under test can write too: nothing here follows a symlink the server
// may have put on the way (node_modules -> elsewhere), so no write lands outside the workspace.
import {
  closeSync,
  constants,
  fchmodSync,
  fstatSync,
  lstatSync,
  mkdirSync,
  openSync,
  rmSync,
  type Stats,
  writeFileSync,
} from 'node:fs';
import { join } from 'node:path';

export function lstatOrUndefined(path: string): Stats | undefined {
  try {
    return lstatSync(path);
  } catch {
    return undefined;
  }
}

/**
 * Writes `text` at `rel` below `dir`: whatever is not a real folder on the way, or not a plain file at the
 * end, is removed first, and the file is opened with O_NOFOLLOW, so a link swapped in after that check
 * makes the write fail instead of landing outside. Fixture files are never executable (an x bit is
 * cleared); `executable` files (the traps of traps.ts) get mode 0755.
 */
export function writeInside(dir: string, rel: string, text: string, opts: { executable?: boolean } = {}): void {
  const segs = rel.split('/');
  let at = dir;
  for (const seg of segs.slice(0, -1)) {
    at = join(at, seg);
    const st = lstatOrUndefined(at);
    if (st && !st.isDirectory()) rmSync(at, { force: true });
    if (!st?.isDirectory()) mkdirSync(at);
  }
  const abs = join(dir, rel);
  const st = lstatOrUndefined(abs);
  if (st && !st.isFile()) rmSync(abs, { recursive: true, force: true });
  const fd = openSync(abs, constants.O_WRONLY | constants.O_CREAT | constants.O_TRUNC | constants.O_NOFOLLOW, 0o644);
  try {
    writeFileSync(fd, text);
    const mode = fstatSync(fd).mode & 0o7777;
    if (opts.executable) {
      if (mode !== 0o755) fchmodSync(fd, 0o755);
    } else if (mode & 0o111) fchmodSync(fd, mode & 0o666);
  } finally {
    closeSync(fd);
  }
}
