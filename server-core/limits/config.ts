// The server-wide limits this extension enforces, with their defaults and allowed ranges. Set from
// machine-scoped settings (limits/settings.ts) so a workspace can never raise them; read by the
// limiters at the moment they decide.

export interface Limits {
  /** Child processes (rg, git) running at once, across all clients. */
  maxChildProcesses: number;
  /** Requests being handled at once across all connections (each connection has its own bound too). */
  maxRequestsInFlight: number;
  /** Worker threads that run user regular expressions. */
  regexWorkers: number;
  /** Wall time one request's regular expression may run in the workers, in total. */
  regexTimeBudgetMs: number;
  /** Heap of one regex worker (V8 old generation), MB. */
  regexMemoryMb: number;
  /** Longest line ripgrep may hand back; a longer matching line fails the search naming its file. */
  maxLineBytes: number;
}

export const LIMIT_RANGES: {
  readonly [K in keyof Limits]: { min: number; max: number; dflt: number; setting: string };
} = {
  maxChildProcesses: { min: 1, max: 64, dflt: 8, setting: 'idea.server.limits.maxChildProcesses' },
  maxRequestsInFlight: { min: 16, max: 100_000, dflt: 4000, setting: 'idea.server.limits.maxRequestsInFlight' },
  regexWorkers: { min: 1, max: 16, dflt: 2, setting: 'idea.server.limits.regexWorkers' },
  regexTimeBudgetMs: { min: 100, max: 600_000, dflt: 5000, setting: 'idea.server.limits.regexTimeBudgetMs' },
  regexMemoryMb: { min: 64, max: 8192, dflt: 512, setting: 'idea.server.limits.regexMemoryMb' },
  maxLineBytes: { min: 1 << 20, max: 1 << 30, dflt: 16 << 20, setting: 'idea.server.limits.maxLineBytes' },
};

const KEYS = Object.keys(LIMIT_RANGES) as (keyof Limits)[];

function defaults(): Limits {
  return Object.fromEntries(KEYS.map((k) => [k, LIMIT_RANGES[k].dflt])) as unknown as Limits;
}

let current: Limits = defaults();
const listeners = new Set<(l: Limits) => void>();

export function limits(): Readonly<Limits> {
  return current;
}

/**
 * Replaces the limits: keys not given fall back to their defaults, values outside the allowed range
 * are clamped and non-integers ignored. Returns the limits now in force.
 */
export function configureLimits(values: Partial<Record<keyof Limits, unknown>>): Readonly<Limits> {
  const next = defaults();
  for (const k of KEYS) {
    const v = values[k];
    if (typeof v !== 'number' || !Number.isInteger(v)) continue;
    const r = LIMIT_RANGES[k];
    next[k] = Math.min(r.max, Math.max(r.min, v));
  }
  current = next;
  for (const l of listeners) l(current);
  return current;
}

/** Called with the new limits after every configureLimits. */
export function onLimitsChanged(listener: (l: Limits) => void): () => void {
  listeners.add(listener);
  return () => listeners.delete(listener);
}
