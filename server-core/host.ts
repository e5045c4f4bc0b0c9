// What differs between servers of the core: the VS Code extension implements these interfaces with
// VS Code's APIs, idea-server with the file system and language servers spoken to over LSP. Everything
// else (path rules, search, the write path, git, limits, local-history format, the handlers) lives
// in server-core and is the same for both. `createCoreHandlers(host)` (handlers/index.ts) takes a
// `CoreHost`. Positions and ranges are 0-based, characters in UTF-16 code units (as on the wire).
import type { RawDiagnostic } from './diagnostics';
import type { FlatSymbol, TreeSymbol } from './symbols';

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

/**
 * Why no language server could answer (clause T48): `none` no server for the file's language, `down` its
 * server failed to start or crashed, `loading` it was not ready within the bound, `unsupported` it does
 * not offer the feature.
 */
export type UnavailableKind = 'none' | 'down' | 'loading' | 'unsupported';

/** A language feature that has no provider for the file (no language server for its language, or one that is down). */
export interface Unavailable {
  /** A sentence for people: which server, which language, what happened. */
  readonly unavailable: string;
  /** Why; a host that cannot tell says `none`. */
  readonly kind?: UnavailableKind;
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
  /**
   * The file's diagnostics once its analysis has settled (the file is opened for its server if needed).
   * `since` (ms since the epoch, a write's end): only what was reported after it counts as settled, so a
   * file open before a write is waited for until its server reported on the new text (bounded).
   */
  diagnostics(path: string, signal: AbortSignal, since?: number): Promise<RawDiagnostic[] | Unavailable>;
  /** Every diagnostic known now, for files (diag/list without filePath); no waiting. */
  allDiagnostics(): { filePath: string; diagnostics: RawDiagnostic[] }[];
  /**
   * Optional, no I/O: the text a language server of the host holds for `path`, brought up to date with
   * the disk before each request about it (idea-server's LSP client), or undefined. With it the
   * position topics check positions and cut declarations from the text the answer came from, after
   * the answer, instead of reading the file.
   */
  syncedText?(path: string): string | undefined;
  // Since 0.1.7, optional: a host without one does not serve its topic (createCoreHandlers leaves it out).
  /** The hover at `at`: every provider's sections in order, and the first range one gives. */
  hover?(path: string, at: Position, signal: AbortSignal): Promise<HoverAnswer | Unavailable>;
  /** Where the type of the symbol at `at` is declared (shaped like `definition`). */
  typeDefinition?(path: string, at: Position, signal: AbortSignal): Promise<DefinitionTarget[] | Unavailable>;
  /** The implementations of the interface or member at `at` (shaped like `definition`). */
  implementation?(path: string, at: Position, signal: AbortSignal): Promise<DefinitionTarget[] | Unavailable>;
  /**
   * What a rename at `at` would rename (LSP prepareRename): its range and, when the provider gives one,
   * its placeholder; null when the provider does not check positions beforehand. Throws
   * `RenameRejectedError` with the provider's message when there is nothing to rename there.
   */
  prepareRename?(
    path: string,
    at: Position,
    signal: AbortSignal,
  ): Promise<{ range: Range; placeholder?: string } | null | Unavailable>;
  /**
   * The provider's edits renaming the symbol at `at` to `newName`, per file, ranges in the text the
   * provider read (the editor's copy or the disk). Throws `RenameRejectedError` with the provider's
   * message when it refuses (no symbol there, an invalid name); null: no provider answered.
   */
  rename?(
    path: string,
    at: Position,
    newName: string,
    signal: AbortSignal,
  ): Promise<RenameFileEdits[] | null | Unavailable>;
  // Since 0.1.8, optional.
  /**
   * The workspace's symbols matching `query` as the language servers match it (every loaded project;
   * the core loads every project first through `projects`). Unavailable when no server can search.
   */
  workspaceSymbols?(query: string, signal: AbortSignal): Promise<WorkspaceSymbolList | Unavailable>;
  /** Call hierarchy, where the host's language servers have it (nav/callHierarchy is served only then). */
  callHierarchy?: CallHierarchy;
  /** Loads projects into the language servers, so workspace-wide answers search all of them (T47). */
  projects?: ProjectLoader;
  /** The code actions for `range` of `path` (with the diagnostics there), kinds kept to `only` and their sub-kinds. */
  codeActions?(
    path: string,
    range: Range,
    only: readonly string[] | undefined,
    signal: AbortSignal,
  ): Promise<CodeActionOffer[] | Unavailable>;
  /**
   * Resolves `action` and runs its command, collecting (never writing) every edit and file operation its
   * language server gives or asks for meanwhile (workspace/applyEdit, file creation), in order (T54, H22).
   */
  collectCodeAction?(path: string, action: CodeActionOffer, signal: AbortSignal): Promise<PlannedChange[]>;
  /** The formatter's edits for `path` (all of it, or `range`); Unavailable when no formatter serves it. */
  format?(
    path: string,
    range: Range | undefined,
    options: FormatOptions,
    signal: AbortSignal,
  ): Promise<{ range: Range; newText: string }[] | Unavailable>;
  /**
   * The edits the language servers give for files and folders about to be renamed (LSP
   * workspace/willRenameFiles, VS Code's onWillRenameFiles participants), collected, never written (T56).
   */
  willRenameFiles?(
    renames: readonly { oldPath: string; newPath: string }[],
    signal: AbortSignal,
  ): Promise<PlannedChange[] | Unavailable>;
}

