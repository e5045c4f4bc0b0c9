// Clause coverage: for each clause of a version, the cases that check it (and, given verdicts, how they
// came out), else idea-kit's own tests that cover it. Pure: `idea-conformance coverage` feeds it the
// suite's cases and a JSON report, the reporters a run's results; the test command fails on a clause
// with neither.
import { compareVersions, isVersion } from '@idea-kit/spec-lib/version';
import { CURRENT_VERSION } from '../../generated/current';
import { type NamedTestCheck, type NamedTests, namedTestsFor } from './clause-tests';
import { CLAUSES, CLIENT_CLAUSES, type Clause, type Profile, profileOf } from './clauses';
import { type CaseResult, type LoadedCase, VERDICTS, type Verdict } from './types';

/** A case's verdict for one clause, or why it has none: not in the run, or a preference left unjudged. */
export type CaseMark = Verdict | 'not run' | 'not judged';

/** A case and the clauses it checks: its own (`spec`) and the one its preference (`prefer`) cites. */
export interface CitingCase {
  id: string;
  clause: string;
  prefers?: string;
}

/** How a case came out: its verdict and the checks that cite a clause of their own (preferences). */
export interface CaseOutcome {
  verdict: Verdict;
  expectedFailure?: boolean;
  checks?: readonly { ok: boolean; clause?: string }[];
}

export interface CoveringCase {
  id: string;
  /** The clause is this case's preference: a should check beside the case's own clause. */
  prefers?: true;
  /** Set when outcomes were given. */
  mark?: CaseMark;
  expectedFailure?: true;
}

export interface NamedTest {
  file: string;
  /** Set when checked against a clone and found wanting (missing, no marker). */
  problem?: string;
}

/** cases: at least one case checks it; tests: only named tests (that pass their check); none: neither. */
export type CoverageStatus = 'cases' | 'tests' | 'none';

export interface ClauseCoverage {
  id: string;
  title: string;
  layer: Clause['layer'];
  since: string;
  cases: CoveringCase[];
  tests: NamedTest[];
  status: CoverageStatus;
}

export type CoverageCounts = Record<CoverageStatus, number> & { clauses: number };

export const citingOfLoaded = (lc: LoadedCase): CitingCase => ({
  id: lc.case.id,
  clause: lc.clause.id,
  ...(lc.case.kind === 'request' && lc.case.prefer ? { prefers: lc.case.prefer.spec } : {}),
});

/** A client scenario (client/scenarios.ts) cites its clause as a case does. */
export const citingOfScenario = (sc: { id: string; clause: string }): CitingCase => ({ id: sc.id, clause: sc.clause });

/** A run's results as citing cases: a preference shows in the checks only where it was judged. */
export const citingOfResult = (r: CaseResult): CitingCase => {
  const prefers = r.checks.find((k) => k.clause && k.clause !== r.clause)?.clause;
  return { id: r.id, clause: r.clause, ...(prefers ? { prefers } : {}) };
};

function markOf(c: CitingCase, clause: string, o: CaseOutcome | undefined): CaseMark {
  if (!o) return 'not run';
  if (clause === c.clause) return o.verdict;
  // A preference is judged only where the answer conforms: a should check, so a miss is a warning.
  const k = o.checks?.find((x) => x.clause === clause);
  return k ? (k.ok ? 'pass' : 'warn') : 'not judged';
}

/**
 * Each clause with the cases citing it (own clause first, then preferences) and its named tests.
 * `outcomes` (by case id) adds marks; `check` (in a clone) vets each named test, and a named test with
 * a problem covers nothing.
 */
