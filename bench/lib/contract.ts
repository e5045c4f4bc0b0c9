// The file format every bench entry writes with `--json <file>` (see bench/README.md).
import { writeFileSync } from 'node:fs';

export interface BenchRow {
  metric: string;
  value: number;
  unit: string;
  baseline?: number;
  ratio?: number;
  target?: string;
  ok?: boolean;
}

export interface BenchResult {
  name: string;
  rows: BenchRow[];
}

/** Shape check for a file written by another bench script; returns a reason when it does not fit. */
export function checkBenchResult(x: unknown): string | undefined {
  if (typeof x !== 'object' || x === null) return 'not an object';
  const r = x as Record<string, unknown>;
  if (typeof r.name !== 'string') return 'name is not a string';
  if (!Array.isArray(r.rows)) return 'rows is not an array';
  for (const [i, row] of r.rows.entries()) {
    if (typeof row !== 'object' || row === null) return `rows[${i}] is not an object`;
    const o = row as Record<string, unknown>;
    if (typeof o.metric !== 'string') return `rows[${i}].metric is not a string`;
    if (typeof o.value !== 'number' || !Number.isFinite(o.value)) return `rows[${i}].value is not a finite number`;
    if (typeof o.unit !== 'string') return `rows[${i}].unit is not a string`;
    for (const k of ['baseline', 'ratio'] as const)
      if (o[k] !== undefined && typeof o[k] !== 'number') return `rows[${i}].${k} is not a number`;
    if (o.target !== undefined && typeof o.target !== 'string') return `rows[${i}].target is not a string`;
    if (o.ok !== undefined && typeof o.ok !== 'boolean') return `rows[${i}].ok is not a boolean`;
  }
  return undefined;
}

/** The `--json <file>` argument, if given. */
export function jsonOutArg(argv = process.argv.slice(2)): string | undefined {
  const i = argv.indexOf('--json');
  return i >= 0 ? argv[i + 1] : undefined;
}

/** Prints the rows and, when run with `--json <file>`, writes them there. */
export function emit(result: BenchResult): void {
  for (const r of result.rows) {
    const extra =
      r.baseline !== undefined ? `  (baseline ${fmt(r.baseline)}, ratio ${fmt(r.ratio ?? r.value / r.baseline)})` : '';
    console.log(
      `[${result.name}] ${r.metric}: ${fmt(r.value)} ${r.unit}${extra}${r.target ? `  target ${r.target}${r.ok === false ? ' MISSED' : ''}` : ''}`,
    );
  }
  const out = jsonOutArg();
  if (out) writeFileSync(out, JSON.stringify(result, null, 2));
}

export function fmt(n: number): string {
  if (!Number.isFinite(n)) return String(n);
  const a = Math.abs(n);
  if (a >= 1000) return Math.round(n).toLocaleString('en-US');
  if (a >= 100) return n.toFixed(0);
  if (a >= 10) return n.toFixed(1);
  return n.toFixed(2);
}
