// Diagnostics in the answer of a write (clause T58): every write topic given `diagnostics: true` answers,
// after its write (not a dry run), the diagnostics of each file it changed or created that still exists,
// as diag/list gives them, once the file's language server has reported on the new text (the host's
// `diagnostics(path, signal, since)`, since the write's end), waiting at most `diagnosticsWaitMs` in
// all: when that runs out (or the request is cancelled: the write is done, its answer is not held back)
// the rest is what the server knows then, and `settled` says so. A file no language server serves
// carries `unavailable` (T48). Bounded: at most WRITE_DIAGNOSTICS_FILES files are waited for, a few at
// a time; the others get what is known (not settled).
import type { CoreContext } from '../context';
import { type RawDiagnostic, toWireDiagnostic } from '../diagnostics';
import { filesWritten } from '../events/coverage';
import { isUnavailable } from '../host';
import type { DiagnosticsAfterWrite, Handlers } from '../protocol';
import { wireUnavailable } from '../unavailable';
import { settleBounded } from '../write/bounded';
import { byFileAndPosition } from './document';

/** Most files whose diagnostics one write waits for. */
export const WRITE_DIAGNOSTICS_FILES = 50;
/** How many of them are asked at a time. */
const AT_ONCE = 4;

type FileDiagnostics = DiagnosticsAfterWrite['files'][number];

/** The diagnostics of `paths` after a write that ended at `since` (see the header). */
export async function diagnosticsAfterWrite(
  svc: CoreContext,
  paths: readonly string[],
  waitMs: number,
  signal: AbortSignal,
  since = Date.now(),
): Promise<DiagnosticsAfterWrite> {
  const started = performance.now();
  const files = [...new Set(paths)];
  const wait = new AbortController();
  const timer = setTimeout(() => wait.abort(new Error('the wait for diagnostics ran out')), waitMs);
  const stop = () => wait.abort(signal.reason);
  signal.addEventListener('abort', stop, { once: true });
  const answers: (FileDiagnostics | undefined)[] = new Array(files.length).fill(undefined);
  let settled = files.length <= WRITE_DIAGNOSTICS_FILES;
  try {
    const waited = files.slice(0, WRITE_DIAGNOSTICS_FILES);
    await settleBounded(
      waited,
      async (path, i) => {
        if (wait.signal.aborted) return;
        const ran = new Promise<'out'>((done) =>
          wait.signal.addEventListener('abort', () => done('out'), { once: true }),
        );
        const answer = await Promise.race([svc.language.diagnostics(path, wait.signal, since), ran]).catch(
          (e: unknown) => {
            if (!wait.signal.aborted) svc.tools.log(`diagnostics after a write: ${path}: ${(e as Error).message}`);
            return 'out' as const;
          },
        );
        if (answer === 'out') return;
        answers[i] = isUnavailable(answer)
          ? { filePath: path, diagnostics: [], unavailable: wireUnavailable(answer) }
          : { filePath: path, diagnostics: wire(path, answer) };
      },
      { limit: AT_ONCE },
    );
  } finally {
    clearTimeout(timer);
    signal.removeEventListener('abort', stop);
  }
  // What was not answered in time: what the server knows now.
  let known: Map<string, RawDiagnostic[]> | undefined;
  for (const [i, path] of files.entries()) {
    if (answers[i]) continue;
    settled = false;
    known ??= new Map(svc.language.allDiagnostics().map((f) => [f.filePath, f.diagnostics]));
    answers[i] = { filePath: path, diagnostics: wire(path, known.get(path) ?? []) };
  }
  return {
    settled,
    waitedMs: Math.round(performance.now() - started),
    files: answers as FileDiagnostics[],
  };
}

const wire = (path: string, list: readonly RawDiagnostic[]) =>
  list.map((d) => toWireDiagnostic(path, d)).sort(byFileAndPosition) as FileDiagnostics['diagnostics'];

type WriteMethod = keyof typeof filesWritten;

/**
 * `handlers` with every write topic's answer given its diagnostics when asked (params.diagnostics, not
 * a dry run): the files are those its answer says it wrote (events/coverage.ts `filesWritten`).
 */
export function withWriteDiagnostics(svc: CoreContext, handlers: Partial<Handlers>): Partial<Handlers> {
  const out: Record<string, unknown> = { ...handlers };
  for (const method of Object.keys(filesWritten) as WriteMethod[]) {
    const handler = handlers[method] as unknown as
      | ((params: Record<string, unknown>, ctx: { signal: AbortSignal }) => Promise<Record<string, unknown>>)
      | undefined;
    if (!handler) continue;
    const written = filesWritten[method] as (result: unknown) => readonly string[];
    out[method] = async (params: Record<string, unknown>, ctx: { signal: AbortSignal }) => {
      const result = await handler(params, ctx);
      if (params.diagnostics !== true || result.dryRun === true) return result;
      const diagnostics = await diagnosticsAfterWrite(
        svc,
        written(result),
        typeof params.diagnosticsWaitMs === 'number' ? params.diagnosticsWaitMs : 5000,
        ctx.signal,
      );
      return { ...result, diagnostics };
    };
  }
  return out as Partial<Handlers>;
}
