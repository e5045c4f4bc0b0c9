// /app/vscode/localhistory/list — VS Code's local history of the file, newest first; none = [].

import { type CoreContext, resolvePath } from '../context';
import { formatUtcLabel } from '../local-history';
import type { Handlers } from '../protocol';

export function localhistoryList(svc: CoreContext): Handlers['localhistoryList'] {
  return async (params) => {
    const { path } = resolvePath(svc, params.filePath);
    const entries = svc.history.list(path).map((e) => ({
      id: e.id,
      timestamp: e.timestamp,
      timestampLabel: formatUtcLabel(e.timestamp),
      ...(e.source ? { source: e.source } : {}),
    }));
    return { entries, totalCount: entries.length };
  };
}
