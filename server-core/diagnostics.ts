// diag/list wire conversion, vscode-free: severity numbers are vscode.DiagnosticSeverity
// (Error 0, Warning 1, Information 2, Hint 3); an object code ({ value, target }) serialises as its value.
const SEVERITY_NAMES = ['error', 'warning', 'information', 'hint'] as const;
type SeverityName = (typeof SEVERITY_NAMES)[number];

interface Rng {
  start: { line: number; character: number };
  end: { line: number; character: number };
}
export interface RawDiagnostic {
  range: Rng;
  severity: number;
  message: string;
  source?: string;
  code?: string | number | { value: string | number; target?: unknown };
}

export interface WireDiagnostic {
  filePath: string;
  line: number;
  character: number;
  endLine: number;
  endCharacter: number;
  severity: SeverityName;
  message: string;
  source: string | null;
  code: string | null;
}

export function codeOf(code: RawDiagnostic['code']): string | null {
  if (code === undefined || code === null) return null;
  if (typeof code === 'object') return code.value === undefined || code.value === null ? null : String(code.value);
  return String(code);
}

export function toWireDiagnostic(filePath: string, d: RawDiagnostic): WireDiagnostic {
  return {
    filePath,
    line: d.range.start.line,
    character: d.range.start.character,
    endLine: d.range.end.line,
    endCharacter: d.range.end.character,
    severity: SEVERITY_NAMES[d.severity] ?? 'error',
    message: d.message,
    source: d.source ?? null,
    code: codeOf(d.code),
  };
}

/** "all" keeps every diagnostic; otherwise only the named severity. */
export function severityFilter(severity: string | undefined): (d: WireDiagnostic) => boolean {
  if (!severity || severity === 'all') return () => true;
  return (d) => d.severity === severity;
}