/** A symbol of the workspace as a workspace-symbol provider gives it (kinds 0-based, as VS Code's). */
export interface WorkspaceSymbolAnswer {
  name: string;
  kind: number;
  containerName?: string;
  filePath: string;
  range: Range;
}

/**
 * A workspace symbol answer: the symbols, and, when a language server cut its list short (or may have:
 * it listed as many as it was allowed), a sentence saying so in `limitedBy` (T49: the answer is then
 * truncated whatever its count).
 */
export type WorkspaceSymbolList = WorkspaceSymbolAnswer[] & { limitedBy?: string };

/** A project (a tsconfig.json/jsconfig.json, by path) or a folder, searched or not (clause T47). */
export interface CoverageEntry {
  kind: 'project' | 'folder';
  path: string;
}

/** What a workspace-wide answer searched (clause T47); complete when notSearched is empty. */
export interface ProjectCoverage {
  searched: CoverageEntry[];
  notSearched: (CoverageEntry & { reason: string })[];
}

/**
 * A function, method or constructor of a call hierarchy (LSP CallHierarchyItem; kinds 0-based). `handle`
 * is the host's own value for the item (the LSP item or VS Code's), given back unchanged to ask its calls.
 */
export interface CallHierarchyItem {
  name: string;
  kind: number;
  detail?: string;
  filePath: string;
  range: Range;
  selectionRange: Range;
  readonly handle: unknown;
}

/** The call hierarchy of a host whose language servers have it (served where they do: clause T51). */
export interface CallHierarchy {
  /** The callable items at `at` (usually one; none where there is no function). */
  prepare(path: string, at: Position, signal: AbortSignal): Promise<CallHierarchyItem[] | Unavailable>;
  /** Who calls `item`, each caller with the ranges of its calls (in the caller's file). */
  incoming(item: CallHierarchyItem, signal: AbortSignal): Promise<{ item: CallHierarchyItem; ranges: Range[] }[]>;
  /** What `item` calls, each callee with the ranges of the calls (in `item`'s file). */
  outgoing(item: CallHierarchyItem, signal: AbortSignal): Promise<{ item: CallHierarchyItem; ranges: Range[] }[]>;
}

/**
 * The projects of the workspace (clause T47): found by the core (server-core/projects.ts: every
 * tsconfig.json/jsconfig.json, solution-style configs and references followed), loaded by the host.
 */
export interface ProjectLoader {
  /**
   * Makes the host's language server load the project of each file (one file of each project, opened
   * as the language server needs it, e.g. didOpen), bounded and until `signal` aborts; resolves with the
   * files that could not be loaded and why. Loading an already loaded project is cheap.
   */
  load(files: readonly string[], signal: AbortSignal): Promise<{ path: string; reason: string }[]>;
}

