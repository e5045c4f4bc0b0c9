// The implementation matrix: JSON reports of several servers (or builds of one) merged into cases ×
// implementations, grouped by the clause each case cites. Reports are input from elsewhere: every field
// is checked before use, and nothing from them becomes a link.
import { readFileSync } from 'node:fs';
import { basename } from 'node:path';
import { CLAUSES, CLIENT_CLAUSES, clauseOf } from './clauses';
import { VERDICTS, type Verdict } from './types';

export interface MatrixColumn {
  /** What the column is called: given (name=path), else the report's implementation, else its server version and file. */
  name: string;
  file: string;
  ok: boolean | undefined;
  counts: Record<Verdict, number>;
  serverVersion?: string;
  startedAt?: string;
}

export interface MatrixCell {
  verdict: Verdict;
  expectedFailure?: boolean;
  reason?: string;
}

export interface MatrixRow {
  id: string;
  description: string;
  /** One per column; undefined where that report has no such case. */
  cells: (MatrixCell | undefined)[];
}

export interface MatrixGroup {
  clause: string;
  /** Set for the clauses this suite knows (only those are linked). */
  title?: string;
  rows: MatrixRow[];
}

export interface Matrix {
  columns: MatrixColumn[];
  groups: MatrixGroup[];
}

export interface MatrixInput {
  file: string;
  name?: string;
  report: unknown;
}

interface ReportCase {
  id: string;
  clause: string;
  description: string;
  cell: MatrixCell;
}

const isObj = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);
const str = (v: unknown, max = 2000): string | undefined =>
  typeof v === 'string' ? (v.length > max ? `${v.slice(0, max)}…` : v) : undefined;

/** The cases of one JSON report (idea-conformance --reporter json), or an error naming what is wrong. */
function casesOf(report: unknown, file: string): ReportCase[] {
  if (!isObj(report) || !Array.isArray(report.cases))
    throw new Error(`${file}: not an idea-conformance JSON report (no "cases" list)`);
  return report.cases.map((c, k) => {
    const id = isObj(c) ? str(c.id, 300) : undefined;
    const verdict = isObj(c) ? c.verdict : undefined;
    if (!isObj(c) || !id || !VERDICTS.includes(verdict as Verdict))
      throw new Error(`${file}: cases[${k}] has no id or no known verdict`);
    const reason = str(c.reason);
    return {
      id,
      clause: str(c.clause, 40) ?? '?',
      description: str(c.description) ?? '',
      cell: {
        verdict: verdict as Verdict,
        ...(c.expectedFailure === true ? { expectedFailure: true } : {}),
        ...(reason ? { reason } : {}),
      },
    };
  });
}

function columnName(input: MatrixInput): string {
  if (input.name) return input.name;
  const r = input.report as Record<string, unknown>;
  const impl = isObj(r.implementation) ? r.implementation : undefined;
  const name = impl && str(impl.name, 200);
  if (name) return `${name}${str(impl.build, 200) ? ` — ${str(impl.build, 200)}` : ''}`;
  const version = isObj(r.server) ? str(r.server.version, 40) : undefined;
  return `${version ? `IDEA ${version} server` : 'server'} (${basename(input.file)})`;
}

/** Clauses in the order of clauses.json (the client clauses after the served version's), unknown ones after, by id. */
function clauseOrder(a: string, b: string): number {
  const order = [...new Set([...CLAUSES.keys(), ...CLIENT_CLAUSES.keys()])];
  const ia = order.indexOf(a),
    ib = order.indexOf(b);
  if (ia >= 0 && ib >= 0) return ia - ib;
  if (ia >= 0 || ib >= 0) return ia >= 0 ? -1 : 1;
  return a.localeCompare(b, 'en', { numeric: true });
}

export function buildMatrix(inputs: readonly MatrixInput[]): Matrix {
  const parsed = inputs.map((i) => casesOf(i.report, i.file));
  const names = inputs.map(columnName);
  // Two reports of the same implementation (e.g. before and after a change): their files tell them apart.
  const unique = names
    .map((n, k) => (names.indexOf(n) !== names.lastIndexOf(n) ? `${n} (${basename(inputs[k]!.file)})` : n))
    .map((n, k, all) => (all.indexOf(n) !== k ? `${n} #${k + 1}` : n));
  const columns = inputs.map((input, k): MatrixColumn => {
    const r = input.report as Record<string, unknown>;
    const counts = Object.fromEntries(VERDICTS.map((v) => [v, 0])) as Record<Verdict, number>;
    for (const c of parsed[k]!) counts[c.cell.verdict]++;
    const serverVersion = isObj(r.server) ? str(r.server.version, 40) : undefined;
    const startedAt = str(r.startedAt, 40);
    return {
      name: unique[k]!,
      file: input.file,
      ok: typeof r.ok === 'boolean' ? r.ok : undefined,
      counts,
      ...(serverVersion ? { serverVersion } : {}),
      ...(startedAt ? { startedAt } : {}),
    };
  });
  const rows = new Map<string, MatrixRow & { clause: string }>();
  parsed.forEach((cases, k) => {
    for (const c of cases) {
      let row = rows.get(c.id);
      if (!row)
        rows.set(
          c.id,
          (row = {
            id: c.id,
            clause: c.clause,
            description: c.description,
            cells: new Array<MatrixCell | undefined>(inputs.length).fill(undefined),
          }),
        );
      row.cells[k] = c.cell;
    }
  });
  const groups = new Map<string, MatrixGroup>();
  for (const { clause, ...row } of rows.values()) {
    if (!groups.has(clause))
      groups.set(clause, { clause, ...(clauseOf(clause) ? { title: clauseOf(clause)!.title } : {}), rows: [] });
    groups.get(clause)!.rows.push(row);
  }
  return { columns, groups: [...groups.values()].sort((a, b) => clauseOrder(a.clause, b.clause)) };
}

/** `name=path` or `path`: a `name=` prefix only when the whole argument is not a path itself (checked by the caller). */
export function parseMatrixArg(arg: string, isFile: (p: string) => boolean): { file: string; name?: string } {
  const m = /^([^=/\\]+)=(.+)$/.exec(arg);
  return m && !isFile(arg) ? { name: m[1]!.trim(), file: m[2]! } : { file: arg };
}

export function readMatrixInput(file: string, name?: string): MatrixInput {
  let report: unknown;
  try {
    report = JSON.parse(readFileSync(file, 'utf8'));
  } catch (e) {
    throw new Error(`${file}: ${(e as Error).message}`);
  }
  casesOf(report, file);
  return { file, report, ...(name ? { name } : {}) };
}

/** Rows where the implementations do not all have the same verdict (a missing case counts as different). */
export function rowDiffers(row: MatrixRow): boolean {
  const seen = new Set(row.cells.map((c) => (c ? `${c.verdict}${c.expectedFailure ? '*' : ''}` : '-')));
  return seen.size > 1;
}
