// /app/vscode/localhistory/list — VS Code's local history of the file, newest first; none = [].
import { formatUtcLabel } from '../local-history';
import type { Handlers } from '../protocol';
import { resolvePath, type Services } from '../services';

export function localhistoryList(svc: Services): Handlers['localhistoryList'] {
  return async (params) => {
    const { path } = resolvePath(svc, params.filePath);
    const entries = svc.localHistory.list(path).map((e) => ({
      id: e.id,
      timestamp: e.timestamp,
      timestampLabel: formatUtcLabel(e.timestamp),
      ...(e.source ? { source: e.source } : {}),
    }));
    return { entries, totalCount: entries.length };
  };
}
