// /app/vscode/nav/definition — the definition provider's answer, each with the full declaration text:
// a LocationLink's targetRange when the provider gives one (TypeScript does), else the innermost
// document symbol around the location, else the location's own range.
import * as vscode from 'vscode';
import { innermostContaining, type TreeSymbol } from '../../../server-core/symbols';
import { openDocument } from '../documents';
import { hasNoLanguageServer, untilAnswered } from '../language-server';
import type { Handlers } from '../protocol';
import type { Services } from '../services';
import { semanticServerReady } from '../ts-server';
import { documentAt, wireRange } from './position';

type Def = vscode.Location | vscode.LocationLink;

export function navDefinition(svc: Services): Handlers['navDefinition'] {
  return async (params, ctx) => {
    const { doc, uri, position } = await documentAt(svc, params.filePath, params.line, params.character);
    await semanticServerReady(doc, ctx.signal);
    const call = () =>
      vscode.commands.executeCommand<Def[] | undefined>('vscode.executeDefinitionProvider', uri, position);
    const defs = hasNoLanguageServer(doc)
      ? await call()
      : await untilAnswered(call, (r) => Array.isArray(r) && r.length > 0, uri, ctx.signal);
    const locations = [];
    for (const d of defs ?? []) {
      const target = 'targetUri' in d ? d.targetUri : d.uri;
      if (target.scheme !== 'file') continue;
      const targetDoc = await openDocument(target.fsPath);
      let range: vscode.Range;
      if ('targetUri' in d) range = d.targetRange;
      else {
        // The server just answered for this position, so one symbol query (no retries) suffices.
        const answer =
          (await vscode.commands.executeCommand<unknown[] | undefined>(
            'vscode.executeDocumentSymbolProvider',
            target,
          )) ?? [];
        const syms = answer.filter(
          (s): s is vscode.DocumentSymbol => typeof s === 'object' && s !== null && 'selectionRange' in s,
        );
        const around = innermostContaining(syms as unknown as TreeSymbol[], d.range.start) as unknown as
          | vscode.DocumentSymbol
          | undefined;
        range = around ? around.range : d.range;
      }
      locations.push({ filePath: target.fsPath, ...wireRange(range), code: targetDoc.getText(range) });
    }
    return { locations };
  };
}
