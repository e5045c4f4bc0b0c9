// Latency statistics shared by the benches and the load tests.

/** Percentile (0..100) by nearest rank over an unsorted sample; NaN for an empty one. */
export function percentile(sample: ArrayLike<number>, p: number): number {
  const n = sample.length;
  if (n === 0) return NaN;
  const sorted = Float64Array.from(sample).sort();
  const rank = Math.min(n - 1, Math.max(0, Math.ceil((p / 100) * n) - 1));
  return sorted[rank]!;
}

export interface Summary {
  n: number;
  p50: number;
  p90: number;
  p99: number;
  max: number;
  mean: number;
}

export function summarize(sample: ArrayLike<number>): Summary {
  const n = sample.length;
  const sorted = Float64Array.from(sample).sort();
  const at = (p: number) => (n === 0 ? NaN : sorted[Math.min(n - 1, Math.max(0, Math.ceil((p / 100) * n) - 1))]!);
  let sum = 0;
  for (let i = 0; i < n; i++) sum += sorted[i]!;
  return { n, p50: at(50), p90: at(90), p99: at(99), max: n ? sorted[n - 1]! : NaN, mean: n ? sum / n : NaN };
}

export function formatSummary(s: Summary, unit = 'ms'): string {
  const f = (x: number) => x.toFixed(3);
  return `n=${s.n} p50=${f(s.p50)}${unit} p90=${f(s.p90)}${unit} p99=${f(s.p99)}${unit} max=${f(s.max)}${unit} mean=${f(s.mean)}${unit}`;
}

/** High-resolution clock in milliseconds. */
export const nowMs = (): number => Number(process.hrtime.bigint()) / 1e6;
