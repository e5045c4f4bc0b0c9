// `--headless` for idea and idea-mcp: when no server serves the folder (no window, no IDEA_URL), serve
// it in-process with idea-server until the caller closes it. Where a server already serves the folder,
// nothing starts: a VS Code window keeps precedence (it has the unsaved editor state).
import { type Endpoint, NoServerError, resolveEndpoint } from '../../runtime/locate';
import { type ServedWorkspace, serveWorkspace } from './serve';

export interface HeadlessOptions {
  /** The folder to serve when nobody does: the caller's working folder. */
  cwd: string;
  env: NodeJS.ProcessEnv;
  /** The server flags the caller has (they win over discovery, as always). */
  url?: string;
  token?: string;
  /** Registry directory the caller reads (default: IDEA_REGISTRY_DIR, else the per-user one). */
  registry?: string;
  /** Register the in-process server there (a long-lived MCP server: other clients may find it). */
  register: boolean;
  log(message: string): void;
}

export interface Headless {
  endpoint: Endpoint;
  /** The in-process server, when one was started; close it before exiting. */
  served?: ServedWorkspace;
}

export async function serveIfNone(o: HeadlessOptions): Promise<Headless> {
  try {
    const endpoint = await resolveEndpoint({
      cwd: o.cwd,
      env: o.env,
      ...(o.url !== undefined ? { url: o.url } : {}),
      ...(o.token !== undefined ? { token: o.token } : {}),
      ...(o.registry !== undefined ? { registry: o.registry } : {}),
    });
    return { endpoint };
  } catch (e) {
    if (!(e instanceof NoServerError)) throw e;
  }
  const served = await serveWorkspace({
    workspace: o.cwd,
    port: 0,
    registry: o.register ? o.registry : false,
    env: o.env,
    log: o.log,
  });
  return {
    endpoint: { url: served.url, token: served.token, from: { url: 'flag', token: 'flag' } },
    served,
  };
}
