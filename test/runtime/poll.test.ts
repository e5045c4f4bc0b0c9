// poll: deadline (relative or absolute), backoff with a cap, abort, and the last attempt at the deadline.
import { describe, expect, it, vi } from 'vitest';
import { poll } from '../../runtime/poll';

describe('poll', () => {
  it('returns the first defined value; falsy values other than undefined count', async () => {
    let n = 0;
    expect(await poll(() => (++n < 3 ? undefined : 0), { timeoutMs: 1000, intervalMs: 1 })).toBe(0);
    expect(n).toBe(3);
    expect(await poll(() => null, { timeoutMs: 10 })).toBeNull();
  });

  it('backs off from intervalMs by the factor up to maxIntervalMs, and tries once more at the deadline', async () => {
    vi.useFakeTimers();
    try {
      const at: number[] = [];
      const t0 = Date.now();
      const p = poll(() => void at.push(Date.now() - t0), {
        timeoutMs: 1000,
        intervalMs: 50,
        backoff: 2,
        maxIntervalMs: 300,
      });
      await vi.advanceTimersByTimeAsync(2000);
      expect(await p).toBeUndefined();
      expect(at).toEqual([0, 50, 150, 350, 650, 950, 1000]);
    } finally {
      vi.useRealTimers();
    }
  });

  it('takes an absolute deadline and a fixed interval', async () => {
    vi.useFakeTimers();
    try {
      const at: number[] = [];
      const t0 = Date.now();
      const p = poll(() => void at.push(Date.now() - t0), { deadline: t0 + 250, intervalMs: 100, backoff: 1 });
      await vi.advanceTimersByTimeAsync(1000);
      await p;
      expect(at).toEqual([0, 100, 200, 250]);
    } finally {
      vi.useRealTimers();
    }
  });

  it('an abort ends the pending wait at once', async () => {
    const ac = new AbortController();
    let n = 0;
    const t0 = Date.now();
    const p = poll(() => void n++, { timeoutMs: 60_000, intervalMs: 30_000, signal: ac.signal });
    setTimeout(() => ac.abort(), 20);
    expect(await p).toBeUndefined();
    expect(Date.now() - t0).toBeLessThan(5000);
    expect(n).toBe(1);
  });

  it('propagates an error of the check and needs a deadline', async () => {
    await expect(
      poll(
        () => {
          throw new Error('boom');
        },
        { timeoutMs: 100 },
      ),
    ).rejects.toThrow('boom');
    await expect(poll(() => 1, {})).rejects.toThrow(/timeoutMs or deadline/);
  });
});
