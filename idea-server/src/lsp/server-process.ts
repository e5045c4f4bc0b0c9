// One language server child process spoken to over stdio with the LSP team's client libraries: spawn,
// initialize, bounded requests that send $/cancelRequest when given up, clean shutdown (shutdown +
// exit, then SIGKILL of its whole process group after a timeout). The child leads its own process
// group so that helpers it spawns (tsserver) go with it. It runs in the workspace, so its program is
// never looked for there (runtime/programs.ts): a bare name is found in PATH's absolute folders,
// a relative path is taken from idea-server's own working folder, and its PATH (what it starts in turn
// searches) keeps only absolute folders.
import { type ChildProcess, spawn } from 'node:child_process';
import { basename } from 'node:path';
import { pathToFileURL } from 'node:url';
import {
  type ApplyWorkspaceEditParams,
  type ApplyWorkspaceEditResult,
  CancellationTokenSource,
  ErrorCodes,
  type InitializeParams,
  type InitializeResult,
  type ProtocolConnection,
  type PublishDiagnosticsParams,
  type ServerCapabilities,
} from 'vscode-languageserver-protocol/node';
import { ProgramNotFoundError, programEnv, RELATIVE_NEVER, resolveCommand } from '../../../runtime/programs';
import { type Bounds, bounded, type FailEarly } from './bounded';
import type { ServerCommand } from './config';
import { lspConnection } from './connection';
import { LspUnavailableError } from './errors';

export interface Exit {
  code: number | null;
  signal: NodeJS.Signals | null;
  error?: Error;
}

/** How much of the server's stderr is kept for error messages. */
const STDERR_TAIL = 4096;

/** The code action kinds idea-server takes (LSP's base kinds: every sub-kind of them is taken too). */
export const CODE_ACTION_KINDS = [
  '',
  'quickfix',
  'refactor',
  'refactor.extract',
  'refactor.inline',
  'refactor.move',
  'refactor.rewrite',
  'source',
  'source.organizeImports',
  'source.fixAll',
];

/** What idea-server tells its language servers it can do (the bench's floors send the same). */
export const CLIENT_CAPABILITIES: InitializeParams['capabilities'] = {
  general: { positionEncodings: ['utf-16'] }, // what the IDEA wire's characters count, as VS Code's do
  textDocument: {
    synchronization: { dynamicRegistration: false, didSave: false },
    definition: { linkSupport: true }, // a LocationLink's targetRange is the whole declaration
    references: {},
    documentSymbol: { hierarchicalDocumentSymbolSupport: true },
    publishDiagnostics: { versionSupport: true },
    callHierarchy: {}, // typescript-language-server offers it only to clients that say so
    // Code actions as literals, with their edit resolved on demand (typescript-language-server
    // offers refactors and fix-all only then). Not disabledSupport: a server then leaves out what
    // cannot apply (typescript-language-server: every refactoring not applicable at the position),
    // as VS Code's list does.
    codeAction: {
      codeActionLiteralSupport: { codeActionKind: { valueSet: CODE_ACTION_KINDS } },
      isPreferredSupport: true,
      dataSupport: true,
      resolveSupport: { properties: ['edit'] },
    },
    formatting: {},
    rangeFormatting: {},
  },
  workspace: {
    workspaceFolders: true,
    // Edits the server asks for are collected into a transaction (collectEdits), file operations included.
    applyEdit: true,
    workspaceEdit: { documentChanges: true, resourceOperations: ['create', 'rename', 'delete'] },
    fileOperations: { willRename: true },
    symbol: {},
  },
};

/** Most workspace/applyEdit requests one collection keeps (collectEdits); beyond, the run fails. */
export const MAX_COLLECTED_EDITS = 256;

/** What a workspace/applyEdit asked outside any collection is answered: nothing is written behind the transaction. */
export const NOT_APPLIED = 'idea-server writes only through its own transactions; this edit was not applied';

/** The edits a language server asked for (workspace/applyEdit) while a collection ran, never applied. */
export class TooManyEditsError extends Error {
  override readonly name = 'TooManyEditsError';
}

/** One request in flight and how many callers still wait for it. */
interface Shared {
  work: Promise<unknown>;
  cts: CancellationTokenSource;
  callers: number;
}

