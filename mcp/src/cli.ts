// idea-mcp: the IDEA protocol's topics as MCP tools, for Claude Code and any MCP client.
//   idea-mcp                      stdio (JSON-RPC 2.0 on stdin/stdout; logs on stderr)
//   idea-mcp --http [--port 7300] Streamable HTTP on http://127.0.0.1:<port>/mcp, bearer token required
// The VS Code window is the one whose workspace folder contains --cwd (default: the working folder),
// found through the per-user registry; or give --url ws://127.0.0.1:7200 (token in IDEA_TOKEN). Server and
// token follow the rule all our clients share (runtime/locate.ts resolveEndpoint).
import { randomBytes } from 'node:crypto';
import { resolve } from 'node:path';
import { StdioServerTransport } from '@modelcontextprotocol/sdk/server/stdio.js';
import { checkLoopbackUrl } from '../../runtime/locate';
import { version as PACKAGE_VERSION } from '../package.json';
import { type ConnectionOptions, IdeaConnection } from './connection';
import { startHttpServer } from './http';
import { createMcpServer } from './server';
import { type ToolFilterOptions, toolFilter, toolFilterEnv, toolList } from './tool-filter';
import { knownTools } from './tools';

const USAGE = `usage: idea-mcp [--http [--port N] [--host 127.0.0.1]] [--cwd DIR] [--url ws://127.0.0.1:PORT] [--registry DIR] [--timeout MS] [--headless]
                [--read-only] [--enable-tools NAME,…] [--disable-tools NAME,…]
       idea-mcp --help | --version
  stdio by default. --http: Streamable HTTP on loopback; clients send "Authorization: Bearer <token>",
  the token from IDEA_MCP_TOKEN (at least 16 characters) or, when unset, a random one printed on stderr.
  The IDEA server: --url (loopback only), else IDEA_URL, else the window serving --cwd (the registry, else
  its .vscode/settings.json); its token: IDEA_TOKEN, else the registry's, else the settings file's.
  --headless: when no server serves --cwd at start, serve it in-process with idea-server (registered,
  so \`idea\` finds it too) until idea-mcp exits.
  Tools an agent gets (stdio and --http alike; a hidden tool is neither listed nor callable):
  --read-only only the tools that change nothing (annotations readOnlyHint); --enable-tools only those
  named; --disable-tools all but those named (names as tools/list gives them, e.g. edit_replace; an
  unknown name is an error). Environment: IDEA_MCP_READ_ONLY=1, IDEA_MCP_ENABLE_TOOLS, IDEA_MCP_DISABLE_TOOLS
  (the flags win).`;

export const DEFAULT_HTTP_PORT = 7300;

interface Args extends ConnectionOptions {
  /** --help / --version: print and exit 0, nothing else. */
  info?: 'help' | 'version';
  http: boolean;
  port: number;
  host: string;
  headless: boolean;
  /** The tool filter's options: the environment's, with the flags' in their place. */
  tools: ToolFilterOptions;
}

export function parseArgs(argv: readonly string[], env: NodeJS.ProcessEnv = process.env): Args {
  const args: Args = {
    http: false,
    port: DEFAULT_HTTP_PORT,
    host: '127.0.0.1',
    cwd: process.cwd(),
    headless: false,
    tools: toolFilterEnv(env),
  };
  for (let i = 0; i < argv.length; i++) {
    const a = argv[i]!;
    const value = () => {
      const v = argv[++i];
      if (v === undefined || v.startsWith('--')) throw new Error(`${a} needs a value\n${USAGE}`);
      return v;
    };
    const int = (what: string, min: number, max: number) => {
      const v = Number(value());
      if (!Number.isInteger(v) || v < min || v > max) throw new Error(`${what} must be an integer in [${min}, ${max}]`);
      return v;
    };
    if (a === '--http') args.http = true;
    else if (a === '--stdio') args.http = false;
    else if (a === '--port') args.port = int('--port', 0, 65535);
    else if (a === '--host') args.host = value();
    else if (a === '--cwd') args.cwd = resolve(value());
    else if (a === '--url') args.url = value();
    else if (a === '--registry') args.registry = resolve(value());
    else if (a === '--timeout') args.timeoutMs = int('--timeout', 1, 3_600_000);
    else if (a === '--headless') args.headless = true;
    else if (a === '--read-only') args.tools = { ...args.tools, readOnly: true };
    else if (a === '--enable-tools' || a === '--disable-tools') {
      const names = toolList(value());
      if (names.length === 0) throw new Error(`${a} needs at least one tool name\n${USAGE}`);
      args.tools = { ...args.tools, [a === '--enable-tools' ? 'enable' : 'disable']: names };
    } else if (a === '--help' || a === '-h') return { ...args, info: 'help' };
    else if (a === '--version') return { ...args, info: 'version' };
    else throw new Error(`unknown argument ${a}\n${USAGE}`);
  }
  // Refused here, before any connection: a token is never sent off this machine.
  if (args.url !== undefined) checkLoopbackUrl(args.url, '--url');
  else if (env.IDEA_URL) checkLoopbackUrl(env.IDEA_URL, 'IDEA_URL');
  args.env = env;
  return args;
}

