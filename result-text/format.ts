// Human-readable output of topic results, shared by the CLI and the MCP server. No CLI concerns here:
// no I/O, no process state; the caller decides colour and the folder paths are shown relative to.
//
//   formatResult(topic, result, { color, cwd, params }) → string (no trailing newline)
//   formatEvent(event, data, { color, cwd }) → string, one line per change (since 0.1.7)
//
// - topic: the full topic ("/app/vscode/edit/find"); a topic without a formatter below (or a result
//   not shaped as expected) prints as indented JSON.
// - color: ANSI colours (paths, positions, severities, diff lines).
// - cwd: paths inside it are shown relative to it (like grep); others stay absolute.
// - params: what was asked, where the result alone does not say it (a call hierarchy's direction).
// Since 0.1.8, whatever the topic: an answer that carries `unavailable` (empty because no language
// server could answer) says why in words, one whose `coverage` is not complete says what was not
// searched, after its lines, and a write's `diagnostics` (asked for, T58) follow it.
// Positions print 1-based as `path:line:col`, the convention of grep, tsc and editors' "go to"; the
// protocol (and --json) is 0-based.
import { isAbsolute, relative, sep } from 'node:path';
import type {
  DefinitionLocation,
  DiagListResult,
  DiagnosticsChangedData,
  EditFindResult,
  EditorChangedData,
  EditorContextResult,
  EditorOpenResult,
  EditRenameResult,
  EditReplaceResult,
  FilesChangedData,
  FsFindFilesResult,
  HistoryDiffResult,
  HistoryListResult,
  HistoryRollbackResult,
  LocalhistoryDiffResult,
  LocalhistoryListResult,
  LocalhistoryRollbackResult,
  NavDefinitionResult,
  NavHoverResult,
  NavImplementationResult,
  NavReferencesResult,
  NavSymbolsResult,
  NavTypeDefinitionResult,
  SymbolInfo,
} from '../generated/current';
import type {
  CallNode,
  Coverage,
  DiagnosticsAfterWrite,
  EditApplyResult,
  EditCodeActionsResult,
  EditTransactionsResult,
  NavCallHierarchyResult,
  NavFindSymbolResult,
  NavReferencingSymbolsResult,
  NavWorkspaceSymbolsResult,
  Unavailable,
} from '../generated/v0.1.8/types';

export interface FormatOptions {
  color: boolean;
  cwd?: string;
  /** The params the result answers (a call hierarchy's direction is not in its result). */
  params?: Record<string, unknown>;
}

type Paint = (code: string, text: string) => string;
interface Ctx {
  paint: Paint;
  path(p: string): string;
  params: Record<string, unknown>;
}

const ANSI = {
  bold: '1',
  dim: '2',
  red: '31',
  green: '32',
  yellow: '33',
  blue: '34',
  magenta: '35',
  cyan: '36',
} as const;

function ctxOf(o: FormatOptions): Ctx {
  const paint: Paint = o.color ? (code, text) => `\x1b[${code}m${text}\x1b[0m` : (_code, text) => text;
  const path = (p: string): string => {
    if (!o.cwd) return p;
    const rel = relative(o.cwd, p);
    return rel && !rel.startsWith(`..${sep}`) && rel !== '..' && !isAbsolute(rel) ? rel : p;
  };
  return { paint, path, params: o.params ?? {} };
}

const pos = (c: Ctx, file: string, line: number, character: number): string =>
  `${c.paint(ANSI.magenta, c.path(file))}:${c.paint(ANSI.green, String(line + 1))}:${c.paint(ANSI.green, String(character + 1))}`;

const plural = (n: number, one: string, many = `${one}s`): string => `${n} ${n === 1 ? one : many}`;

/** "(showing 100 of 250)" when a list was cut. */
function cut(c: Ctx, shown: number, total: number, what: string): string[] {
  return total > shown ? [c.paint(ANSI.dim, `(showing ${shown} of ${total} ${what})`)] : [];
}

