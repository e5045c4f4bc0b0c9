// LanguageFeatures.workspaceSymbols over VS Code's workspace symbol providers (every provider at once,
// vscode.executeWorkspaceSymbolProvider); only file:// symbols with a range. The core loads every
// project first (projects.ts), so VS Code's TypeScript provider, which searches the projects tsserver has
// loaded, searches them all.
import * as vscode from 'vscode';
import type { LanguageFeatures, WorkspaceSymbolAnswer, WorkspaceSymbolList } from '../../server-core/host';
import { LANGUAGE_TIMEOUT_MS } from './language-server';
import { plain } from './plain-range';
import { withTimeout } from './with-timeout';

/** Files VS Code's TypeScript provider answers for. */
const TS_FILE = /\.(?:[cm]?[jt]s|[jt]sx)$/i;

/**
 * VS Code's TypeScript provider asks tsserver for this many symbols per project and lists no more
 * (`maxResultCount` in its navto request): that many symbols from TS/JS files may mean some were cut.
 */
export const TS_PROVIDER_LIMIT = 256;

/**
 * Bound on the providers' answer: a provider waiting on a server that died may never answer, and a
 * search of every loaded project takes longer than one document's request.
 */
const SEARCH_TIMEOUT_MS = 3 * LANGUAGE_TIMEOUT_MS;

/** The provider's label is the name, but VS Code's TypeScript provider writes functions and methods `name()`. */
function nameOf(s: vscode.SymbolInformation): string {
  const callable = s.kind === vscode.SymbolKind.Function || s.kind === vscode.SymbolKind.Method;
  return callable && s.name.endsWith('()') && TS_FILE.test(s.location.uri.fsPath) ? s.name.slice(0, -2) : s.name;
}

export const vscodeWorkspaceSymbols: NonNullable<LanguageFeatures['workspaceSymbols']> = async (query, signal) => {
  // tsserver matches a query that has capitals only at word starts (`Shape` misses `reshaped`), an
  // all-lowercase one as a substring anywhere: the lowercase query finds every name containing it.
  const raw =
    (await withTimeout(
      vscode.commands.executeCommand<vscode.SymbolInformation[] | undefined>(
        'vscode.executeWorkspaceSymbolProvider',
        query.toLowerCase(),
      ),
      SEARCH_TIMEOUT_MS,
      'the workspace symbol providers',
    )) ?? [];
  signal.throwIfAborted();
  // When VS Code's TypeScript provider may have cut its list (TS_PROVIDER_LIMIT), `limitedBy` says so.
  const symbols: WorkspaceSymbolList = [];
  let fromTs = 0;
  for (const s of raw) {
    const { uri, range } = s.location ?? {};
    if (uri?.scheme !== 'file' || !range) continue;
    if (TS_FILE.test(uri.fsPath)) fromTs++;
    const answer: WorkspaceSymbolAnswer = { name: nameOf(s), kind: s.kind, filePath: uri.fsPath, range: plain(range) };
    if (s.containerName) answer.containerName = s.containerName;
    symbols.push(answer);
  }
  if (fromTs >= TS_PROVIDER_LIMIT)
    symbols.limitedBy = `VS Code's TypeScript provider lists at most ${TS_PROVIDER_LIMIT} symbols of a project, and listed ${fromTs}: some matches may be missing; a longer query finds fewer`;
  if (symbols.length === 0 && !anyLanguageServerRunning())
    return {
      kind: 'none',
      unavailable:
        'no language server runs in this window to search the workspace (one starts when a file of its language opens)',
    };
  return symbols;
};

/** Whether some extension serving a language (activating on one) runs: a workspace symbol provider may then answer. */
function anyLanguageServerRunning(): boolean {
  return vscode.extensions.all.some((e) => {
    const events = (e.packageJSON as { activationEvents?: unknown }).activationEvents;
    return e.isActive && Array.isArray(events) && events.some((a) => String(a).startsWith('onLanguage:'));
  });
}