export class ServerProcess {
  private stopping = false;
  /** Requests in flight by method and params, for identical ones to share (see `request`). */
  private readonly shared = new Map<string, Shared>();
  /** Waits failed early when the process goes away unasked (see `failEarly`). */
  private readonly crashWaiters = new Set<(e: unknown) => void>();
  private stderrTail = '';
  private exitInfo: Exit | undefined;
  /** The commands its initialize answer offers for workspace/executeCommand (diagnostics-pull.ts asks). */
  executeCommands: ReadonlySet<string> = new Set();
  /** What its initialize answer says it offers ({} when it said nothing). */
  capabilities: Readonly<ServerCapabilities> = {};
  /** The workspace/applyEdit requests of the collection running now (collectEdits), else undefined. */
  private collector: { edits: unknown[]; overflow: boolean } | undefined;
  /** Exclusive runs (code actions listed, collected) one at a time: the last one's end. */
  private exclusives: Promise<unknown> = Promise.resolve();
  /** Resolves when the process is gone (exited, or never started). */
  readonly exited: Promise<Exit>;
  /** Rejects when the process goes away while nobody asked it to stop: fails pending waits early. */
  readonly crashed: Promise<never>;

  private constructor(
    readonly command: ServerCommand,
    /** The program run: command.command resolved (runtime/programs.ts). */
    readonly program: string,
    private readonly child: ChildProcess,
    private readonly connection: ProtocolConnection,
    onDiagnostics: (p: PublishDiagnosticsParams) => void,
  ) {
    this.exited = new Promise<Exit>((resolve) => {
      const gone = (e: Exit) => {
        if (this.exitInfo) return;
        this.exitInfo = e;
        this.killGroup();
        try {
          this.connection.dispose();
        } catch {
          /* already disposed */
        }
        resolve(e);
      };
      child.once('error', (error) => gone({ code: null, signal: null, error }));
      child.once('exit', (code, signal) => gone({ code, signal }));
    });
    this.crashed = this.exited.then((e) => {
      throw this.failure(e);
    });
    this.crashed.catch((e: unknown) => {
      for (const fail of [...this.crashWaiters]) fail(e);
    });
    child.stdin?.on('error', () => {}); // EPIPE when it dies mid-write: reported by 'exit' instead
    child.stdout?.on('error', () => {});
    child.stderr?.on('data', (d: Buffer) => {
      this.stderrTail = (this.stderrTail + d.toString('utf8')).slice(-STDERR_TAIL);
    });
    connection.onError(() => {});
    connection.onNotification('textDocument/publishDiagnostics', (p: PublishDiagnosticsParams) => onDiagnostics(p));
    // The few server-to-client requests a server may insist on; anything else gets MethodNotFound.
    connection.onRequest('workspace/configuration', (p: { items?: unknown[] }) =>
      Array.isArray(p?.items) ? p.items.map(() => null) : [],
    );
    connection.onRequest('client/registerCapability', () => null);
    connection.onRequest('client/unregisterCapability', () => null);
    connection.onRequest('window/workDoneProgress/create', () => null);
    connection.onRequest('window/showMessageRequest', () => null);
    // Edits the server wants written (a command's result, H22): collected for the transaction while a
    // collection runs, refused otherwise. Never written here.
    connection.onRequest('workspace/applyEdit', (p: ApplyWorkspaceEditParams) => this.applyEditAsked(p));
    connection.listen();
  }