function table(c: Ctx, head: string[], rows: string[][]): string[] {
  const widths = head.map((h, i) => Math.max(h.length, ...rows.map((r) => (r[i] ?? '').length)));
  const line = (r: string[]) =>
    r
      .map((v, i) => (i === r.length - 1 ? v : v.padEnd(widths[i]!)))
      .join('  ')
      .trimEnd();
  return [c.paint(ANSI.bold, line(head)), ...rows.map(line)];
}

function diffLines(c: Ctx, diff: string): string[] {
  if (diff === '') return [c.paint(ANSI.dim, '(no differences)')];
  return diff
    .replace(/\n$/, '')
    .split('\n')
    .map((l) => {
      if (l.startsWith('+++') || l.startsWith('---')) return c.paint(ANSI.bold, l);
      if (l.startsWith('@@')) return c.paint(ANSI.cyan, l);
      if (l.startsWith('+')) return c.paint(ANSI.green, l);
      if (l.startsWith('-')) return c.paint(ANSI.red, l);
      return l;
    });
}

const firstLine = (s: string): string => s.split('\n', 1)[0] ?? '';

const SEVERITY_COLOR: Record<string, string> = {
  error: ANSI.red,
  warning: ANSI.yellow,
  information: ANSI.blue,
  hint: ANSI.dim,
};

type Diagnostic = DiagListResult['diagnostics'][number];

/** `path:line:col: severity source code: message`, as tsc prints one. */
function diagnosticLine(c: Ctx, file: string, d: Omit<Diagnostic, 'filePath'>): string {
  const origin = [d.source, d.code].filter((x) => x !== null && x !== '').join(' ');
  return `${pos(c, file, d.line, d.character)}: ${c.paint(SEVERITY_COLOR[d.severity] ?? '', d.severity)}${origin ? ` ${c.paint(ANSI.dim, origin)}` : ''}: ${d.message}`;
}

/** Symbols as an outline: a symbol is nested under the nearest earlier one whose range contains it. */
function outline(c: Ctx, symbols: readonly SymbolInfo[]): string[] {
  const sorted = [...symbols].sort((a, b) => a.line - b.line || a.character - b.character || b.endLine - a.endLine);
  const before = (l1: number, c1: number, l2: number, c2: number) => l1 < l2 || (l1 === l2 && c1 <= c2);
  const contains = (o: SymbolInfo, i: SymbolInfo) =>
    before(o.line, o.character, i.line, i.character) && before(i.endLine, i.endCharacter, o.endLine, o.endCharacter);
  const stack: SymbolInfo[] = [];
  return sorted.map((s) => {
    while (stack.length > 0 && !contains(stack[stack.length - 1]!, s)) stack.pop();
    const line = `${'  '.repeat(stack.length)}${c.paint(ANSI.cyan, s.kind)} ${c.paint(ANSI.bold, s.name)}  ${c.paint(ANSI.dim, `${s.selectionLine + 1}:${s.selectionCharacter + 1}`)}`;
    stack.push(s);
    return line;
  });
}

/** Locations with their source code, indented under each. */
function withCode(c: Ctx, locations: readonly DefinitionLocation[], none: string): string[] {
  if (locations.length === 0) return [none];
  return locations.flatMap((l) => [
    pos(c, l.filePath, l.line, l.character),
    ...l.code
      .replace(/\n$/, '')
      .split('\n')
      .map((x) => `    ${x}`),
  ]);
}

/** What each `unavailable.kind` means (since 0.1.8, clause T48). */
const UNAVAILABLE: Record<Unavailable['kind'], string> = {
  none: 'no language server serves this file',
  down: 'its language server is not running',
  loading: 'its language server was not ready in time (try again shortly)',
  unsupported: 'its language server does not offer this',
};

/** An incomplete coverage (since 0.1.8) in words, one line per part not searched; '' when complete. */
export function coverageText(coverage: Coverage, options: FormatOptions): string {
  return coverageLines(ctxOf(options), coverage).join('\n');
}

