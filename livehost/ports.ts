// Loopback port helpers: pick a free port, probe whether one accepts TCP.
import { createServer, connect } from 'node:net';

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

/** True when something accepts a TCP connection on 127.0.0.1:port within timeoutMs. */
export function isPortOpen(port: number, timeoutMs = 1000): Promise<boolean> {
  return new Promise((res) => {
    const sock = connect({ port, host: LOOPBACK });
    const done = (open: boolean) => { sock.destroy(); res(open); };
    sock.setTimeout(timeoutMs, () => done(false));
    sock.once('connect', () => done(true));
    sock.once('error', () => done(false));
  });
}

export const sleep = (ms: number) => new Promise<void>((r) => setTimeout(r, ms));
