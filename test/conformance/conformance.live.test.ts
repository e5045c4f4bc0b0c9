// The CI gate: the whole suite against our extension in a live VS Code must be fully green.
import { describe, expect, it } from 'vitest';
import { loadCases } from '../../conformance/lib/load';
import { readExpectedFailures } from '../../conformance/lib/expected-failures';
import { runWithLaunch } from '../../conformance/lib/session';
import { ConsoleReporter } from '../../conformance/reporters/console';

describe('conformance suite against our extension (live)', () => {
  it('passes every case', { timeout: 240_000 }, async () => {
    const cases = loadCases();
    const { summary } = await runWithLaunch({ cases, reporters: [new ConsoleReporter({ stream: process.stderr })],
      expectedFailures: readExpectedFailures(new URL('../../conformance/expected-failures.json', import.meta.url).pathname), allIds: new Set(cases.map((c) => c.case.id)) });
    const notPassing = summary.results.filter((r) => r.verdict !== 'pass').map((r) => `${r.verdict} ${r.id}: ${r.reason ?? ''}`);
    expect(notPassing).toEqual([]);
    expect(summary.stale).toEqual([]);
    expect(summary.results).toHaveLength(cases.length);
  });
});