  /**
   * Spawns and initializes the server; a missing command, a failed preflight or a failed start rejects
   * with LspUnavailableError. `env` is the environment the server's program is found in and runs with
   * (its PATH cut to absolute folders).
   */
  static async start(
    command: ServerCommand,
    rootPath: string,
    bounds: Bounds,
    onDiagnostics: (p: PublishDiagnosticsParams) => void,
    env: NodeJS.ProcessEnv = process.env,
  ): Promise<ServerProcess> {
    const refused = command.preflight?.();
    if (refused !== undefined) throw new LspUnavailableError(command.language, 'missing', refused);
    const childEnv = programEnv(env);
    let program: string;
    try {
      program = resolveCommand(command.command, { env: childEnv });
    } catch (e) {
      throw e instanceof ProgramNotFoundError
        ? new LspUnavailableError(
            command.language,
            'missing',
            `command not found: ${command.command} (not in PATH's absolute folders; ${RELATIVE_NEVER})`,
          )
        : new LspUnavailableError(
            command.language,
            'failed',
            `${command.command} could not be started: ${(e as Error).message}`,
          );
    }
    let child: ChildProcess;
    try {
      child = spawn(program, command.args, {
        cwd: rootPath,
        env: childEnv,
        stdio: ['pipe', 'pipe', 'pipe'],
        detached: true,
        windowsHide: true,
      });
    } catch (e) {
      // invalid arguments (a NUL byte…) throw here instead of emitting 'error'
      throw new LspUnavailableError(
        command.language,
        'failed',
        `${command.command} could not be started: ${(e as Error).message}`,
      );
    }
    const connection = lspConnection(child.stdout!, child.stdin!);
    const server = new ServerProcess(command, program, child, connection, onDiagnostics);
    const rootUri = pathToFileURL(rootPath).href;
    const params: InitializeParams = {
      processId: process.pid, // servers built on vscode-languageserver exit when this process is gone
      clientInfo: { name: 'idea-server' },
      initializationOptions: command.initializationOptions,
      rootUri,
      workspaceFolders: [{ uri: rootUri, name: basename(rootPath) || rootPath }],
      capabilities: CLIENT_CAPABILITIES,
    };
    try {
      const init = await bounded(
        connection.sendRequest<InitializeResult | null>('initialize', params),
        `starting the ${command.language} language server`,
        bounds,
        { failEarly: server.failEarly },
      );
      const caps = init?.capabilities;
      if (typeof caps === 'object' && caps !== null) server.capabilities = caps;
      const commands = caps?.executeCommandProvider?.commands;
      if (Array.isArray(commands)) server.executeCommands = new Set(commands.filter((c) => typeof c === 'string'));
      await connection.sendNotification('initialized', {});
    } catch (e) {
      // Gone before it answered: say why (command not found, exit code) rather than "connection disposed".
      const gone = server.exitInfo ? server.unavailable(server.exitInfo) : undefined;
      server.kill();
      throw (
        gone ??
        (e instanceof LspUnavailableError
          ? e
          : new LspUnavailableError(command.language, 'failed', `it did not start: ${(e as Error).message}`))
      );
    }
    return server;
  }

  get pid(): number | undefined {
    return this.child.pid;
  }
  get alive(): boolean {
    return this.exitInfo === undefined && !this.stopping;
  }

  /** For `bounded`: fails a wait when the process goes away unasked (at once when it is gone already). */
  readonly failEarly: FailEarly = (fail) => {
    if (this.exitInfo) {
      this.crashed.catch(fail);
      return () => {};
    }
    this.crashWaiters.add(fail);
    return () => this.crashWaiters.delete(fail);
  };

  /**
   * A request bounded by the signal and timeout; giving up sends $/cancelRequest. Fails early if the
   * server dies. Identical requests (same method and params) in flight together share one: a burst
   * of the same question (an agent asking again, 1,000 at once) costs the server one answer. Each
   * caller keeps its own bounds; the shared request is cancelled only once every caller gave up; a
   * caller that joined gets its own copy of the answer. Any notification (didOpen, didChange,
   * didClose) ends the sharing, so a request sent after a change never gets an answer from before it.
   */
  request<R>(method: string, params: unknown, what: string, bounds: Bounds): Promise<R> {
    if (!this.alive) return this.crashed;
    const key = `${method}\n${JSON.stringify(params)}`;
    const found = this.shared.get(key);
    const shared = found ?? this.send(key, method, params);
    shared.callers++;
    let left = false;
    const leave = () => {
      if (!left) {
        left = true;
        shared.callers--;
      }
    };
    return bounded(shared.work as Promise<R>, what, bounds, {
      failEarly: this.failEarly,
      onGiveUp: () => {
        leave();
        if (shared.callers > 0) return;
        if (this.shared.get(key) === shared) this.shared.delete(key);
        if (this.alive) shared.cts.cancel();
      },
    }).then(
      (answer) => {
        leave();
        return found ? structuredClone(answer) : answer;
      },
      (e: unknown) => {
        leave();
        throw e;
      },
    );
  }

  private send(key: string, method: string, params: unknown): Shared {
    const cts = new CancellationTokenSource();
    const work = this.connection.sendRequest(method, params, cts.token).catch(async (e: unknown) => {
      // A server that died fails its pending requests as "connection disposed": say it crashed instead.
      const code = (e as { code?: unknown }).code;
      if (code === ErrorCodes.PendingResponseRejected || code === ErrorCodes.ConnectionInactive) {
        await bounded(this.exited, 'exit', { timeoutMs: 5_000 }).catch(() => {});
        if (this.exitInfo) throw this.failure(this.exitInfo);
      }
      throw e;
    });
    const shared: Shared = { work, cts, callers: 0 };
    this.shared.set(key, shared);
    const done = () => {
      if (this.shared.get(key) === shared) this.shared.delete(key);
      cts.dispose();
    };
    work.then(done, done);
    return shared;
  }

