import { defineConfig } from 'vitest/config';

// Two projects, chosen by file name, not folder: `*.live.test.ts` starts a real VS Code host (~2 GB,
// CPU-heavy each), so scripts/test.sh runs `live` with file parallelism off; every other test is `unit`
// and runs in parallel.
const live = ['test/**/*.live.test.ts'];

export default defineConfig({
  test: {
    projects: [
      {
        test: {
          name: 'unit',
          include: ['test/**/*.test.ts'],
          exclude: ['**/node_modules/**', ...live],
          testTimeout: 30_000,
        },
      },
      { test: { name: 'live', include: live, testTimeout: 180_000, hookTimeout: 240_000 } },
    ],
  },
});
