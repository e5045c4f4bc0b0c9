// Human-readable output of topic results, shared by the CLI and the MCP server. No CLI concerns here:
// no I/O, no process state; the caller decides colour and the folder paths are shown relative to.
//
//   formatResult(topic, result, { color, cwd }) → string (no trailing newline)
//   formatEvent(event, data, { color, cwd }) → string, one line per change (since 0.1.7)
//
// - topic: the full topic ("/app/vscode/edit/find"); a topic without a formatter below (or a result
//   not shaped as expected) prints as indented JSON.
// - color: ANSI colours (paths, positions, severities, diff lines).
// - cwd: paths inside it are shown relative to it (like grep); others stay absolute.
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

export interface FormatOptions {
  color: boolean;
  cwd?: string;
}

type Paint = (code: string, text: string) => string;
interface Ctx {
  paint: Paint;
  path(p: string): string;
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
  return { paint, path };
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

/** `result` of `topic` for people; see the header for the options. */
export function formatResult(topic: string, result: unknown, options: FormatOptions): string {
  return render(FORMATTERS[topic], result, options);
}
