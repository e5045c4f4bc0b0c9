// The LSP client idea-server serves nav/definition, nav/references, nav/symbols and diag/list with:
// one language server per language, started lazily on the first request for a file of that language,
// restarted after a crash (at most `maxRestarts` starts in `restartWindowMs` beyond the first, then
// "unavailable"), shut down cleanly. Every request is bounded by a timeout and cancellable with an
// AbortSignal. Failures are LspUnavailableError / LspTimeoutError / LspAbortError / LspFileError, for
// the caller to turn into protocol errors.
import { extname, isAbsolute, normalize } from 'node:path';
import type {
  DocumentSymbol,
  Diagnostic as LspDiagnostic,
  Location as LspLocation,
  ServerCapabilities,
  SymbolInformation,
} from 'vscode-languageserver-protocol';
import type {
  DiagListResult,
  NavDefinitionResult,
  NavReferencesResult,
  NavSymbolsResult,
  SeverityFilter,
} from '../../../generated/current';
import type { Bounds } from './bounded';
import { bounded } from './bounded';
import { languageOfFile, type ServerCommand, serverTable } from './config';
import {
  type DefinitionAnswer,
  definitionLocation,
  definitionTargets,
  diagnosticsResult,
  fromNavTree,
  fromNavto,
  referencesResult,
  symbolsResult,
  widenToSymbol,
} from './convert';
import { checkerFindsNothing, TSSERVER_REQUEST } from './diagnostics-pull';
import { DiagnosticsStore, SETTLE_TIMES, type SettleTimes } from './diagnostics-store';
import { Documents, lineCount, lineLength, MAX_DOCUMENT_BYTES, type OpenDocument, readTextBounded } from './documents';
import { LspAbortError, LspFileError, LspPositionError, LspTimeoutError, LspUnavailableError } from './errors';
import { ServerProcess } from './server-process';
import { asVsCodeDiagnostics, asVsCodeSymbols } from './vscode-typescript';

export interface LspClientOptions {
  /** The workspace root the servers are started in (rootUri). */
  rootPath: string;
  /** `LANG=COMMAND` specs (or parsed commands) besides the default TypeScript server. */
  servers?: readonly (string | ServerCommand)[];
  requestTimeoutMs?: number;
  startTimeoutMs?: number;
  shutdownTimeoutMs?: number;
  /** Bound on waiting for a file's diagnostics to arrive (then what arrived is returned). */
  diagnosticsTimeoutMs?: number;
  maxRestarts?: number;
  restartWindowMs?: number;
  settleTimes?: SettleTimes;
  maxDocumentBytes?: number;
  /** The environment servers are found in and run with, PATH cut to absolute folders (default: this process's). */
  env?: NodeJS.ProcessEnv;
}

export interface CallOptions {
  signal?: AbortSignal;
  timeoutMs?: number;
}

export const DEFAULTS = {
  requestTimeoutMs: 60_000,
  startTimeoutMs: 60_000,
  shutdownTimeoutMs: 5_000,
  diagnosticsTimeoutMs: 30_000,
  maxRestarts: 3,
  restartWindowMs: 60_000,
} as const;

/** Called with a file's diagnostics each time a language server publishes them. */
export type DiagnosticsListener = (path: string, diagnostics: LspDiagnostic[]) => void;

interface Live {
  server: ServerProcess;
  documents: Documents;
  diagnostics: DiagnosticsStore;
  /** Document symbols as this server's clients are shown them (vscode-typescript.ts for the TS server). */
  symbols<T extends DocumentSymbol | SymbolInformation>(answer: T[] | null): T[] | null;
}

/** One language: its current server process (if any) and the restart bookkeeping. */
class Language {
  private live: Live | undefined;
  private starting: Promise<Live> | undefined;
  private readonly starts: number[] = [];
  private lastFailure: LspUnavailableError | undefined;
  private closed = false;

  constructor(
    private readonly command: ServerCommand,
    private readonly client: Required<Omit<LspClientOptions, 'servers'>>,
    private readonly published: DiagnosticsListener,
  ) {}

  get pid(): number | undefined {
    return this.live?.server.alive ? this.live.server.pid : undefined;
  }
  get current(): Live | undefined {
    return this.live;
  }

