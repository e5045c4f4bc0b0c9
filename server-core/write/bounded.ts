// Bounded concurrency for the write path's file work (issue 33, bench/FINDINGS.md finding 2): the temp
// files of a write, the journal and the local-history entries are written and fsynced many at a time,
// not one after another. The bound keeps the open files and the queued I/O of a write of thousands of
// files small (libuv's thread pool runs four at a time anyway); every call started is settled before
// these return, so nothing of a write still runs when its caller goes on (cleans up, rolls back).

/** How many files the write path writes or reads at a time. */
export const WRITE_CONCURRENCY = 32;

/**
 * Runs `fn` for every item, at most `limit` at a time, and settles every call. Returns each item's
 * failure (undefined: it succeeded, or was never started). `stopOnError`: no item is started after one
 * failed (`started` tells those apart).
 */
export async function settleBounded<T>(
  items: readonly T[],
  fn: (item: T, index: number) => Promise<void>,
  opts: { limit?: number; stopOnError?: boolean } = {},
): Promise<{ errors: ({ error: unknown } | undefined)[]; failed: boolean; started: boolean[] }> {
  const errors: ({ error: unknown } | undefined)[] = new Array(items.length).fill(undefined);
  const started: boolean[] = new Array(items.length).fill(false);
  let next = 0;
  let failed = false;
  const worker = async () => {
    while (next < items.length && !(failed && opts.stopOnError)) {
      const i = next++;
      started[i] = true;
      try {
        await fn(items[i]!, i);
      } catch (e) {
        errors[i] = { error: e };
        failed = true;
      }
    }
  };
  const workers = Math.max(1, Math.min(opts.limit ?? WRITE_CONCURRENCY, items.length));
  await Promise.all(Array.from({ length: workers }, worker));
  return { errors, failed, started };
}

/** As settleBounded, stopping at the first failure; throws the first error (in item order) once all settled. */
export async function eachBounded<T>(
  items: readonly T[],
  fn: (item: T, index: number) => Promise<void>,
  limit = WRITE_CONCURRENCY,
): Promise<void> {
  const { errors, failed } = await settleBounded(items, fn, { limit, stopOnError: true });
  if (failed) throw errors.find((e) => e !== undefined)!.error;
}
