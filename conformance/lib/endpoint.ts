// The server a command judges, found by the rule every client of ours follows (runtime/locate.ts: flag >
// environment > registry > settings), and the one exit code for "no server to judge": none serves the
// workspace, or the one named cannot be reached. 3, as `idea` exits, so a CI job can tell a server that
// is not up from a bad command line (2).
import { NoServerError, resolveEndpoint } from '../../runtime/locate';

export const NO_SERVER_EXIT = 3;

const UNREACHABLE = new Set(['ECONNREFUSED', 'ECONNRESET', 'EHOSTUNREACH', 'ENETUNREACH', 'ETIMEDOUT']);

/** The error says there is no server to judge (rather than a mistake on the command line). */
export function isNoServer(err: unknown): boolean {
  return err instanceof NoServerError || UNREACHABLE.has(String((err as NodeJS.ErrnoException)?.code));
}

/**
 * The url and token for `workspace`; exits NO_SERVER_EXIT when there is no server, and hands any other
 * problem (a non-loopback url, say) to `usage`.
 */
export async function serverFor(
  o: { url?: string; token?: string; workspace: string },
  usage: (message: string) => never,
): Promise<{ url: string; token?: string }> {
  try {
    const ep = await resolveEndpoint({ url: o.url, token: o.token, env: process.env, cwd: o.workspace });
    return { url: ep.url, ...(ep.token !== undefined ? { token: ep.token } : {}) };
  } catch (e) {
    if (!isNoServer(e)) usage((e as Error).message);
    process.stderr.write(`idea-conformance: ${(e as Error).message}\n`);
    process.exit(NO_SERVER_EXIT);
  }
}