  /** The server when it runs now (no start needed), else undefined. */
  running(): Live | undefined {
    return !this.closed && this.live?.server.alive ? this.live : undefined;
  }

  /** The running server, started (or restarted) if need be. */
  get(): Promise<Live> {
    const { language } = this.command;
    if (this.closed) return Promise.reject(new LspUnavailableError(language, 'stopped', 'the client was shut down'));
    if (this.live?.server.alive) return Promise.resolve(this.live);
    if (this.starting) return this.starting;
    const now = Date.now();
    while (this.starts.length > 0 && this.starts[0]! <= now - this.client.restartWindowMs) this.starts.shift();
    if (this.starts.length > this.client.maxRestarts) {
      const why = this.lastFailure?.message.replace(/^language server unavailable for [^:]*: /, '') ?? 'it stopped';
      return Promise.reject(
        new LspUnavailableError(
          language,
          this.lastFailure?.reason ?? 'crashed',
          `${why} (gave up after ${this.starts.length} starts within ${this.client.restartWindowMs} ms)`,
        ),
      );
    }
    this.starts.push(now);
    this.live = undefined;
    const diagnostics = new DiagnosticsStore(this.client.settleTimes);
    this.starting = ServerProcess.start(
      this.command,
      this.client.rootPath,
      { timeoutMs: this.client.startTimeoutMs },
      (p) => {
        const path = diagnostics.publish(this.command.vscodeTypeScript ? asVsCodeDiagnostics(p) : p);
        if (path !== undefined) this.published(path, diagnostics.get(path));
      },
      this.client.env,
    )
      .then(
        (server) => {
          const documents = new Documents(
            (m, p) => server.notify(m, p),
            (path) => diagnostics.sent(path),
            this.client.maxDocumentBytes,
          );
          const live: Live = {
            server,
            documents,
            diagnostics,
            symbols: (answer) => (this.command.vscodeTypeScript ? asVsCodeSymbols(answer) : answer),
          };
          server.crashed.catch((e: LspUnavailableError) => {
            this.lastFailure = e;
          });
          if (this.closed) {
            void server.stop(this.client.shutdownTimeoutMs);
            throw new LspUnavailableError(language, 'stopped', 'the client was shut down');
          }
          this.live = live;
          return live;
        },
        (e: unknown) => {
          this.lastFailure =
            e instanceof LspUnavailableError ? e : new LspUnavailableError(language, 'failed', String(e));
          throw this.lastFailure;
        },
      )
      .finally(() => {
        this.starting = undefined;
      });
    return this.starting;
  }

  async stop(): Promise<void> {
    this.closed = true;
    const live = this.live ?? (await this.starting?.catch(() => undefined));
    await live?.server.stop(this.client.shutdownTimeoutMs);
  }
}

/** Most files `load` keeps open for their projects (projects.ts's own bound is below it). */
export const MAX_PINNED = 256;
/**
 * Most files kept open that no project and no diagnostics coverage needs (a folder-wide nav/findSymbol
 * asks hundreds): each open file is synced before every request, and a server checks open files.
 */
export const MAX_TRANSIENT = 64;

/**
 * Lines of a synced document, counted once per text: the sync hands back the same object while the file
 * is unchanged, so a warm request does not scan the whole file for its line check.
 */
const lineCounts = new WeakMap<OpenDocument, number>();
function linesOf(doc: OpenDocument): number {
  let n = lineCounts.get(doc);
  if (n === undefined) lineCounts.set(doc, (n = lineCount(doc.text)));
  return n;
}

function unconfigured(path: string): LspUnavailableError {
  const ext = extname(path);
  return new LspUnavailableError(
    ext || path,
    'unconfigured',
    `no language server is configured for ${ext ? `${ext} files` : 'files without an extension'}`,
  );
}

export class LspClient {
  private readonly options: Required<Omit<LspClientOptions, 'servers'>>;
  private readonly languages = new Map<string, Language>();
  private readonly diagnosticsListeners = new Set<DiagnosticsListener>();
  /** Files `load` opened for their projects: `release` leaves them open. */
  private readonly pinned = new Set<string>();
  /** Files diagnostics/changed covers (`cover` … `release`). */
  private readonly covered = new Set<string>();
  /** Other files requests opened, the least recently used first: beyond MAX_TRANSIENT they are closed. */
  private readonly recent = new Set<string>();

