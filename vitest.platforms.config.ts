// The test projects of vitest.config.ts, minus the test files that cannot run where this process runs:
// what .github/workflows/platforms.yml runs on Linux, macOS and Windows. Each exclusion says why, from
// reading the test (docs/platforms.md: the code's own assumptions per OS). On Linux with the corpus
// beside the clone, nothing is left out.
//   npx vitest run --config vitest.platforms.config.ts --project unit --project timed
import { existsSync } from 'node:fs';
import { dirname, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { defineConfig } from 'vitest/config';
import base from './vitest.config';

const ROOT = dirname(fileURLToPath(import.meta.url));

/** Why a group of tests cannot run somewhere, and where that is. */
export interface PlatformExclusion {
  /** Globs of test files, relative to the repository. */
  files: string[];
  reason: string;
  /** Whether the files are left out on this platform, in this environment. */
  excluded: (platform: NodeJS.Platform) => boolean;
}

const notLinux = (p: NodeJS.Platform) => p !== 'linux';
const windows = (p: NodeJS.Platform) => p === 'win32';

export const PLATFORM_EXCLUSIONS: readonly PlatformExclusion[] = [
  {
    files: ['test/mcp/agent-task.test.ts'],
    reason: 'needs the date-fns corpus beside the clone (../shared/corpus), which a CI checkout does not have',
    excluded: () => !existsSync(resolve(ROOT, '..', 'shared', 'corpus')),
  },
  {
    files: ['test/livehost/**'],
    reason:
      'the live VS Code host is Linux only: code-server and Node from npm for linux-x64, Debian Chromium, /proc for ports and memory',
    excluded: notLinux,
  },
  {
    files: [
      'test/server-core/spawn/processes.test.ts',
      'test/server-core/spawn/spawner.test.ts',
      'test/server-core/spawn/spawner-client.test.ts',
      'test/idea-server/lsp/typescript.test.ts',
      'test/idea-server/lsp/fake-server.test.ts',
      'test/idea-server/bin.system.test.ts',
    ],
    reason: "read /proc/<pid> to find a child's state, memory or descendants (test/idea-server/lsp/processes.ts)",
    excluded: notLinux,
  },
  {
    files: ['test/conformance/workspace-traps.test.ts'],
    reason: "gives git a terminal with util-linux's `script -qc`",
    excluded: notLinux,
  },
  {
    files: [
      'test/conformance/ci-files.test.ts',
      'test/docs/commands.test.ts',
      'test/idea-server/host-parts.test.ts',
      'test/idea-server/untrusted-workspace.test.ts',
      'test/runtime/changed-files.test.ts',
      'test/runtime/programs.test.ts',
      'test/server-core/children-path.test.ts',
      'test/server-core/git.test.ts',
      'test/server-core/search/rg-pattern.test.ts',
      'test/server-core/search/ripgrep-path.test.ts',
      'test/server-core/search/search-limits.test.ts',
      'test/server-core/spawn/direct.test.ts',
      'test/conformance/workspace-hostile.test.ts',
    ],
    reason:
      'run `sh` or bash scripts, or plant `#!/bin/sh` programs made executable with chmod (and, for the docs, stop a process group)',
    excluded: windows,
  },
  {
    files: [
      'test/runtime/registry.test.ts',
      'test/idea-server/history-format.test.ts',
      'test/idea-server/write-settings.test.ts',
      'test/server-core/settings-and-symbols.test.ts',
      'test/server-core/write/write-path.test.ts',
      'test/conformance/workspace-reset.test.ts',
    ],
    reason: 'check POSIX mode bits (0600, 0700, an executable bit): Windows has ACLs, and Node reports 0666 or 0444',
    excluded: windows,
  },
  {
    files: [
      'test/conformance/exchange-steps.test.ts',
      'test/idea-server/settings.test.ts',
      'test/server-core/events/events.test.ts',
      'test/server-core/local-history-index.test.ts',
      'test/server-core/path-guard.test.ts',
      'test/server-core/search/file-walk.test.ts',
      'test/server-core/search/search.test.ts',
    ],
    reason: 'create symlinks, which Windows allows only to administrators or in Developer Mode',
    excluded: windows,
  },
  {
    files: ['test/cli/headless.test.ts', 'test/mcp/headless-hostile.test.ts'],
    reason: "build PATH with ':' separators (Windows uses ';')",
    excluded: windows,
  },
];

/** The globs left out on `platform`. */
export function excludedOn(platform: NodeJS.Platform): string[] {
  return PLATFORM_EXCLUSIONS.filter((e) => e.excluded(platform)).flatMap((e) => e.files);
}

const excluded = excludedOn(process.platform);
const projects = base.test?.projects ?? [];

export default defineConfig({
  ...base,
  test: {
    ...base.test,
    projects: projects.map((p) => {
      if (typeof p !== 'object' || !('test' in p))
        throw new Error('vitest.platforms.config.ts: a project is not inline');
      return { ...p, test: { ...p.test, exclude: [...(p.test?.exclude ?? []), ...excluded] } };
    }),
  },
});