  /**
   * Runs `run` alone among this server's exclusive runs (waiting for the one before within `bounds`):
   * code actions need it, since typescript-language-server forgets how to resolve the actions it listed
   * whenever it is asked for code actions again, and an applyEdit names no request.
   */
  async exclusive<R>(run: () => Promise<R>, bounds: Bounds): Promise<R> {
    const before = this.exclusives;
    let release!: () => void;
    const mine = new Promise<void>((resolve) => {
      release = resolve;
    });
    this.exclusives = before.then(() => mine);
    try {
      await bounded(before, 'waiting for an earlier code action to finish', bounds, { failEarly: this.failEarly });
      return await run();
    } finally {
      release();
    }
  }

  /**
   * Runs `run` (requests that may make the server ask for edits: workspace/executeCommand) exclusively,
   * while every workspace/applyEdit the server sends is collected, answered applied and not applied: the
   * caller writes them as one transaction (T54, H22). More than MAX_COLLECTED_EDITS edits fail the run
   * (TooManyEditsError).
   */
  collectEdits<R>(run: () => Promise<R>, bounds: Bounds): Promise<{ result: R; edits: unknown[] }> {
    return this.exclusive(async () => {
      const collector = { edits: [] as unknown[], overflow: false };
      this.collector = collector;
      try {
        const result = await run();
        if (collector.overflow)
          throw new TooManyEditsError(
            `the language server asked for more than ${MAX_COLLECTED_EDITS} workspace edits; nothing was changed`,
          );
        return { result, edits: collector.edits };
      } finally {
        this.collector = undefined;
      }
    }, bounds);
  }

  private applyEditAsked(p: ApplyWorkspaceEditParams): ApplyWorkspaceEditResult {
    const c = this.collector;
    if (!c) return { applied: false, failureReason: NOT_APPLIED };
    if (c.edits.length >= MAX_COLLECTED_EDITS) {
      c.overflow = true;
      return { applied: false, failureReason: `more than ${MAX_COLLECTED_EDITS} edits` };
    }
    c.edits.push(typeof p === 'object' && p !== null ? p.edit : undefined);
    return { applied: true };
  }

  notify(method: string, params: unknown): void {
    this.shared.clear();
    if (this.alive) this.connection.sendNotification(method, params).catch(() => {});
  }

  /** shutdown + exit; whatever is still running after `timeoutMs` is killed (with its process group). */
  async stop(timeoutMs: number): Promise<void> {
    if (this.exitInfo) return;
    this.stopping = true;
    const bounds = { timeoutMs };
    try {
      await bounded(this.connection.sendRequest('shutdown'), 'shutdown', bounds, { failEarly: this.failEarly });
      await this.connection.sendNotification('exit');
    } catch {
      // no answer: it is killed below
    }
    try {
      await bounded(this.exited, 'exit', bounds);
    } catch {
      this.kill();
      await this.exited;
    }
  }

  kill(): void {
    this.stopping = true;
    this.killGroup();
    try {
      this.child.kill('SIGKILL');
    } catch {
      /* already gone */
    }
  }

  private killGroup(): void {
    const pid = this.child.pid;
    if (pid === undefined || process.platform === 'win32') return;
    try {
      process.kill(-pid, 'SIGKILL');
    } catch {
      /* no such group: nothing left */
    }
  }

  /** Why requests fail once the process is gone: shut down by us, or the reason it went. */
  private failure(e: Exit): LspUnavailableError {
    return this.stopping
      ? new LspUnavailableError(this.command.language, 'stopped', 'it was shut down')
      : this.unavailable(e);
  }

  private unavailable(e: Exit): LspUnavailableError {
    const { language } = this.command;
    const command = this.program;
    if (e.error) {
      const code = (e.error as NodeJS.ErrnoException).code;
      if (code === 'ENOENT') return new LspUnavailableError(language, 'missing', `command not found: ${command}`);
      return new LspUnavailableError(language, 'failed', `${command} could not be started: ${e.error.message}`);
    }
    const how = e.signal ? `signal ${e.signal}` : `code ${e.code}`;
    const tail = this.stderrTail.trim().split('\n').slice(-3).join(' | ');
    return new LspUnavailableError(language, 'crashed', `the server exited (${how})${tail ? `: ${tail}` : ''}`);
  }
}
