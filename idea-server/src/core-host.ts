// TODO(merge i-core): delete this file and import from '../../server-core/host' instead (one line in
// each importer: `import type { … } from '../../server-core/host'`). Until branch i-core is merged it
// holds a verbatim copy of the interfaces of server-core/host.ts (i-core commit 49971b9), so that
// idea-server implements exactly those; nothing here is logic.
import type { RawDiagnostic } from '../../server-core/diagnostics';
import type { FlatSymbol, TreeSymbol } from '../../server-core/symbols';

export interface Position {
  line: number;
  character: number;
}

export interface Range {
  start: Position;
  end: Position;
}

/** The folders the server serves and the search rules each one has. */
export interface WorkspaceFolders {
  /** Absolute paths of the workspace folders, in order (the first one holds `.vscode/settings.json`). */
  paths(): string[];
  /**
   * The folder's search settings as VS Code stores them: `files.exclude` / `search.exclude` are the raw
   * setting values (objects glob → true | false | { when }; anything else is ignored — the core keeps
   * only the unconditional `true` entries), `useIgnoreFiles` is `search.useIgnoreFiles` (default true).
   */
  searchSettings(folder: string): { filesExclude: unknown; searchExclude: unknown; useIgnoreFiles: boolean };
}

/** Documents an editor holds. A server without an editor has none: every method answers "nothing". */
export interface OpenDocuments {
  /** Files with unsaved editor changes; their text (what edit/find must see) is read only when called. */
  dirty(): { path: string; text: () => string }[];
  /** True when `path` has unsaved editor changes (writes to it are refused). */
  isDirty(path: string): boolean;
  /** The text the editor holds for `path` when it has the file open, else undefined (the core reads the disk). */
  text(path: string): string | undefined;
  /**
   * Called after a write committed `bytes` to `path`; resolves once open editors show them (bounded),
   * so a following request sees the new text. Optional: without an editor there is nothing to wait for.
   */
  afterWrite?(path: string, bytes: Buffer): Promise<void>;
}

/** A language feature that has no provider for the file (no language server for its language, or one that is down). */
export interface Unavailable {
  readonly unavailable: string;
}

export function isUnavailable(x: unknown): x is Unavailable {
  return typeof x === 'object' && x !== null && typeof (x as Unavailable).unavailable === 'string';
}

/** One place a definition provider points to. */
export interface DefinitionTarget {
  filePath: string;
  /** The location's range (LSP Location.range / LocationLink.targetSelectionRange). */
  range: Range;
  /** The whole declaration when the provider gives it (LSP LocationLink.targetRange); else the core widens `range` to the innermost document symbol. */
  targetRange?: Range;
}

/**
 * Language features, answered by the editor's providers or by language servers. Every method waits
 * (bounded, and until `signal` aborts) for the file's language server to be ready. `Unavailable` means
 * "no provider for this file": the core answers with an empty result and logs the reason, never fails.
 * Numbers follow VS Code's enums: symbol kinds 0-based (File = 0 … TypeParameter = 25; LSP's are
 * 1-based), diagnostic severity Error 0 … Hint 3 (LSP's are 1-based). Only `file` locations are returned.
 */
export interface LanguageFeatures {
  definition(path: string, at: Position, signal: AbortSignal): Promise<DefinitionTarget[] | Unavailable>;
  /** References to the symbol at `at`; with `includeDeclaration` false, without its declaration(s). */
  references(
    path: string,
    at: Position,
    includeDeclaration: boolean,
    signal: AbortSignal,
  ): Promise<{ filePath: string; range: Range }[] | Unavailable>;
  /**
   * The document's symbols, tree or flat. `mode`: 'wait' retries (bounded) until the server answers
   * with something; 'once' asks once (the server has just answered for this file).
   */
  documentSymbols(
    path: string,
    signal: AbortSignal,
    mode: 'wait' | 'once',
  ): Promise<(TreeSymbol | FlatSymbol)[] | Unavailable>;
  /** The file's diagnostics once its analysis has settled (the file is opened for its server if needed). */
  diagnostics(path: string, signal: AbortSignal): Promise<RawDiagnostic[] | Unavailable>;
  /** Every diagnostic known now, for files (diag/list without filePath); no waiting. */
  allDiagnostics(): { filePath: string; diagnostics: RawDiagnostic[] }[];
}

/** Where local history lives (VS Code's on-disk format: `<home>/<hash>/entries.json` + one file per entry). */
export interface LocalHistoryStore {
  /** The History folder: VS Code's `<user-data>/User/History`, or idea-server's per-user folder. */
  readonly home: string;
  /** Whether a save of `size` bytes to `path` is recorded (VS Code: `workbench.localHistory.enabled` / `maxFileSize`). */
  recordsSave(path: string, size: number): boolean;
}

/** The limit settings (`idea.server.limits.*`, keys in limits/config.ts), from user (machine) scope only. */
export interface LimitSettings {
  /** Raw values by limit name (`maxChildProcesses`, …); missing or invalid ones take their defaults. */
  values(): Partial<Record<string, unknown>>;
  /** Calls `listener` when they may have changed; returns the unsubscribe. Optional: fixed settings. */
  onChange?(listener: () => void): () => void;
}

/** A file-system change in a workspace folder. */
export interface FileChange {
  path: string;
  kind: 'created' | 'changed' | 'deleted';
}

/** Optional today; v0.1.7's file events will need it. */
export interface FileWatcher {
  /** Starts watching the workspace folders; returns the stop. */
  watch(listener: (changes: FileChange[]) => void): () => void;
}

/** Tools and places outside the workspace. */
export interface Tools {
  /** The ripgrep binary (VS Code's bundled one or `rg` on PATH); null: none found. */
  ripgrep: string | null;
  /** A folder of the server's own (the write journal lives here); created when needed. */
  stateDir: string;
  /** One line for the server's log. */
  log(message: string): void;
}

/** Everything a server gives the core. */
export interface CoreHost {
  folders: WorkspaceFolders;
  documents: OpenDocuments;
  language: LanguageFeatures;
  localHistory: LocalHistoryStore;
  limits: LimitSettings;
  tools: Tools;
  watcher?: FileWatcher;
}
