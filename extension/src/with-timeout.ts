// A bound on a promise VS Code may never settle (a workbench that is not connected, a provider waiting on
// a language server that died): reject after `ms` instead of waiting forever.

/** What withTimeout rejects with when the bound passed first (as opposed to the promise failing). */
export class TimedOutError extends Error {}

export function withTimeout<T>(p: Thenable<T>, ms: number, what: string): Promise<T> {
  return new Promise<T>((resolve, reject) => {
    const t = setTimeout(() => reject(new TimedOutError(`${what} timed out after ${ms} ms`)), ms);
    p.then(
      (v) => {
        clearTimeout(t);
        resolve(v);
      },
      (e: unknown) => {
        clearTimeout(t);
        reject(e instanceof Error ? e : new Error(String(e)));
      },
    );
  });
}