/** An answer that is empty because no language server could answer, said so: it is not "none found". */
export function unavailableText(u: Unavailable): string {
  const reason = u.reason.trim().replace(/\.$/, '');
  return `no answer: ${UNAVAILABLE[u.kind] ?? u.kind}${reason ? ` (${reason})` : ''}`;
}

/** At most this many projects or folders not searched are named; the rest are counted. */
const NOT_SEARCHED_SHOWN = 10;

/** An incomplete coverage in words: what was searched, and each part not searched with why. Complete: nothing. */
function coverageLines(c: Ctx, cov: Coverage): string[] {
  if (cov.complete && cov.notSearched.length === 0) return [];
  const all = cov.searched.length + cov.notSearched.length;
  const what = (e: { kind: string }[]) =>
    e.every((x) => x.kind === 'project') ? 'projects' : e.every((x) => x.kind === 'folder') ? 'folders' : 'parts';
  const head = `incomplete: ${cov.searched.length} of ${all} ${what([...cov.searched, ...cov.notSearched])} searched; not searched:`;
  return [
    c.paint(ANSI.yellow, head),
    ...cov.notSearched
      .slice(0, NOT_SEARCHED_SHOWN)
      .map((n) => `  ${c.paint(ANSI.magenta, c.path(n.path))}: ${n.reason}`),
    ...(cov.notSearched.length > NOT_SEARCHED_SHOWN
      ? [`  … and ${cov.notSearched.length - NOT_SEARCHED_SHOWN} more`]
      : []),
  ];
}

/**
 * Source text as a block under its position: the first line given from its start column (`firstColumn`),
 * so the block is dedented by what all its lines share, then indented by four spaces.
 */
function codeBlock(text: string, firstColumn: number): string[] {
  const lines = text.replace(/\n$/, '').split('\n');
  const indentOf = (l: string) => /^[ \t]*/.exec(l)![0].length;
  const rest = lines.slice(1).filter((l) => l.trim() !== '');
  const cut = Math.min(firstColumn, ...rest.map(indentOf));
  return lines.map((l, i) => {
    const line = i === 0 ? `${' '.repeat(firstColumn - cut)}${l}` : l.slice(Math.min(cut, indentOf(l)));
    return line === '' ? '' : `    ${line}`;
  });
}

/** `path:line:col: kind namePath`, at the symbol's name. */
const symbolAt = (
  c: Ctx,
  file: string,
  s: { kind: string; namePath: string; selectionLine: number; selectionCharacter: number },
): string =>
  `${pos(c, file, s.selectionLine, s.selectionCharacter)}: ${c.paint(ANSI.cyan, s.kind)} ${c.paint(ANSI.bold, s.namePath)}`;

type FoundSymbol = NavFindSymbolResult['symbols'][number];

/** nav/findSymbol: each symbol with its signature, or its body; children indented by level. */
function foundSymbols(r: NavFindSymbolResult, c: Ctx): string[] {
  const sig = (s: { signature: string }) => (s.signature ? `  ${c.paint(ANSI.dim, s.signature)}` : '');
  const one = (s: FoundSymbol) => [
    `${symbolAt(c, s.filePath, s)}${s.body === undefined ? sig(s) : ''}`,
    ...(s.body === undefined ? [] : codeBlock(s.body, s.bodyCharacter ?? s.character)),
    ...(s.children ?? []).map((k) => `${'  '.repeat(k.level)}${symbolAt(c, s.filePath, k)}${sig(k)}`),
  ];
  if (r.form === 'counts') {
    const files = r.files ?? [];
    return [
      ...files.map((f) => `${c.paint(ANSI.magenta, c.path(f.filePath))}: ${plural(f.count, 'symbol')}`),
      c.paint(
        ANSI.dim,
        `(${plural(r.totalCount, 'symbol')} matched: too many to list within the answer's size budget, so only the count per file${r.truncated ? ', not every file' : ''}; narrow the name path, the folder or the kinds)`,
      ),
    ];
  }
  return [
    ...r.symbols.flatMap(one),
    ...(r.form === 'signatures'
      ? [c.paint(ANSI.dim, "(signatures only: bodies and children left out to fit the answer's size budget)")]
      : []),
    ...cut(c, r.symbols.length, r.totalCount, 'symbols'),
  ];
}

