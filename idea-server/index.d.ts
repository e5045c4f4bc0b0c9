// The types of @idea-kit/server's library entry (dist/index.mjs), shipped beside it: the sources are
// not in the package. test/idea-server/declarations.ts checks (in `npm run typecheck`) that
// idea-server/src/index.ts still satisfies every declaration here.
/// <reference types="node" />

export interface ServerCommand {
  /** The language the server is for: the key of its process and of its error messages. */
  language: string;
  command: string;
  args: string[];
  /** Sent as the initialize request's initializationOptions. */
  initializationOptions?: unknown;
  /** typescript-language-server: answers shown as VS Code's TypeScript extension shows them (vscode-typescript.ts). */
  vscodeTypeScript?: boolean;
  /** Checked before every start: why the server must not start (it is then unavailable), or undefined. */
  preflight?(): string | undefined;
}

/**
 * Parses `LANG=COMMAND`. COMMAND is split on whitespace (double or single quotes keep spaces inside one
 * argument) and run without a shell, so nothing in it is interpreted beyond that split.
 */
export declare function parseServerSpec(spec: string): ServerCommand;

/** The command's usage text (--help). */
export declare const USAGE: string;

export declare class UsageError extends Error {
  readonly name = 'UsageError';
}

export interface ServerArgs {
  /** --help / --version: print and exit 0, nothing else. */
  info?: 'help' | 'version';
  /** As typed (start.ts makes it absolute and real). */
  workspace: string;
  /** Undefined: the protocol's default port. */
  port?: number;
  lsp: ServerCommand[];
  token?: string;
  auth: boolean;
  historyDir?: string;
  /** Registry directory; undefined: IDEA_REGISTRY_DIR, else the default. */
  registry?: string;
  /** false with --no-registry. */
  register: boolean;
  /** --write-settings: the port and token also go to the workspace's .vscode/settings.json. */
  writeSettings: boolean;
  /** --trust-workspace: typescript-language-server may run the workspace's own TypeScript. */
  trustWorkspace: boolean;
}

export declare function parseServerArgs(argv: readonly string[], env?: NodeJS.ProcessEnv): ServerArgs;

export interface RipgrepChoice {
  path: string | null;
  /** For the log: "PATH", "VS Code at <root>", or "none: the JavaScript search". */
  source: string;
}

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
   * where existing IDEA clients look (default false).
   */
  writeSettings?: boolean;
  /** The regex worker bundle (default: regex-worker.cjs beside this module). */
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
export declare class WorkspaceError extends Error {
  readonly name = 'WorkspaceError';
}

export declare function serveWorkspace(options: ServeOptions): Promise<ServedWorkspace>;

/** Where a client found the url or the token. */
export type EndpointSource = 'flag' | 'environment' | 'registry' | 'workspace settings';

/** Where a client connects: the url and token it found, and where each came from. */
export interface Endpoint {
  url: string;
  token?: string;
  from: { url: EndpointSource; token?: EndpointSource };
}

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

export declare function serveIfNone(o: HeadlessOptions): Promise<Headless>;
