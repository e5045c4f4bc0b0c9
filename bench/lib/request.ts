// The request every round-trip and throughput bench sends (and the profiling drivers replay): one
// literal edit/find, so figures from different benches and runs measure the same frame.
export const BENCH_TOPIC = '/app/vscode/edit/find' as const;
export const BENCH_PARAMS = {
  pattern: 'searchText',
  include: '**/*.ts',
  exclude: '**/node_modules/**',
  isRegex: false,
  isCaseSensitive: false,
};
