// /app/vscode/nav/hover — what VS Code's hover shows at a position: every provider's sections in order
// (markdown; a MarkedString code block becomes a fenced block in its language) and the first range given.
import * as vscode from 'vscode';
import { hasNoLanguageServer, untilAnswered } from '../language-server';
import type { Handlers, NavHoverResult } from '../protocol';
import type { Services } from '../services';
import { semanticServerReady } from '../ts-server';
import { documentAt, wireRange } from './position';

type Section = NavHoverResult['contents'][number];

/** A fence longer than any run of backticks in the code, so the block cannot be closed early. */
function fenced(language: string, code: string): string {
  const longest = Math.max(2, ...[...code.matchAll(/`+/g)].map((m) => m[0].length));
  const fence = '`'.repeat(longest + 1);
  return `${fence}${language.replace(/[^\w+#.-]/g, '')}\n${code}\n${fence}`;
}

function sectionOf(c: vscode.MarkdownString | vscode.MarkedString): Section | undefined {
  if (typeof c === 'string') return c ? { kind: 'markdown', value: c } : undefined;
  if (c instanceof vscode.MarkdownString || !('language' in c))
    return c.value ? { kind: 'markdown', value: c.value } : undefined;
  return { kind: 'markdown', value: fenced(c.language, c.value) };
}

export function navHover(svc: Services): Handlers['navHover'] {
  return async (params, ctx) => {
    const { doc, uri, position } = await documentAt(svc, params.filePath, params.line, params.character);
    await semanticServerReady(doc, ctx.signal);
    const call = () =>
      vscode.commands.executeCommand<vscode.Hover[] | undefined>('vscode.executeHoverProvider', uri, position);
    const hovers = hasNoLanguageServer(doc)
      ? await call()
      : await untilAnswered(call, (r) => Array.isArray(r) && r.some((h) => h.contents.length > 0), uri, ctx.signal);
    const contents: Section[] = [];
    let range: vscode.Range | undefined;
    for (const h of hovers ?? []) {
      for (const c of h.contents) {
        const s = sectionOf(c);
        if (s) contents.push(s);
      }
      range ??= h.range;
    }
    return range ? { contents, range: wireRange(range) } : { contents };
  };
}
