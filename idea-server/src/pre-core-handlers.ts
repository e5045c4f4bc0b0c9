// TODO(merge i-core): delete this file. Until branch i-core lands, idea-server answers the four
// language topics straight from its LSP client so that it serves something end to end; after the merge
// `createCoreHandlers(host)` (server-core/handlers) answers all 13 topics, these four included, through
// the LanguageFeatures of lsp-features.ts, with the core's path rules (server-core/path-guard.ts) in
// place of the minimal confinement below.
import { realpathSync } from 'node:fs';
import { basename, dirname, isAbsolute, join, relative, resolve, sep } from 'node:path';
import { type Handlers, ProtocolError } from '../../generated/current';
import type { LspClient } from './lsp/client';
import { LspPositionError, LspUnavailableError } from './lsp/errors';

/** realpath of `p`, else of its nearest existing ancestor with the rest appended. */
function realish(p: string): string {
  try {
    return realpathSync.native(p);
  } catch {
    const parent = dirname(p);
    return parent === p ? p : join(realish(parent), basename(p));
  }
}

/** `filePath` absolute (or relative to the workspace), its real path inside the workspace's; else INVALID_REQUEST. */
function confine(workspace: string, filePath: string): string {
  const abs = isAbsolute(filePath) ? resolve(filePath) : resolve(workspace, filePath);
  const rel = relative(realish(workspace), realish(abs));
  if (rel === '' || rel === '..' || rel.startsWith(`..${sep}`) || isAbsolute(rel))
    throw new ProtocolError('INVALID_REQUEST', `filePath is outside the workspace: ${filePath}`);
  return abs;
}

export function preCoreHandlers(workspace: string, client: LspClient, log: (m: string) => void): Partial<Handlers> {
  /**
   * The client's errors as the core treats them: a position outside the file is the request's
   * fault (INVALID_REQUEST); a file that cannot be opened fails the operation (HANDLER_ERROR, as the
   * extension answers); no language server for the file is an empty answer and a log line (host.ts:
   * `Unavailable`), as VS Code answers where no provider is registered; the rest is HANDLER_ERROR.
   */
  async function mapped<T>(call: () => Promise<T>, empty: T): Promise<T> {
    try {
      return await call();
    } catch (e) {
      if (e instanceof LspPositionError) throw new ProtocolError('INVALID_REQUEST', e.message);
      if (e instanceof LspUnavailableError) {
        log(e.message);
        return empty;
      }
      throw e;
    }
  }
  const noLocations = { locations: [] };
  const noSymbols = { symbols: [], totalCount: 0 };
  const noDiagnostics = { diagnostics: [], totalCount: 0 };
  return {
    navDefinition: (p, ctx) =>
      mapped(
        () => client.definition(confine(workspace, p.filePath), p.line, p.character, { signal: ctx.signal }),
        noLocations,
      ),
    navReferences: (p, ctx) =>
      mapped(
        () =>
          client.references(confine(workspace, p.filePath), p.line, p.character, p.includeDeclaration, {
            signal: ctx.signal,
          }),
        { ...noLocations, totalCount: 0 },
      ),
    navSymbols: (p, ctx) =>
      mapped(() => client.symbols(confine(workspace, p.filePath), p.query, { signal: ctx.signal }), noSymbols),
    diagList: (p, ctx) =>
      mapped(async () => {
        if (p.filePath === undefined) return client.knownDiagnostics(p.severity);
        const paths = (Array.isArray(p.filePath) ? p.filePath : [p.filePath]).map((f) => confine(workspace, f));
        return client.diagnostics(paths, p.severity, { signal: ctx.signal });
      }, noDiagnostics),
  };
}
