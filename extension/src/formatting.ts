// Formatting over VS Code (server-core/host.ts format; T55): the formatter VS Code would use for the
// document (`vscode.executeFormatDocumentProvider`, `vscode.executeFormatRangeProvider`), with tabSize
// and insertSpaces as given, else as an editor showing the file has them (its detected indentation),
// else the editor settings for the file's language. VS Code answers nothing both when no formatter
// serves the language and when the one that does finds nothing to change: for the languages whose
// formatter VS Code itself ships, nothing is "already formatted"; for any other it is refused as
// Unavailable, saying both may be the case.
import * as vscode from 'vscode';
import type { FormatOptions, LanguageFeatures } from '../../server-core/host';
import { openDocument } from './documents';
import { plain, vscodeRange } from './plain-range';
import { semanticServerReady } from './ts-server';

/** Languages whose formatter comes with VS Code (its TypeScript, JSON, HTML and CSS extensions). */
export const BUILT_IN_FORMATTERS: ReadonlySet<string> = new Set([
  'typescript',
  'typescriptreact',
  'javascript',
  'javascriptreact',
  'json',
  'jsonc',
  'html',
  'css',
  'scss',
  'less',
]);

/** The indentation VS Code would format `doc` with: an editor's (detected) options, else the settings. */
function indentationOf(doc: vscode.TextDocument): { tabSize: number; insertSpaces: boolean } {
  const shown = vscode.window.visibleTextEditors.find((e) => e.document === doc)?.options;
  const settings = vscode.workspace.getConfiguration('editor', doc);
  const tabSize = typeof shown?.tabSize === 'number' ? shown.tabSize : settings.get<number>('tabSize', 4);
  const insertSpaces =
    typeof shown?.insertSpaces === 'boolean' ? shown.insertSpaces : settings.get<boolean>('insertSpaces', true);
  return { tabSize, insertSpaces };
}

export function vscodeFormat(): Required<Pick<LanguageFeatures, 'format'>> {
  return {
    async format(path, range, options: FormatOptions, signal) {
      const doc = await openDocument(path);
      await semanticServerReady(doc, signal);
      const own = indentationOf(doc);
      const formatting: vscode.FormattingOptions = {
        tabSize: options.tabSize ?? own.tabSize,
        insertSpaces: options.insertSpaces ?? own.insertSpaces,
      };
      const edits = range
        ? await vscode.commands.executeCommand<vscode.TextEdit[] | undefined>(
            'vscode.executeFormatRangeProvider',
            doc.uri,
            vscodeRange(range),
            formatting,
          )
        : await vscode.commands.executeCommand<vscode.TextEdit[] | undefined>(
            'vscode.executeFormatDocumentProvider',
            doc.uri,
            formatting,
          );
      if ((!edits || edits.length === 0) && !BUILT_IN_FORMATTERS.has(doc.languageId))
        return {
          unavailable: `no formatter changed this ${doc.languageId} file: VS Code has none for ${doc.languageId} files, or the one it has finds it formatted already`,
          kind: 'unsupported',
        };
      return (edits ?? []).map((e) => ({ range: plain(e.range), newText: e.newText }));
    },
  };
}
