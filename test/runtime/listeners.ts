// Loopback TCP listeners for registry/locate tests: a registered port must accept connections to count
// as live. Each test file closes its listeners after every test.
import { createServer, type Server } from 'node:net';
import { afterEach } from 'vitest';

/** Returns `listening()` (a new listener's port) and `closeLast()`; listeners close after each test. */
export function loopbackListeners(): { listening(): Promise<number>; closeLast(): Promise<void> } {
  const open: Server[] = [];
  afterEach(async () => {
    await Promise.all(open.splice(0).map((s) => new Promise((r) => s.close(r))));
  });
  return {
    async listening() {
      const s = createServer();
      open.push(s);
      await new Promise<void>((r) => s.listen(0, '127.0.0.1', r));
      return (s.address() as { port: number }).port;
    },
    closeLast: () => new Promise<void>((r) => open.pop()!.close(() => r())),
  };
}
