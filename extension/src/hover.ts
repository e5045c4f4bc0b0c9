// LanguageFeatures.hover over VS Code's hover providers: every provider's sections in order (markdown;
// a MarkedString code block becomes a fenced block in its language) and the first range given; nothing,
// when no language server could answer, says why (language-answer.ts).
import * as vscode from 'vscode';
import type { HoverSection, LanguageFeatures, Range } from '../../server-core/host';
import { fencedCode } from '../../server-core/markdown';
import { openDocument } from './documents';
import { askLanguageServer } from './language-answer';
import { plain } from './plain-range';

function sectionOf(c: vscode.MarkdownString | vscode.MarkedString): HoverSection | undefined {
  if (typeof c === 'string') return c ? { kind: 'markdown', value: c } : undefined;
  if (c instanceof vscode.MarkdownString || !('language' in c))
    return c.value ? { kind: 'markdown', value: c.value } : undefined;
  return { kind: 'markdown', value: fencedCode(c.language, c.value) };
}

export const vscodeHover: NonNullable<LanguageFeatures['hover']> = async (path, at, signal) => {
  const doc = await openDocument(path);
  const position = new vscode.Position(at.line, at.character);
  const { answer: hovers, why } = await askLanguageServer(
    doc,
    () => vscode.commands.executeCommand<vscode.Hover[] | undefined>('vscode.executeHoverProvider', doc.uri, position),
    (r) => Array.isArray(r) && r.some((h) => h.contents.length > 0),
    signal,
  );
  const contents: HoverSection[] = [];
  let range: Range | undefined;
  for (const h of hovers ?? []) {
    for (const c of h.contents) {
      const s = sectionOf(c);
      if (s) contents.push(s);
    }
    if (h.range) range ??= plain(h.range);
  }
  if (contents.length === 0) {
    const unavailable = await why();
    if (unavailable) return unavailable;
  }
  return range ? { contents, range } : { contents };
};