  constructor(options: LspClientOptions) {
    if (!isAbsolute(options.rootPath)) throw new Error(`rootPath must be absolute: ${options.rootPath}`);
    this.options = {
      ...DEFAULTS,
      settleTimes: SETTLE_TIMES,
      maxDocumentBytes: MAX_DOCUMENT_BYTES,
      env: process.env,
      ...Object.fromEntries(Object.entries(options).filter(([, v]) => v !== undefined)),
    } as Required<Omit<LspClientOptions, 'servers'>>;
    for (const [language, command] of serverTable(options.servers))
      this.languages.set(
        language,
        new Language(command, this.options, (path, list) => {
          for (const l of [...this.diagnosticsListeners]) {
            try {
              l(path, list);
            } catch {
              // a listener's failure is its own; the store has the diagnostics
            }
          }
        }),
      );
  }

  /** The language serving `path` (by extension), or undefined. */
  languageOf(path: string): string | undefined {
    return languageOfFile(path, this.languages)?.language;
  }

  /** Throws LspUnavailableError (`unconfigured`) when no language server is configured for `path`. */
  configuredFor(path: string): void {
    if (!languageOfFile(path, this.languages)) throw unconfigured(path);
  }

  /** The pid of a language's running server (monitoring, tests); undefined when none runs. */
  serverPid(language: string): number | undefined {
    return this.languages.get(language)?.pid;
  }

  async definition(
    path: string,
    line: number,
    character: number,
    opts: CallOptions = {},
  ): Promise<NavDefinitionResult> {
    const { live, doc } = await this.openAt(path, line, character, opts);
    const bounds = this.bounds(opts);
    const answer = await live.server.request<DefinitionAnswer>(
      'textDocument/definition',
      { textDocument: { uri: doc.uri }, position: { line, character } },
      'definition',
      bounds,
    );
    const locations = [];
    for (const target of definitionTargets(answer)) {
      // A bare Location needs the target's symbols, so the target is opened; a link needs only its text.
      const targetLanguage = languageOfFile(target.filePath, this.languages);
      const targetDoc =
        target.bare && targetLanguage?.language === doc.language
          ? await live.documents.sync(target.filePath, targetLanguage.languageId).catch(() => undefined)
          : live.documents.get(target.filePath);
      if (target.bare && targetDoc) {
        // Best effort: a server without document symbols leaves the bare range; a cancellation still cancels.
        const symbols = await live.server
          .request<(DocumentSymbol | SymbolInformation)[] | null>(
            'textDocument/documentSymbol',
            { textDocument: { uri: targetDoc.uri } },
            'documentSymbol',
            bounds,
          )
          .catch((e: unknown) => {
            if (e instanceof LspAbortError || e instanceof LspTimeoutError) throw e;
            return null;
          });
        target.range = widenToSymbol(target.range, symbols);
      }
      const text = targetDoc?.text ?? (await readTextBounded(target.filePath, this.options.maxDocumentBytes)) ?? '';
      locations.push(definitionLocation(target, text));
    }
    return { locations };
  }

  async references(
    path: string,
    line: number,
    character: number,
    includeDeclaration = true,
    opts: CallOptions = {},
  ): Promise<NavReferencesResult> {
    const { live, doc } = await this.openAt(path, line, character, opts);
    const answer = await live.server.request<LspLocation[] | null>(
      'textDocument/references',
      { textDocument: { uri: doc.uri }, position: { line, character }, context: { includeDeclaration } },
      'references',
      this.bounds(opts),
    );
    return referencesResult(answer);
  }

  async symbols(path: string, query?: string, opts: CallOptions = {}): Promise<NavSymbolsResult> {
    return symbolsResult(await this.documentSymbols(path, opts), query);
  }

