// One workspace served without an editor: the LSP client, the host the core's handlers run on, and
// runtime/idea-server.ts's server (loopback ws, one session of the served version per connection,
// token auth, admission limits, the per-user registry entry). Used by the bin (bin.ts) and in-process
// by `idea --headless` / `idea-mcp --headless` (index.ts). Language servers start on first use, so
// serving starts in well under a second.
import { randomUUID } from 'node:crypto';
import { existsSync, mkdirSync, realpathSync, statSync } from 'node:fs';
import { homedir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { SERVER_PROTOCOL, TRANSPORT } from '../../generated/current';
import { DEFAULT_ADMISSION_LIMITS } from '../../runtime/admission';
import { sha256 } from '../../runtime/hash';
import { createIdeaServer } from '../../runtime/idea-server';
import { resolveCommand } from '../../runtime/programs';
import { registryDir } from '../../runtime/registry';
import { ServerSession } from '../../runtime/server-session';
import { EventScope } from '../../server-core/events/scope';
import { createCoreHandlers } from '../../server-core/handlers';
import { gatedAsClient, RequestGate } from '../../server-core/limits/requests';
import { applyLimitSettings } from '../../server-core/limits/settings';
import { disposeRegexPool, setRegexWorkerScript } from '../../server-core/search/regex-pool';
import { exposeConnection } from '../../server-core/settings-file';
import { configureSpawner, disposeSpawner, prewarmSpawner } from '../../server-core/spawn/processes';
import { recoverInterruptedWrites } from '../../server-core/write/journal';
import { version as PACKAGE_VERSION } from '../package.json';
import { ServerEvents } from './events';
import { fsFileWatcher } from './file-watcher';
import { defaultHistoryDir, ensurePrivateDir } from './history';
import { createHost } from './host';
import { LspClient } from './lsp/client';
import { lspCodeActions } from './lsp/code-actions';
import {
  defaultTypeScriptServer,
  type ServerCommand,
  type TypeScriptChoice,
  typeScriptChoice,
  typeScriptServerOptions,
} from './lsp/config';
import { lspWillRenameFiles } from './lsp/file-renames';
import { lspFormat } from './lsp/formatting';
import { lspHoverAndRename } from './lsp/hover-and-rename';
import { lspSymbolsAndCalls } from './lsp/symbols-and-calls';
import { lspLanguageFeatures } from './lsp-features';
import { chooseRipgrep, type RipgrepChoice } from './ripgrep';

/** Largest request frame accepted (the extension's bound too); bigger ones close the connection with 1009. */
const MAX_FRAME_BYTES = 4 * 1024 * 1024;

export interface ServeOptions {
  /** The folder served (made absolute and real here). */
  workspace: string;
  /** Default: the protocol's default port (then the next 9); 0: any free port. */
  port?: number;
  /** Language servers besides (or replacing) the default TypeScript one. */
  lsp?: readonly ServerCommand[];
  /**
   * --trust-workspace: typescript-language-server may run the workspace's own TypeScript (its
   * node_modules/typescript). Default false: idea-server's own tsserver, nothing of the workspace's.
   */
  trustWorkspace?: boolean;
  /** Default: a random UUID. */
  token?: string;
  /** Default true. */
  auth?: boolean;
  /** Default ~/.idea-protocol/history. */
  historyDir?: string;
  /** Registry directory (default: IDEA_REGISTRY_DIR, else ~/.idea-protocol/servers); false: do not register. */
  registry?: string | false;
  /**
   * Also write the port (and the token, when auth is on) into the workspace's .vscode/settings.json,
   * where existing IDEA clients look (default false: the registry is how idea, idea-mcp and
   * idea-conformance find it, and a headless server should not touch the user's files unasked).
   */
  writeSettings?: boolean;
  /** The regex worker bundle (default: regex-worker.cjs beside this module, see distFile). */
  regexWorker?: string;
  /** The process spawner bundle that starts git and rg (default: spawner.cjs beside this module). */
  spawner?: string;
  env?: NodeJS.ProcessEnv;
  home?: string;
  log?(message: string): void;
}

export interface ServedWorkspace {
  readonly workspace: string;
  readonly url: string;
  readonly port: number;
  readonly token: string;
  readonly authRequired: boolean;
  /** The topics advertised. */
  readonly capabilities: string[];
  /** The events advertised (v0.1.7: files/changed and diagnostics/changed). */
  readonly events: readonly string[];
  readonly ripgrep: RipgrepChoice;
  /** The registry entry's file, when registered. */
  readonly registryFile: string | undefined;
  /** Removes the registry entry now (synchronous: safe in an exit hook). */
  unregister(): void;
  /** Unregisters, stops listening, closes connections and shuts the language servers down. Idempotent. */
  close(): Promise<void>;
}

/** The folder to serve, or why it cannot be served (a usage error for the bin). */
export class WorkspaceError extends Error {
  override readonly name = 'WorkspaceError';
}

export function resolveWorkspace(dir: string): string {
  let real: string;
  try {
    real = realpathSync.native(dir);
  } catch (e) {
    throw new WorkspaceError(
      `--workspace ${dir}: ${(e as NodeJS.ErrnoException).code === 'ENOENT' ? 'no such folder' : (e as Error).message}`,
    );
  }
  if (!statSync(real).isDirectory()) throw new WorkspaceError(`--workspace ${dir} is not a folder`);
  return real;
}

/**
 * A bundle of server-core's (regex-worker.cjs, spawner.cjs): beside the built bin and library (dist/,
 * in a clone and in the installed package alike); run from the sources (tsx), the package's dist/ one
 * folder up.
 */
export function distFile(name: string): string {
  const here = dirname(fileURLToPath(import.meta.url));
  const beside = join(here, name);
  return existsSync(beside) ? beside : join(here, '..', 'dist', name);
}

/**
 * typescript-language-server from our node_modules, else `typescript-language-server` in PATH's
 * absolute folders (the package installed without it, a bundle copied elsewhere), given the tsserver
 * `choice` names either way: when neither exists, TS/JS topics are unavailable, the server still serves.
 */
function typescriptServer(choice: TypeScriptChoice, log: (m: string) => void): ServerCommand {
  try {
    return defaultTypeScriptServer(choice);
  } catch (e) {
    log(`typescript-language-server is not installed beside idea-server (${(e as Error).message}); trying PATH`);
    return {
      language: 'typescript',
      command: 'typescript-language-server',
      args: ['--stdio'],
      ...typeScriptServerOptions(choice),
    };
  }
}

/** The start-up log's account of what runs for each language (a configured command as given, and found where). */
function logLanguageServers(
  lsp: readonly ServerCommand[],
  typescript: TypeScriptChoice | undefined,
  log: (m: string) => void,
  env: NodeJS.ProcessEnv,
): void {
  if (typescript) log(`typescript: ${typescript.description}`);
  for (const c of lsp) {
    if (c.vscodeTypeScript && typescript) continue;
    let found: string;
    try {
      found = resolveCommand(c.command, { env });
    } catch (e) {
      found = (e as Error).message;
    }
    log(`${c.language}: ${[c.command, ...c.args].join(' ')} (${found === c.command ? 'as given' : found}; --lsp)`);
  }
}

export async function serveWorkspace(options: ServeOptions): Promise<ServedWorkspace> {
  const log = options.log ?? ((m: string) => void process.stderr.write(`idea-server: ${m}\n`));
  const env = options.env ?? process.env;
  const home = options.home ?? (env.HOME?.trim() || homedir());
  const workspace = resolveWorkspace(options.workspace);
  const lsp = [...(options.lsp ?? [])];
  // TypeScript's server is ours unless --lsp typescript=… names another; its tsserver is ours unless
  // --trust-workspace (lsp/config.ts typeScriptChoice).
  const typescript = lsp.some((c) => c.language === 'typescript')
    ? undefined
    : typeScriptChoice({ trustWorkspace: options.trustWorkspace ?? false });
  if (typescript) lsp.unshift(typescriptServer(typescript, log));
  const client = new LspClient({ rootPath: workspace, servers: lsp, env });
  const ripgrep = chooseRipgrep(env, home);
  const historyDir = ensurePrivateDir(options.historyDir ?? defaultHistoryDir(home));
  const stateDir = join(home, '.idea-protocol', 'idea-server', sha256(workspace).slice(0, 16));
  mkdirSync(stateDir, { recursive: true, mode: 0o700 });
  const host = createHost({
    workspace,
    language: {
      ...lspLanguageFeatures(client),
      ...lspHoverAndRename(client),
      ...lspSymbolsAndCalls(client),
      ...lspCodeActions(client),
      ...lspFormat(client),
      ...lspWillRenameFiles(client),
    },
    historyDir,
    ripgrep: ripgrep.path,
    stateDir,
    log,
  });
  // files/changed and diagnostics/changed (events.ts): the watcher enters only folders whose files the
  // event scope may report, and runs only while someone subscribed.
  const scope = new EventScope(host.folders);
  host.watcher = fsFileWatcher({ folders: () => host.folders.paths(), skipFolder: (p) => !scope.reportable(p), log });
  const events = new ServerEvents({ scope, watcher: host.watcher, client, log });
  host.coverage = events.coverage; // the files requests name or write are opened for diagnostics/changed
  // As the extension activates (extension/src/extension.ts): a write the last process was killed in the
  // middle of is undone before any client can see the files; then the limits (defaults: no
  // machine-scoped settings here) and the regex worker threads user expressions run in.
  await recoverInterruptedWrites(stateDir, log);
  const stopLimits = applyLimitSettings(host.limits, log);
  setRegexWorkerScript(options.regexWorker ?? distFile('regex-worker.cjs'));
  // git and rg start in the spawner process (forked once serving, below).
  configureSpawner({ script: options.spawner ?? distFile('spawner.cjs'), log });
  const handlers = createCoreHandlers(host);
  // Requests in flight across all connections (idea.server.limits.maxRequestsInFlight).
  const gate = new RequestGate();
  const token = options.token ?? randomUUID();
  const authRequired = options.auth ?? true;
  const registry = options.registry === false ? undefined : (options.registry ?? registryDir(env));
  let server: Awaited<ReturnType<typeof createIdeaServer>>;
  try {
    server = await createIdeaServer({
      protocol: SERVER_PROTOCOL,
      host: '127.0.0.1',
      port: options.port ?? TRANSPORT.defaultPort,
      portAttempts: TRANSPORT.portAttempts,
      maxPayload: MAX_FRAME_BYTES,
      limits: DEFAULT_ADMISSION_LIMITS,
      handlers: () => handlers,
      // Each connection is its own client for the fair limiters (processes, regex workers), and its
      // requests count against the per-server bound: the extension's hook, exactly.
      aroundRequest: (connection, request, call) => gatedAsClient(gate, `connection-${connection.id}`, request, call),
      auth: { required: authRequired, token },
      workspaces: () => [workspace],
      session: {
        handshakeTimeoutMs: Math.max(250, DEFAULT_ADMISSION_LIMITS.pendingDeadlineMs - 1000),
        onHandlerError: (e, topic, id) => log(`${topic} ${id}: ${e instanceof Error ? e.message : String(e)}`),
        ...events.session,
      },
      createSession: (sessionOptions) => events.track(new ServerSession(SERVER_PROTOCOL, sessionOptions)),
      ...(registry !== undefined ? { registry: { dir: registry, ide: `idea-server ${PACKAGE_VERSION}` } } : {}),
      // Settings keys first, registry entry last (as the extension): whoever sees the entry finds the keys.
      ...(options.writeSettings
        ? { onListening: ({ port }) => exposeConnection(workspace, port, authRequired ? token : undefined, log) }
        : {}),
    });
  } catch (e) {
    events.dispose();
    stopLimits();
    await client.shutdown();
    throw e;
  }
  events.attach((event, data) => server.emit(event, data));
  // Forked just after start-up (which does not wait for it), so the first request does not wait either.
  setImmediate(() => {
    if (!closing) prewarmSpawner();
  });
  if (server.registryError) log(`could not register in ${registry}: ${server.registryError.message}`);
  // What the sessions advertise: the topics that have a handler, in the topic index's order, plus
  // events/subscribe and /unsubscribe (the session serves them, as there are events).
  const capabilities = new ServerSession(SERVER_PROTOCOL, {
    handlers,
    workspaces: () => [workspace],
    send: () => {},
    close: () => {},
    ...events.session,
  }).capabilities;
  log(
    `serving ${workspace} on ${server.url} (protocol ${SERVER_PROTOCOL.version}, ${capabilities.length} topics, events ${events.session.events.length}, auth ${authRequired ? 'required' : 'off'})`,
  );
  log(`ripgrep: ${ripgrep.path ?? '-'} (${ripgrep.source}); local history: ${historyDir}`);
  logLanguageServers(lsp, typescript, log, env);
  if (server.registration) log(`registered in ${registry}`);
  let closing: Promise<void> | undefined;
  return {
    workspace,
    url: server.url,
    port: server.port,
    token,
    authRequired,
    capabilities,
    events: events.session.events,
    ripgrep,
    registryFile: server.registration?.file,
    unregister: () => server.unregister(),
    close: () => {
      server.unregister();
      // The watches first: nothing is reported from a server that is going away.
      events.dispose();
      closing ??= Promise.all([server.close(), client.shutdown()]).then(() => {
        stopLimits();
        disposeRegexPool();
        disposeSpawner();
      });
      return closing;
    },
  };
}
