// Formatting over LSP (server-core/host.ts format; T55): textDocument/formatting for a whole file,
// textDocument/rangeFormatting for a range, with tabSize and insertSpaces as given, else as the file
// is indented (VS Code's editor.detectIndentation, on by default, reads them from the text), else
// VS Code's defaults (4, spaces). A server that does not format is Unavailable (`unsupported`).
import type { FormatOptions, LanguageFeatures } from '../../../server-core/host';
import { orUnavailable } from '../lsp-features';
import type { LspClient } from './client';
import { toTextEdits } from './workspace-edit';

/** VS Code's defaults for editor.tabSize and editor.insertSpaces. */
export const DEFAULT_INDENTATION = { tabSize: 4, insertSpaces: true } as const;

/** Lines looked at to guess a file's indentation (VS Code looks at 10,000). */
const DETECT_LINES = 10_000;

/**
 * The indentation a text uses: tabs when more lines start with a tab than with spaces, else spaces,
 * the step being the most frequent increase of indentation from one indented line to the next (2, 4,
 * 8…); undefined where the text says nothing (no indented line).
 */
export function detectIndentation(text: string): Required<FormatOptions> | undefined {
  let tabs = 0;
  let spaces = 0;
  const steps = new Map<number, number>();
  let previous = 0;
  const lines = text.split(/\r\n|\r|\n/, DETECT_LINES);
  for (const line of lines) {
    const indent = /^[ \t]*/.exec(line)![0];
    if (indent.length === line.length) continue; // blank lines say nothing
    if (indent.startsWith('\t')) tabs++;
    else if (indent.length > 0) spaces++;
    const width = indent.startsWith('\t') ? 0 : indent.length;
    const step = width - previous;
    if (!indent.startsWith('\t') && step > 0 && step <= 8) steps.set(step, (steps.get(step) ?? 0) + 1);
    previous = width;
  }
  if (tabs === 0 && spaces === 0) return undefined;
  if (tabs > spaces) return { tabSize: DEFAULT_INDENTATION.tabSize, insertSpaces: false };
  let best: number = DEFAULT_INDENTATION.tabSize;
  let seen = 0;
  for (const [step, count] of steps) if (count > seen || (count === seen && step < best)) [best, seen] = [step, count];
  return { tabSize: best, insertSpaces: true };
}

export function lspFormat(client: LspClient): Required<Pick<LanguageFeatures, 'format'>> {
  return {
    format: (path, range, options, signal) =>
      orUnavailable(async () => {
        const { server, doc, language, bounds } = await client.server(path, { signal });
        const caps = server.capabilities;
        const offered = range ? caps.documentRangeFormattingProvider : caps.documentFormattingProvider;
        if (!offered)
          return {
            unavailable: `the ${language} language server does not format ${range ? 'ranges' : 'documents'}`,
            kind: 'unsupported' as const,
          };
        const detected = detectIndentation(doc.text) ?? DEFAULT_INDENTATION;
        const formatting = {
          tabSize: options.tabSize ?? detected.tabSize,
          insertSpaces: options.insertSpaces ?? detected.insertSpaces,
        };
        const answer = await server.request<unknown>(
          range ? 'textDocument/rangeFormatting' : 'textDocument/formatting',
          {
            textDocument: { uri: doc.uri },
            ...(range && { range: { start: range.start, end: range.end } }),
            options: formatting,
          },
          range ? 'rangeFormatting' : 'formatting',
          bounds,
        );
        return answer === null || answer === undefined ? [] : toTextEdits(path, answer);
      }),
  };
}