/** nav/referencingSymbols: each containing symbol, then its references with their line's text. */
function referencingSymbols(r: NavReferencingSymbolsResult, c: Ctx): string[] {
  const shown = r.groups.reduce((n, g) => n + g.references.length, 0);
  return [
    ...r.groups.flatMap((g) => [
      g.symbol
        ? symbolAt(c, g.filePath, g.symbol)
        : `${c.paint(ANSI.magenta, c.path(g.filePath))}: ${c.paint(ANSI.dim, '(outside every symbol)')}`,
      ...g.references.map((x) => `  ${pos(c, g.filePath, x.line, x.character)}: ${x.lineText.trim()}`),
    ]),
    ...cut(c, shown, r.totalCount, 'references'),
  ];
}

/** nav/callHierarchy: the function, then each call indented by level, with where the calls are. */
function callHierarchy(r: NavCallHierarchyResult, c: Ctx): string[] {
  if (!r.item) return ['no function, method or constructor at that position'];
  const direction = c.params.direction;
  const verb = direction === 'incoming' ? 'called from' : direction === 'outgoing' ? 'calls' : '→';
  const item = (i: NavCallHierarchyResult['calls'][number]['item']) =>
    `${pos(c, i.filePath, i.selectionLine, i.selectionCharacter)}: ${c.paint(ANSI.cyan, i.kind)} ${c.paint(ANSI.bold, i.namePath ?? i.name)}`;
  const sites = (n: CallNode, file: string) =>
    n.callSites.length === 0
      ? ''
      : c.paint(
          ANSI.dim,
          `  (at ${n.callSites.map((s) => `${s.filePath === file ? '' : `${c.path(s.filePath)}:`}${s.line + 1}:${s.character + 1}`).join(', ')})`,
        );
  // The call sites are in the caller: the item for incoming calls, the function one level up for outgoing.
  const parents: string[] = [r.item.filePath];
  const lines = r.calls.map((n) => {
    parents[n.level] = n.item.filePath;
    const callerFile = direction === 'outgoing' ? parents[n.level - 1]! : n.item.filePath;
    return `${'  '.repeat(n.level)}${verb} ${item(n.item)}${sites(n, callerFile)}${n.recursive ? c.paint(ANSI.dim, '  (recursive: not followed)') : ''}`;
  });
  const none = direction === 'incoming' ? 'no callers found' : 'no calls found';
  return [
    item(r.item),
    ...(lines.length > 0 ? lines : [`  ${c.paint(ANSI.dim, `(${none})`)}`]),
    ...cut(c, r.calls.length, r.totalCount, 'calls'),
  ];
}

/** What a write topic (since 0.1.8) did, in its answer's first line: "applied", "would apply" on a dry run. */
const WRITE_VERB: Record<string, { done: string; would: string; none: string }> = {
  '/app/vscode/edit/apply': { done: 'applied', would: 'would apply', none: 'nothing to change' },
  '/app/vscode/edit/applyCodeAction': {
    done: 'applied the code action',
    would: 'the code action would make',
    none: 'the code action changes nothing',
  },
  '/app/vscode/edit/format': { done: 'formatted', would: 'formatting would make', none: 'already formatted' },
  '/app/vscode/fs/move': { done: 'moved', would: 'the move would make', none: 'nothing to move' },
  '/app/vscode/edit/undo': { done: 'undone', would: 'the undo would make', none: 'nothing to undo' },
};

