// Loopback-only policy: the server binds to loopback, and refuses upgrades whose Host header is not a
// loopback name (DNS rebinding) or whose Origin is a non-loopback web page (browser pages). Also the
// probe clients use to tell whether a port accepts connections (a loopback one unless told otherwise).
import { connect } from 'node:net';

const LOOPBACK_NAMES = new Set(['127.0.0.1', 'localhost', '::1']);

/** A host to bind to: 127.0.0.1, ::1 or localhost. */
export function isLoopbackAddress(host: string): boolean {
  return LOOPBACK_NAMES.has(host.toLowerCase());
}

/** Splits "name", "name:port", "[v6]" or "[v6]:port"; undefined when malformed. */
function hostName(hostport: string): string | undefined {
  const m = /^(?:\[([0-9a-fA-F:.]+)\]|([^:[\]]+))(?::(\d{1,5}))?$/.exec(hostport);
  if (!m) return undefined;
  if (m[3] !== undefined && Number(m[3]) > 65535) return undefined;
  return (m[1] ?? m[2])!.toLowerCase();
}

/**
 * A server url a client may send a token to: ws:// on a loopback host with a port, no path
 * (ws://127.0.0.1:7200, ws://localhost:7200, ws://[::1]:7200). IDEA servers bind loopback only.
 */
export function isLoopbackWsUrl(url: string): boolean {
  const m = /^ws:\/\/(127\.0\.0\.1|localhost|\[::1\]):(\d{1,5})\/?$/i.exec(url);
  return m !== null && Number(m[2]) >= 1 && Number(m[2]) <= 65535;
}

/** Host header check: must be present and name a loopback host (port optional). */
export function isLoopbackHost(hostHeader: string | undefined): boolean {
  if (!hostHeader) return false;
  const name = hostName(hostHeader.trim());
  return name !== undefined && LOOPBACK_NAMES.has(name);
}

/**
 * Origin check: no Origin (CLI tools and agents do not send one) or an http(s) origin on a loopback
 * host. Anything else (web pages, "null", other schemes) is refused.
 */
export function isAllowedOrigin(origin: string | undefined): boolean {
  if (origin === undefined) return true;
  const m = /^https?:\/\/(.+)$/i.exec(origin.trim());
  if (!m) return false;
  const name = hostName(m[1]!);
  return name !== undefined && LOOPBACK_NAMES.has(name);
}

/** True when something accepts a TCP connection on host:port (default 127.0.0.1) within timeoutMs. */
export function isPortOpen(port: number, timeoutMs = 1000, host = '127.0.0.1'): Promise<boolean> {
  return new Promise((res) => {
    const sock = connect({ port, host });
    const done = (open: boolean) => {
      sock.destroy();
      res(open);
    };
    sock.setTimeout(timeoutMs, () => done(false));
    sock.once('connect', () => done(true));
    sock.once('error', () => done(false));
  });
}
