// Which process listens on a TCP port (Linux /proc): lets the launcher make sure the port named in the ready
// signal belongs to the host it started, not to another host or program that happens to use it.
import { readdirSync, readFileSync, readlinkSync } from 'node:fs';
import { groupPids } from './proc-memory';

const LISTEN = '0A';

/** Socket inodes listening on `port` (IPv4 and IPv6 tables). */
function listeningInodes(port: number): Set<string> {
  const inodes = new Set<string>();
  for (const table of ['/proc/net/tcp', '/proc/net/tcp6']) {
    let text: string;
    try {
      text = readFileSync(table, 'utf8');
    } catch {
      continue;
    }
    for (const line of text.split('\n').slice(1)) {
      const f = line.trim().split(/\s+/);
      if (f.length < 10 || f[3] !== LISTEN) continue;
      const localPort = parseInt(f[1]!.split(':')[1] ?? '', 16);
      if (localPort === port) inodes.add(f[9]!);
    }
  }
  return inodes;
}

/**
 * true if a member of process group `pgid` holds the listening socket of `port`, false if not, undefined
 * when /proc cannot tell (not Linux, or no listening socket visible).
 */
export function portOwnedByGroup(port: number, pgid: number): boolean | undefined {
  const inodes = listeningInodes(port);
  if (inodes.size === 0) return undefined;
  for (const pid of groupPids(pgid)) {
    let fds: string[];
    try {
      fds = readdirSync(`/proc/${pid}/fd`);
    } catch {
      continue;
    }
    for (const fd of fds) {
      try {
        const m = /^socket:\[(\d+)\]$/.exec(readlinkSync(`/proc/${pid}/fd/${fd}`));
        if (m && inodes.has(m[1]!)) return true;
      } catch {
        /* fd closed meanwhile */
      }
    }
  }
  return false;
}
