// idea-server's command line. Parsing never touches the file system or the network: it only shapes and
// checks what was typed; start.ts resolves the workspace. Errors are UsageError (the bin exits 2).
import { parseServerSpec, type ServerCommand } from './lsp/config';

export const USAGE = `usage: idea-server --workspace DIR [--port N] [--lsp LANG=COMMAND]… [--token TOKEN] [--no-auth]
                   [--history-dir DIR] [--registry DIR] [--no-registry] [--write-settings]
                   [--trust-workspace]
       idea-server --help | --version
  Serves the IDEA protocol for the folder DIR without an editor, on 127.0.0.1 (port N, default 7200,
  the next free one of the following 9 when taken; 0 = any free port). Language servers start lazily:
  typescript-language-server for TS/JS, others with --lsp (repeatable), e.g.
  --lsp "python=pyright-langserver --stdio" (run without a shell; quotes group an argument).
  What it runs, nothing DIR chose: typescript-language-server from its own dependencies (else PATH's)
  with its own tsserver, never DIR's node_modules/typescript; rg from PATH, else VS Code's, else
  none (a JavaScript search); git from PATH; --lsp commands as given (a bare name from PATH, a
  relative path from the current folder). PATH means its absolute folders only: a relative entry
  (".", "node_modules/.bin") would be a folder inside DIR. DIR/.vscode/settings.json names no program.
  --trust-workspace: let typescript-language-server run DIR's own TypeScript (its
  node_modules/typescript, as an editor would): only for a folder whose code you would run anyway.
  The token: --token, else IDEA_SERVER_TOKEN, else a random one (written to the per-user registry,
  ~/.idea-protocol/servers or IDEA_REGISTRY_DIR, where idea, idea-mcp and idea-conformance find it).
  --write-settings: also write idea.server.port and idea.server.authToken into DIR/.vscode/settings.json,
  as the VS Code extension does, for IDEA clients that discover servers only there (the file is made 0600
  and, in a git repository, listed in .git/info/exclude).
  Local history: VS Code's format in --history-dir (default ~/.idea-protocol/history). Logs go to stderr.`;

export class UsageError extends Error {
  override readonly name = 'UsageError';
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

/** Tokens shorter than this are refused: the token is what keeps other local processes out. */
export const MIN_TOKEN_LENGTH = 16;

export function parseServerArgs(argv: readonly string[], env: NodeJS.ProcessEnv = {}): ServerArgs {
  const out: Omit<ServerArgs, 'workspace'> & { workspace?: string } = {
    lsp: [],
    auth: true,
    register: true,
    writeSettings: false,
    trustWorkspace: false,
  };
  for (let i = 0; i < argv.length; i++) {
    const raw = argv[i]!;
    // --name=value is the same as --name value.
    const eq = raw.startsWith('--') ? raw.indexOf('=') : -1;
    const a = eq > 0 ? raw.slice(0, eq) : raw;
    const value = (): string => {
      const v = eq > 0 ? raw.slice(eq + 1) : argv[++i];
      if (v === undefined || (eq < 0 && v.startsWith('--'))) throw new UsageError(`${a} needs a value`);
      if (v === '') throw new UsageError(`${a} needs a non-empty value`);
      return v;
    };
    const flag = () => {
      if (eq > 0) throw new UsageError(`${a} takes no value`);
    };
    switch (a) {
      case '--help':
      case '-h':
        return { ...out, workspace: out.workspace ?? '', info: 'help' };
      case '--version':
        return { ...out, workspace: out.workspace ?? '', info: 'version' };
      case '--workspace':
        if (out.workspace !== undefined) throw new UsageError('--workspace given twice (one folder per server)');
        out.workspace = value();
        break;
      case '--port': {
        const v = value();
        const n = Number(v);
        if (!/^\d+$/.test(v) || n > 65535) throw new UsageError(`--port must be an integer 0–65535, got "${v}"`);
        out.port = n;
        break;
      }
      case '--lsp':
        try {
          out.lsp.push(parseServerSpec(value()));
        } catch (e) {
          throw new UsageError(`--lsp: ${(e as Error).message}`);
        }
        break;
      case '--token':
        out.token = value();
        break;
      case '--no-auth':
        flag();
        out.auth = false;
        break;
      case '--history-dir':
        out.historyDir = value();
        break;
      case '--registry':
        out.registry = value();
        break;
      case '--no-registry':
        flag();
        out.register = false;
        break;
      case '--write-settings':
        flag();
        out.writeSettings = true;
        break;
      case '--trust-workspace':
        flag();
        out.trustWorkspace = true;
        break;
      default:
        throw new UsageError(`unknown argument ${raw}`);
    }
  }
  if (out.workspace === undefined) throw new UsageError('--workspace DIR is required');
  out.token ??= env.IDEA_SERVER_TOKEN?.trim() || undefined;
  if (out.token !== undefined) {
    if (out.token.length < MIN_TOKEN_LENGTH)
      throw new UsageError(`the token must be at least ${MIN_TOKEN_LENGTH} characters`);
    if (/[\s\0]/.test(out.token)) throw new UsageError('the token must not contain white space');
  }
  return out as ServerArgs;
}
