// The write path's file calls on plain file descriptors (node:fs callbacks, promisified here), not
// fs/promises FileHandles: a write of many files makes tens of thousands of small calls, and each
// FileHandle adds an object and its close bookkeeping (1,000 files of 1.2 kB, 32 at a time, on the
// shared 2-core machine: read 37–61 ms through readFile vs 18–27 ms here, written without fsync 43–130
// vs 32–76 ms; issue 33, bench/FINDINGS.md finding 2). Every call still runs on libuv's thread pool:
// nothing here blocks the main thread. Every descriptor opened here is closed on every path.
import * as fs from 'node:fs';

const call =
  <A extends unknown[], R>(fn: (...args: [...A, (e: NodeJS.ErrnoException | null, r: R) => void]) => void) =>
  (...args: A): Promise<R> =>
    new Promise((resolve, reject) => fn(...args, (e, r) => (e ? reject(e) : resolve(r))));

const openFd = call<[string, string | number, number], number>(fs.open);
const closeFd = call<[number], void>(fs.close);
const fsyncFd = call<[number], void>(fs.fsync);
const fchmodFd = call<[number, number], void>(fs.fchmod);
const writeFd = call<[number, Uint8Array, number, number, number], number>(fs.write);
const readFd = call<[number, Uint8Array, number, number, number], number>(fs.read);
const fstatFd = (fd: number): Promise<fs.BigIntStats> =>
  new Promise((resolve, reject) => fs.fstat(fd, { bigint: true }, (e, st) => (e ? reject(e) : resolve(st))));
const statPath = (path: string): Promise<fs.BigIntStats> =>
  new Promise((resolve, reject) => fs.stat(path, { bigint: true }, (e, st) => (e ? reject(e) : resolve(st))));

/** What tells a file's versions apart without reading it: device, inode, size, mtime and ctime (ns). */
const stamp = (st: fs.BigIntStats): string => `${st.dev}:${st.ino}:${st.size}:${st.mtimeNs}:${st.ctimeNs}`;

async function writeAll(fd: number, bytes: Uint8Array): Promise<void> {
  for (let off = 0; off < bytes.length; ) {
    const n = await writeFd(fd, bytes, off, bytes.length - off, off);
    if (n <= 0) throw new Error('write made no progress');
    off += n;
  }
}

/**
 * Creates `path` (`exclusive`: failing when it exists), writes `bytes`, sets `chmod` when given, and
 * fsyncs it when `sync`; closed before this resolves. A file created here that could not be finished is
 * removed.
 */
export async function writeNewFile(
  path: string,
  bytes: Uint8Array,
  opts: { exclusive?: boolean; mode?: number; chmod?: number; sync?: boolean } = {},
): Promise<void> {
  const fd = await openFd(path, opts.exclusive ? 'wx' : 'w', opts.mode ?? 0o666);
  try {
    try {
      await writeAll(fd, bytes);
      if (opts.chmod !== undefined) await fchmodFd(fd, opts.chmod);
      if (opts.sync) await fsyncFd(fd);
    } finally {
      await closeFd(fd);
    }
  } catch (e) {
    await fs.promises.rm(path, { force: true });
    throw e;
  }
}

/**
 * Whether the file at `path` holds exactly `bytes` (null: that there is no readable file there). Reads
 * at most one byte more than `bytes`: open, read, close.
 */
export async function holdsBytes(path: string, bytes: Uint8Array | null): Promise<boolean> {
  let fd: number;
  try {
    fd = await openFd(path, 'r', 0);
  } catch {
    return bytes === null;
  }
  try {
    const want = bytes?.length ?? 0;
    const buf = Buffer.allocUnsafe(want + 1);
    let n = 0;
    for (let r = 1; r > 0 && n < buf.length; n += r) r = await readFd(fd, buf, n, buf.length - n, n);
    return bytes !== null && n === want && buf.subarray(0, n).equals(bytes);
  } catch {
    return bytes === null;
  } finally {
    await closeFd(fd).catch(() => undefined);
  }
}

/** A whole file's bytes: fs.readFile's callback form (open, fstat, read, close; no FileHandle). */
export const readBytes = (path: string): Promise<Buffer> =>
  new Promise((resolve, reject) => fs.readFile(path, (e, bytes) => (e ? reject(e) : resolve(bytes))));

/**
 * A whole (small) file as text with its stamp as of the read, so that stampOf can tell later whether it
 * is still the file that was read: open, fstat, read (the size fstat gave), close, as fs.readFile does.
 */
export async function readTextStamped(path: string): Promise<{ text: string; stamp: string }> {
  // Non-blocking: a FIFO in its place (not a regular file: refused below) does not hold a thread.
  const fd = await openFd(path, fs.constants.O_RDONLY | fs.constants.O_NONBLOCK, 0);
  try {
    const st = await fstatFd(fd);
    if (!st.isFile()) throw new Error(`${path} is not a regular file`);
    const buf = Buffer.allocUnsafe(Number(st.size));
    let n = 0;
    for (let r = 1; r > 0 && n < buf.length; n += r) r = await readFd(fd, buf, n, buf.length - n, n);
    return { text: buf.toString('utf8', 0, n), stamp: stamp(st) };
  } finally {
    await closeFd(fd).catch(() => undefined);
  }
}

/** The stamp readTextStamped gives the file at `path` now (one stat); null when it cannot be stat'ed. */
export const stampOf = (path: string): Promise<string | null> => statPath(path).then(stamp, () => null);
