// The fair limiter shared by child processes and regex workers: round-robin per client, a share cap so
// one client never holds every slot, abort while queued, release however the work ends.
import { describe, expect, it } from 'vitest';
import { FairLimiter, type Release } from '../../../server-core/limits/fair-limiter';
import { tick } from '../../support/wait';
import { clientSignal } from './client-signal';

/** Queues `n` acquisitions for `client`, logging the client's name on each grant. */
function queue(l: FairLimiter, client: string, n: number, log: string[], held: Release[]): Promise<void>[] {
  return Array.from({ length: n }, () =>
    l.acquire(undefined, client).then((r) => {
      log.push(client);
      held.push(r);
    }),
  );
}

// clause H10: child-process slots handed out fairly per connection.
describe('FairLimiter', () => {
  it('hands slots out round-robin per client: 5 queued calls of A do not push C behind them', async () => {
    const l = new FairLimiter(1);
    const log: string[] = [];
    const held: Release[] = [];
    const all = [...queue(l, 'A', 5, log, held), ...queue(l, 'B', 5, log, held), ...queue(l, 'C', 1, log, held)];
    await tick();
    while (log.length < 11) {
      held.shift()!();
      await tick();
    }
    held.shift()!();
    await Promise.all(all);
    // A's first call finds the slot free; from then on the waiting clients take turns.
    expect(log.join('')).toBe('A' + 'ABC' + 'ABABAB' + 'B');
    expect(l.stats).toEqual({ active: 0, queued: 0, clients: 0 });
  });

  it('never lets one client hold every slot, so a newcomer is served at once', async () => {
    const l = new FairLimiter(4);
    const log: string[] = [];
    const held: Release[] = [];
    queue(l, 'A', 10, log, held);
    await tick();
    expect(log).toEqual(['A', 'A', 'A']); // capacity - 1
    const b = l.acquire(undefined, 'B');
    await tick();
    expect(log.length).toBe(3);
    await expect(b).resolves.toBeTypeOf('function');
    expect(l.stats.active).toBe(4);
  });

  it('a capacity of 1 still serves a lone client', async () => {
    const l = new FairLimiter(1);
    const r = await l.acquire(undefined, 'A');
    r();
    await expect(l.acquire(undefined, 'A')).resolves.toBeTypeOf('function');
  });

  it('takes the client from the signal (bindClient)', async () => {
    const l = new FairLimiter(2);
    const got: string[] = [];
    void l.acquire(clientSignal('x')).then(() => got.push('x1'));
    void l.acquire(clientSignal('x')).then(() => got.push('x2'));
    void l.acquire(clientSignal('y')).then(() => got.push('y1'));
    await tick();
    expect(got).toEqual(['x1', 'y1']); // x is at its share (1 of 2)
  });

  it('a call aborted while queued rejects with the reason, never gets a slot, and leaves no trace', async () => {
    const l = new FairLimiter(1);
    const first = await l.acquire(undefined, 'A');
    const ac = new AbortController();
    let granted = false;
    const waiting = l.acquire(ac.signal, 'B').then((r) => {
      granted = true;
      return r;
    });
    await tick();
    expect(l.stats.queued).toBe(1);
    ac.abort(new Error('client went away'));
    await expect(waiting).rejects.toThrow('client went away');
    expect(l.stats).toEqual({ active: 1, queued: 0, clients: 0 });
    first();
    await tick();
    expect(granted).toBe(false);
    expect(l.stats.active).toBe(0);
    await expect(l.acquire(AbortSignal.abort(new Error('already')), 'C')).rejects.toThrow('already');
    expect(l.stats).toEqual({ active: 0, queued: 0, clients: 0 });
  });

  it('run() releases the slot when the work throws, and release is idempotent', async () => {
    const l = new FairLimiter(2);
    await expect(
      l.run(undefined, () => {
        throw new Error('boom');
      }),
    ).rejects.toThrow('boom');
    await expect(
      l.run(undefined, async () => {
        await tick();
        throw new Error('late boom');
      }),
    ).rejects.toThrow('late boom');
    expect(l.stats.active).toBe(0);
    const r = await l.acquire(undefined, 'A');
    r();
    r();
    expect(l.stats.active).toBe(0);
    const a = await l.acquire(undefined, 'A');
    const b = await l.acquire(undefined, 'B');
    a();
    a();
    expect(l.stats.active).toBe(1); // b still holds its slot
    b();
  });

  it('growing the capacity serves the waiting calls', async () => {
    const l = new FairLimiter(1);
    const log: string[] = [];
    const held: Release[] = [];
    queue(l, 'A', 1, log, held);
    queue(l, 'B', 2, log, held);
    await tick();
    expect(log).toEqual(['A']);
    l.setCapacity(3);
    await tick();
    expect(log).toEqual(['A', 'B', 'B']);
    expect(() => l.setCapacity(0)).toThrow(RangeError);
  });

  it('1,000 queued calls of one client and one of another: the other is served within two releases', async () => {
    const l = new FairLimiter(2);
    const log: string[] = [];
    const held: Release[] = [];
    queue(l, 'flood', 1000, log, held);
    await tick();
    queue(l, 'victim', 1, log, held);
    await tick();
    expect(log.indexOf('victim')).toBe(1); // the flood holds 1 of 2 slots, the victim takes the other
    for (const r of held.splice(0)) r();
  });
});
