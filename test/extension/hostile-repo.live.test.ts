// Issue 30 against our extension in a live VS Code, both builds: the fixture workspace with the full
// hostile-repository trap set (conformance/workspace/traps.ts: the fixture's own traps plus a tsconfig
// plugin and .gitattributes putting every git driver on every file) and the H19 case calling every
// topic that may touch git, a language server, search or the write path. No planted program may run.
// (The CI gate runs the same case on the fixture's own trap set as part of the whole suite.)
import { describe, expect, it } from 'vitest';
import { runWithLaunch } from '../../conformance/launch';
import { loadCases } from '../../conformance/lib/load';
import { selectCases } from '../../conformance/lib/select';
import type { CaseResult } from '../../conformance/lib/types';
import { HOST_NAMES, hostBuild } from '../../livehost/hosts';

const CASE = 'security/repository-runs-nothing';

// clause H13: every git-touching topic on a repository with every git driver planted runs none of them.
describe.each(HOST_NAMES.map((name) => hostBuild(name)))('a hostile repository in VS Code $vscode ($name)', (build) => {
  it('every topic answers as usual and nothing the repository planted runs', { timeout: 180_000 }, async () => {
    const cases = selectCases(loadCases(), { ids: [CASE] });
    expect(cases.map((c) => c.case.id)).toEqual([CASE]);
    const results: CaseResult[] = [];
    const { summary } = await runWithLaunch({
      vscode: build.name,
      cases,
      fullTraps: true,
      reporters: [{ onCaseEnd: (r: CaseResult) => void results.push(r) }],
    });
    const failed = results.flatMap((r) => r.checks.filter((c) => !c.ok).map((c) => `${c.name}: ${c.detail ?? ''}`));
    expect(failed).toEqual([]);
    expect(results.map((r) => [r.id, r.verdict])).toEqual([[CASE, 'pass']]);
    expect(summary.counts.pass).toBe(1);
  });
});