export function clauseCoverage(
  clauses: readonly Pick<Clause, 'id' | 'title' | 'layer' | 'since'>[],
  cases: readonly CitingCase[],
  tests: NamedTests,
  opts: { outcomes?: ReadonlyMap<string, CaseOutcome>; check?: NamedTestCheck } = {},
): ClauseCoverage[] {
  const own = new Map<string, CitingCase[]>();
  const preferring = new Map<string, CitingCase[]>();
  for (const c of cases) {
    own.set(c.clause, [...(own.get(c.clause) ?? []), c]);
    if (c.prefers && c.prefers !== c.clause) preferring.set(c.prefers, [...(preferring.get(c.prefers) ?? []), c]);
  }
  return clauses.map(({ id, title, layer, since }) => {
    const covering = [...(own.get(id) ?? []), ...(preferring.get(id) ?? [])].map((c): CoveringCase => {
      const o = opts.outcomes?.get(c.id);
      return {
        id: c.id,
        ...(c.clause !== id ? { prefers: true as const } : {}),
        ...(opts.outcomes ? { mark: markOf(c, id, o) } : {}),
        ...(o?.expectedFailure && c.clause === id ? { expectedFailure: true as const } : {}),
      };
    });
    const named = (Object.hasOwn(tests, id) ? tests[id]! : []).map((file): NamedTest => {
      const problem = opts.check?.(file, id);
      return problem ? { file, problem } : { file };
    });
    const status: CoverageStatus = covering.length ? 'cases' : named.some((t) => !t.problem) ? 'tests' : 'none';
    return { id, title, layer, since, cases: covering, tests: named, status };
  });
}

export function coverageCounts(cov: readonly ClauseCoverage[]): CoverageCounts {
  const n: CoverageCounts = { clauses: cov.length, cases: 0, tests: 0, none: 0 };
  for (const c of cov) n[c.status]++;
  return n;
}

/** "64 clauses: 53 checked by cases, 11 by named tests only, 0 by neither". */
export function countsLine(n: CoverageCounts, cases = 'cases', tests = 'named tests'): string {
  return `${n.clauses} clauses: ${n.cases} checked by ${cases}, ${n.tests} by ${tests} only, ${n.none} by neither`;
}

/** Named tests a check found wanting, as "H8: test/x.test.ts: no such file". */
export function testProblems(cov: readonly ClauseCoverage[]): string[] {
  return cov.flatMap((c) => c.tests.flatMap((t) => (t.problem ? [`${c.id}: ${t.file}: ${t.problem}`] : [])));
}

const isObj = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);

/** The outcomes of a JSON report (`--reporter json`), by case id; input from elsewhere, so checked field by field. */
export function outcomesOfReport(report: unknown, where: string): Map<string, CaseOutcome> {
  if (!isObj(report) || !Array.isArray(report.cases))
    throw new Error(`${where}: not an idea-conformance JSON report (no "cases" list)`);
  const out = new Map<string, CaseOutcome>();
  report.cases.forEach((c, k) => {
    if (!isObj(c) || typeof c.id !== 'string' || !VERDICTS.includes(c.verdict as Verdict))
      throw new Error(`${where}: cases[${k}] has no id or no known verdict`);
    const checks = Array.isArray(c.checks)
      ? c.checks.flatMap((x) =>
          isObj(x) && typeof x.ok === 'boolean'
            ? [{ ok: x.ok, ...(typeof x.clause === 'string' ? { clause: x.clause } : {}) }]
            : [],
        )
      : [];
    out.set(c.id, {
      verdict: c.verdict as Verdict,
      ...(c.expectedFailure === true ? { expectedFailure: true } : {}),
      checks,
    });
  });
  return out;
}

/** A run's own results as outcomes. */
export function outcomesOfResults(results: readonly CaseResult[]): Map<string, CaseOutcome> {
  return new Map(
    results.map((r) => [r.id, { verdict: r.verdict, expectedFailure: r.expectedFailure, checks: r.checks }]),
  );
}

/**
 * What a run's reports show: the suite's clauses in the run's profiles and version, each with the cases
 * of the run that check it and their verdicts, else idea-kit's own tests of it (names: a report is no
 * place to read the clone). A client run's are the clauses binding clients, with its scenarios.
 */
export function coverageOfRun(
  run: { results: readonly CaseResult[]; profiles: readonly Profile[]; version: string; client?: unknown },
  clauses: readonly Clause[] = [...(run.client ? CLIENT_CLAUSES : CLAUSES).values()],
  tests: NamedTests = namedTestsFor(CURRENT_VERSION),
): ClauseCoverage[] {
  const inRun = clauses.filter(
    (c) =>
      run.profiles.includes(profileOf(c)) && (!isVersion(run.version) || compareVersions(c.since, run.version) <= 0),
  );
  return clauseCoverage(inRun, run.results.map(citingOfResult), tests, { outcomes: outcomesOfResults(run.results) });
}
