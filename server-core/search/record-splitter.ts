// Splits a child's stdout into records (lines, or NUL-terminated paths) in linear time and bounded
// memory. Each byte is decoded and split once: a record that spans chunks waits as raw Buffers and is
// joined once, when its separator arrives (the old `(rest + chunk).split()` rescanned the whole pending
// line for every 64 KB chunk, quadratic in the line's length). A record that grows past `maxBytes` is
// not kept: only its first bytes are, so the caller can say which file it came from.

/** First bytes kept of an overlong record (enough for the path and line number in rg's output). */
export const OVERLONG_HEAD_BYTES = 8192;

export class RecordSplitter {
  private pending: Buffer[] = [];
  private pendingBytes = 0;
  private overlong: { head: Buffer; bytes: number } | undefined;
  private readonly sepChar: string;

  constructor(
    private readonly sep: number,
    /** Bound on a held record; a record may end up to one chunk (64 KB) longer before it is cut. */
    private readonly maxBytes: number,
    private readonly onRecord: (record: string) => boolean | void,
    private readonly onOverlong: (head: string, bytes: number) => boolean | void,
  ) {
    this.sepChar = String.fromCharCode(sep);
  }

  /** Feeds one chunk; false when a callback asked to stop. */
  push(chunk: Buffer): boolean {
    const last = chunk.lastIndexOf(this.sep);
    if (last < 0) {
      this.hold(chunk);
      return true;
    }
    let from = 0;
    if (this.overlong) {
      // The overlong record ends at the first separator of this chunk.
      const end = chunk.indexOf(this.sep);
      const o = this.overlong;
      this.overlong = undefined;
      if (this.onOverlong(o.head.toString('utf8'), o.bytes + end) === false) return false;
      from = end + 1;
    }
    if (from <= last) {
      const body = chunk.subarray(from, last);
      const text =
        this.pending.length > 0 ? Buffer.concat([...this.pending, body]).toString('utf8') : body.toString('utf8');
      this.pending = [];
      this.pendingBytes = 0;
      for (const r of text.split(this.sepChar)) if (this.onRecord(r) === false) return false;
    }
    this.hold(chunk.subarray(last + 1));
    return true;
  }

  /** End of stream: the unterminated last record, if any. */
  end(): void {
    if (this.overlong) {
      const o = this.overlong;
      this.overlong = undefined;
      this.onOverlong(o.head.toString('utf8'), o.bytes);
    } else if (this.pendingBytes > 0) {
      const text = Buffer.concat(this.pending).toString('utf8');
      this.pending = [];
      this.pendingBytes = 0;
      this.onRecord(text);
    }
  }

  private hold(part: Buffer): void {
    if (part.length === 0) return;
    if (this.overlong) {
      this.overlong.bytes += part.length;
      return;
    }
    this.pending.push(part);
    this.pendingBytes += part.length;
    if (this.pendingBytes > this.maxBytes) {
      const head = Buffer.concat(this.pending, Math.min(OVERLONG_HEAD_BYTES, this.pendingBytes));
      this.overlong = { head, bytes: this.pendingBytes };
      this.pending = [];
      this.pendingBytes = 0;
    }
  }
}