/** One file of a write: what happens to it (a rename: both paths), then its diff when it has one. */
function fileWrite(c: Ctx, f: EditApplyResult['files'][number]): string[] {
  const path = c.paint(ANSI.magenta, c.path(f.filePath));
  const head =
    f.change === 'renamed'
      ? `renamed ${path} → ${c.paint(ANSI.magenta, c.path(f.newFilePath ?? '?'))}`
      : f.change === 'edited'
        ? undefined
        : `${f.change === 'createdFolder' ? 'created folder' : f.change === 'deletedFolder' ? 'deleted folder' : f.change} ${path}`;
  return [...(head ? [head] : []), ...(f.diff === '' ? [] : diffLines(c, f.diff))];
}

/** A write's diagnostics (clause T58): each file's, or that there are none, and whether they settled. */
function diagnosticsAfterWrite(c: Ctx, d: DiagnosticsAfterWrite): string[] {
  const all = d.files.flatMap((f) => f.diagnostics.map((x) => diagnosticLine(c, f.filePath, x)));
  const unavailable = d.files.flatMap((f) =>
    f.unavailable ? [`${c.paint(ANSI.magenta, c.path(f.filePath))}: ${unavailableText(f.unavailable)}`] : [],
  );
  const settled = d.settled
    ? `settled after ${d.waitedMs} ms`
    : `not settled after ${d.waitedMs} ms: what was known by then`;
  const head =
    all.length === 0
      ? `diagnostics: none in the ${plural(d.files.length, 'file')} written (${settled})`
      : `diagnostics of the ${plural(d.files.length, 'file')} written (${settled}):`;
  return [c.paint(d.settled ? ANSI.dim : ANSI.yellow, head), ...all, ...unavailable];
}

/**
 * A write topic's answer (since 0.1.8: edit/apply, applyCodeAction, format, fs/move, undo): what it did or
 * would do, the transaction to undo it by, each file's change and diff (the diagnostics: withNotes).
 */
function writeResult(topic: string) {
  return (r: EditApplyResult, c: Ctx): string[] => {
    const verb = WRITE_VERB[topic]!;
    if (r.files.length === 0) return [`${verb.none}: no file changes${r.dryRun ? ' (dry run)' : ''}`];
    const files = new Set(r.files.filter((f) => !f.change.endsWith('Folder')).map((f) => f.filePath)).size;
    // An undo restores whole files: no edits to count.
    const what =
      r.editCount === 0 ? plural(files, 'file') : `${plural(r.editCount, 'edit')} in ${plural(files, 'file')}`;
    const head = r.dryRun
      ? c.paint(ANSI.bold, `dry run: ${verb.would} ${what} (nothing written)`)
      : `${verb.done}: ${what}${r.transactionId ? `; transaction ${c.paint(ANSI.bold, r.transactionId)}` : ''}`;
    return [head, ...r.files.flatMap((f) => fileWrite(c, f))];
  };
}

/** edit/codeActions: each action numbered (1-based), its kind, whether preferred or disabled, its id, what it fixes. */
function codeActions(r: EditCodeActionsResult, c: Ctx): string[] {
  if (r.actions.length === 0) return ['no code actions here'];
  return r.actions.flatMap((a, i) => [
    `${c.paint(ANSI.bold, `${i + 1}.`)} ${a.title}  ${c.paint(ANSI.cyan, a.kind || '(no kind)')}${a.isPreferred ? c.paint(ANSI.green, '  preferred') : ''}${a.disabled ? c.paint(ANSI.yellow, `  disabled: ${a.disabled}`) : ''}  ${c.paint(ANSI.dim, `id ${a.id}`)}`,
    ...(a.diagnostics ?? []).map((d) => `     fixes ${diagnosticLine(c, d.filePath, d)}`),
  ]);
}