/**
 * --headless: idea-server for --cwd, in-process, when nothing serves it yet; registered (in --registry
 * when given) so the connection below and `idea` at the shell find it. Loaded only with the flag.
 */
async function startHeadless(args: Args, log: (m: string) => void): Promise<{ close(): Promise<void> } | undefined> {
  const { serveIfNone } = await import('@idea-kit/server');
  const h = await serveIfNone({
    cwd: args.cwd ?? process.cwd(),
    env: args.env ?? process.env,
    ...(args.url !== undefined ? { url: args.url } : {}),
    ...(args.registry !== undefined ? { registry: args.registry } : {}),
    register: true,
    log: (m) => log(`idea-server: ${m}`),
  });
  if (!h.served) {
    log(`--headless: ${h.endpoint.url} already serves ${args.cwd}; using it`);
    return undefined;
  }
  process.once('exit', () => h.served!.unregister());
  return h.served;
}

async function main(): Promise<void> {
  const args = parseArgs(process.argv.slice(2));
  if (args.info) {
    process.stdout.write(args.info === 'help' ? `${USAGE}\n` : `idea-mcp ${PACKAGE_VERSION}\n`);
    return;
  }
  const log = (m: string) => process.stderr.write(`idea-mcp: ${m}\n`);
  // Names checked before anything starts: a typo must not leave a tool enabled.
  const filter = toolFilter(args.tools, await knownTools());
  if (filter.summary) log(filter.summary);
  // Before the connection: it then finds the in-process server through the registry like any other.
  const headless = args.headless ? await startHeadless(args, log) : undefined;
  const conn = new IdeaConnection(args);
  let stop: () => Promise<void>;
  if (args.http) {
    const fromEnv = process.env.IDEA_MCP_TOKEN;
    const token = fromEnv ?? randomBytes(24).toString('base64url');
    const http = await startHttpServer({
      port: args.port,
      host: args.host,
      token,
      createServer: () => createMcpServer(conn, filter),
    });
    log(`listening on ${http.url}${fromEnv ? ' (token from IDEA_MCP_TOKEN)' : `, token ${token}`}`);
    stop = () => http.close();
  } else {
    const server = createMcpServer(conn, filter);
    await server.connect(new StdioServerTransport());
    process.stdin.once('end', () => void shutdown());
    stop = () => server.close();
  }
  let stopping = false;
  const shutdown = async () => {
    if (stopping) return;
    stopping = true;
    await stop().catch(() => undefined);
    await conn.close();
    await headless?.close().catch(() => undefined);
    process.exit(0);
  };
  process.once('SIGINT', () => void shutdown());
  process.once('SIGTERM', () => void shutdown());
  // Connect early so the first tools/list is quick; a missing window is reported by the tools.
  conn.get().then(
    (c) => log(`connected to ${c.handshake.version} server (${c.handshake.workspaces.join(', ')})`),
    (e: unknown) => log(e instanceof Error ? e.message : String(e)),
  );
}

const isMain = process.argv[1] !== undefined && /(cli\.ts|idea-mcp(\.mjs)?)$/.test(process.argv[1]);
if (isMain) {
  main().catch((e: unknown) => {
    process.stderr.write(`idea-mcp: ${e instanceof Error ? e.message : String(e)}\n`);
    process.exit(2);
  });
}
