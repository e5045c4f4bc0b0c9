import { memorySession, TOKEN, flush } from './harness';
const m = memorySession({ validateResults: true });
m.session.onFrame(JSON.stringify({ type: 'handshake', token: TOKEN }));
const frame = JSON.stringify({ topic: '/app/vscode/edit/find', requestId: crypto.randomUUID(), params: { pattern: 'searchText', include: '**/*.ts', exclude: '**/node_modules/**', isRegex: false, isCaseSensitive: false } });
for (let r = 0; r < 3; r++) {
  const N = 100000;
  let t0 = performance.now();
  for (let i = 0; i < N; i++) { m.session.onFrame(frame); if (i % 1000 === 999) { await flush(); m.sent.length = 0; } }
  await flush(); m.sent.length = 0;
  console.log('session per request µs', ((performance.now() - t0) / N * 1000).toFixed(2));
  t0 = performance.now();
  for (let i = 0; i < N; i++) JSON.parse(frame);
  console.log('JSON.parse µs', ((performance.now() - t0) / N * 1000).toFixed(2));
  t0 = performance.now();
  for (let i = 0; i < N; i++) { const t = setTimeout(() => {}, 30000); clearTimeout(t); }
  console.log('setTimeout+clear µs', ((performance.now() - t0) / N * 1000).toFixed(2));
  t0 = performance.now();
  for (let i = 0; i < N; i++) crypto.randomUUID();
  console.log('randomUUID µs', ((performance.now() - t0) / N * 1000).toFixed(2));
}
