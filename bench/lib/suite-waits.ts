// The seconds of a conformance suite that no server can shorten: its fixtures' fixed waits (`sleepMs`
// steps, `expectSilence` windows). They are the same on every server and pull any ratio between two
// servers' suites towards 1, and they grow with every case that needs one, so the suite benches
// compare what is left. Used by bench/idea-server (idea-server vs VS Code) and bench/conformance (the
// suite's own wall-time targets).
import { isParallelSafe } from '../../conformance/lib/run';
import type { LoadedCase } from '../../conformance/lib/types';

export interface TimedCase {
  id: string;
  ms: number;
}

export interface FixedWaits {
  sleep: number;
  silence: number;
  /**
   * The longest fixed wait of a case run in the pool: the runner runs read-only cases concurrently, so
   * their waits overlap each other, but the pool cannot end before its longest one.
   */
  pool: number;
  /** sleep + silence + pool: what a suite's wall time cannot go below. */
  total: number;
}

/**
 * A case's fixed waits: its `sleepMs` steps (setup and steps) and its `expectSilence` windows. Of an
 * `expectOneOf`'s alternatives one runs: the one that waits least counts.
 */
export function fixedWaitsOf(lc: Pick<LoadedCase, 'case'>): { sleep: number; silence: number } {
  const walk = (v: unknown): { sleep: number; silence: number } => {
    const out = { sleep: 0, silence: 0 };
    const add = (w: { sleep: number; silence: number }) => {
      out.sleep += w.sleep;
      out.silence += w.silence;
    };
    if (Array.isArray(v)) for (const x of v) add(walk(x));
    else if (v !== null && typeof v === 'object')
      for (const [k, x] of Object.entries(v)) {
        if (k === 'sleepMs' && typeof x === 'number') out.sleep += x;
        else if (k === 'expectSilence' && typeof x === 'number') out.silence += x;
        else if (k === 'expectOneOf' && Array.isArray(x) && x.length)
          add(x.map(walk).reduce((m, w) => (w.sleep + w.silence < m.sleep + m.silence ? w : m)));
        else add(walk(x));
      }
    return out;
  };
  return walk(lc.case);
}

/**
 * The fixed waits in a suite's wall time: those of the cases run one at a time add one for one; of the
 * pool's, the longest. Only cases in `ids` count, and only those that ran through their waits (a case's
 * duration at least its waits; one that ended early, failing, waited less). A passing server waits
 * every one to its end: the runner sleeps `sleepMs`, and an `expectSilence` window ends when nothing came.
 */
export function suiteFixedWaits(
  cases: readonly LoadedCase[],
  timed: readonly TimedCase[],
  ids?: ReadonlySet<string>,
): FixedWaits {
  const byId = new Map(cases.map((c) => [c.case.id, c]));
  const out = { sleep: 0, silence: 0, pool: 0, total: 0 };
  for (const t of timed) {
    const lc = byId.get(t.id);
    if (!lc || (ids && !ids.has(t.id))) continue;
    const w = fixedWaitsOf(lc);
    if (t.ms + 1 < w.sleep + w.silence) continue;
    if (isParallelSafe(lc)) out.pool = Math.max(out.pool, w.sleep + w.silence);
    else {
      out.sleep += w.sleep;
      out.silence += w.silence;
    }
  }
  out.total = out.sleep + out.silence + out.pool;
  return out;
}

const DIAG_LIST = '/app/vscode/diag/list';
const DIAG_EVENT = '/app/vscode/diagnostics/changed';

/** A case whose time is mostly a language server checking files: it asks diag/list or awaits diagnostics/changed. */
export function waitsOnDiagnostics(lc: Pick<LoadedCase, 'needs' | 'needsEvents'>): boolean {
  return lc.needs.includes(DIAG_LIST) || lc.needsEvents.includes(DIAG_EVENT);
}