/** edit/transactions: newest first, a table. */
function transactions(r: EditTransactionsResult, c: Ctx): string[] {
  if (r.transactions.length === 0) return ['no transactions to undo'];
  const short = (t: string) => t.replace(/^\/app\/vscode\//, '');
  const files = (fs: readonly string[]) =>
    fs.length === 0 ? '-' : `${c.path(fs[0]!)}${fs.length > 1 ? ` (+${fs.length - 1})` : ''}`;
  return [
    ...table(
      c,
      ['TRANSACTION', 'WHEN', 'TOPIC', 'FILES', 'LABEL'],
      r.transactions.map((t) => [
        t.transactionId,
        new Date(t.timestamp).toISOString().replace('T', ' ').slice(0, 19),
        `${short(t.topic)}${t.undone ? ' (undone)' : ''}`,
        files(t.files),
        t.label ?? '',
      ]),
    ),
    ...cut(c, r.transactions.length, r.totalCount, 'transactions'),
  ];
}

const FORMATTERS: Record<string, (r: never, c: Ctx) => string[]> = {
  '/app/vscode/edit/find': (r: EditFindResult, c) => [
    ...r.matches.map((m) => `${pos(c, m.filePath, m.line, m.character)}: ${m.lineText}`),
    ...cut(c, r.matches.length, r.totalCount, 'matches'),
  ],
  '/app/vscode/edit/replace': (r: EditReplaceResult, c) =>
    r.replacedCount === 0 && r.affectedFiles.length === 0
      ? ['nothing replaced: no match']
      : [
          `replaced ${plural(r.replacedCount, 'occurrence')} in ${plural(r.affectedFiles.length, 'file')}:`,
          ...r.affectedFiles.map((f) => `  ${c.paint(ANSI.magenta, c.path(f))}`),
        ],
  '/app/vscode/nav/definition': (r: NavDefinitionResult, c) => withCode(c, r.locations, 'no definition found'),
  '/app/vscode/nav/typeDefinition': (r: NavTypeDefinitionResult, c) =>
    withCode(c, r.locations, 'no type definition found'),
  '/app/vscode/nav/implementation': (r: NavImplementationResult, c) =>
    withCode(c, r.locations, 'no implementation found'),
  '/app/vscode/nav/hover': (r: NavHoverResult) =>
    r.contents.length === 0 ? ['nothing to show'] : r.contents.flatMap((h, i) => [...(i > 0 ? ['---'] : []), h.value]),
  '/app/vscode/edit/rename': (r: EditRenameResult, c) => {
    if (r.files.length === 0) return ['nothing to rename'];
    const what = `${plural(r.editCount, 'edit')} in ${plural(r.files.length, 'file')}`;
    return [
      r.dryRun ? c.paint(ANSI.bold, `dry run: would make ${what} (nothing written)`) : `renamed: ${what}`,
      ...r.files.flatMap((f) => diffLines(c, f.diff)),
    ];
  },
  '/app/vscode/editor/context': (r: EditorContextResult, c) => {
    const unsaved = (dirty: boolean) => (dirty ? c.paint(ANSI.yellow, ' (unsaved)') : '');
    const a = r.activeEditor;
    const out = [a ? `active: ${c.paint(ANSI.magenta, c.path(a.filePath))}${unsaved(a.isDirty)}` : 'active: none'];
    if (a)
      for (const s of a.selections)
        out.push(`  selection ${pos(c, a.filePath, s.line, s.character)}-${s.endLine + 1}:${s.endCharacter + 1}`);
    const groups = new Set(r.tabs.map((t) => t.group)).size > 1;
    out.push(`tabs (${r.tabs.length}):`);
    for (const t of r.tabs)
      out.push(
        `  ${t.isActive ? '*' : ' '} ${c.paint(ANSI.magenta, c.path(t.filePath))}${unsaved(t.isDirty)}${groups ? c.paint(ANSI.dim, ` [group ${t.group}]`) : ''}`,
      );
    return out;
  },
  '/app/vscode/editor/open': (r: EditorOpenResult, c) => [`opened ${pos(c, r.filePath, r.line, r.character)}`],
  '/app/vscode/nav/references': (r: NavReferencesResult, c) => [
    ...r.locations.map((l) => pos(c, l.filePath, l.line, l.character)),
    ...cut(c, r.locations.length, r.totalCount, 'references'),
  ],
  '/app/vscode/diag/list': (r: DiagListResult, c) => [
    ...r.diagnostics.map((d) => diagnosticLine(c, d.filePath, d)),
    ...cut(c, r.diagnostics.length, r.totalCount, 'diagnostics'),
  ],
  '/app/vscode/nav/symbols': (r: NavSymbolsResult, c) => [
    ...outline(c, r.symbols),
    ...cut(c, r.symbols.length, r.totalCount, 'symbols'),
  ],
  '/app/vscode/history/list': (r: HistoryListResult, c) => [
    ...table(
      c,
      ['INDEX', 'COMMIT', 'DATE', 'AUTHOR', 'MESSAGE'],
      r.entries.map((e) => [
        String(e.index),
        e.shortHash,
        e.authorDate ? e.authorDate.slice(0, 10) : '',
        e.authorName ?? '',
        firstLine(e.message),
      ]),
    ),
    ...cut(c, r.entries.length, r.totalCount, 'commits'),
  ],
  '/app/vscode/history/diff': (r: HistoryDiffResult, c) => [
    c.paint(ANSI.dim, `${r.fromRef} → ${r.toRef}`),
    ...diffLines(c, r.diff),
  ],
  '/app/vscode/history/rollback': (r: HistoryRollbackResult, c) => [
    `restored ${c.paint(ANSI.magenta, c.path(r.filePath))} to commit ${r.toRef.slice(0, 7)} (history index ${r.restoredIndex}) and saved it to disk`,
  ],
  '/app/vscode/fs/findFiles': (r: FsFindFilesResult, c) => [
    ...r.files.map((f) => c.paint(ANSI.magenta, c.path(f.filePath))),
    ...cut(c, r.files.length, r.totalCount, 'files'),
  ],
  '/app/vscode/localhistory/list': (r: LocalhistoryListResult, c) => [
    ...table(
      c,
      ['ID', 'SAVED', 'SOURCE'],
      r.entries.map((e) => [e.id, e.timestampLabel, e.source ?? '']),
    ),
    ...cut(c, r.entries.length, r.totalCount, 'entries'),
  ],
  '/app/vscode/localhistory/diff': (r: LocalhistoryDiffResult, c) => [
    c.paint(ANSI.dim, `${r.fromLabel} → ${r.toLabel}`),
    ...diffLines(c, r.diff),
  ],
  '/app/vscode/localhistory/rollback': (r: LocalhistoryRollbackResult, c) => [
    `restored ${c.paint(ANSI.magenta, c.path(r.filePath))} to local history entry ${r.restoredId} (${r.restoredLabel}) and saved it to disk`,
  ],
  '/app/vscode/nav/findSymbol': foundSymbols,
  '/app/vscode/nav/workspaceSymbols': (r: NavWorkspaceSymbolsResult, c) => [
    ...r.symbols.map(
      (s) =>
        `${pos(c, s.filePath, s.line, s.character)}: ${c.paint(ANSI.cyan, s.kind)} ${c.paint(ANSI.bold, s.name)}${s.containerName ? c.paint(ANSI.dim, `  in ${s.containerName}`) : ''}`,
    ),
    ...cut(c, r.symbols.length, r.totalCount, 'symbols'),
  ],
  '/app/vscode/nav/referencingSymbols': referencingSymbols,
  '/app/vscode/nav/callHierarchy': callHierarchy,
  '/app/vscode/edit/codeActions': codeActions,
  '/app/vscode/edit/transactions': transactions,
  ...Object.fromEntries(Object.keys(WRITE_VERB).map((t) => [t, writeResult(t)])),
};

/**
 * Events (since 0.1.7), one line per change: a diagnostic added `+ path:l:c: …` or removed `- …`
 * (a file whose set did not change: `= path: N diagnostics`), a file `created|changed|deleted path`,
 * the editor state as one line.
 */
const EVENT_FORMATTERS: Record<string, (d: never, c: Ctx) => string[]> = {
  '/app/vscode/diagnostics/changed': (d: DiagnosticsChangedData, c) =>
    d.files.flatMap((f) => {
      const lines = [
        ...f.removed.map((x) => `${c.paint(ANSI.red, '-')} ${diagnosticLine(c, f.filePath, x)}`),
        ...f.added.map((x) => `${c.paint(ANSI.green, '+')} ${diagnosticLine(c, f.filePath, x)}`),
      ];
      return lines.length > 0
        ? lines
        : [`= ${c.paint(ANSI.magenta, c.path(f.filePath))}: ${plural(f.total, 'diagnostic')}`];
    }),
  '/app/vscode/files/changed': (d: FilesChangedData, c) =>
    d.changes.map((x) => {
      const color = x.change === 'created' ? ANSI.green : x.change === 'deleted' ? ANSI.red : ANSI.yellow;
      return `${c.paint(color, x.change.padEnd(7))} ${c.paint(ANSI.magenta, c.path(x.filePath))}`;
    }),
  '/app/vscode/editor/changed': (d: EditorChangedData, c) => {
    const sel = d.selections[0];
    const active =
      d.activeFile === null
        ? 'no active editor'
        : sel
          ? `${pos(c, d.activeFile, sel.activeLine, sel.activeCharacter)}${d.selections.length > 1 ? ` (+${d.selections.length - 1} selections)` : ''}`
          : c.paint(ANSI.magenta, c.path(d.activeFile));
    const list = (xs: readonly string[]) => (xs.length > 0 ? xs.map((x) => c.path(x)).join(', ') : '-');
    return [
      `${active}  ${c.paint(ANSI.dim, 'visible:')} ${list(d.visibleFiles)}  ${c.paint(ANSI.dim, 'unsaved:')} ${list(d.dirtyFiles)}`,
    ];
  },
};

/** `data` of an `event` frame for people (JSON when the event has no formatter or another shape); see the header. */
export function formatEvent(event: string, data: unknown, options: FormatOptions): string {
  return render(EVENT_FORMATTERS[event], data, options, 0);
}

/** `f`'s lines, or `value` as JSON (`indent` 0: one line, as a stream of events wants). */
function render(
  f: ((r: never, c: Ctx) => string[]) | undefined,
  value: unknown,
  options: FormatOptions,
  indent = 2,
): string {
  if (f) {
    try {
      return f(value as never, ctxOf(options)).join('\n');
    } catch {
      // not shaped as this version's (a newer server): fall back to JSON
    }
  }
  return JSON.stringify(value, null, indent);
}

/** Topics that have a formatter of their own (the others print as JSON). */
export const FORMATTED_TOPICS: readonly string[] = Object.keys(FORMATTERS);

const isObject = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null;

/**
 * A formatter's lines, with what since 0.1.8 any answer may add: `unavailable` in place of the (empty)
 * lines, an incomplete `coverage` after them.
 */
function withNotes(f: ((r: never, c: Ctx) => string[]) | undefined): ((r: never, c: Ctx) => string[]) | undefined {
  if (!f) return undefined;
  return (r: never, c: Ctx) => {
    const result: unknown = r;
    const field = (name: string): unknown => (isObject(result) && isObject(result[name]) ? result[name] : undefined);
    const u = field('unavailable') as Unavailable | undefined;
    const cov = field('coverage') as Coverage | undefined;
    // A write's diagnostics when asked (T58): an object, where diag/list's are a list.
    const d = field('diagnostics');
    const after =
      isObject(d) && !Array.isArray(d) && typeof d.settled === 'boolean'
        ? (d as unknown as DiagnosticsAfterWrite)
        : undefined;
    return [
      ...(u ? [c.paint(ANSI.yellow, unavailableText(u))] : f(r, c)),
      ...(cov ? coverageLines(c, cov) : []),
      ...(after ? diagnosticsAfterWrite(c, after) : []),
    ];
  };
}

/** `result` of `topic` for people; see the header for the options. */
export function formatResult(topic: string, result: unknown, options: FormatOptions): string {
  return render(withNotes(FORMATTERS[topic]), result, options);
}
