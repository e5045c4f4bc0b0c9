// LSP answers → the served IDEA version's result shapes (generated/current.ts), as pure functions,
// matching what the extension's handlers return: absolute file paths (file: URIs only), 0-based lines
// and UTF-16 characters as LSP has them, sorted and capped the same way. The symbol and diagnostic
// shaping is shared with the extension (server-core/symbols.ts, server-core/diagnostics.ts): LSP numbers
// SymbolKind and DiagnosticSeverity from 1 where VS Code numbers them from 0, hence the `- 1`s.
import { fileURLToPath, pathToFileURL } from 'node:url';
import type {
  DocumentSymbol,
  LocationLink,
  Diagnostic as LspDiagnostic,
  Location as LspLocation,
  Range,
  SymbolInformation,
} from 'vscode-languageserver-protocol';
import type {
  DefinitionLocation,
  DiagListResult,
  Location,
  NavReferencesResult,
  NavSymbolsResult,
  SeverityFilter,
} from '../../../generated/current';
import {
  type RawDiagnostic,
  severityFilter,
  toWireDiagnostic,
  type WireDiagnostic,
} from '../../../server-core/diagnostics';
import {
  type FlatSymbol,
  filterSymbols,
  flattenSymbols,
  innermostContaining,
  type TreeSymbol,
} from '../../../server-core/symbols';

/** Most references / diagnostics returned; totalCount still counts them all (the extension's caps). */
export const MAX_REFERENCES = 10_000;
export const MAX_DIAGNOSTICS = 10_000;

export type DefinitionAnswer = LspLocation | LspLocation[] | LocationLink[] | null | undefined;

/** A definition target: the file and the range whose text is returned; `bare` when the server gave only a Location (no declaration range). */
export interface DefinitionTarget {
  filePath: string;
  range: Range;
  bare: boolean;
}

/** The absolute path of a file: URI; undefined for any other scheme or a malformed URI. */
export function pathOfUri(uri: unknown): string | undefined {
  if (typeof uri !== 'string' || !uri.startsWith('file:')) return undefined;
  try {
    return fileURLToPath(uri);
  } catch {
    return undefined;
  }
}

function isPosition(p: unknown): p is Range['start'] {
  const q = p as Range['start'] | null;
  return (
    typeof q === 'object' &&
    q !== null &&
    Number.isInteger(q.line) &&
    Number.isInteger(q.character) &&
    q.line >= 0 &&
    q.character >= 0
  );
}

export function isRange(r: unknown): r is Range {
  const q = r as Range | null;
  return typeof q === 'object' && q !== null && isPosition(q.start) && isPosition(q.end);
}

function wireLocation(filePath: string, r: Range): Location {
  return {
    filePath,
    line: r.start.line,
    character: r.start.character,
    endLine: r.end.line,
    endCharacter: r.end.character,
  };
}

function byPlace(a: Location, b: Location): number {
  return a.filePath < b.filePath ? -1 : a.filePath > b.filePath ? 1 : a.line - b.line || a.character - b.character;
}

/** A definition answer (Location, Location[] or LocationLink[]) as targets: a link's targetRange is the whole declaration. */
export function definitionTargets(answer: DefinitionAnswer): DefinitionTarget[] {
  const list: unknown[] = answer === null || answer === undefined ? [] : Array.isArray(answer) ? answer : [answer];
  const out: DefinitionTarget[] = [];
  for (const d of list) {
    if (typeof d !== 'object' || d === null) continue;
    if ('targetUri' in d) {
      const link = d as LocationLink;
      const filePath = pathOfUri(link.targetUri);
      if (filePath !== undefined && isRange(link.targetRange))
        out.push({ filePath, range: link.targetRange, bare: false });
    } else {
      const loc = d as LspLocation;
      const filePath = pathOfUri(loc.uri);
      if (filePath !== undefined && isRange(loc.range)) out.push({ filePath, range: loc.range, bare: true });
    }
  }
  return out;
}

