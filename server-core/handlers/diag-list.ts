// /app/vscode/diag/list — with filePath: open each file so its language server analyses it and wait
// until its diagnostics settle; without: every diagnostic VS Code already has for files.
import * as vscode from 'vscode';
import {
  type RawDiagnostic,
  severityFilter,
  toWireDiagnostic,
  type WireDiagnostic,
} from '../../../server-core/diagnostics';
import type { DiagnosticsTracker } from '../diagnostics-wait';
import { openDocument, openDocumentOf, showInTab } from '../documents';
import { hasNoLanguageServer, languageServerReady } from '../language-server';
import type { DiagListResult, Handlers } from '../protocol';
import { resolvePath, type Services } from '../services';
import { tsDiagnosticsCount } from '../ts-server';

/** Most diagnostics returned; totalCount still counts them all (truncated when diagnostics.length < totalCount). */
export const MAX_DIAGNOSTICS = 10_000;

export function diagList(svc: Services, tracker: DiagnosticsTracker): Handlers['diagList'] {
  return async (params, ctx) => {
    const keep = severityFilter(params.severity);
    let out: WireDiagnostic[] = [];
    if (params.filePath === undefined) {
      for (const [uri, list] of vscode.languages.getDiagnostics()) {
        if (uri.scheme !== 'file') continue;
        for (const d of list) out.push(toWireDiagnostic(uri.fsPath, d as RawDiagnostic));
      }
    } else {
      const paths = Array.isArray(params.filePath) ? params.filePath : [params.filePath];
      const resolved = paths.map((p) => resolvePath(svc, p).path);
      const perFile = await Promise.all(
        [...new Set(resolved)].map(async (path) => {
          const wasOpen = openDocumentOf(path) !== undefined;
          const openedAt = Date.now();
          const doc = await openDocument(path);
          await showInTab(doc);
          if (!hasNoLanguageServer(doc)) {
            // A TS file that tsserver finds clean and that shows no TS diagnostics yet gets no event: done.
            const tsCount = await tsDiagnosticsCount(doc, ctx.signal);
            const shownTs = vscode.languages.getDiagnostics(doc.uri).some((d) => d.source === 'ts');
            if (!(tsCount === 0 && !shownTs)) {
              await tracker.settled(
                doc.uri,
                wasOpen ? 0 : openedAt,
                languageServerReady(doc.uri, ctx.signal),
                ctx.signal,
              );
            }
          }
          return vscode.languages.getDiagnostics(doc.uri).map((d) => toWireDiagnostic(path, d as RawDiagnostic));
        }),
      );
      out = perFile.flat();
    }
    out = out
      .filter(keep)
      .sort((a, b) =>
        a.filePath < b.filePath ? -1 : a.filePath > b.filePath ? 1 : a.line - b.line || a.character - b.character,
      );
    return { diagnostics: out.slice(0, MAX_DIAGNOSTICS) as DiagListResult['diagnostics'], totalCount: out.length };
  };
}
