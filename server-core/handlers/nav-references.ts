// /app/vscode/nav/references — the reference provider's answer. VS Code's command always includes the
// declaration; includeDeclaration=false drops the locations the definition provider names.
import * as vscode from 'vscode';
import { hasNoLanguageServer, untilAnswered } from '../language-server';
import type { Handlers } from '../protocol';
import type { Services } from '../services';
import { semanticServerReady } from '../ts-server';
import { documentAt, wireRange } from './position';

/** Most locations returned; totalCount still counts them all (truncated when locations.length < totalCount). */
export const MAX_REFERENCES = 10_000;

export function navReferences(svc: Services): Handlers['navReferences'] {
  return async (params, ctx) => {
    const { doc, uri, position } = await documentAt(svc, params.filePath, params.line, params.character);
    await semanticServerReady(doc, ctx.signal);
    const call = () =>
      vscode.commands.executeCommand<vscode.Location[] | undefined>('vscode.executeReferenceProvider', uri, position);
    let refs =
      (hasNoLanguageServer(doc)
        ? await call()
        : await untilAnswered(call, (r) => Array.isArray(r) && r.length > 0, uri, ctx.signal)) ?? [];
    if (!params.includeDeclaration) {
      const defs =
        (await vscode.commands.executeCommand<(vscode.Location | vscode.LocationLink)[] | undefined>(
          'vscode.executeDefinitionProvider',
          uri,
          position,
        )) ?? [];
      const isDecl = (l: vscode.Location) =>
        defs.some((d) => {
          const u = 'targetUri' in d ? d.targetUri : d.uri;
          const r = 'targetUri' in d ? (d.targetSelectionRange ?? d.targetRange) : d.range;
          return u.toString() === l.uri.toString() && r.intersection(l.range) !== undefined;
        });
      refs = refs.filter((l) => !isDecl(l));
    }
    const locations = refs
      .filter((l) => l.uri.scheme === 'file')
      .map((l) => ({ filePath: l.uri.fsPath, ...wireRange(l.range) }))
      .sort((a, b) =>
        a.filePath < b.filePath ? -1 : a.filePath > b.filePath ? 1 : a.line - b.line || a.character - b.character,
      );
    return { locations: locations.slice(0, MAX_REFERENCES), totalCount: locations.length };
  };
}
