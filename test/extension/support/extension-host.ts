// The live host's extension host process, for tests that SIGKILL it: find its pid, and reconnect to the
// server of the extension host VS Code starts in its place (a new port and token, written to the
// workspace's settings file once the new server listens, i.e. after its start-up recovery).
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { groupPids, type LiveHost, parseJsonc } from '../../../livehost';

export function extensionHostPid(host: LiveHost): number | undefined {
  return groupPids(host.codeServerPid).find((p) => {
    try {
      return readFileSync(`/proc/${p}/cmdline`, 'utf8').includes('extensionHost');
    } catch {
      return false;
    }
  });
}

/**
 * `open(url, token)` on the server of the current extension host, once it is not `notPid` (the one
 * just killed). Retries until it connects, for up to two minutes.
 */
export async function reconnect<C>(
  host: LiveHost,
  open: (url: string, token: string) => Promise<C>,
  notPid?: number,
): Promise<C> {
  const end = Date.now() + 120_000;
  let waitingSince = Date.now();
  let last = 'no extension host process';
  for (;;) {
    const pid = extensionHostPid(host);
    if (pid === notPid) last = `only the killed extension host (${pid})`;
    if (pid && pid !== notPid) {
      waitingSince = Date.now(); // a new host is starting: a reload now would only start it over
      try {
        const s = parseJsonc(readFileSync(join(host.workspace, '.vscode/settings.json'), 'utf8')) as Record<
          string,
          unknown
        >;
        return await open(`ws://127.0.0.1:${s['idea.server.port']}`, String(s['idea.server.authToken']));
      } catch (e) {
        last = `extension host ${pid}: ${(e as Error).message}`; // its server is not listening yet
      }
    }
    // VS Code restarts a crashed extension host by itself twice in a row, then waits for the user:
    // when no new one has appeared for a while, reloading the window starts a fresh one.
    if (Date.now() - waitingSince > 5000) {
      await host.page.reload().catch(() => undefined);
      waitingSince = Date.now() + 15_000; // give the reloaded window time to start its host
    }
    if (Date.now() > end) throw new Error(`no extension host came back: ${last}`);
    await new Promise((r) => setTimeout(r, 100));
  }
}
