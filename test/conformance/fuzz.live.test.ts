// Issue 31 in the test command: a bounded fuzz run (fixed seed) against our extension in a live VS Code,
// both builds, on a fixture workspace: no findings, VS Code and the extension's port alive after every
// failure. (test/conformance/fuzz-server.test.ts does the same against the built idea-server.) A finding
// prints its shrunk params, ready to become a fixture case.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { hostProcess } from '../../conformance/fuzz/launch';
import { fuzz } from '../../conformance/fuzz/run';
import { HOST_USER_SETTINGS } from '../../conformance/launch';
import { buildFixtureWorkspace } from '../../conformance/workspace';
import { launchHost, REPO_ROOT } from '../../livehost';
import { HOST_NAMES, hostBuild } from '../../livehost/hosts';

const SEED = 31;
// A count of trials, not a time budget: a 20 s budget ran 25 trials on a loaded machine and 71 on a
// quieter one, so load decided what was tried. 60 reach every topic (event trials wait ~1 s each).
const FUZZ_RUNS = 60;

describe.each(HOST_NAMES.map((name) => hostBuild(name)))(
  'fuzzing the extension in VS Code $vscode ($name)',
  (build) => {
    it(`${FUZZ_RUNS} trials with seed ${SEED} find nothing`, { timeout: 240_000 }, async () => {
      const tmp = mkdtempSync(join(tmpdir(), 'idea-fuzz-live-'));
      const ws = buildFixtureWorkspace(join(tmp, 'ws')).dir;
      const host = await launchHost({
        workspace: ws,
        extensionDevPath: join(REPO_ROOT, 'extension'),
        userSettings: HOST_USER_SETTINGS,
        vscode: build.name,
      });
      try {
        const s = await fuzz({
          url: host.url,
          token: host.token,
          workspace: ws,
          seed: SEED,
          runs: FUZZ_RUNS,
          shrinkMs: 15_000,
          // the "server alive" oracle: VS Code and the extension's port, after every failure
          server: hostProcess(() => host, `VS Code ${build.vscode} (${build.name})`),
        });
        console.log(
          `fuzz ${build.name}: ${s.trials} trials on ${s.topics.length} topics, ${s.findings.length} findings`,
        );
        expect(s.findings.map((f) => `${f.signature}: ${f.problems[0]!.detail} ${JSON.stringify(f.input)}`)).toEqual(
          [],
        );
        expect(s.topics.length).toBeGreaterThanOrEqual(19);
        expect(s.trials).toBe(FUZZ_RUNS);
      } finally {
        await host.close();
        rmSync(tmp, { recursive: true, force: true });
      }
    });
  },
);
