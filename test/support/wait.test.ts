import { describe, expect, it } from 'vitest';
import { nextTicks, silence, tick, ticks, timed, until } from './wait';

describe('until', () => {
  it('resolves with the first value that is neither undefined nor false', async () => {
    let n = 0;
    const v = await until('n to reach 3', () => (++n >= 3 ? `n=${n}` : n % 2 === 0 ? false : undefined));
    expect(v).toBe('n=3');
  });

  it('awaits an async probe', async () => {
    let n = 0;
    expect(await until('the async probe', async () => (++n === 2 ? 42 : undefined))).toBe(42);
  });

  it('fails after its bound, naming what it waited for and what it saw last', async () => {
    const t0 = Date.now();
    const err = await until('the door to open', () => false, {
      timeoutMs: 120,
      detail: () => ({ door: 'shut' }),
    }).catch((e: Error) => e);
    expect(Date.now() - t0).toBeGreaterThanOrEqual(115);
    expect(String(err)).toBe('Error: timed out after 120 ms waiting for the door to open; last seen: {"door":"shut"}');
  });

  it('lets an error of the probe through at once instead of waiting it out', async () => {
    const t0 = Date.now();
    const err = await until(
      'never',
      () => {
        throw new Error('probe broke');
      },
      { timeoutMs: 5_000 },
    ).catch((e: Error) => e);
    expect(String(err)).toBe('Error: probe broke');
    expect(Date.now() - t0).toBeLessThan(1_000);
  });
});

describe('until with retryErrors', () => {
  it('waits through errors of the probe and names the last one when it gives up', async () => {
    let n = 0;
    const flaky = () => {
      if (++n < 3) throw new Error(`not up yet (${n})`);
      return 'up';
    };
    expect(await until('the page', flaky, { retryErrors: true })).toBe('up');
    const err = await until(
      'the page',
      () => {
        throw new Error('still loading');
      },
      { retryErrors: true, timeoutMs: 50 },
    ).catch((e: Error) => e);
    expect(String(err)).toBe('Error: timed out after 50 ms waiting for the page; last error: Error: still loading');
  });
});

describe('tick', () => {
  it('runs what setImmediate queued before it, and ticks(n) a chain of n', async () => {
    const seen: number[] = [];
    setImmediate(() => seen.push(1));
    await tick();
    expect(seen).toEqual([1]);
    const chain = (k: number) => k > 0 && setImmediate(() => (seen.push(k), chain(k - 1)));
    chain(3);
    await ticks(3);
    expect(seen).toEqual([1, 3, 2, 1]);
  });
});

describe('nextTicks', () => {
  it('runs nextTick callbacks and never what setImmediate queued', async () => {
    const seen: string[] = [];
    setImmediate(() => seen.push('immediate'));
    process.nextTick(() => process.nextTick(() => seen.push('second tick')));
    await nextTicks(2);
    expect(seen).toEqual(['second tick']);
  });
});

describe('silence and timed', () => {
  it('timed says how long its work took; silence waits factor × that, never less than its floor', async () => {
    const { value, ms } = await timed(async () => {
      await new Promise((r) => setTimeout(r, 30));
      return 'done';
    });
    expect(value).toBe('done');
    expect(ms).toBeGreaterThanOrEqual(25);
    let t0 = performance.now();
    await silence(ms, { factor: 2, floorMs: 0 });
    expect(performance.now() - t0).toBeGreaterThanOrEqual(2 * ms - 5);
    t0 = performance.now();
    await silence(0, { floorMs: 40 });
    expect(performance.now() - t0).toBeGreaterThanOrEqual(35);
  });
});
