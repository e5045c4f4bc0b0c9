import { defineConfig } from 'vitest/config';

// Two projects: `unit` runs in parallel; `live` starts real VS Code hosts (~2 GB, CPU-heavy each), so
// scripts/test.sh runs it with file parallelism off.
const live = ['test/livehost/**/*.test.ts', 'test/extension/**/*.test.ts', 'test/**/*live*.test.ts'];

export default defineConfig({
  test: {
    projects: [
      { test: { name: 'unit', include: ['test/**/*.test.ts'], exclude: ['**/node_modules/**', ...live], testTimeout: 30_000 } },
      { test: { name: 'live', include: live, testTimeout: 180_000, hookTimeout: 240_000 } },
    ],
  },
});