/** A bare Location widened to the innermost document symbol around it (the extension's fallback); unchanged when none is. */
export function widenToSymbol(
  range: Range,
  symbols: readonly (DocumentSymbol | SymbolInformation)[] | null | undefined,
): Range {
  const tree = (symbols ?? []).filter(
    (s): s is DocumentSymbol => isRange((s as DocumentSymbol).range) && isRange((s as DocumentSymbol).selectionRange),
  );
  const around = innermostContaining(tree as unknown as TreeSymbol[], range.start);
  return around ? around.range : range;
}

/** The text of a range, positions clamped to the text as VS Code's getText does; lines end at \r\n, \n or \r. */
export function textInRange(text: string, range: Range): string {
  const starts = [0];
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (c === 13 /* \r */) {
      if (text.charCodeAt(i + 1) === 10) i++;
      starts.push(i + 1);
    } else if (c === 10 /* \n */) {
      starts.push(i + 1);
    }
  }
  const offset = (p: Range['start']) => {
    const start = starts[p.line];
    if (start === undefined) return text.length;
    const next = starts[p.line + 1];
    // The line's end excludes its terminator.
    let end = next === undefined ? text.length : next - 1;
    if (next !== undefined && text.charCodeAt(next - 1) === 10 && text.charCodeAt(next - 2) === 13) end--;
    return Math.min(start + p.character, end);
  };
  const a = offset(range.start);
  const b = offset(range.end);
  return a <= b ? text.slice(a, b) : '';
}

/** One nav/definition location: the range and its source text (`text` is the target file's content). */
export function definitionLocation(target: DefinitionTarget, text: string): DefinitionLocation {
  return { ...wireLocation(target.filePath, target.range), code: textInRange(text, target.range) };
}

/** nav/references: file locations, sorted by file then position, capped; totalCount counts them all. */
export function referencesResult(answer: LspLocation[] | null | undefined): NavReferencesResult {
  const locations: Location[] = [];
  for (const l of Array.isArray(answer) ? answer : []) {
    const filePath = pathOfUri(l?.uri);
    if (filePath !== undefined && isRange(l.range)) locations.push(wireLocation(filePath, l.range));
  }
  locations.sort(byPlace);
  return { locations: locations.slice(0, MAX_REFERENCES), totalCount: locations.length };
}

/** LSP symbols with VS Code's SymbolKind numbering (the extension's flattening expects it); malformed entries dropped. */
/** LSP document symbols as VS Code's (0-based kinds), malformed ones dropped: server-core's input shape. */
export function toVsCodeSymbols(symbols: readonly unknown[]): (TreeSymbol | FlatSymbol)[] {
  const out: (TreeSymbol | FlatSymbol)[] = [];
  for (const s of symbols) {
    if (typeof s !== 'object' || s === null) continue;
    const sym = s as Partial<DocumentSymbol & SymbolInformation>;
    if (typeof sym.name !== 'string' || typeof sym.kind !== 'number') continue;
    if (isRange(sym.range) && isRange(sym.selectionRange)) {
      out.push({
        name: sym.name,
        kind: sym.kind - 1,
        range: sym.range,
        selectionRange: sym.selectionRange,
        children: toVsCodeSymbols(Array.isArray(sym.children) ? sym.children : []) as TreeSymbol[],
      });
    } else if (isRange(sym.location?.range)) {
      out.push({
        name: sym.name,
        kind: sym.kind - 1,
        containerName: typeof sym.containerName === 'string' ? sym.containerName : undefined,
        location: { range: sym.location.range },
      });
    }
  }
  return out;
}

/** nav/symbols: the tree flattened parent-first, filtered by the case-insensitive `query`. */
export function symbolsResult(
  answer: readonly (DocumentSymbol | SymbolInformation)[] | null | undefined,
  query?: string,
): NavSymbolsResult {
  const symbols = filterSymbols(flattenSymbols(toVsCodeSymbols(Array.isArray(answer) ? answer : [])), query);
  return { symbols: symbols as NavSymbolsResult['symbols'], totalCount: symbols.length };
}

