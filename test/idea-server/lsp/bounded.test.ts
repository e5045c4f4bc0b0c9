// bounded(): a wait ends with the work, the caller's signal, its timeout or the fail-early subscription,
// and leaves nothing behind: the subscription is released however the wait ended (a server answering
// a million requests must not keep a million callbacks).
import { describe, expect, it } from 'vitest';
import { bounded, type FailEarly } from '../../../idea-server/src/lsp/bounded';
import { LspAbortError, LspTimeoutError } from '../../../idea-server/src/lsp/errors';

function subscription() {
  const waiters = new Set<(e: unknown) => void>();
  const failEarly: FailEarly = (fail) => {
    waiters.add(fail);
    return () => waiters.delete(fail);
  };
  return { waiters, failEarly };
}

describe('bounded', () => {
  it('releases the fail-early subscription when the work answers, fails, times out or is aborted', async () => {
    const { waiters, failEarly } = subscription();
    for (let i = 0; i < 100; i++) await bounded(Promise.resolve(i), 'ok', { timeoutMs: 1000 }, { failEarly });
    await expect(bounded(Promise.reject(new Error('no')), 'no', { timeoutMs: 1000 }, { failEarly })).rejects.toThrow(
      'no',
    );
    await expect(bounded(new Promise(() => {}), 'slow', { timeoutMs: 5 }, { failEarly })).rejects.toBeInstanceOf(
      LspTimeoutError,
    );
    const ac = new AbortController();
    const aborted = bounded(new Promise(() => {}), 'aborted', { signal: ac.signal, timeoutMs: 1000 }, { failEarly });
    ac.abort();
    await expect(aborted).rejects.toBeInstanceOf(LspAbortError);
    expect(waiters.size).toBe(0);
  });

  it('fails the wait early when the subscription fires, and releases it', async () => {
    const { waiters, failEarly } = subscription();
    const waiting = bounded(new Promise(() => {}), 'gone', { timeoutMs: 10_000 }, { failEarly });
    expect(waiters.size).toBe(1);
    for (const fail of [...waiters]) fail(new Error('the server exited'));
    await expect(waiting).rejects.toThrow('the server exited');
    expect(waiters.size).toBe(0);
  });
});
