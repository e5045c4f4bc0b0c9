// The extension as a server-core host (server-core/host.ts): workspace folders and their search
// settings, local-history settings and the other interfaces, each over VS Code's APIs.
import * as vscode from 'vscode';
import { Coverage } from '../../server-core/events/coverage';
import { EventScope } from '../../server-core/events/scope';
import type { CoreHost, LocalHistoryStore, WorkspaceFolders } from '../../server-core/host';
import { historyHomeFromGlobalStorage } from '../../server-core/local-history';
import { ripgrepPath } from '../../server-core/search/ripgrep';
import type { DiagnosticsTracker } from './diagnostics-wait';
import { vscodeCoverage, vscodeDocuments, watchCoverTabs } from './documents';
import { vscodeEditor } from './editor';
import { vscodeLanguageFeatures } from './language-features';
import { vscodeLimitSettings } from './limits/settings';

/** Absolute paths of the open file:// workspace folders, in order. */
export function workspaceFolderPaths(): string[] {
  return (vscode.workspace.workspaceFolders ?? []).filter((f) => f.uri.scheme === 'file').map((f) => f.uri.fsPath);
}

const folders: WorkspaceFolders = {
  paths: workspaceFolderPaths,
  // Read per folder so folder-level settings apply.
  searchSettings(folder) {
    const uri = vscode.Uri.file(folder);
    const search = vscode.workspace.getConfiguration('search', uri);
    return {
      filesExclude: vscode.workspace.getConfiguration('files', uri).get('exclude'),
      searchExclude: search.get('exclude'),
      useIgnoreFiles: search.get<boolean>('useIgnoreFiles', true),
    };
  },
};

/** VS Code's own local history (any profile), recording saves as VS Code's settings say. */
function localHistoryStore(globalStoragePath: string): LocalHistoryStore {
  return {
    home: historyHomeFromGlobalStorage(globalStoragePath),
    recordsSave(path, size) {
      const cfg = vscode.workspace.getConfiguration('workbench.localHistory', vscode.Uri.file(path));
      return cfg.get<boolean>('enabled', true) && size <= cfg.get<number>('maxFileSize', 256) * 1024;
    },
  };
}

export function vscodeHost(
  context: vscode.ExtensionContext,
  tracker: DiagnosticsTracker,
  log: (m: string) => void,
): CoreHost {
  // What diagnostics/changed covers beyond open editors (documents.ts has how VS Code opens them).
  const scope = new EventScope(folders);
  const coverage = new Coverage((p) => scope.reportable(p), vscodeCoverage, log);
  context.subscriptions.push({ dispose: () => coverage.dispose() }, watchCoverTabs());
  return {
    folders,
    documents: vscodeDocuments,
    language: vscodeLanguageFeatures(tracker),
    localHistory: localHistoryStore(context.globalStorageUri.fsPath),
    limits: vscodeLimitSettings,
    // VS Code's bundled ripgrep, else `rg` in PATH's absolute folders (runtime/programs.ts), else
    // the JavaScript search; the write journal in the extension's own storage.
    tools: { ripgrep: ripgrepPath(vscode.env.appRoot), stateDir: context.globalStorageUri.fsPath, log },
    editor: vscodeEditor,
    coverage,
  };
}
