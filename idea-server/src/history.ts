// Where idea-server keeps local history: VS Code's on-disk format (`<home>/<hash>/entries.json` plus
// one file per entry, written by server-core's local-history.ts) in a per-user folder,
// ~/.idea-protocol/history unless --history-dir says otherwise. It holds copies of workspace files, so
// it is created 0700 and must be ours (as the registry folder). VS Code reads such a folder as its
// own `<user-data>/User/History`: pointing --history-dir there shares one history with the editor.
import { homedir } from 'node:os';
import { join } from 'node:path';
import { ensureRegistryDir } from '../../runtime/registry';
import type { LocalHistoryStore } from '../../server-core/host';

export function defaultHistoryDir(home = homedir()): string {
  return join(home, '.idea-protocol', 'history');
}

/** Creates `dir` 0700 (a looser one of ours is tightened); throws when it is someone else's or not a folder. */
export function ensurePrivateDir(dir: string): string {
  // The registry's rule for its folder is exactly this one: reuse it rather than restate it.
  return ensureRegistryDir(dir);
}

/**
 * The store over `home`. Saves are recorded as VS Code does by default: when local history is enabled
 * and the file is at most `workbench.localHistory.maxFileSize` KB (both from the workspace's settings).
 */
export function historyStore(
  home: string,
  settings: () => { enabled: boolean; maxFileSizeKb: number },
): LocalHistoryStore {
  return {
    home,
    recordsSave: (_path, size) => {
      const s = settings();
      return s.enabled && size <= s.maxFileSizeKb * 1024;
    },
  };
}
