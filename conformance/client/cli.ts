// `idea-conformance client --command "<cmd>" [--scenario S…]`: judges any IDEA client, the command, against
// the scripted servers of client/scenarios.ts, with the reports a server run has (console, JSON, JUnit,
// HTML, Markdown, GitHub; the matrix takes its JSON report). The contract the command keeps is in
// conformance/docs/clients.md (contract.ts in code).
import { resolve } from 'node:path';
import { parseArgs } from 'node:util';
import { parseProfiles } from '../lib/clauses';
import { readExpectedFailures } from '../lib/expected-failures';
import { createReporter } from '../reporters';
import { runClientSuite, scenarioClause } from './run';
import { SCENARIOS } from './scenarios';

/** Where the reports say a scenario is defined (their "fixture" line). */
const SCENARIOS_DIR = 'conformance/client';

/** `answers/*`, `**` or an exact id; `*` within a segment, `**` across. */
function globToRegExp(glob: string): RegExp {
  const body = glob
    .split('**')
    .map((part) =>
      part
        .split('*')
        .map((s) => s.replace(/[.+?^${}()|[\]\\]/g, '\\$&'))
        .join('[^/]*'),
    )
    .join('.*');
  return new RegExp(`^${body}$`);
}

export async function clientCli(argv: string[]): Promise<number> {
  const usage = (msg: string) => {
    process.stderr.write(`idea-conformance client: ${msg}\n`);
    return 2;
  };
  let values: Record<string, string | string[] | boolean | undefined>;
  try {
    ({ values } = parseArgs({
      args: argv,
      options: {
        command: { type: 'string' },
        scenario: { type: 'string', multiple: true },
        reporter: { type: 'string', multiple: true },
        'expected-failures': { type: 'string' },
        name: { type: 'string' },
        build: { type: 'string' },
        profile: { type: 'string' },
        timeout: { type: 'string' },
        concurrency: { type: 'string' },
        list: { type: 'boolean' },
        verbose: { type: 'boolean' },
      },
    }));
  } catch (e) {
    return usage((e as Error).message);
  }
  const globs = (values.scenario as string[] | undefined) ?? [];
  const unknown = globs.filter((g) => !SCENARIOS.some((sc) => globToRegExp(g).test(sc.id)));
  if (unknown.length)
    return usage(
      `--scenario ${unknown.join(', ')} names no scenario (known: ${SCENARIOS.map((s) => s.id).join(', ')})`,
    );
  let scenarios = globs.length ? SCENARIOS.filter((sc) => globs.some((g) => globToRegExp(g).test(sc.id))) : SCENARIOS;
  let profiles: ReturnType<typeof parseProfiles> | undefined;
  try {
    if (typeof values.profile === 'string') profiles = parseProfiles(values.profile);
  } catch (e) {
    return usage((e as Error).message);
  }
  if (profiles) scenarios = scenarios.filter((sc) => profiles.includes(scenarioClause(sc).profile));
  if (values.list) {
    for (const sc of scenarios) {
      const { profile, level } = scenarioClause(sc);
      process.stdout.write(`${sc.id.padEnd(32)} ${sc.clause.padEnd(4)} ${profile.padEnd(8)} ${level}\n`);
    }
    process.stdout.write(`${scenarios.length} of ${SCENARIOS.length} scenarios\n`);
    return 0;
  }
  if (typeof values.command !== 'string' || !values.command.trim())
    return usage('--command "<cmd>" is required (the client to judge; the url is appended as its last argument)');
  if (scenarios.length === 0) return usage('the selection matches no scenario');
  const int = (name: string, min: number): number | undefined | null => {
    const raw = values[name];
    if (raw === undefined) return undefined;
    return typeof raw === 'string' && /^\d+$/.test(raw) && Number(raw) >= min ? Number(raw) : null;
  };
  const timeoutMs = int('timeout', 1000);
  if (timeoutMs === null) return usage('--timeout needs a whole number of milliseconds ≥ 1000');
  const concurrency = int('concurrency', 1);
  if (concurrency === null) return usage('--concurrency needs a whole number ≥ 1');
  if (values.build && !values.name) return usage('--build needs --name');
  let reporters: ReturnType<typeof createReporter>[];
  let expectedFailures: Map<string, string> | undefined;
  try {
    reporters = ((values.reporter as string[] | undefined) ?? ['console']).map((r) =>
      createReporter(r, { fixturesDir: SCENARIOS_DIR, verbose: values.verbose === true }),
    );
    const xf = values['expected-failures'];
    if (typeof xf === 'string') expectedFailures = readExpectedFailures(resolve(xf));
  } catch (e) {
    return usage((e as Error).message);
  }
  const summary = await runClientSuite({
    command: values.command,
    scenarios,
    reporters,
    expectedFailures,
    allIds: new Set(SCENARIOS.map((sc) => sc.id)),
    ...(timeoutMs !== undefined ? { timeoutMs } : {}),
    ...(concurrency !== undefined ? { concurrency } : {}),
    ...(profiles ? { profiles } : {}),
    ...(typeof values.name === 'string'
      ? { implementation: { name: values.name, ...(typeof values.build === 'string' ? { build: values.build } : {}) } }
      : {}),
  });
  return summary.ok ? 0 : 1;
}
