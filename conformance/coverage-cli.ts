// `idea-conformance coverage [--version x.y.z] [--report <run.json>] [--json]`: each clause of a version
// with the cases and client scenarios that check it (and, given a run's JSON report, their verdicts), else idea-kit's own
// tests of it (lib/coverage.ts). Exit 1 when a clause has neither, or a named test is missing or lacks
// its marker (checked in a clone only: the package lists the names).
import { readFileSync } from 'node:fs';
import { parseArgs } from 'node:util';
import { compareVersions, isVersion, normalizeVersion, versionFolder } from '@idea-kit/spec-lib/version';
import { CURRENT_VERSION } from '../generated/current';
import { SCENARIOS } from './client/scenarios';
import { CLAUSE_TESTS_FILE, namedTestChecker, namedTestsFor } from './lib/clause-tests';
import { clausesOf } from './lib/clauses';
import { cloneRoot } from './lib/clone';
import {
  type CaseOutcome,
  type ClauseCoverage,
  citingOfLoaded,
  citingOfScenario,
  clauseCoverage,
  countsLine,
  coverageCounts,
  outcomesOfReport,
  testProblems,
} from './lib/coverage';
import { fixturesFor, loadCases } from './lib/load';

export interface CoverageCliOptions {
  /** The clone to read other versions' clauses and the named tests from; null: none (as the package). Default: cloneRoot(). */
  root?: string | null;
  out?: (text: string) => void;
  err?: (text: string) => void;
}

function textReport(cov: readonly ClauseCoverage[]): string[] {
  const lines: string[] = [];
  for (const c of cov) {
    lines.push(`${c.id.padEnd(5)} ${c.layer.padEnd(9)}  ${c.title}`);
    for (const k of c.cases)
      lines.push(
        `        ${`${k.id}${k.prefers ? ' (its preference)' : ''}`.padEnd(58)} ${k.mark ?? ''}${k.expectedFailure ? ' (expected)' : ''}`.trimEnd(),
      );
    for (const t of c.tests) lines.push(`        test  ${t.file}${t.problem ? `  ✗ ${t.problem}` : ''}`);
    if (c.status === 'none') lines.push('        ✗ neither a case nor a named test');
  }
  return lines;
}

export function coverageCli(argv: string[], opts: CoverageCliOptions = {}): number {
  const out = opts.out ?? ((t: string) => process.stdout.write(t));
  const err = opts.err ?? ((t: string) => process.stderr.write(t));
  const usage = (msg: string) => {
    err(`idea-conformance coverage: ${msg}\n`);
    return 2;
  };
  let values: { version?: string; json?: boolean; report?: string };
  try {
    ({ values } = parseArgs({
      args: argv,
      options: { version: { type: 'string' }, json: { type: 'boolean' }, report: { type: 'string' } },
    }));
  } catch (e) {
    return usage((e as Error).message);
  }
  if (values.version !== undefined && !isVersion(values.version))
    return usage(`--version needs x.y.z, got "${values.version}"`);
  const version = normalizeVersion(values.version ?? CURRENT_VERSION);
  const root = opts.root === undefined ? cloneRoot() : (opts.root ?? undefined);

  let outcomes: Map<string, CaseOutcome> | undefined;
  let cov: ClauseCoverage[];
  try {
    const clauses = clausesOf(version, root);
    // Fixtures are cumulative: the version's folder (or the newest older one), the cases it already has.
    const cases = loadCases(fixturesFor(version)).filter((lc) => compareVersions(lc.case.since, version) <= 0);
    if (values.report) {
      let report: unknown;
      try {
        report = JSON.parse(readFileSync(values.report, 'utf8'));
      } catch (e) {
        throw new Error(`--report ${values.report}: ${(e as Error).message}`);
      }
      outcomes = outcomesOfReport(report, values.report);
      const applied = (report as { version?: unknown }).version;
      if (typeof applied === 'string' && applied !== version)
        err(`note: the report's cases were applied by ${applied}, this listing is of ${version}\n`);
      const ids = new Set([...cases.map((lc) => lc.case.id), ...SCENARIOS.map((sc) => sc.id)]);
      const foreign = [...outcomes.keys()].filter((id) => !ids.has(id)).length;
      if (foreign) err(`note: ${foreign} cases of the report are not cases of ${version} (left out)\n`);
    }
    cov = clauseCoverage(
      clauses,
      [...cases.map(citingOfLoaded), ...SCENARIOS.map(citingOfScenario)],
      namedTestsFor(version),
      {
        outcomes,
        check: root ? namedTestChecker(root) : undefined,
      },
    );
  } catch (e) {
    return usage((e as Error).message);
  }

  const counts = coverageCounts(cov);
  const problems = testProblems(cov);
  const ok = counts.none === 0 && problems.length === 0;
  if (values.json) {
    out(
      `${JSON.stringify(
        {
          tool: 'idea-conformance coverage',
          version,
          clausesFile: `spec/${versionFolder(version)}/clauses.json`,
          namedTests: { file: CLAUSE_TESTS_FILE, checked: root !== undefined },
          ...(values.report ? { report: values.report } : {}),
          ok,
          counts,
          problems,
          clauses: cov,
        },
        null,
        2,
      )}\n`,
    );
  } else {
    out(
      [
        `protocol ${version} (spec/${versionFolder(version)}/clauses.json): ${countsLine(counts)}`,
        ...(values.report ? [`verdicts from ${values.report}`] : []),
        `named tests (${CLAUSE_TESTS_FILE}): ${root ? 'each checked to exist and carry its "// clause <id>" marker' : 'names only (no clone of idea-kit here to check them in)'}`,
        '',
        ...textReport(cov),
        '',
      ].join('\n'),
    );
  }
  if (!ok)
    err(
      `idea-conformance coverage: ${counts.none} clauses with neither a case nor a named test${problems.length ? `; ${problems.length} named tests missing or without their marker` : ''}\n`,
    );
  return ok ? 0 : 1;
}
