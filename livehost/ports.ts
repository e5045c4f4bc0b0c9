// Loopback port helpers: pick a free port, probe whether one accepts TCP.
import { createServer } from 'node:net';

export { isPortOpen } from '../runtime/loopback';

export const LOOPBACK = '127.0.0.1';

/** A port that was free a moment ago (the OS picks it; there is an unavoidable small race). */
export function freePort(): Promise<number> {
  return new Promise((resolvePort, reject) => {
    const srv = createServer();
    srv.once('error', reject);
    srv.listen(0, LOOPBACK, () => {
      const addr = srv.address();
      const port = typeof addr === 'object' && addr ? addr.port : 0;
      srv.close(() => (port ? resolvePort(port) : reject(new Error('could not allocate a port'))));
    });
  });
}

export const sleep = (ms: number) => new Promise<void>((r) => setTimeout(r, ms));