/** A diagnostic's message: a string, or (LSP 3.18) markup whose text is taken as is. */
function messageOf(m: unknown): string | undefined {
  if (typeof m === 'string') return m;
  const v = (m as { value?: unknown } | null)?.value;
  return typeof m === 'object' && typeof v === 'string' ? v : undefined;
}

/** One LSP diagnostic as VS Code's (0-based severity; a missing one counts as an error); undefined when malformed. */
export function rawDiagnostic(d: LspDiagnostic): RawDiagnostic | undefined {
  const message = messageOf(d?.message);
  if (message === undefined || !isRange(d.range)) return undefined;
  const code = typeof d.code === 'string' || typeof d.code === 'number' ? d.code : undefined;
  const severity = Number.isInteger(d.severity) && d.severity! >= 1 && d.severity! <= 4 ? d.severity! - 1 : 0;
  return { range: d.range, message, code, severity, source: typeof d.source === 'string' ? d.source : undefined };
}

/** One LSP diagnostic on the wire; undefined when malformed. */
export function wireDiagnostic(filePath: string, d: LspDiagnostic): WireDiagnostic | undefined {
  const raw = rawDiagnostic(d);
  return raw && toWireDiagnostic(filePath, raw);
}

/** diag/list: every file's diagnostics, filtered by severity, sorted by file then position, capped. */
export function diagnosticsResult(
  perFile: readonly (readonly [string, readonly LspDiagnostic[]])[],
  severity?: SeverityFilter,
): DiagListResult {
  const keep = severityFilter(severity);
  const out: WireDiagnostic[] = [];
  for (const [filePath, list] of perFile) {
    for (const d of list) {
      const w = typeof d === 'object' && d !== null ? wireDiagnostic(filePath, d) : undefined;
      if (w && keep(w)) out.push(w);
    }
  }
  out.sort(byPlace);
  return { diagnostics: out.slice(0, MAX_DIAGNOSTICS) as DiagListResult['diagnostics'], totalCount: out.length };
}

/**
 * tsserver's ScriptElementKind → LSP SymbolKind, as typescript-language-server converts its own answers
 * (its workspace/symbol and documentSymbol), so navto's symbols read like its other ones.
 */
const TS_SYMBOL_KINDS: Readonly<Record<string, number>> = {
  'enum member': 14,
  'JSX attribute': 7,
  'local class': 5,
  'local function': 12,
  'local var': 13,
  'type parameter': 13,
  alias: 13,
  class: 5,
  const: 14,
  constructor: 9,
  enum: 10,
  field: 8,
  file: 1,
  function: 12,
  getter: 6,
  interface: 11,
  let: 13,
  method: 6,
  module: 2,
  parameter: 13,
  property: 7,
  setter: 6,
  var: 13,
};

/** tsserver `navto` items (1-based lines and offsets) as LSP SymbolInformation; malformed ones dropped. */
export function fromNavto(items: readonly unknown[]): SymbolInformation[] {
  const out: SymbolInformation[] = [];
  const pos = (p: unknown) => {
    const { line, offset } = (p ?? {}) as { line?: unknown; offset?: unknown };
    return Number.isSafeInteger(line) &&
      Number.isSafeInteger(offset) &&
      (line as number) >= 1 &&
      (offset as number) >= 1
      ? { line: (line as number) - 1, character: (offset as number) - 1 }
      : undefined;
  };
  for (const it of items) {
    if (typeof it !== 'object' || it === null) continue;
    const item = it as {
      name?: unknown;
      kind?: unknown;
      file?: unknown;
      start?: unknown;
      end?: unknown;
      containerName?: unknown;
    };
    const start = pos(item.start);
    const end = pos(item.end);
    if (typeof item.name !== 'string' || typeof item.file !== 'string' || !start || !end) continue;
    out.push({
      name: item.name,
      kind: (TS_SYMBOL_KINDS[String(item.kind)] ?? 13) as SymbolInformation['kind'],
      location: { uri: pathToFileURL(item.file).href, range: { start, end } },
      ...(typeof item.containerName === 'string' && item.containerName ? { containerName: item.containerName } : {}),
    });
  }
  return out;
}
