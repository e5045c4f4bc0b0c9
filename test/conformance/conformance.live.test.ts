// The CI gate: the whole suite against our extension in a live VS Code must be fully green in all three
// profiles, must and should alike (apart from the cases listed, with a reason, in
// conformance/expected-failures.json): no failure, warning, error, skip or unimplemented case, on every
// VS Code build of the matrix (livehost/hosts.json: the oldest the manifest claims, the newest). Reports
// per build: reports/conformance-<oldest|newest>.{xml,json,html}; the oldest's are also reports/conformance.{xml,json}.
// After both: reports/matrix.{md,html}, the builds side by side (here, not in scripts/: this file knows
// which builds ran and which reports this run wrote; a build with failing cases still gets its column).
import { relative } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { runWithLaunch } from '../../conformance/launch';
import { readExpectedFailures } from '../../conformance/lib/expected-failures';
import { loadCases } from '../../conformance/lib/load';
import { buildMatrix, readMatrixInput } from '../../conformance/lib/matrix';
import { KNOWN_TOPICS } from '../../conformance/lib/topics';
import { writeMatrix } from '../../conformance/matrix-cli';
import { ConsoleReporter, HtmlReporter, JsonReporter, JUnitReporter } from '../../conformance/reporters';
import { HOST_NAMES, hostBuild } from '../../livehost/hosts';

// CI keeps these (reports/ is git-ignored).
const REPORTS = new URL('../../reports/', import.meta.url).pathname;
/** The per-build JSON reports this run wrote, for the matrix. */
const written: string[] = [];

afterAll(() => {
  if (written.length === 0) return;
  writeMatrix(buildMatrix(written.map((f) => readMatrixInput(f))), {
    markdown: `${REPORTS}matrix.md`,
    html: `${REPORTS}matrix.html`,
  });
});

describe.each(HOST_NAMES.map((name) => hostBuild(name)))(
  'conformance suite against our extension (live, $name host)',
  (build) => {
    it(`passes every case on VS Code ${build.vscode} (code-server ${build.codeServer})`, {
      timeout: 240_000,
    }, async () => {
      const cases = loadCases();
      const names = build.name === 'oldest' ? ['conformance', 'conformance-oldest'] : [`conformance-${build.name}`];
      // Relative to the repository root (vitest's cwd): the matrix shows it as the report's name.
      const json = relative(process.cwd(), `${REPORTS}conformance-${build.name}.json`);
      const reporters = [
        new ConsoleReporter({ stream: process.stderr }),
        ...names.flatMap((n) => [new JUnitReporter(`${REPORTS}${n}.xml`), new JsonReporter(`${REPORTS}${n}.json`)]),
        // Once the report is written (before the teardown), this build has its column in the matrix.
        new HtmlReporter(`${REPORTS}conformance-${build.name}.html`),
        { onRunEnd: () => void written.push(json) },
      ];
      const { summary } = await runWithLaunch({
        vscode: build.name,
        cases,
        reporters,
        expectedFailures: readExpectedFailures(
          new URL('../../conformance/expected-failures.json', import.meta.url).pathname,
        ),
        allIds: new Set(cases.map((c) => c.case.id)),
      });
      expect(summary.implementation?.name).toMatch(/^idea-vscode \d+\.\d+\.\d+$/);
      expect(summary.implementation?.build).toContain(`VS Code ${build.vscode} (`);
      // Listed expected failures (conformance/expected-failures.json) are allowed; a listed case that passes is stale.
      const notPassing = summary.results
        .filter((r) => r.verdict !== 'pass' && !r.expectedFailure)
        .map((r) => `${r.verdict} ${r.id}: ${r.reason ?? ''}`);
      expect(notPassing).toEqual([]);
      expect(summary.stale).toEqual([]);
      expect(summary.profiles).toEqual(['core', 'readings', 'security']);
      expect(summary.scope.served).toHaveLength(KNOWN_TOPICS.length);
      expect(summary.results).toHaveLength(cases.length);
    });
  },
);
