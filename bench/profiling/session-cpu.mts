// Profiling driver (not a bench entry): 1M edit/find requests through an in-memory ServerSession with a
// trivial handler, for `node --cpu-prof --import tsx bench/profiling/session-cpu.mts` (see bench/FINDINGS.md).
import { flush, memorySession, TOKEN } from '../lib/server';

const m = memorySession({ validateResults: true });
m.session.onFrame(JSON.stringify({ type: 'handshake', token: TOKEN }));
const frame = JSON.stringify({
  topic: '/app/vscode/edit/find',
  requestId: crypto.randomUUID(),
  params: {
    pattern: 'searchText',
    include: '**/*.ts',
    exclude: '**/node_modules/**',
    isRegex: false,
    isCaseSensitive: false,
  },
});
for (let r = 0; r < 10; r++) {
  const N = 100000;
  for (let i = 0; i < N; i++) {
    m.session.onFrame(frame);
    if (i % 1000 === 999) {
      await flush();
      m.sent.length = 0;
    }
  }
}