/**
 * A workspace edit a language server wants (a code action's edit, a command's workspace/applyEdit, the
 * edits of a file rename): collected by the host, never written by it. The core writes it as one
 * transaction (write/), after its checks (clause T54). Paths absolute; ranges in the file as it was
 * before this change, as for edit/apply's changes.
 */
export type PlannedChange =
  | { kind: 'edit'; filePath: string; edits: { range: Range; newText: string }[] }
  | { kind: 'create'; filePath: string; overwrite?: boolean; ignoreIfExists?: boolean }
  | { kind: 'rename'; filePath: string; newFilePath: string; overwrite?: boolean; ignoreIfExists?: boolean }
  | { kind: 'delete'; filePath: string; recursive?: boolean; ignoreIfNotExists?: boolean };

/** A code action as the host's language server offers it; `handle` is the host's own value, given back to apply it. */
export interface CodeActionOffer {
  title: string;
  /** The LSP kind ("quickfix", "source.organizeImports", …); "" when none. */
  kind: string;
  isPreferred?: boolean;
  /** Why it cannot be applied now. */
  disabled?: string;
  /** The diagnostics it fixes. */
  diagnostics: RawDiagnostic[];
  readonly handle: unknown;
}

/** Formatting options (absent: the file's own settings). */
export interface FormatOptions {
  tabSize?: number;
  insertSpaces?: boolean;
}

/** One hover section: markdown (code blocks fenced with their language) or plain text. */
export interface HoverSection {
  kind: 'markdown' | 'plaintext';
  value: string;
}

export interface HoverAnswer {
  contents: HoverSection[];
  range?: Range;
}

/** A rename provider's edits in one file. */
export interface RenameFileEdits {
  filePath: string;
  edits: { range: Range; newText: string }[];
}

/** The language server refused a rename (its message says why); the core answers INVALID_REQUEST with it. */
export class RenameRejectedError extends Error {}

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

/**
 * The files a client works on, whose diagnostics diagnostics/changed reports (clause T35): the server's
 * server-core/events/coverage.ts Coverage over its platform part. Fed by the handlers (withCoverage).
 */
export interface FileCoverage {
  /** Absolute paths a request named as its filePath (`named`) or a write changed (`written`). Never throws. */
  touched(paths: readonly string[], reason: 'named' | 'written'): void;
  /** The platform closed the file's document by itself (VS Code does after a while): re-opened while covered. */
  closed?(path: string): void;
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

/** One editor showing a file: selections and visible ranges 0-based, the primary selection first. */
export interface EditorView {
  filePath: string;
  languageId: string;
  isDirty: boolean;
  selections: (Range & { isReversed: boolean })[];
  visibleRanges: Range[];
}

/** An open tab showing a text file. */
export interface EditorTab {
  filePath: string;
  /** The tab group's view column (1-based). */
  group: number;
  isActive: boolean;
  isDirty: boolean;
  isPreview: boolean;
  isPinned: boolean;
}

/**
 * The editor a person works in (editor/context, editor/open). Servers without one leave it out and do
 * not serve those topics. Paths are absolute; the core keeps only files inside the workspace folders.
 */
export interface EditorHost {
  /** What the person is looking at now. */
  context(): { active: EditorView | undefined; visible: EditorView[]; tabs: EditorTab[] };
  /**
   * Shows `path` with `selection` selected and revealed (positions already checked against the file's
   * lines; characters past a line's end may be clamped); resolves to the selection the editor shows.
   */
  open(path: string, selection: Range, options: { preview?: boolean; preserveFocus?: boolean }): Promise<Range>;
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
  /** The editor, when the server has one (the extension). */
  editor?: EditorHost;
  /** What diagnostics/changed covers beyond open editors; without it, what the platform reports anyway. */
  coverage?: FileCoverage;
  /**
   * Told, after a write topic committed, which files it changed or created: the extension's watcher
   * reports a file replaced by a rename as created, and files/changed must say changed (T39).
   */
  written?(changes: readonly FileChange[]): void;
}
