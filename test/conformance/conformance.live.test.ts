// The CI gate: the whole suite against our extension in a live VS Code must be fully green (apart from
// the cases listed, with a reason, in conformance/expected-failures.json), on every VS Code build of the
// matrix (livehost/hosts.json: the oldest the manifest claims, the newest). Reports per build:
// reports/conformance-<oldest|newest>.{xml,json}; the oldest's are also reports/conformance.{xml,json}.
import { describe, expect, it } from 'vitest';
import { loadCases } from '../../conformance/lib/load';
import { readExpectedFailures } from '../../conformance/lib/expected-failures';
import { runWithLaunch } from '../../conformance/launch';
import { ConsoleReporter, JsonReporter, JUnitReporter } from '../../conformance/reporters';
import { HOST_NAMES, hostBuild } from '../../livehost/hosts';

// CI keeps these (reports/ is git-ignored).
const REPORTS = new URL('../../reports/', import.meta.url).pathname;

describe.each(HOST_NAMES.map((name) => hostBuild(name)))('conformance suite against our extension (live, $name host)', (build) => {
  it(`passes every case on VS Code ${build.vscode} (code-server ${build.codeServer})`, { timeout: 240_000 }, async () => {
    const cases = loadCases();
    const names = build.name === 'oldest' ? ['conformance', 'conformance-oldest'] : [`conformance-${build.name}`];
    const reporters = [new ConsoleReporter({ stream: process.stderr }), ...names.flatMap((n) => [new JUnitReporter(`${REPORTS}${n}.xml`), new JsonReporter(`${REPORTS}${n}.json`)])];
    const { summary } = await runWithLaunch({ vscode: build.name, cases, reporters,
      expectedFailures: readExpectedFailures(new URL('../../conformance/expected-failures.json', import.meta.url).pathname), allIds: new Set(cases.map((c) => c.case.id)) });
    // Listed expected failures (conformance/expected-failures.json) are allowed; a listed case that passes is stale.
    const notPassing = summary.results.filter((r) => r.verdict !== 'pass' && !r.expectedFailure).map((r) => `${r.verdict} ${r.id}: ${r.reason ?? ''}`);
    expect(notPassing).toEqual([]);
    expect(summary.stale).toEqual([]);
    expect(summary.results).toHaveLength(cases.length);
  });
});
