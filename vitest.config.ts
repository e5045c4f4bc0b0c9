import { availableParallelism } from 'node:os';
import { defineConfig } from 'vitest/config';

// Five projects, chosen by file name, not folder:
// - `live` (`*.live.test.ts`) starts a real VS Code host (~2 GB each): two files at a time (a live file
//   waits on VS Code far more than it computes: one at a time left a core idle), then `live-serial`,
//   the files that measure time or ports and must have the machine to themselves, one at a time;
// - `system` (`*.system.test.ts`) runs built bins end to end against real language servers and the
//   whole conformance suite: minutes, not seconds, so it is kept out of `unit`;
// - `timed`: unit files whose searches run on a time budget (the fuzzer's planted flaws, the regex
//   pool, the file watcher): after `unit` and `system`, two at a time, so a busy pool cannot starve a
//   budget into finding nothing (CI failed so on a loaded machine);
// - `unit` is everything else.
// Unit test files spend most of their time waiting (on child processes, sockets, timers), not
// computing: vitest's default of one worker per core but one (a single worker on 2 cores) left the
// CPU idle two thirds of the time, so `unit` runs two workers per core (at least 4).
// Every project builds the bins once first (test/global-setup.ts): parallel files must not rebuild them.
const live = ['test/**/*.live.test.ts'];
/**
 * Live files that must run alone: latency and rate bounds (limits, hardening, events), kills aimed by the
 * clock (crash), the port fallback (security: another VS Code would hold the ports), and the CI gate.
 */
const liveSerial = [
  'test/extension/limits.live.test.ts',
  'test/extension/hardening.live.test.ts',
  'test/extension/events.live.test.ts',
  'test/extension/crash.live.test.ts',
  'test/extension/rename-crash.live.test.ts',
  'test/extension/security.live.test.ts',
  'test/conformance/conformance.live.test.ts',
];
const system = ['test/**/*.system.test.ts'];
const timed = [
  'test/conformance/fuzz.test.ts',
  'test/conformance/fuzz-*.test.ts',
  'test/server-core/search/regex-pool.test.ts',
  'test/idea-server/file-watcher.test.ts',
];
const globalSetup = ['test/global-setup.ts'];
/** Unit workers; `system` takes the same number (vitest runs projects of one group with one count). */
const unitWorkers = Math.max(4, 2 * availableParallelism());

export default defineConfig({
  test: {
    projects: [
      {
        test: {
          name: 'unit',
          include: ['test/**/*.test.ts'],
          exclude: ['**/node_modules/**', ...live, ...system, ...timed],
          testTimeout: 30_000,
          globalSetup,
          maxWorkers: unitWorkers,
        },
      },
      { test: { name: 'system', include: system, testTimeout: 420_000, globalSetup, maxWorkers: unitWorkers } },
      {
        test: {
          name: 'timed',
          include: timed,
          testTimeout: 30_000,
          globalSetup,
          maxWorkers: 2,
          sequence: { groupOrder: 1 },
        },
      },
      {
        test: {
          name: 'live',
          include: live,
          exclude: ['**/node_modules/**', ...liveSerial],
          testTimeout: 180_000,
          hookTimeout: 240_000,
          globalSetup,
          maxWorkers: 2,
          sequence: { groupOrder: 1 },
        },
      },
      {
        test: {
          name: 'live-serial',
          include: liveSerial,
          testTimeout: 180_000,
          hookTimeout: 240_000,
          globalSetup,
          maxWorkers: 1,
          sequence: { groupOrder: 2 },
        },
      },
    ],
  },
});
