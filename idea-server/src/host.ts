// idea-server's side of server-core: the CoreHost the core's handlers run on, without an editor.
// - folders: the one --workspace folder; its search rules from its .vscode/settings.json, read at every
//   call (a few kB, bounded), so an edited settings file counts from the next request;
// - documents: none are open, none dirty (nothing to refuse, nothing to wait for after a write);
// - language features: language servers over LSP (lsp-features.ts);
// - local history: VS Code's format in a per-user folder (history.ts);
// - limits: the defaults (the extension reads them from machine-scoped user settings, which a headless
//   server has none of; a workspace file must never raise them, so it is not asked);
// - tools: the ripgrep chosen in ripgrep.ts, a per-workspace state folder for the write journal.

import type { CoreHost, LanguageFeatures, OpenDocuments, WorkspaceFolders } from '../../server-core/host';
import { historyStore } from './history';
import { readWorkspaceSettings } from './settings';

export interface HostOptions {
  /** Absolute, real path of the workspace folder. */
  workspace: string;
  language: LanguageFeatures;
  historyDir: string;
  ripgrep: string | null;
  stateDir: string;
  log(message: string): void;
}

/** No editor: no open documents, none dirty. */
export const NO_DOCUMENTS: OpenDocuments = {
  dirty: () => [],
  isDirty: () => false,
  text: () => undefined,
};

export function workspaceFolders(workspace: string): WorkspaceFolders {
  return {
    paths: () => [workspace],
    searchSettings: (folder) => {
      const s = readWorkspaceSettings(folder);
      return { filesExclude: s.filesExclude, searchExclude: s.searchExclude, useIgnoreFiles: s.useIgnoreFiles };
    },
  };
}

export function createHost(o: HostOptions): CoreHost {
  return {
    folders: workspaceFolders(o.workspace),
    documents: NO_DOCUMENTS,
    language: o.language,
    localHistory: historyStore(o.historyDir, () => readWorkspaceSettings(o.workspace).localHistory),
    limits: { values: () => ({}) },
    tools: { ripgrep: o.ripgrep, stateDir: o.stateDir, log: o.log },
  };
}