  /**
   * The server's document symbols as its clients are shown them (for the TS server, as VS Code's
   * TypeScript extension shows them: vscode-typescript.ts), unconverted otherwise.
   */
  async documentSymbols(path: string, opts: CallOptions = {}): Promise<(DocumentSymbol | SymbolInformation)[] | null> {
    const { live, doc } = await this.open(path, opts);
    const answer = await live.server.request<(DocumentSymbol | SymbolInformation)[] | null>(
      'textDocument/documentSymbol',
      { textDocument: { uri: doc.uri } },
      'documentSymbol',
      this.bounds(opts),
    );
    return live.symbols(answer);
  }

  /**
   * The symbols of a file its server does not have open, from tsserver's own `navtree` of its loaded
   * projects (converted as typescript-language-server converts it: fromNavTree), without opening it: a
   * didOpen makes the server take the file up (and check it) as if someone edited it, which costs a
   * folder-wide search far more than the symbols. Undefined where that cannot be asked (no TypeScript
   * server running, the file open already, or not in a loaded project): the caller opens it instead.
   */
  async closedFileSymbols(rawPath: string, opts: CallOptions = {}): Promise<DocumentSymbol[] | undefined> {
    const path = this.checkPath(rawPath);
    const lang = languageOfFile(path, this.languages);
    const live = lang && this.languages.get(lang.language)!.running();
    if (!live || live.documents.get(path) || !live.server.executeCommands.has(TSSERVER_REQUEST)) return undefined;
    const answer = await live.server
      .request<{ success?: unknown; body?: unknown } | null>(
        'workspace/executeCommand',
        { command: TSSERVER_REQUEST, arguments: ['navtree', { file: path }] },
        `navtree of ${path}`,
        this.bounds(opts),
      )
      .catch((e: unknown) => {
        if (e instanceof LspAbortError) throw e;
        return undefined; // not in a loaded project, or refused: opened instead
      });
    if (answer?.success !== true || typeof answer.body !== 'object' || answer.body === null) return undefined;
    return live.symbols(fromNavTree(answer.body)) ?? undefined;
  }

  /**
   * Diagnostics of the given files: each opened (or re-synced) and waited for until its diagnostics
   * settle (bounded by diagnosticsTimeoutMs, then what arrived counts). Files no server is configured
   * for have none (as in VS Code).
   */
  async diagnostics(
    paths: readonly string[],
    severity?: SeverityFilter,
    opts: CallOptions = {},
  ): Promise<DiagListResult> {
    const perFile = await Promise.all(
      [...new Set(paths.map((p) => this.checkPath(p)))].map(async (path) => {
        if (!this.languageOf(path)) return [path, []] as const;
        const { live } = await this.open(path, opts);
        await live.diagnostics.settled(
          path,
          { signal: opts.signal, timeoutMs: opts.timeoutMs ?? this.options.diagnosticsTimeoutMs },
          (b) => checkerFindsNothing(live.server, path, b),
        );
        return [path, live.diagnostics.get(path)] as const;
      }),
    );
    return diagnosticsResult(perFile, severity);
  }

  /** Every diagnostic the running servers have published (diag/list without filePath). */
  knownDiagnostics(severity?: SeverityFilter): DiagListResult {
    return diagnosticsResult(
      [...this.languages.values()].flatMap((l) => l.current?.diagnostics.all() ?? []),
      severity,
    );
  }

