// What every core handler is given: the host's interfaces (host.ts) plus the core's own services built
// on them once (the local-history reader/writer), so handlers stay small and the wiring lives here.
import type { CoreHost } from './host';
import { LocalHistory } from './local-history';
import { type ResolvedPath, resolveWorkspacePath } from './path-guard';

export interface CoreContext extends CoreHost {
  /** VS Code's on-disk local history under `localHistory.home`. */
  history: LocalHistory;
}

export function coreContext(host: CoreHost): CoreContext {
  return { ...host, history: new LocalHistory(host.localHistory.home) };
}

/** Resolves a client filePath against the current workspace folders (INVALID_REQUEST when outside). */
export function resolvePath(core: CoreContext, filePath: string): ResolvedPath {
  return resolveWorkspacePath(filePath, core.folders.paths());
}

/** The ripgrep binary, or null: the search then walks and matches in JavaScript (search/file-walk.ts). */
export function ripgrepOf(core: CoreContext): string | null {
  return core.tools.ripgrep;
}
