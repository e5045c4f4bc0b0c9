// Splitting rg's output: records exactly as a whole-string split would give them, however the bytes
// are chunked; linear in a record's length (the old splitter rescanned a pending line per chunk); an
// overlong record is dropped except for its head, never held in memory.
import { describe, expect, it } from 'vitest';
import { OVERLONG_HEAD_BYTES, RecordSplitter } from '../../../server-core/search/record-splitter';

function split(input: Buffer, chunkSizes: () => number, sep = 10, max = 1 << 30) {
  const records: string[] = [];
  const overlong: { head: string; bytes: number }[] = [];
  const s = new RecordSplitter(
    sep,
    max,
    (r) => {
      records.push(r);
    },
    (head, bytes) => {
      overlong.push({ head, bytes });
    },
  );
  for (let at = 0; at < input.length; ) {
    const n = Math.max(1, chunkSizes());
    s.push(input.subarray(at, at + n));
    at += n;
  }
  s.end();
  return { records, overlong };
}

describe('RecordSplitter', () => {
  it('gives the records of a whole-string split for any chunking, multi-byte characters included', () => {
    const text = 'a\0b:1:héllo wörld\n\nline ✓ two\r\nlast without newline';
    let seed = 3;
    for (let round = 0; round < 200; round++) {
      const r = split(Buffer.from(text), () => 1 + ((seed = (seed * 48271) % 2147483647) % 9));
      expect(r.records).toEqual(text.split('\n'));
    }
    expect(split(Buffer.from('a\0b\0'), () => 2, 0).records).toEqual(['a', 'b']);
  });

  it('is linear in the length of a record: 40 MB in 64 KB chunks costs about 10× 4 MB, not 100×', () => {
    const time = (mb: number) => {
      const line = Buffer.alloc(mb * 1024 * 1024 + 1, 'x');
      line[line.length - 1] = 10;
      const t0 = performance.now();
      const r = split(line, () => 65536);
      expect(r.records[0]!.length).toBe(mb * 1024 * 1024);
      return performance.now() - t0;
    };
    time(4); // warm-up
    const small = Math.max(time(4), 1);
    const big = time(40);
    expect(big / small).toBeLessThan(30);
  });

  it('drops a record over the limit, keeping its head, and goes on with the next ones', () => {
    const head = './big.txt\u00002:';
    const input = Buffer.concat([
      Buffer.from(`./a\u00001:ok\n${head}`),
      Buffer.alloc(3 * 1024 * 1024, 'y'),
      Buffer.from('\n./b\u00003:fine\n'),
    ]);
    const r = split(input, () => 65536, 10, 1024 * 1024);
    expect(r.records).toEqual(['./a\u00001:ok', './b\u00003:fine']); // no empty record after the last separator
    expect(r.overlong).toHaveLength(1);
    expect(r.overlong[0]!.bytes).toBe(head.length + 3 * 1024 * 1024);
    expect(r.overlong[0]!.head.startsWith(head)).toBe(true);
    expect(r.overlong[0]!.head.length).toBe(OVERLONG_HEAD_BYTES);
    // Unterminated at the end of the stream: still reported, not returned.
    const tail = split(
      Buffer.concat([Buffer.from(head), Buffer.alloc(2 * 1024 * 1024, 'z')]),
      () => 65536,
      10,
      1024 * 1024,
    );
    expect(tail.records).toEqual([]);
    expect(tail.overlong.map((o) => o.bytes)).toEqual([head.length + 2 * 1024 * 1024]);
  });
});
