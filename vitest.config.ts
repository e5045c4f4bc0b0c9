import { availableParallelism } from 'node:os';
import { defineConfig } from 'vitest/config';

// Three projects, chosen by file name, not folder:
// - `live` (`*.live.test.ts`) starts a real VS Code host (~2 GB, CPU-heavy each): one file at a time;
// - `system` (`*.system.test.ts`) runs built bins end to end against real language servers and the
//   whole conformance suite: minutes, not seconds, so it is kept out of `unit`;
// - `unit` is everything else.
// Unit test files spend most of their time waiting (on child processes, sockets, timers), not
// computing: vitest's default of one worker per core but one (a single worker on 2 cores) left the
// CPU idle two thirds of the time, so `unit` runs two workers per core (at least 4).
// Every project builds the bins once first (test/global-setup.ts): parallel files must not rebuild them.
const live = ['test/**/*.live.test.ts'];
const system = ['test/**/*.system.test.ts'];
const globalSetup = ['test/global-setup.ts'];

export default defineConfig({
  test: {
    projects: [
      {
        test: {
          name: 'unit',
          include: ['test/**/*.test.ts'],
          exclude: ['**/node_modules/**', ...live, ...system],
          testTimeout: 30_000,
          globalSetup,
          maxWorkers: Math.max(4, 2 * availableParallelism()),
        },
      },
      { test: { name: 'system', include: system, testTimeout: 420_000, globalSetup } },
      { test: { name: 'live', include: live, testTimeout: 180_000, hookTimeout: 240_000, globalSetup } },
    ],
  },
});