  /**
   * The server's own answer to a request about one file (opened or re-synced first), for callers that
   * convert it themselves (lsp-features.ts, server-core's shapes). With `at`, the position is checked
   * against the file first (LspPositionError) and `params` gets it with a character past its line's
   * end clamped to that end, as LSP says and VS Code does (tsserver reads such a character on into
   * the following lines, and answers about another symbol).
   */
  async rawRequest<R>(
    path: string,
    method: string,
    params: (uri: string, at: { line: number; character: number }) => object,
    opts: CallOptions = {},
    at?: { line: number; character: number },
  ): Promise<R> {
    const { live, doc, position } = at
      ? await this.openAt(path, at.line, at.character, opts)
      : { ...(await this.open(path, opts)), position: { line: 0, character: 0 } };
    return live.server.request<R>(
      method,
      params(doc.uri, position),
      method.replace(/^textDocument\//, ''),
      this.bounds(opts),
    );
  }

  /**
   * The language server of `path` (started if need be) with `path` opened or re-synced, and the bounds a
   * request of `opts` has: for callers that speak to the server themselves (code actions, formatting,
   * file renames: code-actions.ts, edits.ts).
   */
  async server(
    path: string,
    opts: CallOptions = {},
  ): Promise<{ server: ServerProcess; doc: OpenDocument; language: string; bounds: Bounds }> {
    const { live, doc } = await this.open(path, opts);
    return { server: live.server, doc, language: doc.language, bounds: this.bounds(opts) };
  }

  /** The file's published diagnostics once they settle (as `diagnostics`), unconverted; none when no server serves it. */
  async rawDiagnostics(path: string, opts: CallOptions = {}): Promise<LspDiagnostic[]> {
    const file = this.checkPath(path);
    if (!this.languageOf(file)) return [];
    const { live } = await this.open(file, opts);
    await live.diagnostics.settled(
      file,
      { signal: opts.signal, timeoutMs: opts.timeoutMs ?? this.options.diagnosticsTimeoutMs },
      (b) => checkerFindsNothing(live.server, file, b),
    );
    return live.diagnostics.get(file);
  }

  /**
   * The text a running server has for `path` as last synced (every open document is synced with the
   * disk before each request), or undefined: lets the core skip reading a file the request just synced.
   */
  syncedText(path: string): string | undefined {
    if (typeof path !== 'string' || !isAbsolute(path)) return undefined;
    const file = normalize(path);
    for (const l of this.languages.values()) {
      const live = l.current;
      const doc = live?.server.alive ? live.documents.get(file) : undefined;
      if (doc) return doc.text;
    }
    return undefined;
  }

  /** Every diagnostic the running servers have published, per file, unconverted. */
  allRawDiagnostics(): [string, LspDiagnostic[]][] {
    return [...this.languages.values()].flatMap((l) => l.current?.diagnostics.all() ?? []);
  }

  /** Calls `listener` with each file's diagnostics as a language server publishes them; returns the unsubscribe. */
  onDiagnostics(listener: DiagnosticsListener): () => void {
    this.diagnosticsListeners.add(listener);
    return () => this.diagnosticsListeners.delete(listener);
  }

  /**
   * Files changed on disk (the file watcher saw them): a running server that has one of them open is
   * brought up to date now (didChange, or didClose when gone), so its diagnostics follow the disk
   * without waiting for the next request. Never throws.
   */
  changedOnDisk(paths: readonly string[]): void {
    for (const l of this.languages.values()) {
      const live = l.current;
      if (!live?.server.alive) continue;
      const doc = paths.map((p) => live.documents.get(p)).find((d) => d !== undefined);
      // One sync re-syncs every document the server has open.
      if (doc) void live.documents.sync(doc.path, doc.languageId).catch(() => {});
    }
  }

  /**
   * Opens the files in their language servers (started if need be) or re-syncs them with the disk, so
   * that the servers publish their diagnostics (diagnostics/changed's coverage, events.ts). A file no
   * server is configured for, or that cannot be opened, is skipped. Bounded like a request; never throws.
   */
  async cover(paths: readonly string[]): Promise<void> {
    await Promise.all(
      paths.map(async (path) => {
        if (!this.languageOf(path)) return;
        this.covered.add(path);
        this.recent.delete(path);
        await this.open(path, {}).catch(() => {});
      }),
    );
  }

  /**
   * Opens each file in its language server (started if need be) and keeps it open, so that the server
   * loads and keeps the file's project (T47: TypeScript's server searches the projects it has loaded;
   * a project whose last open file closes may be dropped), once it has loaded it (projectLoaded).
   * Resolves with the files that could not be
   * opened and why; a cancellation rejects. Loaded files stay open (`release` leaves them), at most
   * MAX_PINNED of them, the least recently loaded let go first.
   */
  async load(paths: readonly string[], opts: CallOptions = {}): Promise<{ path: string; reason: string }[]> {
    const failed: { path: string; reason: string }[] = [];
    await Promise.all(
      paths.map(async (raw) => {
        try {
          const path = this.checkPath(raw);
          this.pinned.delete(path); // re-inserted: the Set's order is the order of loading
          this.pinned.add(path);
          this.recent.delete(path);
          const { live } = await this.open(path, opts);
          await this.projectLoaded(live, path, opts);
        } catch (e) {
          this.pinned.delete(raw);
          if (e instanceof LspAbortError) throw e;
          failed.push({ path: raw, reason: (e as Error).message });
        }
      }),
    );
    const unpinned: string[] = [];
    for (const p of this.pinned) {
      if (this.pinned.size - unpinned.length <= MAX_PINNED) break;
      unpinned.push(p);
    }
    for (const p of unpinned) this.pinned.delete(p);
    this.close(unpinned.filter((p) => !this.covered.has(p)));
    return failed;
  }

  /**
   * Resolves once TypeScript's server has loaded the project of `path`, open in it: tsserver loads a
   * project when a file of it opens and answers one request at a time, so its `projectInfo` for the file
   * is answered after the load. Other servers load as they do; a refused request says nothing more.
   */
  private async projectLoaded(live: Live, path: string, opts: CallOptions): Promise<void> {
    if (!live.server.executeCommands.has(TSSERVER_REQUEST)) return;
    await live.server
      .request(
        'workspace/executeCommand',
        { command: TSSERVER_REQUEST, arguments: ['projectInfo', { file: path, needFileNameList: false }] },
        `projectInfo of ${path}`,
        this.bounds(opts),
      )
      .catch((e: unknown) => {
        if (e instanceof LspAbortError) throw e;
      });
  }

  /** Closes the files (didClose) in the running servers that have them open: they left coverage. */
  release(paths: readonly string[]): void {
    for (const p of paths) this.covered.delete(p);
    this.close(paths.filter((p) => !this.pinned.has(p)));
  }

  private close(paths: readonly string[]): void {
    for (const l of this.languages.values()) {
      const live = l.running();
      if (live) for (const p of paths) live.documents.release(p);
    }
  }

  /** A file a request opened: kept among the MAX_TRANSIENT most recent, the least recent closed. */
  private used(path: string): void {
    if (this.pinned.has(path) || this.covered.has(path)) return;
    this.recent.delete(path);
    this.recent.add(path);
    const gone: string[] = [];
    for (const p of this.recent) {
      if (this.recent.size - gone.length <= MAX_TRANSIENT) break;
      gone.push(p);
    }
    for (const p of gone) this.recent.delete(p);
    this.close(gone);
  }

  /**
   * A workspace symbol query to every language server, each language's answer or why it has none (T49).
   * TypeScript's server is asked tsserver's own `navto` without a file, which searches every project
   * it has loaded (its workspace/symbol searches only the projects of the file it opened last); other
   * servers `workspace/symbol`. Servers not running yet are started (a query names no file to start
   * them by); at most `limit` symbols are asked of each, and `cut` says a server gave that many (it may
   * have left some out).
   */
  async workspaceSymbols(
    query: string,
    limit: number,
    opts: CallOptions = {},
  ): Promise<{ language: string; symbols?: SymbolInformation[]; cut?: boolean; error?: Error }[]> {
    return Promise.all(
      [...this.languages].map(async ([language, l]) => {
        try {
          const live =
            l.running() ??
            (await bounded(l.get(), `starting the ${language} language server`, {
              signal: opts.signal,
              timeoutMs: this.options.startTimeoutMs,
            }));
          const bounds = this.bounds(opts);
          if (live.server.executeCommands.has(TSSERVER_REQUEST)) {
            const answer = await live.server.request<{ success?: unknown; body?: unknown } | null>(
              'workspace/executeCommand',
              { command: TSSERVER_REQUEST, arguments: ['navto', { searchValue: query, maxResultCount: limit }] },
              `navto "${query}"`,
              bounds,
            );
            if (answer?.success === true && Array.isArray(answer.body))
              return {
                language,
                symbols: live.symbols(fromNavto(answer.body)) ?? [],
                ...(answer.body.length >= limit ? { cut: true } : {}),
              };
          }
          if (!live.server.capabilities.workspaceSymbolProvider)
            throw new LspUnavailableError(language, 'unsupported', 'it does not offer workspace symbols');
          const answer = await live.server.request<SymbolInformation[] | null>(
            'workspace/symbol',
            { query },
            `workspace/symbol "${query}"`,
            bounds,
          );
          const list = Array.isArray(answer) ? answer : [];
          return { language, symbols: live.symbols(list) ?? [], ...(list.length >= limit ? { cut: true } : {}) };
        } catch (e) {
          if (e instanceof LspAbortError) throw e;
          return { language, error: e as Error };
        }
      }),
    );
  }

  /**
   * A request about `path` (callHierarchy/incomingCalls names no document, only an item in it), sent to
   * the server of its language once the file is open there and in step with the disk (with `at`, the
   * position checked against it and clamped to its line, as rawRequest does); `capability` (a ServerCapabilities key) must be offered, else
   * LspUnavailableError `unsupported`.
   */
  async requestAbout<R>(
    path: string,
    method: string,
    params: (uri: string, at: { line: number; character: number }) => unknown,
    capability: keyof ServerCapabilities,
    opts: CallOptions = {},
    at?: { line: number; character: number },
  ): Promise<R> {
    const { live, doc, position } = at
      ? await this.openAt(path, at.line, at.character, opts)
      : { ...(await this.open(path, opts)), position: { line: 0, character: 0 } };
    if (!live.server.capabilities[capability])
      throw new LspUnavailableError(doc.language, 'unsupported', `its server does not offer ${method}`);
    return live.server.request<R>(method, params(doc.uri, position), method, this.bounds(opts));
  }

  /** Whether a running server has `path` open (it then publishes the file's diagnostics as they change). */
  holds(path: string): boolean {
    for (const l of this.languages.values()) if (l.running()?.documents.get(path)) return true;
    return false;
  }

  /** Stops every server (shutdown + exit, killed after shutdownTimeoutMs); later requests fail as unavailable. */
  async shutdown(): Promise<void> {
    await Promise.all([...this.languages.values()].map((l) => l.stop()));
  }

  private checkPath(path: string): string {
    if (typeof path !== 'string' || !isAbsolute(path) || path.includes('\0'))
      throw new LspFileError(`not an absolute path: ${String(path)}`);
    return normalize(path);
  }

  private bounds(opts: CallOptions): Bounds {
    return { signal: opts.signal, timeoutMs: opts.timeoutMs ?? this.options.requestTimeoutMs };
  }

  /**
   * Opens the file and checks the position's line is in it (as the extension does: INVALID_REQUEST
   * material); the position with its character clamped to the line's end.
   */
  private async openAt(
    rawPath: string,
    line: number,
    character: number,
    opts: CallOptions,
  ): Promise<{ live: Live; doc: OpenDocument & { language: string }; position: { line: number; character: number } }> {
    if (!Number.isSafeInteger(line) || !Number.isSafeInteger(character) || line < 0 || character < 0)
      throw new LspPositionError(`not a position: line ${line}, character ${character}`);
    const opened = await this.open(rawPath, opts);
    const lines = linesOf(opened.synced);
    if (line >= lines) throw new LspPositionError(`line ${line} is beyond the end of the file (${lines} lines)`);
    return { ...opened, position: { line, character: Math.min(character, lineLength(opened.synced.text, line)) } };
  }

  private async open(
    rawPath: string,
    opts: CallOptions,
  ): Promise<{ live: Live; doc: OpenDocument & { language: string }; synced: OpenDocument }> {
    const path = this.checkPath(rawPath);
    const lang = languageOfFile(path, this.languages);
    if (!lang) throw unconfigured(path);
    const language = this.languages.get(lang.language)!;
    // A running server needs no bounded wait (its timer, its abort listener); the sync below is bounded.
    const live =
      language.running() ??
      (await bounded(language.get(), `starting the ${lang.language} language server`, {
        signal: opts.signal,
        timeoutMs: this.options.startTimeoutMs,
      }));
    const doc = await bounded(live.documents.sync(path, lang.languageId), `opening ${path}`, this.bounds(opts));
    this.used(path);
    return { live, doc: { ...doc, language: lang.language }, synced: doc };
  }
}
