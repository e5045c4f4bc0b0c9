// The CI gate: the whole suite against our extension in a live VS Code must be fully green in all three
// profiles, must and should alike (apart from the cases listed, with a reason, in
// conformance/expected-failures.json): no failure, warning, error, skip or unimplemented case.
import { describe, expect, it } from 'vitest';
import { loadCases } from '../../conformance/lib/load';
import { readExpectedFailures } from '../../conformance/lib/expected-failures';
import { runWithLaunch } from '../../conformance/launch';
import { ConsoleReporter, JsonReporter, JUnitReporter } from '../../conformance/reporters';

// CI keeps these (reports/ is git-ignored).
const REPORTS = new URL('../../reports/', import.meta.url).pathname;

describe('conformance suite against our extension (live)', () => {
  it('passes every case', { timeout: 240_000 }, async () => {
    const cases = loadCases();
    const { summary } = await runWithLaunch({ cases, reporters: [new ConsoleReporter({ stream: process.stderr }), new JUnitReporter(REPORTS + 'conformance.xml'), new JsonReporter(REPORTS + 'conformance.json')],
      expectedFailures: readExpectedFailures(new URL('../../conformance/expected-failures.json', import.meta.url).pathname), allIds: new Set(cases.map((c) => c.case.id)) });
    // Listed expected failures (conformance/expected-failures.json) are allowed; a listed case that passes is stale.
    const notPassing = summary.results.filter((r) => r.verdict !== 'pass' && !r.expectedFailure).map((r) => `${r.verdict} ${r.id}: ${r.reason ?? ''}`);
    expect(notPassing).toEqual([]);
    expect(summary.stale).toEqual([]);
    expect(summary.profiles).toEqual(['core', 'readings', 'security']);
    expect(summary.scope.served).toHaveLength(13);
    expect(summary.results).toHaveLength(cases.length);
  });
});
